"""The hostile suite of the privacy-budget ledgers (issue 37, items 4 and 5).

Each attack gave people a fresh budget, or a pooled table one ledger only: the same
1,000 people charged to a ledger, then a table of them changed so that no row is equal
on every column (one column jittered, shuffled or rounded), or 45% of them padded with
other people, looked up again; and a table pooling two ledgers' people. Each must be
charged to the ledger(s) of its people. Small tables of other people that match every
row on two low-cardinality columns must not be.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pandas as pd
import pytest

from riskcore import dp
from riskcore.demo import make_people
from riskcore.io import load_table
from riskcore.report.readings import ledger_source_reading
from riskcore.store import Store
from riskcore.store.ledgers import BudgetStore


def _source(df: pd.DataFrame, name: str) -> dp.DataSource:
    digest = hashlib.sha256(df.to_csv(index=False).encode("utf-8")).hexdigest()
    return dp.DataSource(name, digest, tuple(map(str, df.columns)), len(df))


def _entry(eps: float) -> dp.LedgerEntry:
    return dp.LedgerEntry("count of rows", "laplace", eps)


@pytest.fixture(scope="module")
def people() -> pd.DataFrame:
    return make_people(1000, seed=0)


@pytest.fixture
def book(tmp_path, people) -> BudgetStore:
    store = BudgetStore(Store(tmp_path / "r.db"))
    store.reserve(_source(people, "people.csv"), _entry(0.9), data=people)
    return store


def _jitter_age(df: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    return df.assign(age=df["age"] + rng.choice([-1, 1], len(df)))


def _shuffle_ssn(df: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    # the most telling column (every value distinct) moved to other rows
    return df.assign(ssn=df["ssn"].to_numpy()[rng.permutation(len(df))])


def _round_numbers(df: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    return df.assign(
        age=(df["age"] / 10).round().astype("int64") * 10,
        hours_per_week=(df["hours_per_week"] / 10).round().astype("int64") * 10,
    )


def _keep_45_and_pad(df: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    keep = df.iloc[rng.permutation(len(df))[:450]]
    others = make_people(1000, seed=1).iloc[:550]  # other people, new names and SSNs
    return pd.concat([keep, others], ignore_index=True)


ONE_COLUMN_CHANGED = {
    "age jittered by 1": _jitter_age,
    "the SSN column shuffled": _shuffle_ssn,
    "age and hours rounded to 10": _round_numbers,
    "45% kept, padded with other people": _keep_45_and_pad,
}


@pytest.mark.parametrize("change", list(ONE_COLUMN_CHANGED))
def test_one_changed_column_does_not_give_the_same_people_a_fresh_budget(book, people, change):
    changed = ONE_COLUMN_CHANGED[change](people, np.random.default_rng(5))
    src = _source(changed, f"{change}.csv")
    look = book.lookup(src, data=changed)
    assert look.how == "people" and look.name == "people.csv", look.match
    assert look.budget.remaining() == pytest.approx(0.1)
    with pytest.raises(dp.BudgetExceededError, match=r"^Refused"):
        book.reserve(src, _entry(0.5), data=changed)
    assert len(book.ledgers()) == 1


@pytest.mark.parametrize("n", [20, 50, 200])
@pytest.mark.parametrize("columns", [("sex", "race"), ("sex", "income"), ("race", "workclass")])
def test_small_tables_of_other_people_are_not_charged_by_chance(book, people, n, columns):
    # every row's values of the two columns are a ledger row's: every row "matches" on them
    rng = np.random.default_rng(n)
    rows = people.iloc[rng.choice(len(people), n, replace=False)]
    table = pd.DataFrame(
        {
            columns[0]: rows[columns[0]].to_numpy(),
            columns[1]: rows[columns[1]].to_numpy(),
            "member": [f"M{v}" for v in rng.integers(10**8, size=n)],
            "score": rng.normal(size=n).round(3),
        }
    )
    look = book.lookup(_source(table, "club.csv"), data=table)
    assert look.how == "new" and look.match is None


# --- issue 37, item 5: a pooled table is charged to every ledger of its people ----------


@pytest.fixture
def halves(tmp_path) -> tuple[BudgetStore, pd.DataFrame]:
    """Half A charged epsilon 0.5, half B its whole budget of 1; the pool of both."""
    pool = make_people(2000, seed=3)
    store = BudgetStore(Store(tmp_path / "h.db"))
    a, b = pool.iloc[:1000], pool.iloc[1000:]
    store.reserve(_source(a, "half-a.csv"), _entry(0.5), data=a)
    store.reserve(_source(b, "half-b.csv"), _entry(1.0), data=b)
    return store, pool


def test_a_pooled_table_is_checked_against_every_ledger_of_its_people(halves):
    store, pool = halves
    src = _source(pool, "pooled.csv")
    # the issue: charged to A alone, B's people reached epsilon 1.5 against a budget of 1
    with pytest.raises(dp.BudgetExceededError, match=r"half-b\.csv") as refused:
        store.reserve(src, _entry(0.5), data=pool)
    assert str(refused.value).startswith("Refused")
    spent = {s.source: s.ledger.spent()[0] for s in store.ledgers()}
    assert spent == {"half-a.csv": 0.5, "half-b.csv": 1.0}  # nothing written
    look = store.lookup(src, data=pool)
    assert {s.source for s in look.charged} == {"half-a.csv", "half-b.csv"}
    assert look.remaining == 0.0  # B's people have no budget left
    text = ledger_source_reading(look, "r.db")
    assert "also holds the people of the ledger “half-b.csv”" in text
    assert "at most epsilon 0 can be spent now" in text


def test_a_pooled_release_is_charged_to_every_ledger_of_its_people(halves, tmp_path):
    store, pool = halves
    store.set_budget(_source(pool.iloc[1000:], "half-b.csv"), 1.5, 1e-6, reason="re-consented")
    store.reserve(_source(pool, "pooled.csv"), _entry(0.25), data=pool)
    spent = {s.source: s.ledger.spent()[0] for s in store.ledgers()}
    assert spent == {"half-a.csv": 0.75, "half-b.csv": 1.25}
    releases = [e for e in store.store.audit() if e.action == "dp_release"]
    assert {e.changes["ledger"] for e in releases[-2:]} == {"half-a.csv", "half-b.csv"}


def test_a_ledger_begun_with_a_reason_is_not_charged_for_the_ledger_it_split_from(book, people):
    # the user said "these are other people": neither ledger is charged for the other's files
    copy = people.iloc[::-1]
    src = _source(copy, "cohort-2.csv")
    book.start_new_ledger(src, reason="a re-consented cohort", data=copy)
    book.reserve(src, _entry(0.3), data=copy)
    book.reserve(_source(people, "people.csv"), _entry(0.05), data=people)
    spent = {s.source: s.ledger.spent()[0] for s in book.ledgers()}
    assert spent == pytest.approx({"people.csv": 0.95, "cohort-2.csv": 0.3})


# --- issue 37, item 11: the command-line report states the database's ledger, not the claim --

_PROFILE = {
    "quasi_identifiers": ["age", "sex", "zip"],
    "sensitive": ["income"],
    "targets": {"k": 3},
    "ledger": {
        **dp.PrivacyLedger(1.0, 1e-6).to_dict(),  # claims nothing was spent
        "charged_to": {"ledger": "patients.csv", "how": "fingerprint", "match": None},
    },
}


def _report(tmp_path, db) -> tuple[dict, str]:
    from riskcore.cli import main

    profile = tmp_path / "profile.json"
    profile.write_text(json.dumps(_PROFILE))
    out, twin = tmp_path / "r.html", tmp_path / "r.json"
    argv = ["report", str(tmp_path / "patients.csv"), "--profile", str(profile)]
    assert main([*argv, "--out", str(out), "--json", str(twin), "--db", str(db)]) in (0, 1)
    return json.loads(twin.read_text())["privacy_budget"], out.read_text(encoding="utf-8")


def test_the_report_says_a_claimed_ledger_was_not_checked(tmp_path, people):
    people.to_csv(tmp_path / "patients.csv", index=False)
    budget, html = _report(tmp_path, tmp_path / "none.db")
    assert budget["checked"]["found"] is False
    assert "Not checked: the database" in html and "The profile states:" in html


def test_the_report_states_the_databases_ledger_not_the_profiles_claim(tmp_path, people):
    people.to_csv(tmp_path / "patients.csv", index=False)
    table = load_table(str(tmp_path / "patients.csv"))
    src = dp.DataSource(
        "patients.csv", table.info.fingerprint, tuple(table.data.columns), len(table.data)
    )
    db = tmp_path / "r.db"
    BudgetStore(Store(db)).reserve(src, _entry(0.9), data=table.data)
    budget, html = _report(tmp_path, db)
    assert budget["epsilon_spent"] == pytest.approx(0.9)  # the claim said 0
    assert budget["checked"] == {"against": str(db), "found": True}
    assert "epsilon spent 0.9 of 1" in html and "Read from the privacy ledger in" in html
