"""Readings of saved assessments: the list, a reopened file's check, a comparison, the audit log."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from riskcore.report.compare import Comparison, DatasetCheck
from riskcore.report.readings._format import format_number, plural

__all__ = [
    "audit_head_reading",
    "audit_table",
    "audit_verify_command",
    "audit_verify_reading",
    "comparison_reading",
    "comparison_table",
    "dataset_check_reading",
    "dataset_check_table",
    "head_kept_reading",
    "restored_reading",
    "saved_intro",
    "saved_label",
    "saved_table",
    "short_fingerprint",
]

_DATASET_LABEL = {
    "sha256": "SHA-256",
    "rows": "rows",
    "columns": "columns",
    "missing": "missing cells",
}


def short_fingerprint(sha: object) -> str:
    """Return the first 12 hex digits of a SHA-256 ("-" when there is none).

    Parameters
    ----------
    sha : object
        A SHA-256 in hex; an empty value for none.

    Returns
    -------
    str
    """
    return "-" if not sha else str(sha)[:12]


def _text(v: Any, *, share: bool = False) -> str:
    """Return a figure's value as text: numbers with separators, shares in %, None as "-"."""
    if share and isinstance(v, (int, float)) and not isinstance(v, bool):
        return f"{100 * v:.2f}%"
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float):
        return format_number(v, integer=v.is_integer() and abs(v) >= 1, digits=4)
    return str(v)


def _verdict_text(v: object) -> str:
    return "pass" if v is True else "fail" if v is False else "-"


def saved_label(item: Mapping[str, Any]) -> str:
    """Return how an assessment is named in a list: "#3 name (saved 2026-11-23 17:20)".

    Parameters
    ----------
    item : mapping of str to Any
        A saved assessment's summary values (``id``, ``name``, ``created``).

    Returns
    -------
    str
    """
    return f"#{item['id']} {item['name']} (saved {str(item['created'])[:16].replace('T', ' ')})"


def saved_table(items: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """Return one row per saved assessment: name, time, user, dataset, fingerprint, verdict.

    Parameters
    ----------
    items : sequence of mapping
        :meth:`riskcore.store.SavedSummary.to_dict` of each.

    Returns
    -------
    pandas.DataFrame
    """
    rows = [
        {
            "id": int(i["id"]),
            "name": str(i["name"]),
            "saved (UTC)": str(i["created"])[:19].replace("T", " "),
            "user": str(i["user"]),
            "dataset": str(i.get("dataset") or "-"),
            "fingerprint": short_fingerprint(i["fingerprint"]),
            "verdict": _verdict_text(i.get("verdict")),
            "raw data stored": "yes" if i.get("has_data") else "no",
        }
        for i in items
    ]
    cols = ["id", "name", "saved (UTC)", "user", "dataset", "fingerprint", "verdict"]
    return pd.DataFrame(rows, columns=[*cols, "raw data stored"])


def dataset_check_table(check: DatasetCheck) -> pd.DataFrame:
    """Return the saved dataset's figures against the file's: SHA-256, rows, columns, missing.

    Parameters
    ----------
    check : DatasetCheck
        The file's figures against the saved dataset's.

    Returns
    -------
    pandas.DataFrame
    """
    rows = []
    for key, label in _DATASET_LABEL.items():
        s, c = check.saved.get(key), check.current.get(key)
        if key == "sha256":
            s, c = short_fingerprint(s), short_fingerprint(c)
        rows.append(
            {
                "figure": label,
                "saved assessment": _text(s),
                "given now": _text(c),
                "same": "yes" if key not in check.differences else "no",
            }
        )
    return pd.DataFrame(rows)


def dataset_check_reading(check: DatasetCheck, name: str) -> str:
    """Return why a file is accepted for, or refused by, a saved assessment.

    Parameters
    ----------
    check : DatasetCheck
        The file's figures against the saved dataset's.
    name : str
        The file's name.

    Returns
    -------
    str
    """
    if check.matches:
        return (
            f"This file is the one '{name}' assessed (SHA-256 "
            f"{short_fingerprint(check.saved['sha256'])}..., {_text(check.saved['rows'])} rows)."
        )
    parts = []
    for key in ("rows", "columns", "missing"):
        if key in check.differences:
            parts.append(
                f"{_DATASET_LABEL[key]} {_text(check.saved[key])} saved, "
                f"{_text(check.current[key])} now"
            )
    if "sha256" in check.differences and not parts:
        parts.append("the same numbers of rows, columns and missing cells, but other bytes")
    if check.missing_columns:
        parts.append(
            plural(len(check.missing_columns), "the column ", "the columns ")
            + ", ".join(check.missing_columns)
            + " of its roles "
            + plural(len(check.missing_columns), "is", "are")
            + " absent"
        )
    return (
        f"Refused: this is not the file '{name}' assessed (its fingerprint differs: "
        + "; ".join(parts)
        + "). Nothing was restored; open the file it was made on."
    )


def restored_reading(name: str, profile: Mapping[str, Any]) -> str:
    """Return what reopening an assessment restored into the session (a profile of any version).

    Parameters
    ----------
    name : str
        The assessment's name.
    profile : mapping of str to Any
        The profile restored.

    Returns
    -------
    str
    """
    from riskcore.profile import Profile
    from riskcore.report.readings.criteria import targets_summary

    p = Profile.read(profile)
    qis, sens = p.roles.quasi_identifiers, p.roles.sensitive
    targets = targets_summary(p.targets) if p.targets.criteria else ""
    text = (
        f"Reopened '{name}': its roles ({len(qis)} "
        + plural(len(qis), "quasi-identifier", "quasi-identifiers")
        + f", {len(sens)} sensitive)"
        + (f", targets ({targets})" if targets else "")
    )
    text += ", and its generalization" if p.recipe is not None else ""
    return text + " are in use on every page."


def _said(v: Any, share: bool) -> str:
    """Return a compared figure as text, "none" where the assessment has none."""
    return "none" if v is None or v == "" else _text(v, share=share)


def comparison_table(cmp: Comparison) -> pd.DataFrame:
    """Return the two assessments' key figures side by side, with the difference and the safer.

    One convention, the reading's (:func:`comparison_reading`): a figure an
    assessment does not have reads "none" (no generalization, nothing
    suppressed); the difference is blank where it is not a number (two
    names, two verdicts), never "-" beside a "none".

    Parameters
    ----------
    cmp : Comparison
        The two assessments compared.

    Returns
    -------
    pandas.DataFrame
    """
    a, b = cmp.names
    labels = {"a": "A", "b": "B", "": ""}
    rows = []
    for f in cmp.figures:
        x, y = _said(f.a, f.share), _said(f.b, f.share)
        if f.figure == "SHA-256":
            x, y = short_fingerprint(f.a) + "...", short_fingerprint(f.b) + "..."
        d = f.difference
        if d is None:
            diff = ""
        elif d == 0:
            diff = "0"
        else:
            diff = f"{100 * d:+.2f} points" if f.share else f"{d:+,.4g}"
        rows.append(
            {
                "figure": f.figure,
                f"A: {a}": x,
                f"B: {b}": y,
                "B - A": diff,
                "safer": labels[f.safer],
            }
        )
    return pd.DataFrame(rows)


def comparison_reading(cmp: Comparison, limit: int = 6) -> str:
    """Return how two assessments differ: the data, the roles, then the figures that changed.

    Parameters
    ----------
    cmp : Comparison
        The two assessments compared.
    limit : int, optional
        At most this many are listed.

    Returns
    -------
    str
    """
    a, b = cmp.names
    data = "the same file" if cmp.same_data else "different data"
    out = [f"'{a}' (A) and '{b}' (B) assess {data}."]
    for role, change in cmp.roles.items():
        what = role.replace("_", "-").rstrip("s") + "s"
        bits = []
        if change["added"]:
            bits.append("B adds " + ", ".join(change["added"]))
        if change["removed"]:
            bits.append("B drops " + ", ".join(change["removed"]))
        out.append(f"Roles, {what}: " + "; ".join(bits) + ".")
    skip = {"dataset", "SHA-256", "quasi-identifiers", "sensitive attributes"}
    changed = [f for f in cmp.changed if f.figure not in skip]
    if not changed:
        out.append("Every key figure is the same.")
        return " ".join(out)

    shown = [f"{f.figure} {_said(f.a, f.share)} -> {_said(f.b, f.share)}" for f in changed[:limit]]
    more = len(changed) - len(shown)
    out.append(
        f"{len(changed)} key "
        + plural(len(changed), "figure differs", "figures differ")
        + ": "
        + "; ".join(shown)
        + (f"; and {more} more" if more else "")
        + "."
    )
    safer = {s: sum(f.safer == s for f in cmp.figures) for s in ("a", "b")}
    if safer["a"] or safer["b"]:
        counts = [
            f"{x.upper()} on {safer[x]} " + plural(safer[x], "figure", "figures")
            for x in ("a", "b")
            if safer[x]
        ]
        out.append("Safer: " + ", ".join(counts) + ".")
    return " ".join(out)


def audit_table(entries: Sequence[Mapping[str, Any]], width: int = 160) -> pd.DataFrame:
    """Return the audit log, newest first: time, user, roles, action, dataset, the changed values.

    The identity an entry holds (:mod:`riskcore.store.identity`) is shown as
    the user (its label) and the roles, not repeated among the changed values.

    Parameters
    ----------
    entries : sequence of mapping
        :meth:`riskcore.store.AuditEntry.to_dict` of each.
    width : int
        The changed values (as JSON) are cut to this many characters.

    Returns
    -------
    pandas.DataFrame
    """
    rows = []
    for e in reversed(entries):
        changes = dict(e.get("changes") or {})
        who = changes.pop("identity", None)
        roles = who.get("roles") if isinstance(who, Mapping) else None
        text = json.dumps(changes, ensure_ascii=False, sort_keys=True)
        rows.append(
            {
                "entry": int(e["seq"]),
                "time (UTC)": str(e["time"])[:19].replace("T", " "),
                "user": str(e["user"]),
                "roles": ", ".join(map(str, roles)) if roles else "-",
                "action": str(e["action"]),
                "dataset": short_fingerprint(e.get("fingerprint")),
                "changed values": text if len(text) <= width else text[: width - 3] + "...",
                "hash": short_fingerprint(e["hash"]),
            }
        )
    cols = ["entry", "time (UTC)", "user", "roles", "action", "dataset", "changed values", "hash"]
    return pd.DataFrame(rows, columns=cols)


def audit_verify_reading(
    ok: bool,
    entries: int,
    first_broken: int | None,
    reason: str,
    *,
    keyed: bool = True,
) -> str:
    """Return the outcome of checking the audit log, in one sentence.

    Parameters
    ----------
    ok : bool
        The chain holds.
    entries : int
        The entries checked.
    first_broken : int or None
        The first entry that does not hold (None: none).
    reason : str
        :class:`riskcore.store.AuditVerification`'s fields.
    keyed : bool, default True
        False for an old unkeyed log (which is never proven).

    Returns
    -------
    str
    """
    if ok:
        return (
            f"The audit log is intact: {entries:,} "
            + plural(entries, "entry", "entries")
            + ", each holding the HMAC-SHA256, under the audit key, of its contents, of the "
            "rows it wrote and of the entry before it, and every saved assessment, ledger, "
            "budget and release is one of those rows."
        )
    if not keyed:
        return f"The audit log is NOT PROVEN: {reason}."
    if first_broken is None:
        return f"The audit log is BROKEN: {reason}."
    return f"The audit log is BROKEN at entry {first_broken}: {reason}."


def audit_verify_command(head: Mapping[str, Any]) -> str:
    """Return the command that checks the audit log against ``head``, to copy as it is.

    Parameters
    ----------
    head : mapping
        ``{"seq": int, "hash": str}`` (:class:`riskcore.store.AuditHead`).

    Returns
    -------
    str
        ``riskcore audit verify --expect-head SEQ:HASH``.
    """
    return f"riskcore audit verify --expect-head {int(head['seq'])}:{head['hash']}"


def audit_head_reading(head: Mapping[str, Any] | None, *, command_below: bool = False) -> str:
    """Return the audit log's head as a report or the command line states it.

    Parameters
    ----------
    head : mapping or None
        ``{"seq": int, "hash": str}`` (:class:`riskcore.store.AuditHead`); None
        when there was no audit log.
    command_below : bool, default False
        A page shows :func:`audit_verify_command` on its own below (a code block,
        copied as it is): the sentence points to it and quotes no head, since a
        page's markdown text holds invisible joiners after colons (``ui.core.safe.md``).

    Returns
    -------
    str
    """
    if head is None:
        return "There was no audit log when this was made, so no audit head is recorded."
    seq = int(head["seq"])
    if command_below:
        return (
            f"Audit log head: entry {seq} and its HMAC-SHA256. Keep the command below apart "
            "from the database: it shows whether the log was later cut back or replaced."
        )
    return (
        f"Audit log head: {seq}:{head['hash']} (entry {seq} and its HMAC-SHA256); kept apart "
        f"from the database, `{audit_verify_command(head)}` shows whether the log was later "
        "cut back or replaced."
    )


def saved_intro() -> str:
    """Return the Saved-assessments page's opening paragraph.

    Returns
    -------
    str
    """
    return (
        "Assessments saved from the Report page, kept in a local SQLite database: each holds "
        "its profile (roles, targets, the generalization), its results (the report's JSON "
        "twin) and the HTML report, and the raw data only when that was ticked. Reopening "
        "asks for the data again and restores the roles, targets and generalization only "
        "for the file that was assessed (the same SHA-256). Every save, reopening, "
        "comparison, approval and deletion is written to the append-only audit log below, "
        "under the identity of who did it; a reviewer approves another person's assessment."
    )


def head_kept_reading() -> str:
    """Return what only a head kept apart from the database finds, said wherever a head is shown.

    Returns
    -------
    str
        That cutting the log's last entries, or replacing the database together with its
        key file, is found only with a head kept elsewhere; where riskcore leaves its copy.
    """
    return (
        "Only a head kept apart from the database finds the log's last entries cut off, or "
        "the database replaced together with its key file: riskcore leaves the head after "
        "every write in the file <database>.head, which `riskcore audit verify` compares "
        "with, but that copy is as easy to change as the database, so keep one elsewhere (a "
        "ticket, an e-mail) and check with `riskcore audit verify --expect-head SEQ:HASH`."
    )
