"""Result types of the linkage attack: rates with Wilson intervals, per-attribute disclosure.

A re-identification or disclosure rate is a binomial proportion over the
targets, reported with its 95% Wilson score interval [W27]_

    (p + z^2/2n -/+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n),

and with the baseline an attacker reaches without the release (a random
guess 1/n_release for re-identification [S02]_, the base rate for a
sensitive value).

References
----------
.. [S02] L. Sweeney, "k-anonymity: a model for protecting privacy",
   IJUFKS 10(5), 2002.
.. [W27] E. B. Wilson, "Probable inference, the law of succession, and
   statistical inference", JASA 22(158), 1927.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Self

import numpy as np
import pandas as pd

from riskcore._results import NOT_IN_JSON, Result

__all__ = [
    "CANDIDATE_BINS",
    "AttributeDisclosure",
    "LinkageCurve",
    "LinkageResult",
    "Rate",
    "candidate_bins",
    "mean_interval",
    "wilson_interval",
]

_Z95 = 1.959963984540054


def wilson_interval(successes: int, n: int, z: float = _Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion [W27]_.

    (p + z^2/2n -/+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n), p = successes / n.

    Parameters
    ----------
    successes, n : int
        0 <= successes <= n.
    z : float
        Normal quantile (1.96 for 95%).

    Returns
    -------
    (low, high) : tuple of float
        (0, 1) when n = 0.

    Examples
    --------
    >>> [round(v, 4) for v in wilson_interval(1, 10)]
    [0.0179, 0.4042]
    """
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = p + z2 / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    den = 1 + z2 / n
    return max(0.0, (centre - half) / den), min(1.0, (centre + half) / den)


def mean_interval(values: np.ndarray, z: float = _Z95) -> tuple[float, float]:
    """Normal-approximation interval of the mean of per-target values in [0, 1].

    m -/+ z s / sqrt(n), with s the sample standard deviation (n - 1 in the
    denominator), clipped to [0, 1]; (0, 1) when fewer than two values.
    Used for the expected share re-identified by a random pick among the
    candidates, whose per-target values ([own record in the set] / |set|)
    are not 0/1, so the Wilson interval does not apply.

    Parameters
    ----------
    values : numpy.ndarray
        One value in [0, 1] per target.
    z : float
        Normal quantile (1.96 for 95%).

    Returns
    -------
    (low, high) : tuple of float
    """
    v = np.asarray(values, dtype=np.float64)
    if v.size < 2:
        return 0.0, 1.0
    m = float(v.mean())
    half = z * float(v.std(ddof=1)) / math.sqrt(v.size)
    return max(0.0, m - half), min(1.0, m + half)


@dataclass(frozen=True)
class Rate(Result):
    """A proportion with its 95% Wilson interval and a baseline.

    Attributes
    ----------
    successes, n : int
    rate : float
        successes / n (0 when n = 0).
    low, high : float
        95% Wilson interval [W27]_.
    baseline : float
        What an attacker gets without the release (random guess or base rate).
    """

    successes: int
    n: int
    rate: float
    low: float
    high: float
    baseline: float

    @classmethod
    def of(cls, successes: int, n: int, baseline: float) -> Rate:
        """Build a rate with its interval.

        Parameters
        ----------
        successes : int
            The targets counted.
        n : int
            The targets attacked (0 gives a rate of 0).
        baseline : float
            The rate by chance alone, kept beside it.

        Returns
        -------
        Rate
        """
        low, high = wilson_interval(int(successes), int(n))
        return cls(int(successes), int(n), successes / n if n else 0.0, low, high, baseline)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict, the interval as ``ci95: [low, high]``.

        Returns
        -------
        dict of str to Any
            ``schema_version``, ``successes``, ``n``, ``rate``, ``ci95``, ``baseline``.
        """
        return {
            "schema_version": self.schema_version,
            "successes": self.successes,
            "n": self.n,
            "rate": self.rate,
            "ci95": [self.low, self.high],
            "baseline": self.baseline,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild a rate from :meth:`to_dict` output (``ci95`` read as low, high).

        Parameters
        ----------
        data : mapping of str to Any
            A rate as :meth:`to_dict` wrote it, its interval as ``ci95``.

        Returns
        -------
        Self
        """
        if not isinstance(data, Mapping) or "ci95" not in data:
            raise ValueError(f"Rate data needs a ci95 interval, got {data!r}")
        low, high = data["ci95"]
        rest = {k: v for k, v in data.items() if k != "ci95"}
        return super().from_dict({**rest, "low": low, "high": high})


@dataclass(frozen=True)
class AttributeDisclosure(Result):
    """What the attacker learns about one sensitive attribute.

    For each target, the attacker predicts the most common value of the
    attribute among its candidates; the confidence is that value's share of
    the candidate set.

    Attributes
    ----------
    attribute : str
    p : float
        Confidence threshold.
    confident : Rate
        Targets whose predicted value has confidence >= p; baseline = 1 if the
        base rate already reaches p, else 0 (without the release nobody is
        learned with that confidence).
    correct : Rate or None
        Targets predicted with confidence >= p *and* correctly (needs ground
        truth); baseline = the base rate (always guessing the most common
        value).
    base_rate : float
        Share of the most common value in the whole release (with a person
        column: the share of the released people holding it on one of their
        rows; a person may hold several values, so these shares may add up
        to more than 1).
    base_value : str
    """

    attribute: str
    p: float
    confident: Rate
    correct: Rate | None
    base_rate: float
    base_value: str


#: Candidate-set size bins of :meth:`LinkageResult.candidate_histogram`:
#: bin i holds the sizes in ``[CANDIDATE_EDGES[i], CANDIDATE_EDGES[i + 1])``.
CANDIDATE_BINS = ("0 (no match)", "1", "2", "3-4", "5-10", "11-19", "20-49", "50-99", "100+")
CANDIDATE_EDGES = (0, 1, 2, 3, 5, 11, 20, 50, 100, math.inf)


def candidate_bins(candidates: np.ndarray) -> tuple[int, ...]:
    """Count targets per candidate-set size bin (:data:`CANDIDATE_BINS`).

    Parameters
    ----------
    candidates : numpy.ndarray
        Candidate-set size per target (>= 0).

    Returns
    -------
    tuple of int
        One count per bin.
    """
    idx = np.searchsorted(np.asarray(CANDIDATE_EDGES), candidates, side="right") - 1
    return tuple(int(c) for c in np.bincount(idx, minlength=len(CANDIDATE_BINS)))


@dataclass(frozen=True)
class LinkageResult(Result):
    """Outcome of a linkage attack.

    Attributes
    ----------
    n_targets, n_release : int
        Targets, and the released units a target can be linked to: records,
        or people when ``person`` is set (then the candidate counts, the
        rates and the baseline 1 / n_release are in people too).
    columns : tuple of (str, str)
        Matched (auxiliary column, released column) pairs.
    unique : Rate
        Targets with exactly one candidate; baseline 1 / n_release.
    correct : Rate or None
        Targets with exactly one candidate that is their own record (needs
        ground truth); baseline 1 / n_release (a random guess).
    expected_correct : float or None
        Expected share re-identified when the attacker picks one candidate at
        random: mean over targets of [own record in the set] / |set|.
    expected_correct_ci : (float, float) or None
        Its 95% interval (:func:`mean_interval`).
    in_candidates : Rate or None
        Targets whose own record is among their candidates.
    attributes : tuple of AttributeDisclosure
    notes : tuple of str
        How each column was matched.
    candidates : numpy.ndarray
        Number of candidate records per target (0 = no match); not in JSON
        (empty after :meth:`from_dict`).
    bins : tuple of int
        Targets per candidate-set size bin (:data:`CANDIDATE_BINS`), counted
        from ``candidates`` unless given; written to JSON as
        ``candidate_histogram``.
    person : str or None
        The released column linking a person's rows; None: each record is
        taken to be a different person.
    release_rows : int or None
        With ``person``: the released rows of the ``n_release`` people.
    auxiliary_rows : int or None
        With ``person``: the rows of the attacker's table (more than
        ``n_targets`` when the ground truth ties several rows to one person).
    """

    n_targets: int
    n_release: int
    columns: tuple[tuple[str, str], ...]
    unique: Rate
    correct: Rate | None
    expected_correct: float | None
    in_candidates: Rate | None
    attributes: tuple[AttributeDisclosure, ...]
    notes: tuple[str, ...]
    candidates: np.ndarray = field(
        default_factory=lambda: np.zeros(0, dtype=np.int64), repr=False, metadata=NOT_IN_JSON
    )
    bins: tuple[int, ...] = ()
    expected_correct_ci: tuple[float, float] | None = None
    person: str | None = None
    release_rows: int | None = None
    auxiliary_rows: int | None = None

    def __post_init__(self) -> None:
        if not self.bins:  # counted from the per-target array unless given (from JSON)
            object.__setattr__(self, "bins", candidate_bins(self.candidates))

    @property
    def unit(self) -> str:
        """Return what targets and candidates count: "person" or "record"."""
        return "record" if self.person is None else "person"

    @property
    def no_match(self) -> int:
        """Return the number of targets without any candidate."""
        return self.bins[0]

    def candidate_histogram(self) -> pd.DataFrame:
        """Targets by candidate-set size bin (0, 1, 2, 3-4, 5-10, 11-19, 20-49, 50-99, 100+).

        Returns
        -------
        pandas.DataFrame
        """
        counts = np.asarray(self.bins, dtype=np.int64)
        n = max(self.n_targets, 1)
        return pd.DataFrame(
            {"candidates": list(CANDIDATE_BINS), "targets": counts, "share": counts / n},
        )

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict, the bins as ``candidate_histogram`` {bin: targets}.

        Returns
        -------
        dict of str to Any
            The fields and ``no_match``; ``candidate_histogram`` holds the targets per bin
            of :data:`CANDIDATE_BINS`.
        """
        out = super().to_dict()
        bins = out.pop("bins")
        out["candidate_histogram"] = dict(zip(CANDIDATE_BINS, bins, strict=True))
        out["no_match"] = self.no_match
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild a result from :meth:`to_dict` output (without the per-target array).

        Parameters
        ----------
        data : mapping of str to Any
            A result as :meth:`to_dict` wrote it, with its ``candidate_histogram``.

        Returns
        -------
        Self
        """
        if not isinstance(data, Mapping) or "candidate_histogram" not in data:
            raise ValueError("LinkageResult data needs a candidate_histogram")
        hist = data["candidate_histogram"]
        bins = [int(hist[name]) for name in CANDIDATE_BINS]
        return super().from_dict({**data, "bins": bins})


@dataclass(frozen=True)
class LinkageCurve(Result):
    """Re-identification as the attacker learns one more quasi-identifier at a time.

    Attributes
    ----------
    columns : tuple of str
        Order in which columns are added.
    unique, correct : tuple of Rate
        Rates after knowing the first 1, 2, ... columns.
    """

    columns: tuple[str, ...]
    unique: tuple[Rate, ...]
    correct: tuple[Rate, ...]

    def to_frame(self) -> pd.DataFrame:
        """Return one row per step.

        Returns
        -------
        pandas.DataFrame
            Columns ``known``, ``added``, ``n known``, then the unique and correct rates
            with their 95% bounds.
        """
        return pd.DataFrame(
            {
                "known": [" + ".join(self.columns[: i + 1]) for i in range(len(self.columns))],
                "added": list(self.columns),
                "n known": np.arange(1, len(self.columns) + 1),
                "unique": [r.rate for r in self.unique],
                "unique low": [r.low for r in self.unique],
                "unique high": [r.high for r in self.unique],
                "correct": [r.rate for r in self.correct],
                "correct low": [r.low for r in self.correct],
                "correct high": [r.high for r in self.correct],
            }
        )
