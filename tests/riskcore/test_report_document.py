"""The report document: its numbers are riskcore's, it leaks no identifier, it escapes names."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pandas as pd
import pytest

from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import default_hierarchy, interval_hierarchy
from riskcore.deidentify.recipe import Recipe, apply_recipe
from riskcore.demo import make_people
from riskcore.errors import RiskcoreError
from riskcore.metrics import Population, assess
from riskcore.report.document import build_report, load_profile, render_html

PROFILE = {
    "identifiers": ["name", "ssn"],
    "quasi_identifiers": ["age", "sex", "race"],
    "sensitive": ["diagnosis"],
    "targets": {"k": 5, "l": 2, "t": 0.5, "threshold": 0.2},
    "sampling_fraction": 0.1,
}


@pytest.fixture(scope="module")
def people() -> pd.DataFrame:
    return make_people(2000)


@pytest.fixture(scope="module")
def report(people):
    return build_report(people, PROFILE, name="demo:2000")


@pytest.fixture(scope="module")
def page(report) -> str:
    return render_html(report)


class _Urls(HTMLParser):
    """Collect every src / href attribute and every CSS url( ... ) of a document."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self._style = False

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href", "action", "poster", "data") and value is not None:
                self.urls.append(value)
            if name == "style" and value:
                self.urls += re.findall(r"url\(\s*['\"]?([^'\")]*)", value)
        self._style = tag == "style"

    def handle_endtag(self, tag):
        self._style = False

    def handle_data(self, data):
        if self._style:
            self.urls += re.findall(r"url\(\s*['\"]?([^'\")]*)", data)


def urls_of(text: str) -> list[str]:
    parser = _Urls()
    parser.feed(text)
    return parser.urls


def test_the_json_twin_holds_the_numbers_of_assess(people, report):
    expected = assess(
        people,
        quasi_identifiers=["age", "sex", "race"],
        sensitive=["diagnosis"],
        threshold=0.2,
        population=Population(sampling_fraction=0.1),
    )
    twin = json.loads(report.to_json())
    assert twin["assessment"] == json.loads(json.dumps(expected.to_dict()))
    assert twin["schema"] == "riskcore-report/1"
    assert twin["dataset"]["rows"] == 2000
    assert twin["dataset"]["missing"] == int(people.isna().sum().sum())
    assert twin["assessment"]["journalist"] is not None  # a sampling fraction was given


def test_no_direct_identifier_appears_in_the_html_or_the_json(people, report, page):
    twin = report.to_json()
    for column in ("name", "ssn"):
        for value in people[column].dropna().astype(str).unique():
            assert value not in page, (column, value)
            assert value not in twin, (column, value)


def test_the_html_names_no_other_host(page):
    urls = urls_of(page)
    assert not [u for u in urls if re.match(r"(?i)\s*(https?:)?//", u)], urls
    assert page.count("<script") - page.count("<script>") >= 1
    # plotly.js is embedded exactly once
    assert page.count("Plotly v") <= 2 and len(page) > 3_000_000


def test_the_url_collector_finds_what_it_must():
    found = urls_of(
        '<img src="http://a.example/x.png"><a href="https://b.example">b</a>'
        '<style>p{background:url("http://c.example/c.png")}</style>'
        '<div style="background:url(//d.example/d.png)"></div>'
    )
    assert found == [
        "http://a.example/x.png",
        "https://b.example",
        "http://c.example/c.png",
        "//d.example/d.png",
    ]


def test_hostile_column_names_are_escaped(people):
    script = "<script>alert(1)</script>"
    image = "![x](http://127.0.0.9/p.png)"
    df = people.rename(columns={"sex": script, "diagnosis": image})
    profile = {
        **PROFILE,
        "quasi_identifiers": ["age", script, "race"],
        "sensitive": [image],
    }
    r = build_report(df, profile, name='<img src="http://127.0.0.9/n.png">.csv')
    text = render_html(r, figures=False)
    assert script not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert '<img src="http://127.0.0.9' not in text
    assert not [u for u in urls_of(text) if "127.0.0.9" in u]
    # the file name is quoted in the reproducing command
    assert r.command.startswith("python -m riskcore report '<img src=")


def test_verdict_against_a_hand_worked_table():
    # classes a {x, y} and b {x, y, z}: k = 2, highest prosecutor risk 1/2; entropy l =
    # exp(min(ln 2, ln 3)) = 2, recursive (2,2) holds (1 < 2 * 1), distinct l = 2
    df = pd.DataFrame({"q": ["a", "a", "b", "b", "b"], "s": ["x", "y", "x", "y", "z"]})
    base = {"quasi_identifiers": ["q"], "sensitive": ["s"]}
    ok = build_report(df, {**base, "targets": {"k": 2, "l": 2, "threshold": 0.5}})
    assert ok.verdict["pass"] is True
    assert ok.verdict["highest_risk"] == 0.5
    bad = build_report(df, {**base, "targets": {"k": 3, "threshold": 0.5}})
    assert bad.verdict["pass"] is False
    assert "k-anonymity" in bad.verdict["reason"]
    risky = build_report(df, {**base, "targets": {"threshold": 0.4}})
    # the 2 records of class a have risk 1/2 > 0.4
    assert risky.verdict["records_at_risk"] == pytest.approx(2 / 5)
    assert risky.verdict["pass"] is False


def test_a_recipe_is_reported_before_and_after(people):
    hierarchies = {
        "age": interval_hierarchy(people["age"], [10, 20]),
        "sex": default_hierarchy(people["sex"]),
    }
    recipe = Recipe.of(
        hierarchies, {"age": 1, "sex": 0}, Targets.of(k=5, max_suppression=0.05)
    ).to_dict()
    profile = {"quasi_identifiers": ["age", "sex"], "recipe": recipe, "targets": {"k": 5}}
    try:
        r = build_report(people, profile)
    except RiskcoreError as exc:  # the recipe format is what apply_recipe reads
        pytest.fail(str(exc))
    applied = apply_recipe(people, recipe)
    after = assess(applied.data, quasi_identifiers=["age", "sex"], threshold=0.09)
    assert r.after is not None
    assert r.after.to_dict() == after.to_dict()
    assert r.remediation["suppressed"] == applied.suppressed
    assert r.remediation["records_after"] == len(applied.data)
    text = render_html(r, figures=False)
    assert "Remediation" in text and "after" in text


def test_the_budget_spent_adds_the_ledger_up():
    df = pd.DataFrame({"q": ["a", "a", "b", "b"]})
    ledger = {
        "epsilon_budget": 2.0,
        "entries": [
            {"query": "count", "mechanism": "laplace", "epsilon": 0.5},
            {"query": "mean", "mechanism": "laplace", "epsilon": 0.25},
        ],
    }
    r = build_report(df, {"quasi_identifiers": ["q"], "ledger": ledger})
    assert r.privacy_budget is not None
    assert r.privacy_budget["epsilon_spent"] == pytest.approx(0.75)
    assert r.privacy_budget["epsilon_remaining"] == pytest.approx(1.25)


@pytest.mark.parametrize(
    ("profile", "message"),
    [
        ("{", "^the profile is not valid JSON"),
        ({"quasi_identifiers": ["q"], "colour": 1}, "^the profile has an unknown key 'colour'"),
        ({"quasi_identifiers": ["q"], "targets": {"k": 0}}, "^target k must be at least 1"),
        ({"quasi_identifiers": ["q"], "targets": {"t": 2}}, r"^target t must lie in \[0, 1\]"),
        ({"quasi_identifiers": ["q"], "targets": {"m": 2}}, "^unknown target 'm'"),
        ({"quasi_identifiers": ["q"], "sampling_fraction": 0}, r"^sampling_fraction must be"),
    ],
)
def test_bad_profiles_are_refused_with_a_message(profile, message):
    with pytest.raises(RiskcoreError, match=message):
        load_profile(profile)


def test_a_profile_naming_an_absent_column_is_refused():
    with pytest.raises(RiskcoreError, match="'zip' is not in the table"):
        build_report(pd.DataFrame({"q": [1]}), {"quasi_identifiers": ["zip"]})


def test_the_fingerprint_is_the_sha256_given_or_of_the_csv():
    import hashlib

    df = pd.DataFrame({"q": ["a", "b"]})
    r = build_report(df, {"quasi_identifiers": ["q"]})
    assert r.dataset["sha256"] == hashlib.sha256(b"q\na\nb\n").hexdigest()
    given = build_report(df, {"quasi_identifiers": ["q"]}, sha256="ab" * 32)
    assert given.dataset["sha256"] == "ab" * 32


def test_the_special_uniques_are_suda_s(people, report):
    from riskcore.metrics import suda

    expected = suda(people, ["age", "sex", "race"], dis_fraction=0.1)
    assert report.special_uniques == json.loads(json.dumps(expected.to_dict()))
    assert "special uniques" in render_html(report, figures=False)


def test_the_attacks_are_reported_with_their_intervals():
    # classes a {x, x}, b {x, y, z}, c {y}: unique on q is only c's record (1 of 6);
    # everyone's own record is among their matches, so a random pick is right
    # 1/f_j for each record: (2 * 1/2 + 3 * 1/3 + 1) / 6 = 3/6 = J / n.
    # homogeneous classes: a (2 people, all x) and c (1 person, all y) = 3 people.
    from scipy.stats import binomtest

    df = pd.DataFrame(
        {
            "n": ["p1", "p2", "p3", "p4", "p5", "p6"],
            "q": ["a", "a", "b", "b", "b", "c"],
            "s": ["x", "x", "x", "y", "z", "y"],
        }
    )
    profile = {"identifiers": ["n"], "quasi_identifiers": ["q"], "sensitive": ["s"]}
    r = build_report(df, profile)
    att = r.to_dict()["attacks"]
    link = att["linkage"]["result"]
    assert link["n_targets"] == 6
    assert (link["unique"]["successes"], link["correct"]["successes"]) == (1, 1)
    wilson = binomtest(1, 6).proportion_ci(confidence_level=0.95, method="wilson")
    assert link["unique"]["ci95"] == pytest.approx([wilson.low, wilson.high], abs=1e-4)
    assert link["expected_correct"] == pytest.approx(3 / 6)
    (homo,) = att["homogeneity"]
    assert (homo["exposed_classes"], homo["exposed_records"]) == (2, 3)
    # s learned with confidence >= 0.9: the 3 people of a and c (b's majority is 1/3)
    (disc,) = link["attributes"]
    assert disc["confident"]["successes"] == 3
    assert {x["attack"] for x in att["not_run"]} == {"differencing", "two releases"}
    text = render_html(r, figures=False)
    assert "Attacks on the table as given" in text
    lo, hi = (f"{100 * v:.2f}%" for v in (wilson.low, wilson.high))
    assert f"{lo} to {hi}" in text
    assert "p1" not in text  # the attacker's table never reaches the report


def test_the_attacks_after_a_recipe_are_on_the_remediated_table(people):
    hierarchies = {"age": interval_hierarchy(people["age"], [10, 20])}
    recipe = Recipe.of(hierarchies, {"age": 2}, Targets.of(k=1, max_suppression=0.0)).to_dict()
    r = build_report(people, {"quasi_identifiers": ["age"], "recipe": recipe})
    before = people.groupby("age", observed=True).size()
    assert r.attacks["linkage"]["result"]["unique"]["successes"] == int((before == 1).sum())
    assert r.attacks_after is not None and r.attacks_after["of"] == "the remediated table"
    applied = apply_recipe(people, recipe).data
    after = applied.groupby("age", observed=True).size()
    assert r.attacks_after["linkage"]["result"]["unique"]["successes"] == int((after == 1).sum())
