"""Readings of a population table: k-map and delta-presence, per class and per record.

The population tab of the Records page: what matching the released records
against the identified population they were drawn from says (k-map, Sweeney;
delta-presence, Nergiz, Atzori and Clifton 2007), computed by
:mod:`riskcore.metrics.presence` and judged by
:mod:`riskcore.criteria.population`. Re-exported by
:mod:`riskcore.report.readings.records` (their old import path).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from riskcore.criteria.population import PopulationJudgement
from riskcore.metrics.presence import PopulationMatch
from riskcore.report.readings._format import plural, short_share

__all__ = [
    "delta_reading",
    "delta_table",
    "population_failing_caption",
    "population_intro",
    "population_match_reading",
    "record_kmap_table",
]


def population_match_reading(result: PopulationMatch) -> str:
    """Return the reading of k-map and delta-presence against a population table.

    Says how many population classes have no released record and that they
    put delta_min at 0 (with the lowest delta of the released classes).

    Parameters
    ----------
    result : PopulationMatch
        The match against the population table: its k-map and delta figures.

    Returns
    -------
    str
    """
    unit = "record" if result.person is None else "person"
    absent = (
        f" {result.absent_classes:,} of {result.n_population_classes:,} population "
        f"{plural(result.n_population_classes, 'class', 'classes')} "
        f"{plural(result.absent_classes, 'has', 'have')} no released {unit} "
        f"({result.absent_records:,} {plural(result.absent_records, 'person', 'people')} "
        "known to be absent): "
        f"{plural(result.absent_classes, 'its', 'their')} delta is 0, which puts delta min "
        f"at 0, so any lowest delta above 0 fails and suppressing {unit}s cannot mend it "
        f"(the lowest delta among released classes is {short_share(result.delta_min_released)})."
        if result.absent_classes
        else ""
    )
    people = (
        ""
        if result.person is None or result.released_rows is None
        else f"The release is matched as its {result.n_released:,} "
        f"{plural(result.n_released, 'person', 'people')} (in {result.released_rows:,} "
        f"{plural(result.released_rows, 'row', 'rows')}; the population table holds one row "
        "per person). "
    )
    return people + (
        f"k-map {result.k_map:,}: every released {unit} matches at least {result.k_map:,} "
        f"{plural(result.k_map, 'person', 'people')} of the population table. "
        f"delta-presence ({result.delta_min:.3g}, {result.delta_max:.3g}): a member of a "
        f"population class is in the release with probability between "
        f"{short_share(result.delta_min)} and {short_share(result.delta_max)}.{absent}"
    )


def population_intro() -> str:
    """Return the opening paragraph of the population tab.

    Returns
    -------
    str
    """
    return (
        "An attacker may hold the population this table was drawn from, or a public table "
        "covering it (a voter roll, a registry), with names and the same quasi-identifiers. "
        "Upload it to see how many people of it each released record could be (k-map, "
        "Sweeney) and how likely a person of it is to be in this table at all "
        "(delta-presence, Nergiz, Atzori and Clifton 2007). This table must be a subset of it."
    )


_DELTA_BINS = 10


_NONE_RELEASED = "none released"


def delta_table(result: PopulationMatch, outside: np.ndarray) -> pd.DataFrame:
    """Return the population classes by delta_j = f_j / F_j: "none released", then ten bins.

    The first row holds the population classes with no released record
    (delta 0); the released classes follow in ten bins of 10 points
    ("0-10%" ... "90-100%"; delta 1 is in the last). Columns: ``delta`` (the
    bin), ``classes``, ``records`` (released records in those classes;
    ``people``, the released people, when the release was matched in people),
    ``outside`` (classes of the bin that break the delta range: ``outside``, per row
    of ``result.classes``, as :func:`riskcore.criteria.population.judge_population`
    judges them).

    Parameters
    ----------
    result : PopulationMatch
        The match whose population classes are binned by delta.
    outside : numpy.ndarray
        bool per row of ``result.classes``: the class breaks the delta range.

    Returns
    -------
    pandas.DataFrame
    """
    c = result.classes
    delta = c["delta"].to_numpy(dtype=float)
    released = c["released"].to_numpy(dtype=np.int64)
    b = np.where(
        released > 0, 1 + np.minimum((delta * _DELTA_BINS).astype(np.int64), _DELTA_BINS - 1), 0
    )
    out = np.asarray(outside, dtype=bool)
    step = 100 // _DELTA_BINS
    n = _DELTA_BINS + 1
    return pd.DataFrame(
        {
            "delta": [_NONE_RELEASED]
            + [f"{i * step}-{(i + 1) * step}%" for i in range(_DELTA_BINS)],
            "classes": np.bincount(b, minlength=n),
            "records" if result.person is None else "people": np.bincount(
                b, weights=released, minlength=n
            ).astype(np.int64),
            "outside": np.bincount(b, weights=out, minlength=n).astype(np.int64),
        }
    )


def delta_reading(
    result: PopulationMatch,
    judged: PopulationJudgement,
    *,
    k: int,
    delta_min: float,
    delta_max: float,
) -> str:
    """Return the one-line reading of the delta chart and the failing classes (the criteria's).

    Parameters
    ----------
    result : PopulationMatch
        The match whose delta range is read.
    judged : PopulationJudgement
        k-map and delta-presence judged on it.
    k : int
        The k-map target.
    delta_min : float
        The least delta allowed.
    delta_max : float
        The largest delta allowed.

    Returns
    -------
    str
    """
    c = result.classes
    present = c["released"].to_numpy() > 0
    small = int(judged.kmap_failing.sum())
    delta = c["delta"].to_numpy(dtype=float)
    above = judged.delta_failing & (delta > delta_max)
    high = int(above.sum())
    low = judged.delta_failing & ~above
    j = result.n_population_classes
    parts = [
        f"{high:,} of {j:,} population {plural(j, 'class', 'classes')} "
        f"{plural(high, 'has', 'have')} delta above {short_share(delta_max)} (a person of the "
        "population with those values is in this table with a higher probability)"
    ]
    if delta_min > 0:
        n_low, n_none = int(low.sum()), int((low & ~present).sum())
        parts.append(
            f"{n_low:,} below {short_share(delta_min)}"
            + (f" ({n_none:,} with no released record)" if n_none else "")
        )
    parts.append(
        f"{small:,} of {result.n_classes:,} released "
        f"{plural(result.n_classes, 'class', 'classes')} {plural(small, 'matches', 'match')} "
        f"fewer than {k:,} people of the population (k-map)"
    )
    return "; ".join(parts) + "."


def population_failing_caption(
    result: PopulationMatch, *, k: int, delta_min: float, delta_max: float, shown: int, failing: int
) -> str:
    """Return the caption of the failing population classes table.

    Parameters
    ----------
    result : PopulationMatch
        The release matched with the population.
    k : int
        k-map target.
    delta_min, delta_max : float
        Allowed delta range.
    shown : int
        Rows shown.
    failing : int
        Failing classes in all.

    Returns
    -------
    str
    """
    absent = (
        "; the population classes with no released record have delta 0 and fail "
        f"a lowest delta of {delta_min:g}"
        if delta_min > 0 and result.absent_classes
        else ""
    )
    return (
        f"Released classes matching fewer than {k:,} people of the population, or population "
        f"classes with delta outside [{delta_min:g}, {delta_max:g}]{absent}; the first "
        f"{min(shown, failing):,} of {failing:,}, highest delta first."
    )


def record_kmap_table(result: PopulationMatch) -> pd.DataFrame:
    """Return each released record's k-map: ``row`` (from 1) and ``k_map`` (F_j of its class).

    Parameters
    ----------
    result : PopulationMatch
        The match: each released record's class and its F_j.

    Returns
    -------
    pandas.DataFrame
    """
    return pd.DataFrame(
        {
            "row": np.arange(1, result.n_released + 1, dtype=np.int64),
            "k_map": np.asarray(result.record_k_map, dtype=np.int64),
        }
    )
