"""Readings of the user's work surviving: a download that says what it holds, the offer to
restore the work kept for a file, the demo notice, and the key of the tokens and date shifts."""

from __future__ import annotations

from datetime import datetime
from typing import Any

__all__ = [
    "DEMO_NOTICE",
    "KEY_CONFIRM",
    "KEY_FILE_NOTE",
    "KEY_LOST_NOTE",
    "kept_parts",
    "key_check_reading",
    "key_mismatch_reading",
    "restore_label",
    "restore_reading",
    "table_download_label",
    "work_time",
]

#: Said on every page while no file is uploaded in this session.
DEMO_NOTICE = (
    "Showing the built-in demo data: no file is uploaded in this session (a reload starts a "
    "new session; upload your file again on the Data page to go on with it)."
)

#: The one-time warning beside the key generated for the tokens and date shifts.
KEY_FILE_NOTE = (
    "A key was made for the tokens and date shifts. Download it now and keep it apart from "
    "the data: whoever holds it can test guesses, decrypt reversible tokens or undo the "
    "shifts, and riskcore apply --key-file needs it to give the same values the same "
    "tokens next time. It lives only in this session's memory and is in no other download, "
    "profile, recipe, report or log; the download is offered once."
)

#: The confirmation asked before a table with keyed identifiers can be downloaded.
KEY_CONFIRM = "I have saved the key file somewhere safe, apart from the data"

#: Said once the key's one download has gone by without a file being confirmed.
KEY_LOST_NOTE = (
    "The key's download was offered once. If you did not save it, make a new key (the tokens "
    "and shifts change) or upload the key file you keep."
)


def table_download_label(
    what: str, *, released: int = 1, passes: bool = True, key_unsaved: bool = False
) -> str:
    """Return the label of the download of a remediated table, saying what the file holds.

    A table with every record suppressed downloads as a header alone, and one
    that breaks the targets is not the release the targets describe: the
    button says so (issue 27).

    Parameters
    ----------
    what : str
        The download's own label ("Download the generalized table (CSV)").
    released : int
        Records the table keeps after suppression.
    passes : bool
        Whether the release meets every target.
    key_unsaved : bool
        True while the table holds keyed tokens or shifts and the key file is not
        confirmed saved (the download waits for it).

    Returns
    -------
    str
    """
    if released <= 0:
        return f"{what}: empty, every record is suppressed"
    if key_unsaved:
        return f"{what}: save the key file first (Direct identifiers tab)"
    if not passes:
        return f"{what}: it does not meet the targets"
    return what


def key_check_reading(check: str, *, uploaded: bool) -> str:
    """Return the line naming the session's key by its check value (never the key).

    Parameters
    ----------
    check : str
        :func:`riskcore.deidentify.recipe.base.key_check` of the key.
    uploaded : bool
        True for a key read from the user's key file, False for one made in this session.

    Returns
    -------
    str
    """
    origin = "read from your key file" if uploaded else "made in this session"
    return (
        f"Key in use: check value {check} ({origin}). The recipe records this check value, "
        "never the key; a key file with the same check value gives the same tokens."
    )


def key_mismatch_reading(recipe_check: str, session_check: str) -> str:
    """Return the warning that the recipe in use was made with another key than the session's.

    Parameters
    ----------
    recipe_check, session_check : str
        The check values of the recipe's key and of the session's.

    Returns
    -------
    str
    """
    return (
        f"The recipe was made with the key whose check value is {recipe_check}; this "
        f"session's key is {session_check}. Upload that key file to give every value the "
        "token it had then."
    )


def work_time(saved: str) -> str:
    """Return a stored UTC time ("2026-11-26T17:50:03.123+00:00") as "2026-11-26 17:50 UTC".

    Parameters
    ----------
    saved : str
        An ISO 8601 time.

    Returns
    -------
    str
    """
    try:
        return datetime.fromisoformat(saved).strftime("%Y-%m-%d %H:%M UTC")
    except ValueError:
        return saved


def restore_label(saved: str) -> str:
    """Return the label of the button restoring the work kept for the file.

    Parameters
    ----------
    saved : str
        When the work was last kept (ISO 8601, UTC).

    Returns
    -------
    str
    """
    return f"Restore your work from {work_time(saved)}"


def kept_parts(work: dict[str, Any]) -> tuple[str, ...]:
    """Return what a kept working profile holds, in words ("roles", "targets", ...).

    Parameters
    ----------
    work : dict
        The document of :meth:`riskcore.store.working.WorkStore.keep`.

    Returns
    -------
    tuple of str
    """
    profile = work.get("profile") or {}
    roles = profile.get("roles") or {}
    n_qis = len(roles.get("quasi_identifiers") or ())
    parts = [f"roles ({n_qis} quasi-identifier{'' if n_qis == 1 else 's'})", "targets"]
    if profile.get("recipe"):
        parts.append("the generalization in use")
    if (work.get("remediate") or {}).get("levels"):
        parts.append("the Remediate levels")
    if work.get("masking") or work.get("shift"):
        parts.append("the masking choices")
    return tuple(parts)


def restore_reading(saved: str, parts: tuple[str, ...]) -> str:
    """Return the offer to restore the work kept for this file in an earlier session.

    Parameters
    ----------
    saved : str
        When it was last kept (ISO 8601, UTC).
    parts : tuple of str
        What it holds, in words ("roles", "targets", "levels", ...).

    Returns
    -------
    str
    """
    held = ", ".join(parts) if parts else "the settings"
    return (
        f"Work on this same file (same SHA-256) was kept on {work_time(saved)}: {held}. "
        "Nothing is restored unless you ask; the data itself is never kept, only what you "
        "chose."
    )
