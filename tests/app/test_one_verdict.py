"""AppTest: one verdict on every page (the one-verdict issue's "done when").

The hospital table remediated to the k = 11 preset with up to 2% suppressed
passes on Remediate, Anonymity and the Report (whose banner is amber, not ready: the
note and admission_date, tagged other, still hold identifiers); raising a target makes all of
them fail together (the command line's half is in
``tests/riskcore/test_report_done.py``). And the Anonymity page, the one
consumer of the targets drawn by Streamlit, gives the decision of
:func:`riskcore.criteria.evaluate` on random tables and targets from the
common test's factories.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from riskcore.criteria import Targets
from riskcore.metrics import assess
from tests.app.helpers import hospital_app, seen, set_roles, set_settings, settings_of
from tests.hospital import HOSPITAL_QIS, hospital_csv
from tests.riskcore.criteria_cases import baseline, random_case


def _says(at, *, passed: bool) -> str:
    """Return the verdict message of the page: a success when passed, else a warning or error."""
    boxes = list(at.success) if passed else list(at.warning) + list(at.error)
    texts = [seen(b.value) for b in boxes]
    hits = [t for t in texts if "target" in t]
    assert hits, f"no {'pass' if passed else 'fail'} verdict among {texts}"
    return hits[0]


def test_the_k_11_preset_passes_everywhere_and_a_raised_target_fails_everywhere():
    at = hospital_app()
    # Remediate: the least-loss search under the default targets, the k = 11 preset, 2%
    at.switch_page("pages/remediate.py").run()
    assert not at.exception, at.exception
    assert settings_of(at).targets == Targets.of(k=11, threshold=1 / 11, max_suppression=0.02)
    at.button(key="rc_rem_search").click().run()
    assert not at.exception, at.exception
    levels = {q: at.session_state[f"rc_rem_level_{q}"] for q in HOSPITAL_QIS}
    assert levels == {"date_of_birth": 3, "zip": 2, "sex": 0}  # decade, ZIP3, sex kept
    text = _says(at, passed=True)
    assert text.startswith("The release at these levels meets both targets")
    assert "(1.96%), within the 2% limit" in text
    at.button(key="rc_rem_use").click().run()
    assert not at.exception, at.exception

    # Anonymity: the generalized table, judged as it is
    at.switch_page("pages/anonymity.py").run()
    assert not at.exception, at.exception
    assert _says(at, passed=True).startswith("This table meets both targets")

    # Report: the review of the table as recorded and after the recipe
    at.switch_page("pages/report.py").run()
    at.button(key="rc_report_build").click().run()
    assert not at.exception, at.exception
    report = at.session_state["rc_report"]["report"]
    assert report.verdict.passed and report.of == "the remediated table"
    # the same verdict on the targets; the note and admission_date, tagged other, still hold
    # phone numbers and dates: the release is not ready, amber (a warning), never green
    (said,) = [seen(w.value) for w in at.warning if "not ready to release" in w.value]
    assert said.startswith("Targets met; not ready to release: identifiers remain in released")
    assert "The remediated table meets both targets" in said
    assert not [s for s in at.success if "target" in s.value]
    words = {s.words for s in report.remediation.steps}
    assert words >= {"date_of_birth: decade", "sex: kept as recorded"}

    # raise a target (k = 12, threshold 1/12): every page fails together
    set_settings(at, targets=Targets.of(k=12, threshold=1 / 12, max_suppression=0.02))
    at.switch_page("pages/remediate.py").run()
    assert not at.exception, at.exception
    assert "does not meet" in _says(at, passed=False)
    at.switch_page("pages/anonymity.py").run()
    assert "does not meet 2 of 2 targets" in _says(at, passed=False)
    at.switch_page("pages/report.py").run()
    assert any("changed since this report was built" in w.value for w in at.warning)
    at.button(key="rc_report_build").click().run()
    assert not at.exception, at.exception
    assert not at.session_state["rc_report"]["report"].verdict.passed
    assert _says(at, passed=False).startswith("Does not pass: the remediated table does not meet")


def test_the_anonymity_page_gives_the_verdict_of_the_criteria():
    """The Anonymity page as a consumer of the common test: its verdict is evaluate()'s."""
    from tests.app.helpers import run

    outcomes = set()
    for seed in range(1, 25, 3):  # 8 cases, both outcomes among them
        df, profile = random_case(seed)
        _, want = baseline(df, profile)
        at = run()
        at.file_uploader(key="rc_upload").set_value(
            (f"t{seed}.csv", df.to_csv(index=False).encode(), "text/csv")
        )
        at.run()
        roles = {c: "other" for c in df.columns}
        roles.update(profile.roles.to_mapping())
        set_roles(at, roles)
        at.session_state["rc_roles_for"] = at.session_state["rc_dataset"]["key"]
        key = at.session_state["rc_dataset"]["key"]
        set_settings(
            at,
            targets=profile.targets,
            missing=profile.missing,
            sampling_fraction=profile.sampling_fraction or 0.0,
            distances={f"{key}:{s}": d for s, d in profile.distances.items()},
            hierarchies={f"{key}:{s}": rows for s, rows in profile.sensitive_hierarchies.items()},
        )
        at.switch_page("pages/anonymity.py").run()
        assert not at.exception, at.exception
        # the editor draws the session's targets and keeps those it does not draw
        kept = settings_of(at).targets.criteria
        assert sorted(c.kind for c in kept) == sorted(c.kind for c in profile.targets.criteria)
        got = bool(list(at.success)) and not list(at.error)
        assert got == want, f"case {seed}: {profile.targets}"
        outcomes.add(want)
    assert outcomes == {True, False}


def test_the_anonymity_page_s_figures_are_the_assessment_s():
    at = hospital_app()
    at.switch_page("pages/anonymity.py").run()
    df = pd.read_csv(pd.io.common.BytesIO(hospital_csv()), encoding="latin-1", dtype=str)
    a = assess(df, quasi_identifiers=list(HOSPITAL_QIS), sensitive=["diagnosis"])
    m = {seen(x.label): x.value for x in at.metric}
    assert m["k"] == f"{a.k:,}"
    at_risk = round(a.prosecutor.records_at_risk * a.n_records)
    assert m["records at risk (prosecutor)"] == f"{at_risk:,}"
    assert np.isclose(a.prosecutor.threshold, 1 / 11)
