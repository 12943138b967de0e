"""Readings of the linkage attack: candidate sets, attribute disclosure, the curve."""

from __future__ import annotations

import numpy as np
import pandas as pd

from riskcore.attacks.linkage import LinkageCurve, LinkageResult

__all__ = [
    "attribute_table",
    "curve_reading",
    "guess_phrase",
    "linkage_reading",
    "random_pick_phrase",
    "simulated_note",
    "targets_label",
]


def _units(result: LinkageResult) -> str:
    """Return what a target is linked to: "records", or "people" with a person column."""
    return "records" if result.person is None else "people"


def targets_label(result: LinkageResult) -> str:
    """Return the label of the targets' count: "Targets (people)" when they are people.

    Parameters
    ----------
    result : LinkageResult
        The attack: its person column decides the word.

    Returns
    -------
    str
        "Targets (people)" with a person column, else "Targets".
    """
    return "Targets" if result.person is None else "Targets (people)"


def random_pick_phrase(result: LinkageResult) -> str:
    """Return the expected share right when the attacker picks one matching record at random.

    Empty when the attack had no ground truth. The same words serve the
    Attacks page and the guided demo.

    Parameters
    ----------
    result : LinkageResult
        The attack, with its ground truth (without: no phrase).

    Returns
    -------
    str
    """
    e = result.expected_correct
    if e is None:
        return ""
    ci = result.expected_correct_ci
    interval = f", 95% CI {ci[0]:.1%}-{ci[1]:.1%}" if ci is not None else ""
    return (
        f"picking one of the matching {_units(result)} at random, an attacker is right for an "
        f"expected {e:.1%} of targets{interval}"
    )


def _sentence(phrase: str) -> str:
    return phrase[:1].upper() + phrase[1:]


def guess_phrase(result: LinkageResult) -> str:
    """Return the baseline: a guess among all released records (people, with a person column).

    Parameters
    ----------
    result : LinkageResult
        The attack: its released records (people) and rows.

    Returns
    -------
    str
        The baseline: a guess among all released records, or people (in so many rows).
    """
    rows = "" if result.release_rows is None else f" (in {result.release_rows:,} rows)"
    return (
        f"a guess among all {result.n_release:,} released {_units(result)}{rows} is right 1 "
        f"time in {result.n_release:,} ({100 / max(result.n_release, 1):.3g}%)"
    )


def linkage_reading(result: LinkageResult) -> str:
    """Return the reading under the candidate-set chart: three labelled figures and a baseline.

    Unique (exactly one matching record), unique and correct (that record is
    the target's own, needs ground truth), expected correct under a random
    pick among the matching records, and a guess among all records. With a
    person column targets and matches are people.

    Parameters
    ----------
    result : LinkageResult
        The attack: its unique, correct and unmatched targets.

    Returns
    -------
    str
    """
    u = result.unique
    one = "record" if result.person is None else "person"
    who = "targets" if result.person is None else "target people"
    text = (
        f"{u.successes:,} of {result.n_targets:,} {who} ({u.rate:.1%}, 95% CI "
        f"{u.low:.1%}-{u.high:.1%}) match exactly one released {one}"
    )
    if result.correct is not None:
        c = result.correct
        text += (
            f"; for {c.successes:,} ({c.rate:.1%}, 95% CI {c.low:.1%}-{c.high:.1%}) it is their "
            f"own (unique and correct). {_sentence(random_pick_phrase(result))}"
        )
    text += f". As a baseline, {guess_phrase(result)}; {result.no_match:,} targets match nobody."
    return text


def attribute_table(result: LinkageResult) -> pd.DataFrame:
    """Return one row per sensitive attribute: what the attacker learns through the join.

    Parameters
    ----------
    result : LinkageResult
        The attack: what it learned of each sensitive attribute.

    Returns
    -------
    pandas.DataFrame
    """
    rows = []
    for a in result.attributes:
        rows.append(
            {
                "attribute": a.attribute,
                "learned with confidence >= p": a.confident.rate,
                "95% CI": f"{a.confident.low:.1%} - {a.confident.high:.1%}",
                "learned and correct": None if a.correct is None else a.correct.rate,
                "base rate (always guess the commonest)": a.base_rate,
                "commonest value": a.base_value,
            }
        )
    return pd.DataFrame(rows)


def curve_reading(curve: LinkageCurve) -> str:
    """Return the reading under the re-identification curve.

    Parameters
    ----------
    curve : LinkageCurve
        The re-identification rate per column added.

    Returns
    -------
    str
    """
    rates = [r.rate for r in curve.unique]
    if not rates:
        return ""
    steps = np.diff([0.0, *rates])
    i = int(np.argmax(steps))
    return (
        f"Knowing all {len(rates)} columns re-identifies {rates[-1]:.1%} of targets; the "
        f"biggest jump comes from adding {curve.columns[i]} (+{steps[i]:.1%})."
    )


def simulated_note(*, generalized: bool, curve: bool = False) -> str:
    """Return who the simulated attacker is: what they know and how it meets the release.

    On a generalized table the attacker knows the people's true values, as recorded, and
    the published generalization: each value is matched into its released band, and a
    suppressed person matches nobody. ``curve`` words it for the re-identification curve
    (an error-free attacker, columns added by their contribution to uniqueness).

    Parameters
    ----------
    generalized : bool
        The release is generalized (the attacker matches values into bands).
    curve : bool, optional
        Word it for the re-identification curve.

    Returns
    -------
    str
    """
    if curve:
        head = "Columns are added in the order of their contribution to uniqueness; the attacker "
        if not generalized:
            return head + "here knows everyone's values without error."
        return (
            head + "here knows everyone's true values as recorded, without error, and matches "
            "them into the released bands; suppressed people match nobody."
        )
    if not generalized:
        return (
            "The attacker's table is drawn from this table: the targets' own values, with the "
            "errors and gaps set below."
        )
    return (
        "The attacker's table is drawn from the table as recorded: the targets' true values "
        "(a full date of birth, a full ZIP code), with the errors and gaps set below, matched "
        "into the released bands as the published generalization says. Suppressed people are "
        "among the targets and match nobody."
    )
