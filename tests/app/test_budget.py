"""The privacy budget cannot be undone from the app (issue 17): not by a reload or a new
session, a renamed or re-uploaded file, one byte changed, raising the total after spending,
or a reset. Each test has its own database (tests/conftest.py sets RISKCORE_DB)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from riskcore.store import Store
from riskcore.store.ledgers import BudgetStore
from tests.app.helpers import (
    APP,
    data_uploader,
    metrics,
    seen,
    set_settings,
)


def _csv(bump: int = 0, seed: int = 3) -> bytes:
    rng = np.random.default_rng(seed)
    df = pd.DataFrame(
        {
            "age": rng.integers(20, 80, 300),
            "sex": rng.choice(["F", "M"], 300),
            "zip": rng.choice(["02139", "02140", "02141"], 300),
        }
    )
    df.loc[0, "age"] += bump  # one value, one byte: other bytes, the same shape
    return df.to_csv(index=False).encode()


def _session(upload: tuple[str, bytes] | None = None) -> AppTest:
    """Open the app as a new browser session would (optionally uploading a file) on the DP page."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    if upload is not None:
        data_uploader(at).set_value((upload[0], upload[1], "text/csv")).run()
        assert at.session_state["rc_dataset"]["name"] == upload[0]
    at.switch_page("pages/dp.py").run()
    assert not at.exception, at.exception
    return at


def _release(at: AppTest) -> None:
    at.button(key="rc_dp_release").click().run()
    assert not at.exception, at.exception


def _left(at: AppTest) -> str:
    return metrics(at)["Budget left"]


def _refused(at: AppTest) -> bool:
    return any(seen(e.value).startswith("Refused: this release costs") for e in at.error)


def _captions(at: AppTest) -> str:
    return " ".join(seen(c.value) for c in at.caption)


def _actions() -> list[str]:
    return [e.action for e in Store().audit()]


def test_a_reload_or_new_session_continues_the_same_budget():
    at = _session()
    _release(at)
    assert _left(at) == "0 of 1"
    assert _actions() == ["dp_ledger_new", "dp_release"]
    again = _session()  # a page reload is a new session
    assert _left(again) == "0 of 1"
    assert "This file's privacy budget is the ledger “Demo people (32,561 rows)”" in (
        _captions(again)
    )
    _release(again)
    assert _refused(again)
    assert _actions() == ["dp_ledger_new", "dp_release"]  # nothing more was spent


def test_the_same_file_renamed_in_a_new_session_keeps_its_budget():
    at = _session(("people.csv", _csv()))
    _release(at)
    assert _left(at) == "0 of 1"
    again = _session(("renamed copy.csv", _csv()))
    assert _left(again) == "0 of 1"
    assert "the ledger “people.csv”" in _captions(again)
    _release(again)
    assert _refused(again)


def test_one_byte_changed_under_the_same_name_joins_its_ledger():
    _release(_session(("people.csv", _csv())))
    again = _session(("people.csv", _csv(bump=1)))
    assert _left(again) == "0 of 1"
    # the same people (one value changed): found by its rows before its name (issue 26)
    assert "This file is new, but it holds the people of the ledger “people.csv”" in (
        _captions(again)
    )


def test_one_byte_changed_and_renamed_is_charged_to_the_spent_ledger_by_its_people():
    _release(_session(("people.csv", _csv())))
    at = _session(("other.csv", _csv(bump=1)))
    assert _left(at) == "0 of 1"  # no fresh budget for the same people (issue 26)
    (info,) = [seen(i.value) for i in at.info if "holds the people" in seen(i.value)]
    assert "This file is new, but it holds the people of the ledger “people.csv”" in info
    assert "99.7% of that ledger's rows are rows of this file" in info  # 299 of 300
    assert "compared on 3 columns (age, sex, zip)" in info, info
    _release(at)
    assert _refused(at)
    assert _actions() == ["dp_ledger_new", "dp_release"]  # a refusal writes nothing
    assert len(BudgetStore().ledgers()) == 1


def test_a_new_ledger_for_the_same_people_needs_a_reason_and_is_logged_and_reported():
    _release(_session(("people.csv", _csv())))
    at = _session(("other.csv", _csv(bump=1)))
    fp = at.session_state["rc_dataset"]["key"]
    start = next(b for b in at.button if b.label == "Start a new ledger")
    start.click().run()
    assert not at.exception, at.exception
    assert any(seen(e.value).startswith("A new ledger for a table that holds") for e in at.error)
    assert _left(at) == "0 of 1" and len(BudgetStore().ledgers()) == 1
    reason = next(t for t in at.text_input if t.label.startswith("Reason (required"))
    reason.input("a second cohort, consented separately").run()
    name = next(t for t in at.text_input if t.label == "Name of the new ledger")
    assert name.value == "other.csv" and fp
    next(b for b in at.button if b.label == "Start a new ledger").click().run()
    assert not at.exception, at.exception
    assert _left(at) == "1 of 1"
    new = [e for e in Store().audit() if e.action == "dp_ledger_new"][-1]
    assert new.changes["reason"] == "a second cohort, consented separately"
    assert new.changes["instead_of"] == "people.csv"
    assert "the reason given: “a second cohort, consented separately”" in _captions(at)


def test_naming_the_source_of_a_new_file_chooses_its_ledger():
    _release(_session(("people.csv", _csv())))
    at = _session(("export-2.csv", _csv(seed=4)))  # other people
    box = next(t for t in at.text_input if t.label == "Name of the data source")
    assert box.value == "export-2.csv"
    box.input("people.csv").run()
    assert not at.exception, at.exception
    assert _left(at) == "0 of 1"


def test_raising_the_total_after_spending_needs_a_reason_which_is_logged():
    at = _session()
    _release(at)
    at.number_input(key="rc_dp_budget").set_value(5.0).run()
    assert not at.exception, at.exception
    assert _left(at) == "0 of 1"  # not applied
    assert any(
        seen(w.value).startswith("Epsilon 1 is already spent on this data. Changing the epsilon "
                                 "budget from 1 to 5")
        for w in at.warning
    )  # fmt: skip
    at.button(key="rc_dp_budget_apply").click().run()  # no reason given
    assert any(
        seen(e.value).startswith("Refused: epsilon 1 of this data's budget is already spent")
        for e in at.error
    )
    assert _left(at) == "0 of 1"
    assert "dp_budget" not in _actions()
    at.text_input(key="rc_dp_budget_reason_1").input("second study, approved by the board").run()
    at.button(key="rc_dp_budget_apply").click().run()
    assert not at.exception, at.exception
    assert _left(at) == "4 of 5"
    last = Store().audit()[-1]
    assert last.action == "dp_budget"
    assert last.changes["reason"] == "second study, approved by the board"
    assert (last.changes["from"]["epsilon_budget"], last.changes["to"]["epsilon_budget"]) == (
        1.0,
        5.0,
    )
    # the raise holds in a new session, with its history
    again = _session()
    assert _left(again) == "4 of 5"
    assert any(e.label.startswith("Budget history (2 settings)") for e in again.expander)


def test_lowering_the_total_is_applied_at_once_and_logged():
    at = _session()
    _release(at)
    at.number_input(key="rc_dp_budget").set_value(0.5).run()
    assert not at.exception, at.exception
    assert _left(at) == "0 of 0.5"
    assert _actions()[-1] == "dp_budget"
    assert "exceed this budget" in " ".join(e.value for e in at.error)
    # raising it back to 1 is a raise after spending
    at.number_input(key="rc_dp_budget").set_value(1.0).run()
    assert _left(at) == "0 of 0.5"


def test_changing_the_accounting_after_spending_needs_a_reason():
    at = _session()
    _release(at)
    at.radio(key="rc_dp_accounting").set_value("zcdp").run()
    assert not at.exception, at.exception
    assert any("the accounting from basic composition to zCDP" in seen(w.value) for w in at.warning)
    assert [b.accounting for b in BudgetStore().ledgers()[0].budgets] == ["basic"]


def test_there_is_no_reset_of_the_ledger_in_the_app():
    at = _session()
    _release(at)
    labels = [b.label for b in at.button] + [e.label for e in at.expander]
    assert not [x for x in labels if "new ledger" in x.lower() or "restart" in x.lower()]
    assert "nothing in the app resets it" in _captions(at)
    # the sidebar's Reset session forgets the session, not the budget
    at.switch_page("app.py").run()
    next(b for b in at.button if b.label == "Reset session").click().run()
    at.switch_page("pages/dp.py").run()
    assert _left(at) == "0 of 1"


@pytest.mark.parametrize("where", ["pages/report.py"])
def test_the_report_reads_the_persisted_budget(where):
    _release(_session())
    at = _session()
    at.switch_page(where).run()
    assert not at.exception, at.exception
    assert "the privacy budget spent" in _captions(at)


def test_a_report_with_the_budget_is_fresh_on_a_rerun_and_writes_no_profile(monkeypatch):
    """The profile with the budget spent is made once while neither changes (issue 40, item 4):
    a rerun writes no profile JSON; a change of targets makes the report stale."""
    from riskcore.criteria import Targets
    from riskcore.profile import Profile

    _release(_session())
    at = _session()
    at.switch_page("pages/report.py").run()
    at.button(key="rc_report_build").click().run()
    assert not at.exception, at.exception
    assert at.session_state["rc_report"]["profile"].ledger["entries"]
    written = []
    to_dict = Profile.to_dict
    monkeypatch.setattr(Profile, "to_dict", lambda self: written.append(1) or to_dict(self))
    at.run()
    assert not at.exception, at.exception
    assert not written
    assert not any("changed since this report was built" in w.value for w in at.warning)
    set_settings(at, targets=Targets.of(k=3))
    at.run()
    assert any("changed since this report was built" in w.value for w in at.warning)


def test_a_near_duplicate_is_warned_of_where_it_arrives_and_where_releases_are_made():
    _release(_session(("people.csv", _csv())))
    at = AppTest.from_file(APP, default_timeout=60).run()
    # other people in a file of the same shape: no people match, a near-duplicate warning
    data_uploader(at).set_value(("other.csv", _csv(seed=4), "text/csv")).run()
    assert not at.exception, at.exception
    note = (
        "This file has the same 3 columns and 300 rows as one on which the privacy ledger "
        "“people.csv” spent epsilon 1 of 1, but other bytes. If it is the same data, continue "
        "that ledger on the Budget tab of the Differential privacy page before any release."
    )
    assert note in [seen(w.value) for w in at.warning]  # the Data page
    at.switch_page("pages/dp.py").run()
    assert note in [seen(w.value) for w in at.warning]  # beside the release button
    # the file the budget was spent on itself is no near duplicate of its own ledger
    assert not any("other bytes" in seen(w.value) for w in _session(("people.csv", _csv())).warning)


def test_opening_the_data_and_the_dp_page_writes_no_database(database):
    at = _session(("people.csv", _csv()))
    at.switch_page("pages/data.py").run()
    assert not at.exception, at.exception
    assert not database.exists()  # looking at a budget writes nothing
    at.switch_page("pages/dp.py").run()
    _release(at)
    assert database.exists()


def test_a_budget_raised_in_another_session_is_not_undone_by_a_stale_one():
    a = _session()
    _release(a)
    a.switch_page("pages/dp.py").run()  # A's budget widget holds 1
    b = _session()
    b.number_input(key="rc_dp_budget").set_value(5.0).run()
    b.text_input(key="rc_dp_budget_reason_1").input("approved").run()
    b.button(key="rc_dp_budget_apply").click().run()
    assert _left(b) == "4 of 5"
    a.run()  # A's widget still says 1: it follows the ledger, it does not lower it back
    assert not a.exception, a.exception
    assert _left(a) == "4 of 5"
    assert a.number_input(key="rc_dp_budget").value == 5.0
    assert _actions().count("dp_budget") == 1


def test_the_session_that_loses_a_race_for_the_budget_shows_a_refusal(monkeypatch):
    # issue 26: two sessions releasing at once, the losing one showed nothing. A's click runs
    # its page (which reads the ledger: all of it left), and B's release commits between that
    # read and A's reservation: the moment of the race, made deterministic
    from riskcore import dp

    a = _session()
    assert _left(a) == "1 of 1"
    real = BudgetStore.reserve

    def b_wins_first(self, source, entry, **kw):
        monkeypatch.setattr(BudgetStore, "reserve", real)  # only this once
        real(BudgetStore(Store()), source, dp.LedgerEntry("B's count", "laplace", 1.0), user="B")
        return real(self, source, entry, **kw)

    monkeypatch.setattr(BudgetStore, "reserve", b_wins_first)
    _release(a)
    errors = [seen(e.value) for e in a.error]
    assert any(
        e.startswith("Refused: the budget was spent by another release (made at the same time")
        for e in errors
    ), errors
    assert _left(a) == "0 of 1"
    assert _actions().count("dp_release") == 1  # B's; the loser charged nothing
    a.run()  # the refusal stays until the settings or the budget change
    assert any(seen(e.value).startswith("Refused: the budget was spent") for e in a.error)


def test_a_pooled_table_shows_every_ledger_of_its_people_and_the_least_left():
    # issue 37, item 5: halves A (epsilon 0.5 spent) and B (1, all of it) pooled in one file
    from riskcore import dp
    from riskcore.demo import make_people
    from riskcore.io import load_table

    pool = make_people(600, seed=4)
    book = BudgetStore()
    for name, half, eps in (("a.csv", pool.iloc[:300], 0.5), ("b.csv", pool.iloc[300:], 1.0)):
        table = load_table(half.to_csv(index=False).encode(), name=name)
        src = dp.DataSource(name, table.info.fingerprint, tuple(table.data.columns), 300)
        book.reserve(src, dp.LedgerEntry("count of rows", "laplace", eps), data=table.data)
    at = _session(("pooled.csv", pool.to_csv(index=False).encode()))
    assert _left(at) == "0 of 1"  # B's people have nothing left; A alone had 0.5
    (warning,) = [seen(w.value) for w in at.warning if "also holds the people" in seen(w.value)]
    assert "the ledger “b.csv”" in warning and "at most epsilon 0 can be spent now" in warning
