"""The report document: its numbers are riskcore's, it leaks no identifier, it escapes names.

A report is a :class:`riskcore.review.Review` of a table under a
:class:`riskcore.profile.Profile`, rendered by :mod:`riskcore.report.render`.
The profiles here are version-1 dicts (the old report's), read through
:meth:`Profile.read`: an old profile still loads.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pandas as pd
import pytest

from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import default_hierarchy, interval_hierarchy
from riskcore.deidentify.recipe.apply import apply_recipe
from riskcore.deidentify.recipe.base import Recipe
from riskcore.demo import make_people
from riskcore.errors import RiskcoreError
from riskcore.metrics import Population, assess
from riskcore.profile import Profile
from riskcore.report.render import render_html
from riskcore.review import review


def build(data, profile, **kw):
    """Review ``data`` under a profile given as a dict (any version) through the one reader."""
    return review(data, Profile.read(profile), **kw)


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
    return build(people, PROFILE, name="demo:2000")


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
        population_model=Population(sampling_fraction=0.1),
    )
    twin = json.loads(report.to_json())
    assert twin["before"] == json.loads(json.dumps(expected.to_dict()))
    assert twin["schema"] == "riskcore-report/2"
    assert twin["after"] is None and twin["verdict"]["of"] == "the table as recorded"
    assert twin["dataset"]["rows"] == 2000
    assert twin["dataset"]["missing"] == int(people.isna().sum().sum())
    assert twin["before"]["journalist"] is not None  # a sampling fraction was given
    # the verdict of the twin is the review's, every target judged (none met by the raw table)
    assert twin["verdict"]["passed"] is False and "pass" not in twin["verdict"]
    kinds = [c["kind"] for c in twin["verdict"]["checks"]]
    assert kinds == ["k-anonymity", "distinct-l-diversity", "t-closeness", "record-risk"]
    assert [c["passed"] for c in twin["verdict"]["checks"]] == [False] * 4
    # the JSON twin reads back into the same review
    from riskcore.review import Review

    assert Review.from_dict(twin).to_dict() == report.to_dict()


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
    # a file name holds no "/" (a path is shown by its last part: see the test below)
    r = build(df, profile, name='<img src="http:127.0.0.9">.csv', built_by="<b>Eve</b>")
    text = render_html(r, figures=False)
    assert script not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "<b>Eve</b>" not in text and "&lt;b&gt;Eve&lt;/b&gt;" in text
    assert '<img src="http://127.0.0.9' not in text
    assert not [u for u in urls_of(text) if "127.0.0.9" in u]
    # the file name is quoted in the reproducing command
    assert r.command.startswith("python -m riskcore report '<img src=")


def test_the_report_names_the_file_not_its_directory_and_isolates_bidi_text(people):
    # U+202E (right-to-left override) turned "...fdp.csv" into "...vsc.pdf" (issue 26)
    evil = "invoice\u202efdp.csv"
    r = build(people, PROFILE, name=f"/home/analyst/secret project/{evil}",
              profile_name="C:\\Users\\ana\\p.json", built_by="Ann\u202e")  # fmt: skip
    text = render_html(r, figures=False)
    twin = r.to_json()
    for out in (text, twin, r.command):
        assert "/home/analyst" not in out and "secret project" not in out
        assert "Users" not in out
    assert r.dataset["name"] == evil
    assert r.command.startswith(f"python -m riskcore report '{evil}' --profile p.json")
    # every U+202E printed is inside an isolate that closes it: FSI, the text, PDF, PDI
    iso = re.findall("\u2068([^\u2069]*)\u2069", text)
    assert f"{evil}\u202c" in iso
    assert "Ann\u202e\u202c" in iso
    outside = re.sub("\u2068[^\u2069]*\u2069", "", text)
    assert "\u202e" not in outside  # no override is printed bare


def test_verdict_against_a_hand_worked_table():
    # classes a {x, y} and b {x, y, z}: k = 2, highest prosecutor risk 1/2; entropy l =
    # exp(min(ln 2, ln 3)) = 2, recursive (2,2) holds (1 < 2 * 1), distinct l = 2
    df = pd.DataFrame({"q": ["a", "a", "b", "b", "b"], "s": ["x", "y", "x", "y", "z"]})
    base = {"quasi_identifiers": ["q"], "sensitive": ["s"]}
    ok = build(df, {**base, "targets": {"k": 2, "l": 2, "threshold": 0.5}})
    assert ok.verdict.passed is True
    # a record passes a threshold when its risk is at most the threshold: 1/2 meets 0.5
    by_kind = {c.kind: c for c in ok.verdict.checks}
    assert by_kind["record-risk"].achieved == 0.5 and by_kind["record-risk"].passed
    assert by_kind["distinct-l-diversity"].achieved == 2
    assert ok.before.prosecutor is not None and ok.before.prosecutor.highest_risk == 0.5
    bad = build(df, {**base, "targets": {"k": 3, "threshold": 0.5}})
    assert bad.verdict.passed is False
    (failed,) = bad.verdict.failed
    assert (failed.kind, failed.achieved, failed.failing_records) == ("k-anonymity", 2, 2)
    assert "k-anonymity 2 against 3" in render_html(bad, figures=False)
    risky = build(df, {**base, "targets": {"threshold": 0.4}})
    # the 2 records of class a have risk 1/2 > 0.4
    (failed,) = risky.verdict.failed
    assert (failed.kind, failed.failing_classes, failed.failing_records) == ("record-risk", 1, 2)
    assert risky.before.prosecutor is not None
    assert risky.before.prosecutor.records_at_risk == pytest.approx(2 / 5)
    assert risky.verdict.passed is False


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
        r = build(people, profile)
    except RiskcoreError as exc:  # the recipe format is what apply_recipe reads
        pytest.fail(str(exc))
    applied = apply_recipe(people, recipe)
    # a version-1 profile without a threshold had 0.09, which stood for k = 11: now 1/11
    after = assess(applied.data, quasi_identifiers=["age", "sex"], threshold=1 / 11)
    assert r.after is not None
    assert r.after.to_dict() == after.to_dict()
    assert r.remediation is not None
    assert r.remediation.suppressed == applied.suppressed
    assert r.remediation.records_after == len(applied.data)
    # the verdict is the remediated table's: k as the recipe left it
    assert r.of == "the remediated table" and r.verdict is r.verdict_after
    by_kind = {c.kind: c for c in r.verdict.checks}
    assert by_kind["k-anonymity"].achieved == after.k
    text = render_html(r, figures=False)
    assert "Remediation" in text and "after remediation" in text
    # level 1 of widths [10, 20] is the 10-wide bands; age is in years (its suggestion's kind)
    assert "<li>age: 10-year bands</li>" in text and "<li>sex: kept as recorded</li>" in text


def test_the_budget_spent_adds_the_ledger_up():
    df = pd.DataFrame({"q": ["a", "a", "b", "b"]})
    ledger = {
        "epsilon_budget": 2.0,
        "entries": [
            {"query": "count", "mechanism": "laplace", "epsilon": 0.5},
            {"query": "mean", "mechanism": "laplace", "epsilon": 0.25},
        ],
    }
    r = build(df, {"quasi_identifiers": ["q"], "ledger": ledger})
    assert r.privacy_budget is not None
    assert r.privacy_budget["epsilon_spent"] == pytest.approx(0.75)
    assert r.privacy_budget["epsilon_remaining"] == pytest.approx(1.25)
    text = render_html(r, figures=False)
    assert "epsilon spent 0.75 of 2 (remaining 1.25)" in text
    # entries written before units were kept protect one row
    assert text.count("one row (each row is taken to be a different person)") >= 2


def test_the_ledger_table_states_each_release_s_unit():
    df = pd.DataFrame({"q": ["a", "a", "b", "b"]})
    ledger = {
        "epsilon_budget": 2.0,
        "entries": [
            {"query": "count", "mechanism": "laplace", "epsilon": 0.5,
             "unit": {"person": "patient_id", "max_rows": 4}},
        ],
    }  # fmt: skip
    text = render_html(build(df, {"quasi_identifiers": ["q"], "ledger": ledger}), figures=False)
    assert "one person, at most 4 rows each" in text


@pytest.mark.parametrize(
    ("profile", "message"),
    [
        ("{", "^the profile is not valid JSON"),
        ("[1]", "^the profile must be a JSON object$"),
        ({"quasi_identifiers": ["q"], "colour": 1}, "^the profile has an unknown key 'colour'"),
        ({"quasi_identifiers": ["q"], "targets": {"k": 0}}, "^k must be a whole number of at "
         "least 1, not 0$"),
        ({"quasi_identifiers": ["q"], "targets": {"t": 2}}, r"^t must lie in \[0, 1\], not 2"),
        ({"quasi_identifiers": ["q"], "targets": {"m": 2}}, "^unknown target 'm'"),
        ({"quasi_identifiers": ["q"], "sampling_fraction": 0}, r"^sampling_fraction must be"),
        ({"quasi_identifiers": ["q"], "missing": "drop"}, "^missing must be 'own' or 'any'"),
        ({"quasi_identifiers": ["q"], "recipe": {"x": 1}}, "^the recipe in the profile is not "
         "valid"),
        ({"riskcore_profile": 5}, "^the profile is version 5; this riskcore reads versions up "
         "to 4$"),
        ({"riskcore_profile": 2, "targets": {"criteria": [{"kind": "nope"}]}},
         "^unknown privacy model 'nope'"),
    ],
)  # fmt: skip
def test_bad_profiles_are_refused_with_a_message(profile, message):
    with pytest.raises(RiskcoreError, match=message):
        Profile.read(profile)


def test_a_bad_ledger_is_refused_with_a_message():
    profile = {"quasi_identifiers": ["q"], "ledger": {"entries": "none"}}
    with pytest.raises(RiskcoreError, match=r"^the ledger in the profile is not valid"):
        build(pd.DataFrame({"q": ["a", "b"]}), profile)


def test_a_profile_naming_an_absent_column_is_refused():
    with pytest.raises(RiskcoreError, match="'zip' is not in the table"):
        build(pd.DataFrame({"q": [1]}), {"quasi_identifiers": ["zip"]})


def test_the_fingerprint_is_the_sha256_given_or_of_the_csv():
    import hashlib

    df = pd.DataFrame({"q": ["a", "b"]})
    r = build(df, {"quasi_identifiers": ["q"]})
    assert r.dataset["sha256"] == hashlib.sha256(b"q\na\nb\n").hexdigest()
    given = build(df, {"quasi_identifiers": ["q"]}, sha256="ab" * 32)
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
    r = build(df, profile)
    att = r.to_dict()["attacks_before"]
    link = att["linkage"]
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
    assert set(att["not_run"]) == {"differencing", "two releases"}
    text = render_html(r, figures=False)
    assert "Attacks on the table as recorded" in text
    lo, hi = (f"{100 * v:.2f}%" for v in (wilson.low, wilson.high))
    assert f"{lo} to {hi}" in text
    assert "p1" not in text  # the attacker's table never reaches the report


def test_the_attacks_after_a_recipe_are_on_the_remediated_table(people):
    hierarchies = {"age": interval_hierarchy(people["age"], [10, 20])}
    recipe = Recipe.of(hierarchies, {"age": 2}, Targets.of(k=1, max_suppression=0.0)).to_dict()
    r = build(people, {"quasi_identifiers": ["age"], "recipe": recipe})
    before = people.groupby("age", observed=True).size()
    assert r.attacks_before is not None
    assert r.attacks_before.linkage.unique.successes == int((before == 1).sum())
    assert r.attacks_after is not None and r.attacks_after.of == "the remediated table"
    applied = apply_recipe(people, recipe).data
    after = applied.groupby("age", observed=True).size()
    assert r.attacks_after.linkage.unique.successes == int((after == 1).sum())


def _recursive_table() -> pd.DataFrame:
    """Two classes of 7, each with sensitive counts (5, 1, 1)."""
    return pd.DataFrame({"q": ["a"] * 7 + ["b"] * 7, "s": list("xxxxxyz") * 2})


def test_a_failing_recursive_cl_diversity_fails_the_report():
    # counts (5, 1, 1) sorted r1 >= r2 >= r3: recursive (2,2) needs r1 < 2 (r2 + r3) = 4,
    # and 5 is not: both classes fail; (2,1) holds (5 < 2 * 7), so the l achieved is 1.
    # distinct l = 3 and entropy l = exp(5/7 ln(7/5) + 2/7 ln 7) = 2.217 pass l = 2: only
    # the recursive target fails (the old report searched its labels for "l-diversity",
    # which "recursive (2,l)-diversity" does not contain, and passed it)
    from riskcore.criteria import DistinctLDiversity, EntropyLDiversity, RecursiveCLDiversity
    from riskcore.roles import ColumnRoles

    targets = Targets(
        criteria=(DistinctLDiversity(l=2), EntropyLDiversity(l=2), RecursiveCLDiversity(c=2, l=2))
    )
    profile = Profile(
        roles=ColumnRoles(quasi_identifiers=("q",), sensitive=("s",)), targets=targets
    )
    r = review(_recursive_table(), profile)
    assert r.verdict.passed is False
    (failed,) = r.verdict.failed
    assert (failed.kind, failed.label, failed.attribute) == (
        "recursive-cl-diversity", "recursive (2,l)-diversity", "s",
    )  # fmt: skip
    assert (failed.achieved, failed.failing_classes, failed.failing_records) == (1, 2, 14)
    entropy = next(c for c in r.verdict.checks if c.kind == "entropy-l-diversity")
    assert entropy.achieved == pytest.approx(7 / (5 ** (5 / 7)), rel=1e-9) and entropy.passed
    twin = json.loads(r.to_json())
    assert twin["verdict"]["passed"] is False
    assert [(c["kind"], c["passed"]) for c in twin["verdict"]["checks"]] == [
        ("distinct-l-diversity", True),
        ("entropy-l-diversity", True),
        ("recursive-cl-diversity", False),
    ]
    text = render_html(r, figures=False)
    assert '<div class="verdict fail"><strong>FAIL</strong>' in text
    assert (
        "<td>recursive (2,l)-diversity of s</td><td>2</td>"
        '<td class="fail">1: fail, 14 records (100.0%) failing</td>'
    ) in text
    assert "does not meet 1 of 3 targets: recursive (2,l)-diversity of s 1 against 2" in text


def test_the_command_line_fails_the_recursive_target_after_writing(tmp_path, capsys):
    from riskcore.cli import main

    data, profile = tmp_path / "t.csv", tmp_path / "p.json"
    _recursive_table().to_csv(data, index=False)
    profile.write_text(json.dumps({"quasi_identifiers": ["q"], "sensitive": ["s"]}))
    out, twin = tmp_path / "r.html", tmp_path / "r.json"
    argv = ["report", str(data), "--profile", str(profile), "--out", str(out), "--json",
            str(twin), "--no-figures", "--threshold", "1/7", "--l", "2", "--c", "2"]  # fmt: skip
    assert main([*argv, "--fail-on-targets"]) == 0  # distinct l = 3: passes
    assert main([*argv, "--l-kind", "recursive"]) == 0  # without --fail-on-targets
    assert main([*argv, "--l-kind", "recursive", "--fail-on-targets"]) == 1
    assert capsys.readouterr().out.count("FAIL: The table as recorded does not meet 1 of 2") == 2
    assert json.loads(twin.read_text())["verdict"]["passed"] is False
    assert "recursive (2,l)-diversity of s" in out.read_text()


def test_pass_and_fail_are_marked_on_the_judged_cells_only():
    # k = 2 is met (classes of 2), distinct l = 2 is not 3; a column whose name starts with
    # "pass" is a name, not a result
    df = pd.DataFrame({"passport": list("aabb"), "s": list("xyxy")})
    r = build(df, {"quasi_identifiers": ["passport"], "sensitive": ["s"],
                   "targets": {"k": 2, "l": 3}})  # fmt: skip
    text = render_html(r, figures=False)
    assert "<td>passport</td>" in text and '<td class="pass">passport' not in text
    assert '<td class="pass">2: pass</td>' in text
    assert '<td class="fail">2: fail, 4 records (100.0%) failing</td>' in text
