"""Readings of many rows per person: k^m-anonymity of the events, household risk.

Also the report's parts of them: the figures beside the other risks
(:func:`event_cells`) and the limitations their models assume
(:func:`events_limitation`, :func:`household_limitation`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pandas as pd

from riskcore.metrics import Assessment
from riskcore.metrics.household import HouseholdRisk
from riskcore.metrics.longitudinal import KmAnonymity, RareItemset
from riskcore.report.readings._format import format_number, join_names, plural, short_share
from riskcore.report.readings.criteria import records_share

__all__ = [
    "RARE_COLUMNS",
    "event_cells",
    "events_limitation",
    "household_limitation",
    "household_reading",
    "itemset_text",
    "km_reading",
    "rare_itemset_table",
]

#: The columns of :func:`rare_itemset_table`.
RARE_COLUMNS = ("events known", "size", "people holding them", "people they single out")


def _items_phrase(result: KmAnonymity, escape: Callable[[object], str]) -> str:
    """Return what an attacker knows, in words: visits (the columns together) or values."""
    cols = escape(join_names(result.events))
    if result.items == "value":
        return f"values of {cols}, from any of their rows"
    if len(result.events) == 1:
        return f"values of {cols}"
    return f"visits ({cols} of one row together)"


def km_reading(result: KmAnonymity, *, escape: Callable[[object], str] = str) -> str:
    """Return the reading of k^m-anonymity: the achieved k, the people at risk, the rules used.

    Parameters
    ----------
    result : KmAnonymity
        The k^m-anonymity result: its achieved k and the people at risk.
    escape : callable, optional
        Escapes user-supplied text (column names) for where it is shown.

    Returns
    -------
    str
        The achieved k for an attacker who knows m events, the people at risk
        against k, the people holding no event, the generalized columns and the
        missing-value rule.
    """
    m, k = result.m, result.k
    people = f"{result.n_people:,} {plural(result.n_people, 'person', 'people')}"
    text = (
        f"An attacker who knows up to {m:,} of a person's {_items_phrase(result, escape)} "
        f"finds at least {result.k_achieved:,} "
        f"{plural(result.k_achieved, 'person', 'people')} holding them: the data are "
        f"k^m-anonymous for k = {result.k_achieved:,} and m = {m:,}. "
    )
    if result.people_at_risk:
        text += (
            f"{result.people_at_risk:,} of {people} ({short_share(result.share_at_risk)}) "
            f"hold a set of at most {m:,} that fewer than {k:,} people hold."
        )
    else:
        text += f"No one of {people} holds a set of at most {m:,} that fewer than {k:,} hold."
    if result.people_without_items:
        n = result.people_without_items
        text += (
            f" {n:,} {plural(n, 'person has', 'people have')} no known event (every value "
            "missing) and cannot be singled out this way."
        )
    if result.generalized:
        text += f" Generalized before counting: {escape(join_names(result.generalized))}."
    text += (
        " A missing value counts as a value of its own."
        if result.missing == "own"
        else " A missing value is taken as unknown to an attacker."
    )
    return text


def itemset_text(x: RareItemset, escape: Callable[[object], str] = str) -> str:
    """Return the events an attacker would know, in words: "(a = 1, b = x) and a = 2".

    Parameters
    ----------
    x : RareItemset
        One rare itemset.
    escape : callable, optional
        Escapes user-supplied text (column names, values).

    Returns
    -------
    str
        A visit's values in parentheses, the items joined by "and".
    """
    parts = []
    for item in x.items:
        pairs = [f"{escape(c)} = {escape('(missing)' if v is None else v)}" for c, v in item]
        parts.append(pairs[0] if len(pairs) == 1 else "(" + ", ".join(pairs) + ")")
    return " and ".join(parts)


def rare_itemset_table(
    result: KmAnonymity, *, escape: Callable[[object], str] = str
) -> pd.DataFrame:
    """Return the rarest itemsets behind the people at risk, one row each, rarest first.

    Parameters
    ----------
    result : KmAnonymity
        The result whose :attr:`~riskcore.metrics.longitudinal.KmAnonymity.rarest` to show.
    escape : callable, optional
        Escapes user-supplied text (column names, values).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`RARE_COLUMNS`: the events an attacker would know (a
        visit's values in parentheses, joined by "and"), how many they are,
        the people holding all of them, and the people whose rarest set they
        are.
    """
    rows = [(itemset_text(x, escape), x.size, x.support, x.people) for x in result.rarest]
    return pd.DataFrame(rows, columns=list(RARE_COLUMNS))


def household_reading(result: HouseholdRisk, *, escape: Callable[[object], str] = str) -> str:
    """Return the reading of household risk: the expected re-identifications with households.

    Parameters
    ----------
    result : HouseholdRisk
        The household risk: the expected re-identifications with and without households.
    escape : callable, optional
        Escapes user-supplied text (column names).

    Returns
    -------
    str
        The expected re-identifications without and with the households, the
        members above the threshold and the largest household.
    """
    unit = "people" if result.person is not None else "records"
    n = result.n_members
    return (
        f"Counting households ({escape(result.household)}), where a household is "
        "re-identified when any of its members is (r_h = 1 - prod(1 - r_i), sdcMicro's "
        "household risk): the expected re-identifications rise from "
        f"{format_number(result.individual_expected)} to "
        f"{format_number(result.expected_reidentifications)} of {n:,} {unit} (global risk "
        f"{100 * result.global_risk:.3g}%); {result.members_above:,} of them "
        f"{plural(result.members_above, 'is', 'are')} in a household whose risk is above "
        f"{result.threshold:.3g} (highest {format_number(result.highest_risk)}). "
        f"{result.n_households:,} {plural(result.n_households, 'household', 'households')}, "
        f"the largest with {result.largest_household:,} "
        f"{plural(result.largest_household, 'member', 'members')}."
    )


def event_cells(a: Assessment) -> list[tuple[str, str]]:
    """Return the report's figures of k^m-anonymity and household risk, as (figure, value).

    Parameters
    ----------
    a : Assessment
        An assessment with event columns, a household column, both or neither
        (then no figure).

    Returns
    -------
    list of (str, str)
        k^m: the fewest people holding a set of at most m visits and the
        people at risk against k; households: the expected
        re-identifications, the global risk and the members above the
        threshold.
    """
    out: list[tuple[str, str]] = []
    km = a.km_anonymity
    if km is not None:
        out += [
            (
                f"k^m-anonymity (m = {km.m}): fewest people holding a set of visits",
                f"{km.k_achieved:,}",
            ),
            (
                f"people holding a set of at most {km.m} visits held by fewer than {km.k}",
                records_share(km.people_at_risk, km.n_people, people=True),
            ),
        ]
    hh = a.household
    if hh is not None:
        out += [
            (
                "households: expected re-identifications (sdcMicro's hier_risk_ER)",
                f"{format_number(hh.expected_reidentifications)} of {hh.n_members:,}",
            ),
            ("households: global risk (sdcMicro's hier_risk)", f"{hh.global_risk:.2%}"),
            (
                f"households: members with a household risk above {hh.threshold:.4g}",
                records_share(hh.members_above, hh.n_members, people=hh.person is not None),
            ),
        ]
    return out


def events_limitation(facts: Mapping[str, Any]) -> str:
    """Return the limitation of k^m-anonymity's attacker, in words.

    Parameters
    ----------
    facts : mapping
        ``events``, ``m``, ``k`` and ``judged`` (a k^m-anonymity target is set).

    Returns
    -------
    str
    """
    m = int(facts["m"])
    cols = join_names(list(facts["events"]))
    judged = (
        f"judged by the k^m-anonymity target (k = {int(facts['k'])})"
        if facts.get("judged")
        else f"reported, not judged (no k^m-anonymity target; people at risk against k = "
        f"{int(facts['k'])})"
    )
    return (
        f"Events ({cols}): an attacker is assumed to know at most {m:,} of a person's "
        f"{plural(m, 'visit', 'visits')} (the values of the event columns on one row together) "
        f"and nothing else of them; {judged}. The quasi-identifiers and the visits are judged "
        "apart (the classes by the quasi-identifiers, the visits by k^m-anonymity): an attacker "
        "who knows both is not modelled together. A class of people is suppressed whole when "
        "one of its people is at risk, and the release is judged again on the people left."
    )


def household_limitation(facts: Mapping[str, Any]) -> str:
    """Return the limitation of the household risk's model, in words.

    Parameters
    ----------
    facts : mapping
        ``household`` and ``person`` (the members are people with one).

    Returns
    -------
    str
    """
    members = "people" if facts.get("person") else "records"
    return (
        f"Households ({facts['household']}): the members ({members}) of a household are "
        "taken to be re-identified independently, each with their individual risk, and the "
        "household when any of them is (sdcMicro's household risk); the figure is reported "
        "beside the individual risk and judged by no target."
    )
