"""The release context: worked examples of its sources, judged by the one verdict.

Sources (read for these tests, never our output):

* IPC Ontario, *De-identification Guidelines for Structured Data* (June 2016): the
  threshold table of step 3, the attack table of step 5, the formula of attack 2, and
  step 6's worked example (data risk 0.2 x context risk 0.5 = overall 0.1).
* L. Kniola, PhUSE 2016 paper DH09: table 2 (the acquaintance attack for multiple
  sclerosis, rounded to two places), and tables 4, 7, 8 and 10 (ten subjects, sex and
  age, judged in four release contexts against 0.09).
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

from riskcore.criteria import AverageRisk, KAnonymity, RecordRisk, Targets, evaluate
from riskcore.criteria.context import Context, acquaintance_probability
from riskcore.errors import RiskcoreError
from riskcore.metrics import assess
from riskcore.profile import Profile
from riskcore.report.readings.context import context_reading, context_rows, overall_reading
from riskcore.roles import ColumnRoles

BREACH = {"breach": 0.27, "breach_source": "HIMSS survey (Kniola 2016)"}


def _non_public(**kw):
    base = {"release": "non-public", "invasion": "medium", "prevalence": 0.0, **BREACH}
    base.update(kw)
    return Context.from_dict(base)


# ------------------------------------------------------------------ IPC 2016


@pytest.mark.parametrize(("invasion", "cell"), [("low", 10), ("medium", 14), ("high", 20)])
def test_a_public_release_holds_the_highest_risk_to_the_step_3_threshold(invasion, cell):
    # IPC16 step 3: the thresholds 0.1, 0.075, 0.05, "cell size equivalent" 10, 15, 20 "for
    # illustrative purposes only"; 0.075 is met by a class of 14 already (1/14 = 0.0714), the
    # smallest class the threshold itself accepts. A public release has Pr(attack) = 1
    # (step 5) and is measured by its maximum risk (step 4.2).
    c = Context.from_dict({"release": "public", "invasion": invasion})
    assert c.attack == 1 and c.measure == "maximum"
    (crit,) = c.criteria()
    assert isinstance(crit, RecordRisk) and crit.model == "prosecutor"
    ok = assess(pd.DataFrame({"q": ["a"] * cell}), quasi_identifiers=["q"]).evidence
    short = assess(pd.DataFrame({"q": ["a"] * (cell - 1)}), quasi_identifiers=["q"]).evidence
    assert evaluate(c.criteria(), ok).passed
    assert not evaluate(c.criteria(), short).passed


def test_the_step_6_example_overall_risk_is_data_risk_times_context_risk():
    # IPC16 step 6: "a data risk of 0.2 and a context risk of 0.5 ... the overall risk is 0.1";
    # a context risk of 0.5 is the attack table's low controls and medium motives
    c = _non_public(controls="low", motives="medium", breach=0.1)
    assert c.attack == pytest.approx(0.5) and c.attack_of == "deliberate"
    assert c.overall(0.2) == pytest.approx(0.1)


@pytest.mark.parametrize(
    ("controls", "motives", "expected"),
    [("high", "low", 0.05), ("medium", "medium", 0.3), ("low", "high", 0.6)],
)
def test_the_deliberate_attack_follows_the_step_5_table(controls, motives, expected):
    c = _non_public(controls=controls, motives=motives, breach=0.0)
    assert c.deliberate == pytest.approx(expected) and c.attack == pytest.approx(expected)


def test_a_semi_public_release_assumes_low_controls_high_motives_and_the_maximum():
    # IPC16 "semi-public data releases": attack 1 at high motives and low controls (0.6)
    c = Context.from_dict({"release": "semi-public", "invasion": "medium", "prevalence": 0.0,
                           **BREACH})  # fmt: skip
    assert c.deliberate == pytest.approx(0.6) and c.measure == "maximum"
    assert c.criteria() == (RecordRisk(threshold=0.075 / 0.6),)
    with pytest.raises(RiskcoreError, match="assumes low controls"):
        Context.from_dict({**c.to_dict(), "controls": "high"})


# ------------------------------------------------------------------ Kniola, PhUSE 2016


@pytest.mark.parametrize(
    ("cases", "population", "table_2"),
    [(400e3, 212e6, 0.25), (400e3, 317e6, 0.17), (2.3e6, 4.7e9, 0.07), (2.3e6, 7.2e9, 0.05)],
)
def test_the_acquaintance_attack_reproduces_kniola_table_2(cases, population, table_2):
    assert round(acquaintance_probability(cases / population, 150), 2) == table_2


#: Kniola's tables 4 and 8: ten subjects' sex and age, and the age categorized.
SUBJECTS = pd.DataFrame(
    {
        "sex": list("MFFMFMMFMF"),
        "age": [26, 28, 31, 29, 28, 30, 29, 32, 29, 31],
        "age_deid": ["21-30", "21-30", "31-40", "21-30", "21-30", "21-30", "21-30", "31-40",
                     "21-30", "31-40"],
    }
)  # fmt: skip
#: Kniola's contexts of tables 7 and 10: trusted recipient on a secure portal (0.1: high
#: controls, medium motives), trusted on CD-ROM (the breach, 0.27), unknown recipient on a
#: secure portal (0.5: low controls, medium motives), and a public release (1). Kniola's
#: threshold is 0.09, held to the average risk (non-public) or the maximum (public); his
#: k = 2 check is the strict average's cap 1/2. Kniola gives no breach rate for a secure
#: portal ("significantly reduced") nor a prevalence for these rows: the 0.05 and 1e-5 below
#: are ours, any breach up to 0.1 and any rare condition giving his Pr(attack) of 0.1 and 0.5.
REASON = {"threshold": 0.09, "threshold_reason": "EMA Policy 0070's suggested 0.09 (Kniola)"}
CONTEXTS = {
    "portal": {"release": "non-public", "invasion": "low", "controls": "high",
               "motives": "medium", "prevalence": 1e-5, "breach": 0.05,
               "breach_source": "a secure portal (Kniola)", "strict_cap": 0.5, **REASON},
    "cd-rom": {"release": "non-public", "invasion": "low", "controls": "high",
               "motives": "medium", "prevalence": 1e-5, **BREACH, "strict_cap": 0.5, **REASON},
    "unknown": {"release": "non-public", "invasion": "low", "controls": "low",
                "motives": "medium", "prevalence": 1e-5, "breach": 0.05,
                "breach_source": "a secure portal (Kniola)", "strict_cap": 0.5, **REASON},
    "public": {"release": "public", "invasion": "low", **REASON},
}  # fmt: skip


@pytest.mark.parametrize(
    ("context", "attack", "overall", "sufficient"),
    [  # Kniola table 10: the categorized ages (max 0.5, average 0.3)
        ("portal", 0.1, 0.030, True),
        ("cd-rom", 0.27, 0.081, True),
        ("unknown", 0.5, 0.150, False),
        ("public", 1.0, 0.500, False),
    ],
)
def test_kniola_table_10_is_the_verdict_of_each_context(context, attack, overall, sufficient):
    c = Context.from_dict(CONTEXTS[context])
    assert c.attack == pytest.approx(attack)
    evidence = assess(SUBJECTS, quasi_identifiers=["sex", "age_deid"]).evidence
    verdict = evaluate(c.criteria(), evidence)
    assert verdict.passed is sufficient
    kind = "record-risk" if c.measure == "maximum" else "average-risk"
    (check,) = [x for x in verdict.checks if x.kind == kind and x.target == c.data_limit]
    assert round(c.overall(check.achieved), 3) == overall
    text = overall_reading(c, verdict.checks)
    assert text is not None and ("within" if sufficient else "above") in text


@pytest.mark.parametrize("context", list(CONTEXTS))
def test_kniola_table_7_study_population_is_never_sufficient(context):
    # the raw ages: three unique subjects (max 1, average 0.6); Kniola judges every context
    # "Not sufficient" (the average 0.06 of the portal passes 0.09, the uniques fail k = 2)
    c = Context.from_dict(CONTEXTS[context])
    evidence = assess(SUBJECTS, quasi_identifiers=["sex", "age"]).evidence
    verdict = evaluate(c.criteria(), evidence)
    assert not verdict.passed
    if context == "portal":
        failed = {x.kind for x in verdict.checks if not x.passed}
        assert failed == {"record-risk"}  # the cap, not the average


# ------------------------------------------------------------------ the targets it yields


def test_the_context_replaces_k_and_the_risk_targets_and_keeps_the_others():
    c = _non_public(controls="medium", motives="medium", prevalence=0.002)
    base = Targets.of(k=11, threshold=1 / 11, l=2, max_suppression=0.05)
    t = c.apply(base)
    assert t.find("k-anonymity") is None and t.find("distinct-l-diversity") is not None
    assert t.max_suppression == 0.05
    assert AverageRisk(threshold=0.075 / 0.3) in t.criteria
    assert RecordRisk(threshold=1 / 3) in t.criteria  # IPC16's strict average, by default
    assert c.carried_by(t) and not c.carried_by(base)


def test_a_tiny_attack_probability_allows_no_more_than_certainty():
    c = _non_public(controls="high", motives="low", breach=0.01, invasion="low", strict_cap=None)
    assert c.attack == pytest.approx(0.05) and c.data_limit == 1.0  # 0.1 / 0.05 capped at 1
    assert c.criteria() == (AverageRisk(threshold=1.0),) and c.measure == "average"


# ------------------------------------------------------------------ bad answers


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "must be a JSON object"),
        ({"release": "public"}, "needs 'release' and 'invasion'"),
        ({"release": "open", "invasion": "low"}, "'release' is one of"),
        ({"release": "public", "invasion": "extreme"}, "'invasion' is one of"),
        ({"release": "public", "invasion": "low", "colour": 1}, "unknown key 'colour'"),
        ({"release": "public", "invasion": "low", "controls": "low"}, "leave out 'controls'"),
        ({"release": "public", "invasion": "low", "breach": 0.2}, "leave out 'breach'"),
        (
            {
                "release": "non-public",
                "invasion": "low",
                "motives": "low",
                "prevalence": 0,
                **BREACH,
            },
            "needs 'controls'",
        ),
        (
            {
                "release": "non-public",
                "invasion": "low",
                "controls": "low",
                "motives": "low",
                **BREACH,
            },
            "needs 'prevalence'",
        ),
        (
            {
                "release": "non-public",
                "invasion": "low",
                "controls": "low",
                "motives": "low",
                "prevalence": 1.5,
                **BREACH,
            },
            r"'prevalence' must lie in \[0, 1\]",
        ),
        (
            {
                "release": "non-public",
                "invasion": "low",
                "controls": "low",
                "motives": "low",
                "prevalence": 0.1,
                "breach": 0.1,
            },
            "give 'breach_source'",
        ),
        (
            {
                "release": "non-public",
                "invasion": "low",
                "controls": "low",
                "motives": "low",
                "prevalence": 0.1,
                **BREACH,
                "acquaintances": 0,
            },
            "'acquaintances' must be",
        ),
        (
            {
                "release": "non-public",
                "invasion": "low",
                "controls": "low",
                "motives": "low",
                "prevalence": "x",
                **BREACH,
            },
            "'prevalence' must be a number",
        ),
        ({"release": "public", "invasion": "low", "threshold": 0.09}, "give 'threshold_reason'"),
        (
            {"release": "public", "invasion": "low", "threshold": 0, "threshold_reason": "x"},
            r"'threshold' must lie in \(0, 1\]",
        ),
        ({"release": "public", "invasion": "low", "strict_cap": 0.5}, "'strict_cap' is the"),
        (
            {"release": "public", "invasion": "low", "invasion_items": ["nope"]},
            "unknown item 'nope'",
        ),
        ({"release": "public", "invasion": "low", "note": "x" * 5000}, "over 2,000 characters"),
    ],
)
def test_every_answer_is_validated_with_a_sentence(data, message):
    with pytest.raises(RiskcoreError, match=message):
        Context.from_dict(data)


def test_the_json_round_trips_and_the_derived_figures_are_recomputed():
    c = _non_public(controls="medium", motives="high", prevalence=0.001,
                    controls_items=["encryption"], note="reviewed by the board")  # fmt: skip
    data = c.to_dict()
    assert data["derived"]["attack"] == pytest.approx(0.4)  # medium controls, high motives
    data["derived"]["attack"] = 0.0001  # a hand-edited figure is never read
    back = Context.from_dict(json.loads(json.dumps(data)))
    assert back == c and back.attack == pytest.approx(0.4)


def test_a_context_file_is_read_with_clear_errors(tmp_path):
    good = tmp_path / "c.json"
    good.write_text(json.dumps({"release": "public", "invasion": "high"}))
    assert Context.read(good).chosen_threshold == 0.05
    bad = tmp_path / "bad.json"
    bad.write_text("{release: public")
    with pytest.raises(RiskcoreError, match="not valid JSON"):
        Context.read(bad)
    with pytest.raises(RiskcoreError, match="does not exist"):
        Context.read(tmp_path / "absent.json")


# ------------------------------------------------------------------ the profile


def test_the_profile_carries_the_context_and_older_profiles_load():
    c = _non_public(controls="low", motives="low", prevalence=0.001)
    p = Profile(roles=ColumnRoles(quasi_identifiers=("age",)), targets=c.apply(Targets()),
                context=c)  # fmt: skip
    back = Profile.read(p.to_json())
    assert back.context == c and back.targets == p.targets
    v3 = {k: v for k, v in json.loads(p.to_json()).items() if k != "context"}
    v3["riskcore_profile"] = 3
    assert Profile.read(json.dumps(v3)).context is None  # a version 3 profile has none
    with pytest.raises(RiskcoreError, match="unknown key 'context'"):
        Profile.read(json.dumps({**v3, "context": c.to_dict()}))
    with pytest.raises(RiskcoreError, match=r"'release' is one of"):
        Profile.read(
            json.dumps({**json.loads(p.to_json()), "context": {"release": "x", "invasion": "low"}})
        )


# ------------------------------------------------------------------ the readings


def test_the_readings_cite_the_answers_the_threshold_and_why():
    c = Context.from_dict(CONTEXTS["cd-rom"])
    rows = context_rows(c).set_index("question")
    assert rows.loc["threshold", "answer"].startswith("0.09, chosen over the table's 0.1")
    assert "EMA Policy 0070" in rows.loc["threshold", "answer"]
    assert rows.loc["Pr(deliberate attack)", "answer"].startswith("0.1 (high controls")
    assert rows.loc["Pr(attack)", "answer"] == "0.27, the highest of the three (the breach attack)"
    assert rows.loc["data risk allowed", "answer"] == "threshold / Pr(attack) = 0.09 / 0.27 = 0.333"
    assert "attack 1 table" in rows.loc["Pr(deliberate attack)", "source"]
    text = context_reading(c)
    assert "The likeliest attack is the breach one, Pr(attack) = 0.27" in text
    assert "no record's risk is above 0.5" in text and "changed after" not in text
    assert "no longer hold its bound" in context_reading(c, carried=False)
    assert overall_reading(c, []) is None


def test_k_given_beside_the_context_stands(tmp_path):
    from riskcore.cli import main

    path = tmp_path / "c.json"
    path.write_text(json.dumps({"release": "public", "invasion": "high"}))
    out = tmp_path / "p.json"
    assert main(["assess", "demo:300", "--qi", "age", "--qi", "sex", "--context", str(path),
                 "--k", "5", "--profile-out", str(out)]) in (0, 1)  # fmt: skip
    p = Profile.read(out)
    assert p.context == Context.from_dict({"release": "public", "invasion": "high"})
    assert set(p.targets.criteria) == {RecordRisk(threshold=0.05), KAnonymity(k=5)}
    assert main(["assess", "demo:300", "--qi", "age", "--context", str(path),
                 "--threshold", "0.1"]) == 2  # fmt: skip


# ------------------------------------------------------------------ the report and its twin


def test_the_report_and_its_json_twin_show_the_context():
    from riskcore.report.render import render_html
    from riskcore.review import review

    c = Context.from_dict(CONTEXTS["cd-rom"])
    roles = ColumnRoles(quasi_identifiers=("sex", "age_deid"), other=("age",))
    p = Profile(roles=roles, targets=c.apply(Targets()), context=c)
    r = review(SUBJECTS, p, name="kniola.csv")
    html = render_html(r, figures=False)
    assert "<h3>The release context and its threshold</h3>" in html
    assert "EMA Policy 0070" in html and "IPC Ontario 2016, step 5, attack 3" in html
    assert "As recorded: overall risk: 0.3 x 0.27 = 0.081, within the threshold 0.09" in html
    assert "<td>threshold from the release context</td>" in html  # the method note
    twin = json.loads(r.to_json())
    assert twin["profile"]["context"]["derived"]["attack"] == pytest.approx(0.27)
    assert twin["profile"]["context"]["breach_source"] == BREACH["breach_source"]
    changed = review(SUBJECTS, p.with_(targets=Targets.of(k=2)), name="kniola.csv")
    assert "no longer hold its bound" in render_html(changed, figures=False)
    assert "release context" not in render_html(  # no section, no method note
        review(SUBJECTS, p.with_(context=None), name="kniola.csv"), figures=False
    )


def test_assess_prints_the_context_and_the_overall_risk(tmp_path, capsys):
    from riskcore.cli import main

    path = tmp_path / "c.json"
    path.write_text(json.dumps(CONTEXTS["cd-rom"]))
    data = tmp_path / "subjects.csv"
    SUBJECTS.to_csv(data, index=False)
    assert main(["assess", str(data), "--qi", "sex", "--qi", "age_deid", "--context",
                 str(path)]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "Context: A non-public release" in out and "EMA Policy 0070" in out
    assert "Overall risk: 0.3 x 0.27 = 0.081, within the threshold 0.09" in out
    assert main(["assess", str(data), "--qi", "sex", "--qi", "age_deid", "--context",
                 str(path), "--format", "json"]) == 0  # fmt: skip
    assert json.loads(capsys.readouterr().out)["context"]["derived"]["attack"] == 0.27


def test_threshold_over_a_profile_with_a_context_drops_the_context_and_its_targets(tmp_path):
    from riskcore.cli import main

    c = _non_public(controls="low", motives="low", prevalence=0.001)
    prof = tmp_path / "p.json"
    prof.write_text(Profile(targets=c.apply(Targets.of(l=2)), context=c).to_json())
    out = tmp_path / "out.json"
    assert main(["assess", "demo:300", "--qi", "age", "--sensitive", "income", "--profile",
                 str(prof), "--threshold", "0.2", "--profile-out", str(out)]) in (0, 1)  # fmt: skip
    p = Profile.read(out)
    assert p.context is None
    assert p.targets.find("average-risk") is None  # the context's, gone with it
    assert p.targets.find("record-risk") == RecordRisk(threshold=0.2)
    assert p.targets.find("distinct-l-diversity") is not None
    kept = tmp_path / "kept.json"  # without --threshold the profile's context stands
    assert main(["assess", "demo:300", "--qi", "age", "--sensitive", "income", "--profile",
                 str(prof), "--profile-out", str(kept)]) in (0, 1)  # fmt: skip
    again = Profile.read(kept)
    assert again.context == c and c.carried_by(again.targets)
