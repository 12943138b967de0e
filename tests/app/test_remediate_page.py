"""AppTest: the Remediate page and the generalized table every other page assesses."""

from __future__ import annotations

import pandas as pd

from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import default_hierarchy
from riskcore.deidentify.search.lattice import Lattice
from riskcore.deidentify.search.run import search
from riskcore.demo import make_people
from riskcore.metrics import assess
from riskcore.store.ledgers import BudgetStore
from tests.app.helpers import metrics, run, seen, set_roles


def level_sliders(at):
    """The Remediate page's level sliders (not the search's steering inputs)."""
    return [s for s in at.select_slider if s.key.startswith("rc_rem_level_")]


QIS = ["age", "education", "sex", "race", "marital_status"]  # the demo's suggested QIs


def test_remediate_search_sets_the_least_loss_levels_and_pages_assess_the_result():
    at = run("pages/remediate.py")
    assert [s.label for s in level_sliders(at)] == ["age", "education", "sex", "race",
                                                   "marital_status"]  # fmt: skip
    assert all(s.value == 0 for s in level_sliders(at))
    # the session's targets: the k = 11 preset
    assert next(w for w in at.selectbox if w.label == "Targets").value == "k = 11"
    # the search's optimum, computed here from riskcore directly, on the same table
    df = make_people(32_561, seed=0)
    lat = Lattice(
        df,
        {q: default_hierarchy(df[q]) for q in QIS},
        targets=Targets.of(k=11, threshold=1 / 11, max_suppression=0.02),
    )
    best = search(lat).best
    assert best is not None
    at.button(key="rc_rem_search").click().run()
    assert not at.exception
    assert tuple(s.value for s in level_sliders(at)) == best.levels
    m = metrics(at)
    assert m["Records suppressed"] == f"{best.suppressed:,}"
    assert m["Information lost (NCP)"] == f"{best.ncp:.1%}"
    assert at.success  # meets the targets
    # before: the Anonymity page's k on the table as recorded
    at.switch_page("pages/anonymity.py").run()
    assert metrics(at)["k"] == "1"
    at.switch_page("pages/remediate.py").run()
    at.button(key="rc_rem_use").click().run()
    assert at.session_state["rc_view_after"] is True
    at.switch_page("pages/anonymity.py").run()
    assert not at.exception
    # after: the generalized table, suppressed records dropped, assessed independently
    gen = lat.apply(df, best.levels)
    expected = assess(gen, quasi_identifiers=QIS)
    assert metrics(at)["k"] == f"{expected.k:,}" and expected.k >= 11
    assert any(
        f"assesses the generalized table ({len(gen):,} of 32,561 records" in seen(i.value)
        for i in at.info
    )
    # the switch in the sidebar goes back to the table as recorded
    at.session_state["rc_view_after"] = False
    at.run()
    assert metrics(at)["k"] == "1"


def test_the_privacy_budget_stays_with_the_dataset_when_the_generalized_table_is_shown():
    at = run("pages/dp.py")
    at.button(key="rc_dp_release").click().run()  # spends the whole budget of 1
    (stored,) = BudgetStore().ledgers()  # the ledger is in the database (RISKCORE_DB)
    assert len(stored.ledger.entries) == 1 and stored.fingerprints == ("demo-32561-0",)
    at.switch_page("pages/remediate.py").run()
    at.button(key="rc_rem_search").click().run()
    at.button(key="rc_rem_use").click().run()
    at.switch_page("pages/dp.py").run()
    assert not at.exception
    # the same people: a generalized view of them gets no fresh budget
    assert metrics(at)["Budget left"] == "0 of 1"
    at.button(key="rc_dp_release").click().run()
    assert any("Refused" in e.value for e in at.error)
    (stored,) = BudgetStore().ledgers()  # still one ledger, on the dataset's own fingerprint
    assert len(stored.ledger.entries) == 1 and stored.fingerprints == ("demo-32561-0",)


def test_reset_forgets_the_remediation():
    at = run("pages/remediate.py")
    at.button(key="rc_rem_search").click().run()
    at.button(key="rc_rem_use").click().run()
    at.switch_page("app.py").run()
    reset = next(b for b in at.button if b.label == "Reset session")
    reset.click().run()
    assert "rc_remediation" not in at.session_state
    at.switch_page("pages/anonymity.py").run()
    assert metrics(at)["k"] == "1"


def test_a_table_with_one_qi_and_nothing_to_gain_says_so():
    at = run()
    csv = pd.DataFrame({"sex": ["F", "M"] * 3, "x": range(6)}).to_csv(index=False)
    from tests.app.helpers import data_uploader

    data_uploader(at).set_value(("t.csv", csv.encode(), "text/csv")).run()
    set_roles(at, {"sex": "quasi_identifier", "x": "other"})
    at.switch_page("pages/remediate.py").run()
    assert not at.exception
    at.button(key="rc_rem_search").click().run()
    assert not at.exception


def test_safe_harbor_tab_lists_the_categories_and_the_transforms_pass():
    at = run("pages/remediate.py")
    verdicts = [w.value for w in at.warning if "Safe Harbor" in w.value]
    assert verdicts and seen(verdicts[0]).startswith("Does not pass Safe Harbor")
    table = next(d.value for d in at.dataframe if "category" in d.value.columns)
    assert len(table) == 18 and table[""].tolist()[0] == "(A)"
    # the demo's names (A), ZIP codes (B), birth dates and ages over 89 (C), SSNs (G)
    found = dict(zip(table[""], table["columns"], strict=True))
    assert (found["(A)"], found["(B)"], found["(C)"], found["(G)"]) == (
        "name", "zip", "date_of_birth, age", "ssn"
    )  # fmt: skip
    assert (make_people(32_561, seed=0)["age"] > 89).any()  # why age is listed
    assert any(seen(s.value).startswith("After the transforms: Passes") for s in at.success)


def test_identifier_tokens_are_keyed_hmac_under_the_session_key():
    import hashlib
    import hmac

    at = run("pages/remediate.py")
    at.selectbox(key="rc_rem_op_ssn").set_value("hmac_tokens").run()
    assert not at.exception
    assert [c.value for c in at.code] == []  # never printed: offered once as a key file
    key = bytes.fromhex(at.session_state["rc_rem_secret"].reveal_hex())
    ssns = make_people(32_561, seed=0)["ssn"].head(5)
    # no table on the page shows a real SSN or name: only what they become
    for d in at.dataframe:
        for col in ("ssn", "name"):
            if col in d.value.columns:
                assert not set(d.value[col].astype(str)) & set(
                    make_people(32_561, seed=0)[col].astype(str)
                )
    after = next(d.value for d in at.dataframe if "ssn" in d.value.columns)
    expected = [hmac.new(key, s.encode(), hashlib.sha256).hexdigest()[:16] for s in ssns]
    assert after["ssn"].tolist() == expected
    assert key.hex() not in str(at.session_state["rc_rem_secret"])  # its repr hides it
    # the key file's one download, its confirmation and the upload: tests/app/test_key_file.py


def test_safe_harbor_transforms_wait_for_a_button_on_a_large_table(monkeypatch):
    """The transforms take 0.7 s per million rows: above the automatic size, not on open."""
    import ui.core.cached.remediation
    from ui.core import state

    calls = []
    real = ui.core.cached.remediation.apply_safe_harbor

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(state, "AUTO_RUN_ROWS", 1_000)
    monkeypatch.setattr(ui.core.cached.remediation, "apply_safe_harbor", counting)
    at = run("pages/remediate.py")
    assert calls == []  # the checklist is there, the transforms are not
    assert any("Safe Harbor" in w.value for w in at.warning)
    at.button(key="rc_rem_sh_run_button").click().run()
    assert not at.exception and calls == [1]
    assert any(seen(s.value).startswith("After the transforms: Passes") for s in at.success)
