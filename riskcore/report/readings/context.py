"""The release context in words: the questionnaire's answers, the threshold chosen and why.

Every sentence the Context step of the Anonymity page, the command line and the report
say about a :class:`riskcore.criteria.context.Context`, with the source of each figure
(IPC Ontario 2016, *De-identification Guidelines for Structured Data*, the step and table)
as a reviewer would cite it.
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from riskcore.criteria.base import Check, exceeds
from riskcore.criteria.context import (
    CONTROLS_ITEMS,
    INVASION_ITEMS,
    MOTIVES_ITEMS,
    Context,
)

__all__ = [
    "RELEASE_LABELS",
    "context_reading",
    "context_rows",
    "overall_reading",
]

_IPC = "IPC Ontario 2016"
#: Each release model in words (IPC16 step 1).
RELEASE_LABELS: dict[str, str] = {
    "public": "public (anyone may download it, no conditions)",
    "semi-public": "semi-public (anyone may register under terms of use)",
    "non-public": "non-public (shared under a data sharing agreement, or internal)",
}


def _g(x: float) -> str:
    return f"{x:.3g}"


def _items(level: str | None, chosen: tuple[str, ...], known: dict[str, str]) -> str:
    text = str(level or "")
    if chosen:
        text += " (considered: " + "; ".join(known[i] for i in chosen) + ")"
    return text


def _threshold_answer(c: Context) -> str:
    if c.threshold is None:
        return f"{_g(c.table_threshold)}, the table's for a {c.invasion} invasion of privacy"
    return (
        f"{_g(c.chosen_threshold)}, chosen over the table's {_g(c.table_threshold)} for a "
        f"{c.invasion} invasion of privacy: {c.threshold_reason}"
    )


def _measure_words(c: Context) -> str:
    if c.measure == "maximum":
        return "the highest record risk (a demonstration attack targets the rarest record)"
    if c.measure == "average":
        return "the average record risk"
    return (
        f"the strict average: the average record risk, with no record above {_g(c.strict_cap or 1)}"
    )


def context_rows(c: Context) -> pd.DataFrame:
    """Return the questionnaire's answers and the figures they give, each with its source.

    Parameters
    ----------
    c : Context
        The release context.

    Returns
    -------
    pandas.DataFrame
        Columns ``question``, ``answer`` and ``source``.
    """
    rows: list[tuple[str, str, str]] = [
        ("release", RELEASE_LABELS[c.release], f"{_IPC}, step 1"),
        (
            "invasion of privacy",
            _items(c.invasion, c.invasion_items, INVASION_ITEMS),
            f"{_IPC}, step 3",
        ),
        ("threshold", _threshold_answer(c), f"{_IPC}, step 3 table"),
    ]
    if c.release == "public":
        rows.append(("Pr(attack)", "1: a public release is assumed attacked", f"{_IPC}, step 5"))
    else:
        if c.release == "semi-public":
            rows.append(
                (
                    "Pr(deliberate attack)",
                    f"{_g(c.deliberate or 0)}: low controls and high motives are assumed",
                    f"{_IPC}, step 5, semi-public releases",
                )
            )
        else:
            rows += [
                (
                    "privacy and security controls",
                    _items(c.controls, c.controls_items, CONTROLS_ITEMS),
                    f"{_IPC}, step 5, attack 1",
                ),
                (
                    "motives and capacity",
                    _items(c.motives, c.motives_items, MOTIVES_ITEMS),
                    f"{_IPC}, step 5, attack 1",
                ),
                (
                    "Pr(deliberate attack)",
                    f"{_g(c.deliberate or 0)} ({c.controls} controls, {c.motives} motives "
                    "and capacity)",
                    f"{_IPC}, step 5, attack 1 table",
                ),
            ]
        rows += [
            (
                "Pr(acquaintance)",
                f"1 - (1 - {c.prevalence:.4g})^{c.acquaintances} = {_g(c.acquaintance or 0)}",
                f"{_IPC}, step 5, attack 2 (m = 150, Dunbar's number, to 190)",
            ),
            ("Pr(breach)", f"{_g(c.breach or 0)}: {c.breach_source}", f"{_IPC}, step 5, attack 3"),
            (
                "Pr(attack)",
                f"{_g(c.attack)}, the highest of the three (the {c.attack_of} attack)",
                f"{_IPC}, step 5",
            ),
        ]
    rows += [
        ("data risk measured", _measure_words(c), f"{_IPC}, step 4.2"),
        (
            "data risk allowed",
            f"threshold / Pr(attack) = {_g(c.chosen_threshold)} / {_g(c.attack)} = "
            f"{_g(c.data_limit)}",
            f"{_IPC}, step 6: overall risk = data risk x context risk",
        ),
    ]
    if c.note:
        rows.append(("note", c.note, "the assessor"))
    return pd.DataFrame(rows, columns=["question", "answer", "source"])


def context_reading(c: Context, *, carried: bool = True) -> str:
    """Return why the threshold is what it is, in one paragraph.

    Parameters
    ----------
    c : Context
        The release context.
    carried : bool, default True
        Whether the targets judged hold the context's (False: they were changed since).

    Returns
    -------
    str
    """
    head = (
        f"A {c.release} release of data whose identification would be a {c.invasion} invasion "
        f"of privacy: the threshold is {_threshold_answer(c)} ({_IPC}, step 3)."
    )
    if c.release == "public":
        attack = "A public release is assumed attacked, Pr(attack) = 1 (step 5)"
    else:
        attack = (
            f"The likeliest attack is the {c.attack_of} one, Pr(attack) = {_g(c.attack)}, of a "
            f"deliberate attempt {_g(c.deliberate or 0)}, an acquaintance "
            f"{_g(c.acquaintance or 0)} and a breach {_g(c.breach or 0)} (step 5)"
        )
    bound = (
        f"{attack}; so the overall risk, Pr(re-id | attack) x {_g(c.attack)}, stays at most "
        f"{_g(c.chosen_threshold)} when the {'highest' if c.measure == 'maximum' else 'average'} "
        f"record risk is at most {_g(c.data_limit)} (step 6)."
    )
    if c.measure == "strict average":
        bound = bound[:-1] + f" and no record's risk is above {_g(c.strict_cap or 1)}."
    tail = (
        ""
        if carried
        else " The targets were changed after the context was set: they no longer hold its "
        "bound, and the verdict judges the targets as they are."
    )
    return f"{head} {bound}{tail}"


def overall_reading(c: Context, checks: Iterable[Check]) -> str | None:
    """Return the overall risk of a table: its data risk x Pr(attack), against the threshold.

    Parameters
    ----------
    c : Context
        The release context.
    checks : iterable of Check
        The verdict's checks (the achieved average or highest record risk is read there).

    Returns
    -------
    str or None
        None when the verdict has no check of the context's measure.
    """
    kind = "record-risk" if c.measure == "maximum" else "average-risk"
    check = next(
        (x for x in checks if x.kind == kind and abs(x.target - c.data_limit) < 1e-12), None
    )
    if check is None:
        return None
    overall = c.overall(check.achieved)
    where = "above" if exceeds(overall, c.chosen_threshold) else "within"
    return (
        f"Overall risk: {_g(check.achieved)} x {_g(c.attack)} = {_g(overall)}, {where} the "
        f"threshold {_g(c.chosen_threshold)} ({_IPC}, step 7.3)."
    )
