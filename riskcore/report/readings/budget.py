"""Readings for the persisted privacy budget: whose ledger this is, near duplicates, changes.

Source names are the user's text: pages pass these sentences through their
markdown escaping like any other untrusted text.
"""

from __future__ import annotations

from datetime import datetime

import pandas as pd

from riskcore import dp
from riskcore.report.readings._format import plural

__all__ = [
    "budget_change_reading",
    "budget_check_reading",
    "budget_history_table",
    "concurrent_refusal_reading",
    "ledger_provenance",
    "ledger_provenance_reading",
    "ledger_source_reading",
    "near_duplicate_note",
    "near_duplicate_reading",
    "people_match_reading",
    "pooled_reading",
    "split_reading",
]

_ACCOUNTING = {"basic": "basic composition", "zcdp": "zCDP"}


def _when(iso: str) -> str:
    """Return "2026-11-23 17:40 UTC" for a UTC ISO time."""
    try:
        return f"{datetime.fromisoformat(iso):%Y-%m-%d %H:%M} UTC"
    except ValueError:
        return iso


def ledger_source_reading(lookup: dp.LedgerLookup, path: str) -> str:
    """Return which ledger this file's releases are charged to, where it is kept, and why.

    "This file's privacy budget is the ledger “adult.csv”, begun 2026-11-23
    17:40 UTC, on 1 file: epsilon 1 of 1 spent. It is kept in /…/riskcore.db
    and survives a page reload, a new session, a server restart and "Reset
    session"; nothing in the app resets it."

    Parameters
    ----------
    lookup : dp.LedgerLookup
        Which ledger the file is charged to, and the near duplicates.
    path : str
        Where the ledger is kept, as shown.

    Returns
    -------
    str
    """
    keep = (
        f"It is kept in {path} and survives a page reload, a new session, a server restart "
        "and “Reset session”; nothing in the app resets it."
    )
    stored = lookup.ledger
    if lookup.also:
        keep = pooled_reading(lookup) + " " + keep
    if lookup.how == "new" or stored is None:
        return (
            f"No ledger holds this file or a source named “{lookup.source.name}”: the first "
            f"release, or a budget set below, begins the ledger “{lookup.source.name}”. {keep}"
        )
    led = stored.ledger
    files = len(stored.fingerprints)
    spent = (
        f"epsilon {led.spent()[0]:.4g} of {led.epsilon_budget:g} spent on "
        f"{len(led.entries):,} {plural(len(led.entries), 'release', 'releases')}"
    )
    if lookup.how == "people" and lookup.match is not None:
        return people_match_reading(lookup.match, stored) + " " + keep
    if lookup.how == "name":
        return (
            f"This file is new, and its releases will be charged to the ledger "
            f"“{stored.source}” (begun {_when(stored.created)}; {spent}), which has the "
            "source name given. If it is other data, give it another name. " + keep
        )
    split = "" if stored.split is None else " " + split_reading(stored.split)
    return (
        f"This file's privacy budget is the ledger “{stored.source}”, begun "
        f"{_when(stored.created)}, on {files:,} {plural(files, 'file', 'files')}: {spent}."
        f"{split} " + keep
    )


def pooled_reading(lookup: dp.LedgerLookup) -> str:
    """Return which other ledgers a release from a pooled table is charged to as well.

    "This table also holds the people of the ledger “half-b.csv” (100% of its rows, on
    14 columns; epsilon 1 of 1 spent): every release from it is charged to, and checked
    against, that ledger too, so at most epsilon 0 can be spent now."

    Parameters
    ----------
    lookup : dp.LedgerLookup
        Which ledgers the file is charged to.

    Returns
    -------
    str
        ``""`` when the table is charged to no other ledger.
    """
    if not lookup.also:
        return ""
    parts = [
        f"“{s.source}” ({_pct(m.share_of_ledger)} of its rows, on {_columns(m, names=False)}; "
        f"epsilon {s.ledger.spent()[0]:.4g} of {s.ledger.epsilon_budget:g} spent)"
        for s, m in zip(lookup.also, lookup.also_matches, strict=True)
    ]
    k = len(parts)
    return (
        f"This table also holds the people of the {plural(k, 'ledger', 'ledgers')} "
        f"{', '.join(parts)}: every release from it is charged to, and checked against, "
        f"{plural(k, 'that ledger', 'those ledgers')} too, so at most epsilon "
        f"{lookup.remaining:.4g} can be spent now."
    )


def _pct(share: float) -> str:
    return f"{100 * share:.1f}%".replace(".0%", "%")


def _columns(match: dp.PeopleMatch, *, names: bool = True) -> str:
    """Return "8 columns (date_of_birth, postcode = zip, ...)": renamed ones show both names.

    Columns left out of the comparison (changed: jittered, shuffled, rounded) are named after
    them; ``names=False`` gives the count alone ("8 columns").
    """
    k = len(match.pairs)
    if not names:
        return f"{k:,} {plural(k, 'column', 'columns')}"
    shown = [
        p.table_column
        if p.table_column == p.ledger_column
        else f"{p.table_column} = {p.ledger_column}"
        for p in match.pairs
    ]
    left = [p.ledger_column for p in match.left_out]
    out = f"{k:,} {plural(k, 'column', 'columns')} ({', '.join(shown)})"
    if left:
        out += f", leaving out {', '.join(left)} (changed or not agreeing row by row)"
    return out


def people_match_reading(match: dp.PeopleMatch, stored: dp.StoredLedger) -> str:
    """Return why a new file is charged to the ledger of the people it holds.

    "This file is new, but it holds the people of the ledger “patients.csv”:
    99.8% of that ledger's rows are rows of this file, and 100% of this
    file's rows are rows of it, compared on 8 columns (..., postcode = zip),
    whatever their names, order or format. Its releases are charged to
    “patients.csv” (begun ...; epsilon 0.9 of 1 spent on 1 release). If these
    are other people, start a new ledger for it, with a reason (kept in the
    audit log and the report)."

    Parameters
    ----------
    match : dp.PeopleMatch
        How many of the ledger's people the file holds.
    stored : dp.StoredLedger
        The ledger the file is charged to.

    Returns
    -------
    str
    """
    led = stored.ledger
    n = len(led.entries)
    return (
        f"This file is new, but it holds the people of the ledger “{stored.source}”: "
        f"{_pct(match.share_of_ledger)} of that ledger's rows are rows of this file, and "
        f"{_pct(match.share_of_table)} of this file's rows are rows of it, compared on "
        f"{_columns(match)}, whatever their names, order or format. Its releases are charged "
        f"to “{stored.source}” (begun {_when(stored.created)}; epsilon "
        f"{led.spent()[0]:.4g} of {led.epsilon_budget:g} spent on {n:,} "
        f"{plural(n, 'release', 'releases')}). If these are other people, start a new ledger "
        "for it, with a reason (kept in the audit log and the report)."
    )


def split_reading(split: dp.LedgerSplit) -> str:
    """Return why a ledger was begun for a table holding another ledger's people.

    "It was begun on 2026-11-26 18:00 UTC by ana although its first file held
    the people of the ledger “patients.csv” (99.8% of its rows, on 8 columns);
    the reason given: “re-consented cohort”."

    Parameters
    ----------
    split : dp.LedgerSplit
        Why the ledger was begun, and the ledger its file matched.

    Returns
    -------
    str
    """
    m = split.match
    return (
        f"It was begun on {_when(split.time)} by {split.user} although its first file held "
        f"the people of the ledger “{split.resembles}” ({_pct(m.share)} of the rows, on "
        f"{len(m.pairs):,} {plural(len(m.pairs), 'column', 'columns')}); the reason given: "
        f"“{split.reason}”."
    )


def concurrent_refusal_reading(refusal: str) -> str:
    """Return the refusal of a release that lost the race for the last of the budget.

    "Refused: the budget was spent by another release (made at the same time,
    in another session or window). Nothing was released and nothing was
    charged. <the ledger's own refusal>"

    Parameters
    ----------
    refusal : str
        The ledger's own refusal message.

    Returns
    -------
    str
    """
    return (
        "Refused: the budget was spent by another release (made at the same time, in another "
        "session or window). Nothing was released and nothing was charged. " + refusal
    )


def ledger_provenance(lookup: dp.LedgerLookup) -> dict[str, object]:
    """Return which ledger the data is charged to and why, as data for the report.

    Keys: ``ledger`` (its name), ``how`` ("fingerprint", "people", "name" or
    "new"), ``match`` (the people match, when ``how`` is "people") and
    ``split`` (why the ledger was begun despite a match, when it was).

    Parameters
    ----------
    lookup : dp.LedgerLookup
        Which ledger the file is charged to, and the near duplicates.

    Returns
    -------
    dict of str to object
    """
    stored = lookup.ledger
    return {
        "ledger": lookup.name,
        "how": lookup.how,
        "match": None if lookup.match is None else lookup.match.to_dict(),
        "split": None if stored is None or stored.split is None else stored.split.to_dict(),
        # the other ledgers whose people the table holds, charged as well (issue 37, item 5)
        "also": [
            {"ledger": s.source, "match": m.to_dict(), "spent": s.ledger.spent()[0]}
            for s, m in zip(lookup.also, lookup.also_matches, strict=True)
        ],
    }


def budget_check_reading(stated: str, checked: object) -> str:
    """Return the report's budget sentence with where its figures come from.

    Read from the database: "<stated> Read from the privacy ledger in /…/riskcore.db."
    Not: "Not checked: the database /…/riskcore.db holds no ledger of this data. The
    profile states: <stated>" (a profile's ledger is a claim, not a ledger). A report built
    without a check (by a page, from its own lookup) says nothing more.

    Parameters
    ----------
    stated : str
        The budget as stated (accounting, epsilon and delta spent, which ledger).
    checked : object
        The review's ``privacy_budget["checked"]``: a dict with ``against`` (the
        database), ``found`` and ``why``; None when not asked.

    Returns
    -------
    str
    """
    if not isinstance(checked, dict):
        return stated
    where = str(checked.get("against", ""))
    if checked.get("found"):
        return f"{stated} Read from the privacy ledger in {where}."
    why = str(checked.get("why") or f"the database {where} holds no ledger of this data")
    return f"Not checked: {why}. The profile states: {stated}"


def ledger_provenance_reading(provenance: dict[str, object]) -> str:
    """Return the report's sentence: which ledger is the budget, and why.

    "The budget is the ledger “patients.csv”, charged because this table holds
    its people (99.8% of the rows, on 8 columns (...))."

    Parameters
    ----------
    provenance : dict of str to object
        :func:`ledger_provenance`'s values.

    Returns
    -------
    str
    """
    name = str(provenance.get("ledger", ""))
    text = f"The budget is the ledger “{name}”"
    match, split = provenance.get("match"), provenance.get("split")
    if isinstance(match, dict):
        m = dp.PeopleMatch.from_dict(match)
        text += (
            f", charged because this table holds its people ({_pct(m.share)} of the rows, "
            f"on {_columns(m)}), although the file is new to it"
        )
    text += "."
    if isinstance(split, dict):
        text += " " + split_reading(dp.LedgerSplit.from_dict(split))
    also = provenance.get("also")
    if isinstance(also, list) and also:
        names = ", ".join(f"“{a.get('ledger', '')}”" for a in also if isinstance(a, dict))
        text += (
            f" The table also holds the people of {names}: every release from it is charged "
            "to those ledgers too."
        )
    return text


def near_duplicate_reading(source: dp.DataSource, near: dp.StoredLedger) -> str:
    """Return the warning for a new file shaped like one whose budget was spent.

    "This file has the same 15 columns and 32,561 rows as a file on which the
    ledger “adult.csv” spent epsilon 1 of 1, but other bytes: it may be the
    same people with a few bytes changed. ..."

    Parameters
    ----------
    source : dp.DataSource
        The file opened.
    near : dp.StoredLedger
        The ledger of the file it resembles.

    Returns
    -------
    str
    """
    led = near.ledger
    k = len(source.columns)
    return (
        f"This file has the same {k:,} {plural(k, 'column', 'columns')} and "
        f"{source.n_rows:,} {plural(source.n_rows, 'row', 'rows')} as a file on which the "
        f"ledger “{near.source}” spent epsilon {led.spent()[0]:.4g} of "
        f"{led.epsilon_budget:g}, but other bytes: it may be the same people with a few bytes "
        "changed. A new ledger would give the same people a fresh budget; if it is the same "
        "data, continue that ledger."
    )


def near_duplicate_note(source: dp.DataSource, near: dp.StoredLedger) -> str:
    """Return the short warning shown where the file is opened and where releases are made.

    "This file has the same 3 columns and 300 rows as one on which the
    privacy ledger “people.csv” spent epsilon 1 of 1, but other bytes. If
    it is the same data, continue that ledger on the Budget tab of the
    Differential privacy page before any release."

    Parameters
    ----------
    source : dp.DataSource
        The file opened.
    near : dp.StoredLedger
        The ledger of the file it resembles.

    Returns
    -------
    str
    """
    k = len(source.columns)
    return (
        f"This file has the same {k:,} {plural(k, 'column', 'columns')} and "
        f"{source.n_rows:,} {plural(source.n_rows, 'row', 'rows')} as one on which the privacy "
        f"ledger “{near.source}” spent epsilon {near.ledger.spent()[0]:.4g} of "
        f"{near.ledger.epsilon_budget:g}, but other bytes. If it is the same data, continue "
        "that ledger on the Budget tab of the Differential privacy page before any release."
    )


def budget_change_reading(old: dp.PrivacyLedger, new: dp.PrivacyLedger) -> str:
    """Return why a proposed budget change waits for a reason.

    "Epsilon 1 is already spent on this data. Raising the epsilon budget
    from 1 to 5 needs a reason, which the audit log keeps with the change;
    until it is applied the budget stays as it was."

    Parameters
    ----------
    old : dp.PrivacyLedger
        The ledger with its budget now.
    new : dp.PrivacyLedger
        The ledger with the budget proposed.

    Returns
    -------
    str
    """
    parts = []
    if new.epsilon_budget != old.epsilon_budget:
        parts.append(f"the epsilon budget from {old.epsilon_budget:g} to {new.epsilon_budget:g}")
    if new.delta_budget != old.delta_budget:
        parts.append(f"the delta budget from {old.delta_budget:g} to {new.delta_budget:g}")
    if new.accounting != old.accounting:
        parts.append(
            f"the accounting from {_ACCOUNTING[old.accounting]} to {_ACCOUNTING[new.accounting]}"
        )
    what = ", ".join(parts) if parts else "the budget"
    return (
        f"Epsilon {old.spent()[0]:.4g} is already spent on this data. Changing {what} "
        "could leave more to spend, so it needs a reason, which the audit log keeps with the "
        "change; until it is applied the budget stays as it was."
    )


def budget_history_table(stored: dp.StoredLedger) -> pd.DataFrame:
    """Return every budget the ledger was given, oldest first, with who, when and why.

    Parameters
    ----------
    stored : dp.StoredLedger
        The persisted ledger, with its budget history.

    Returns
    -------
    pandas.DataFrame
    """
    return pd.DataFrame(
        [
            {
                "set": _when(b.time),
                "by": b.user,
                "epsilon budget": b.epsilon_budget,
                "delta budget": b.delta_budget,
                "accounting": _ACCOUNTING.get(b.accounting, b.accounting),
                "reason": b.reason,
            }
            for b in stored.budgets
        ],
        columns=["set", "by", "epsilon budget", "delta budget", "accounting", "reason"],
    )
