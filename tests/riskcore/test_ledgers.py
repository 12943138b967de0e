"""The persisted privacy budget (issue 17): every way of undoing it is refused or audited,
and parallel processes cannot overspend it."""

from __future__ import annotations

import multiprocessing
import sqlite3
import sys
import types
from contextlib import closing

import numpy as np
import pandas as pd
import pytest

from riskcore import dp
from riskcore.dp.release import Query, release
from riskcore.errors import RiskcoreError
from riskcore.report import readings as rd
from riskcore.store import Store
from riskcore.store.ledgers import BudgetStore, holds_ledgers

COLUMNS = ("age", "sex", "zip")
A = dp.DataSource("adult.csv", "a" * 64, COLUMNS, 100)


def _entry(eps: float = 0.5, query: str = "count of rows") -> dp.LedgerEntry:
    return dp.LedgerEntry(query, "laplace", eps)


@pytest.fixture
def book(tmp_path) -> BudgetStore:
    return BudgetStore(Store(tmp_path / "r.db"))


def test_a_release_is_kept_and_found_again_by_another_store_on_the_same_file(book):
    assert book.lookup(A).how == "new"
    assert book.lookup(A).budget.remaining() == 1.0  # the default budget
    led = book.reserve(A, _entry(0.75))
    assert led.spent()[0] == 0.75
    # a new process or session opens the file again: the same ledger, the same spending
    again = BudgetStore(Store(book.path)).lookup(A)
    assert again.how == "fingerprint" and again.ledger is not None
    assert again.ledger.source == "adult.csv"
    assert again.budget.remaining() == pytest.approx(0.25)
    assert [e.epsilon for e in again.budget.entries] == [0.75]


def test_a_renamed_copy_of_the_same_bytes_keeps_its_ledger(book):
    book.reserve(A, _entry(1.0))
    renamed = dp.DataSource("fresh-name.csv", A.fingerprint, COLUMNS, 100)
    look = book.lookup(renamed)
    assert look.how == "fingerprint" and look.name == "adult.csv"
    with pytest.raises(dp.BudgetExceededError, match=r"^Refused: this release costs epsilon 0\.1"):
        book.reserve(renamed, _entry(0.1))


def test_a_new_file_under_the_same_source_name_joins_that_ledger(book):
    book.reserve(A, _entry(0.5))
    v2 = dp.DataSource("adult.csv", "b" * 64, (*COLUMNS, "extra"), 120)
    look = book.lookup(v2)
    assert look.how == "name" and look.budget.spent()[0] == 0.5
    book.reserve(v2, _entry(0.5))
    (stored,) = book.ledgers()
    assert stored.fingerprints == (A.fingerprint, v2.fingerprint)
    assert stored.spent == 1.0
    join = [e for e in book.store.audit() if e.action == "dp_ledger_join"]
    assert join[0].changes["how"] == "same source name"


def test_one_byte_changed_and_renamed_is_a_near_duplicate_that_can_continue(book):
    book.reserve(A, _entry(1.0))
    other = dp.DataSource("b.csv", "c" * 64, ("zip", "age", "sex"), 100)  # columns reordered
    look = book.lookup(other)
    assert look.how == "new"
    assert [s.source for s in look.near] == ["adult.csv"]
    assert rd.near_duplicate_reading(other, look.near[0]) == (
        "This file has the same 3 columns and 100 rows as a file on which the ledger "
        "“adult.csv” spent epsilon 1 of 1, but other bytes: it may be the same people with a "
        "few bytes changed. A new ledger would give the same people a fresh budget; if it is "
        "the same data, continue that ledger."
    )
    assert rd.near_duplicate_note(other, look.near[0]) == (
        "This file has the same 3 columns and 100 rows as one on which the privacy ledger "
        "“adult.csv” spent epsilon 1 of 1, but other bytes. If it is the same data, continue "
        "that ledger on the Budget tab of the Differential privacy page before any release."
    )
    # not a near duplicate: another row count, or a ledger that spent nothing
    assert not book.lookup(dp.DataSource("c.csv", "d" * 64, COLUMNS, 101)).near
    book.set_budget(dp.DataSource("unspent", "e" * 64, COLUMNS, 100), 2.0, 1e-6)
    assert [s.source for s in book.lookup(other).near] == ["adult.csv"]
    # the user continues the spent ledger: the file is charged to it from now on
    book.attach(other, "adult.csv")
    look = book.lookup(other)
    assert look.how == "fingerprint" and look.name == "adult.csv" and not look.near
    with pytest.raises(dp.BudgetExceededError):
        book.reserve(other, _entry(0.1))
    with pytest.raises(RiskcoreError, match=r"already charged to the ledger 'adult\.csv'"):
        book.attach(other, "unspent")
    with pytest.raises(RiskcoreError, match="no privacy ledger named 'nope'"):
        book.attach(dp.DataSource("x", "f" * 64), "nope")


def test_a_new_ledger_for_a_near_duplicate_is_audited_with_the_ledger_it_resembles(book):
    book.reserve(A, _entry(1.0))
    other = dp.DataSource("b.csv", "c" * 64, COLUMNS, 100)
    book.reserve(other, _entry(0.5))
    new = [e for e in book.store.audit() if e.action == "dp_ledger_new"]
    assert [e.changes["ledger"] for e in new] == ["adult.csv", "b.csv"]
    assert new[1].changes["near_duplicate_of"] == ["adult.csv"]
    assert new[1].fingerprint == other.fingerprint


def test_raising_the_budget_after_spending_needs_a_reason_and_is_logged(book):
    book.reserve(A, _entry(1.0))
    for change in (
        {"epsilon_budget": 5.0, "delta_budget": 1e-6},
        {"epsilon_budget": 1.0, "delta_budget": 1e-5},
        {"epsilon_budget": 1.0, "delta_budget": 1e-6, "accounting": "zcdp"},
    ):
        for reason in ("", "   "):
            with pytest.raises(dp.BudgetChangeRefusedError, match="needs a reason"):
                book.set_budget(A, **change, reason=reason)
    assert book.lookup(A).budget.epsilon_budget == 1.0  # nothing was written
    assert [e.action for e in book.store.audit()] == ["dp_ledger_new", "dp_release"]

    led = book.set_budget(A, 5.0, 1e-6, reason="second analysis approved by the board", user="ana")
    assert led.remaining() == 4.0
    assert book.lookup(A).budget.remaining() == 4.0
    last = book.store.audit()[-1]
    assert (last.action, last.user, last.fingerprint) == ("dp_budget", "ana", A.fingerprint)
    assert last.changes == {
        "ledger": "adult.csv",
        "from": {"epsilon_budget": 1.0, "delta_budget": 1e-6, "accounting": "basic"},
        "to": {"epsilon_budget": 5.0, "delta_budget": 1e-6, "accounting": "basic"},
        "spent": 1.0,
        "reason": "second analysis approved by the board",
    }
    assert book.store.verify().ok
    # the history keeps every budget, the reason with the raise
    (stored,) = book.ledgers()
    table = rd.budget_history_table(stored)
    assert list(table["epsilon budget"]) == [1.0, 5.0]
    assert list(table["reason"]) == ["", "second analysis approved by the board"]


def test_lowering_is_always_allowed_and_logged(book):
    book.reserve(A, _entry(0.5))
    led = book.set_budget(A, 0.25, 1e-7)  # below what is spent: allowed, no reason
    assert led.remaining() == 0.0
    assert book.store.audit()[-1].changes["reason"] == ""
    with pytest.raises(dp.BudgetExceededError):
        book.reserve(A, _entry(0.01))
    # and raising it back is a raise after spending
    with pytest.raises(dp.BudgetChangeRefusedError):
        book.set_budget(A, 1.0, 1e-7)


def test_before_spending_the_budget_is_free_and_persisted(book):
    book.set_budget(A, 3.0, 1e-5, "zcdp")
    book.set_budget(A, 2.0, 1e-5, "basic")
    assert book.lookup(A).budget.epsilon_budget == 2.0
    assert book.set_budget(A, 2.0, 1e-5, "basic").epsilon_budget == 2.0  # no change
    assert [e.action for e in book.store.audit()] == ["dp_ledger_new", "dp_budget", "dp_budget"]
    with pytest.raises(ValueError):
        book.set_budget(A, 0.0, 1e-5)
    with pytest.raises(ValueError, match="accounting"):
        book.set_budget(A, 1.0, 1e-5, "renyi")


def _raw(book):
    return closing(sqlite3.connect(book.path, isolation_level=None))


@pytest.mark.parametrize(
    "sql",
    [
        "DELETE FROM dp_ledger_entries",
        "UPDATE dp_ledger_entries SET entry = '{}'",
        "DELETE FROM dp_ledger_budgets",
        "UPDATE dp_ledger_budgets SET epsilon_budget = 100",
        "DELETE FROM dp_ledger_files",
        "UPDATE dp_ledger_files SET ledger = 99",
        "DELETE FROM dp_ledgers",
        "UPDATE dp_ledgers SET source = 'other'",
    ],
)
def test_the_ledger_tables_refuse_update_and_delete(book, sql):
    book.reserve(A, _entry(0.5))
    with _raw(book) as con, pytest.raises(sqlite3.DatabaseError, match="append-only"):
        con.execute(sql)
    assert book.lookup(A).budget.spent()[0] == 0.5


def test_a_release_reserves_before_it_draws_and_a_refused_one_writes_nothing(book):
    data = pd.DataFrame({"age": np.arange(100)})
    handle = book.handle(A, user="ana")
    rel = release(data, Query("count"), epsilon=0.6, ledger=handle)
    assert rel.ledger is not None and rel.ledger.spent()[0] == pytest.approx(rel.epsilon)
    stored = book.lookup(A).budget
    assert [e.epsilon for e in stored.entries] == [rel.epsilon]
    audit = book.store.audit()[-1]
    assert audit.action == "dp_release" and audit.changes["query"] == "count of rows"
    with pytest.raises(dp.BudgetExceededError):
        release(data, Query("count"), epsilon=0.6, ledger=handle)
    assert len(book.lookup(A).budget.entries) == 1


def test_a_database_that_cannot_be_opened_gives_a_clear_message(tmp_path):
    (tmp_path / "dir.db").mkdir()
    with pytest.raises(RiskcoreError, match=r"cannot open the database|could not be read"):
        BudgetStore(Store(tmp_path / "dir.db"))


def _spender(path: str, worker: int, tries: int, out) -> None:
    book = BudgetStore(Store(path))
    source = dp.DataSource("shared.csv", "9" * 64, COLUMNS, 100)
    won = 0
    for i in range(tries):
        try:
            book.reserve(source, _entry(0.1, f"w{worker} q{i}"))
            won += 1
        except dp.BudgetExceededError:
            pass
    out.put(won)


@pytest.fixture
def clean_main(monkeypatch):
    """A spawned process re-imports the parent's __main__ (an AppTest's last page)."""
    monkeypatch.setitem(sys.modules, "__main__", types.ModuleType("__main__"))


def test_eight_parallel_processes_cannot_overspend(tmp_path, clean_main):
    path = str(tmp_path / "p.db")
    first = dp.DataSource("shared.csv", "9" * 64, COLUMNS, 100)
    BudgetStore(Store(path)).reserve(first, _entry(0.1, "parent"))
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    # 8 x 4 attempts of epsilon 0.1 against the 0.9 left of a budget of 1: exactly 9 may pass
    procs = [ctx.Process(target=_spender, args=(path, w, 4, out)) for w in range(8)]
    for p in procs:
        p.start()
    won = [out.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0] * 8
    assert sum(won) == 9
    book = BudgetStore(Store(path))
    led = book.lookup(dp.DataSource("x", "9" * 64)).budget
    assert len(led.entries) == 10
    assert led.spent()[0] == pytest.approx(1.0)
    assert len([e for e in book.store.audit() if e.action == "dp_release"]) == 10
    assert book.store.verify().ok


def test_the_readings_say_which_ledger_where_and_why(book):
    path = book.path
    assert rd.ledger_source_reading(book.lookup(A), path) == (
        "No ledger holds this file or a source named “adult.csv”: the first release, or a "
        "budget set below, begins the ledger “adult.csv”. It is kept in " + path + " and "
        "survives a page reload, a new session, a server restart and “Reset session”; nothing "
        "in the app resets it."
    )
    book.reserve(A, _entry(0.5))
    look = book.lookup(A)
    assert look.ledger is not None
    day = look.ledger.created[:10]
    assert rd.ledger_source_reading(look, path).startswith(
        f"This file's privacy budget is the ledger “adult.csv”, begun {day} "
    )
    assert "on 1 file: epsilon 0.5 of 1 spent on 1 release. It is kept in " in (
        rd.ledger_source_reading(look, path)
    )
    v2 = dp.DataSource("adult.csv", "b" * 64, COLUMNS, 7)
    assert "This file is new, and its releases will be charged to the ledger “adult.csv”" in (
        rd.ledger_source_reading(book.lookup(v2), path)
    )
    old = look.budget
    new = dp.PrivacyLedger(5.0, 1e-5, "zcdp", old.entries)
    assert rd.budget_change_reading(old, new) == (
        "Epsilon 0.5 is already spent on this data. Changing the epsilon budget from 1 to 5, "
        "the delta budget from 1e-06 to 1e-05, the accounting from basic composition to zCDP "
        "could leave more to spend, so it needs a reason, which the audit log keeps with the "
        "change; until it is applied the budget stays as it was."
    )


def test_no_test_writes_the_users_real_database(database):
    from riskcore.store import default_path

    assert default_path() == database
    assert BudgetStore().path == str(database)


def test_holds_ledgers_reads_only(tmp_path):
    path = tmp_path / "r.db"
    assert not holds_ledgers(path) and not path.exists()
    Store(path)
    files = sorted(tmp_path.iterdir())
    stat = path.stat()
    assert not holds_ledgers(path)  # the store's tables only
    assert sorted(tmp_path.iterdir()) == files  # no journal left
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (stat.st_size, stat.st_mtime_ns)
    BudgetStore(Store(path))
    assert holds_ledgers(path)


def test_the_old_import_path_gives_the_same_ledgers():
    # riskcore/ledgers.py moved into the store package; the old path re-exports it
    import riskcore.ledgers as old
    import riskcore.store.ledgers as new

    assert old.BudgetStore is new.BudgetStore and old.holds_ledgers is new.holds_ledgers
    assert old.SCHEMA is new.SCHEMA and old.LedgerHandle is new.LedgerHandle
