"""Two-release attack: combining group means or bands of two releases.

Computed from encoded columns; loops run over the released groupings only,
never over records.

The attack reads no equivalence class: its unknowns are the rows' values,
and a row's value is recovered or not whoever holds it. With a person
column it counts people too: a person is exposed when the value of at least
one of their rows is recovered exactly (the unit of privacy is the person,
``shared/notes/formulas.md``, "Many rows per person").

References
----------
.. [DN03] I. Dinur, K. Nissim, "Revealing information while preserving
   privacy", PODS 2003 (combining releases; linear reconstruction).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Self

import numpy as np
import pandas as pd

from riskcore._results import NOT_IN_JSON, Result
from riskcore.attacks._people import check_person, person_ids
from riskcore.attacks.linkage import parse_interval
from riskcore.engine import pack_keys
from riskcore.errors import RiskcoreError

__all__ = [
    "TwoReleaseResult",
    "two_release_attack",
]

# ------------------------------------------------------------------ two releases


def _no_floats() -> np.ndarray:
    return np.zeros(0, dtype=np.float64)


@dataclass(frozen=True)
class TwoReleaseResult(Result):
    """What combining several releases of the same numeric column reveals.

    Attributes
    ----------
    kind : str
        "mean" (each release publishes group means, i.e. microaggregation) or
        "interval" (each release publishes a band per record).
    inferred : numpy.ndarray
        Best inference per record: for "mean", the mean of the record's
        finest determined cell (its own value when exact); for "interval",
        the midpoint of the intersection of its bands.
    low, high : numpy.ndarray
        For "interval": the intersection of the bands; for "mean": equal to
        ``inferred`` where the cell total is determined, NaN elsewhere.
    exact : numpy.ndarray of bool
        Records whose individual value is determined by the releases.
    person : str or None
        The column linking a person's rows; None: each record is taken to be
        a different person.
    people, people_exact : int or None
        With ``person``: the people of the records, and those with at least
        one record recovered exactly (read them as :attr:`n_people` and
        :attr:`n_exact_people`).
    """

    kind: str
    inferred: np.ndarray = field(default_factory=_no_floats, repr=False, metadata=NOT_IN_JSON)
    low: np.ndarray = field(default_factory=_no_floats, repr=False, metadata=NOT_IN_JSON)
    high: np.ndarray = field(default_factory=_no_floats, repr=False, metadata=NOT_IN_JSON)
    exact: np.ndarray = field(
        default_factory=lambda: np.zeros(0, dtype=bool), repr=False, metadata=NOT_IN_JSON
    )
    person: str | None = None
    people: int | None = None
    people_exact: int | None = None

    @property
    def n_exact(self) -> int:
        """Return the number of exactly recoverable records."""
        return int(self.exact.sum())

    @property
    def unit(self) -> str:
        """Return what :attr:`n_people` counts: "person" (a person column is set) or "record"."""
        return "record" if self.person is None else "person"

    @property
    def n_people(self) -> int:
        """Return the people of the records (the records without a person column)."""
        return len(self.exact) if self.people is None else int(self.people)

    @property
    def n_exact_people(self) -> int:
        """Return the people with a value recovered exactly (the records without a person)."""
        return self.n_exact if self.people_exact is None else int(self.people_exact)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict: the exact rows and the inference per record.

        ``low`` and ``high`` are not written (:meth:`from_dict` leaves them empty).

        Returns
        -------
        dict of str to Any
            The fields with ``n_records``, ``exact_rows`` (positions from 0) and
            ``inferred`` (None where nothing is inferred); ``low`` and ``high`` left out.
        """
        out = super().to_dict()
        out["n_records"] = len(self.exact)
        out["n_exact"] = self.n_exact
        out["exact_rows"] = np.flatnonzero(self.exact).tolist()
        out["inferred"] = [None if np.isnan(v) else float(v) for v in self.inferred]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild a result from :meth:`to_dict` output (``inferred`` and ``exact`` restored).

        Parameters
        ----------
        data : mapping of str to Any
            A result as :meth:`to_dict` wrote it: ``exact_rows`` as positions, None where
            nothing is inferred.

        Returns
        -------
        Self
        """
        base = super().from_dict(data)
        exact = np.zeros(int(data.get("n_records", 0)), dtype=bool)
        exact[np.asarray(data.get("exact_rows", []), dtype=np.int64)] = True
        inferred = np.array(
            [np.nan if v is None else float(v) for v in data.get("inferred", [])], dtype=float
        )
        return dataclasses.replace(base, inferred=inferred, exact=exact)


_MAX_TWO_RELEASE_ROWS = 5_000


def two_release_attack(
    releases: pd.DataFrame | list[pd.Series],
    *,
    kind: Literal["mean", "interval"] | None = None,
    person: str | None = None,
) -> TwoReleaseResult:
    """Combine several generalizations of one numeric column released separately.

    *Means* (each record shows its group's mean): every release gives the
    group totals size_g * mean_g, a linear system A x = b over the hidden
    values x. A record's value is determined iff its unit vector lies in the
    row space of A, i.e. P_ii = 1 for the projector P = A^+ A; the value is
    (A^+ b)_i [DN03]_. Records that share the same group in every release
    form a cell; a cell's mean is determined when its indicator lies in the
    row space, and is the inference for its members. Rounding in the
    released means carries over (a mean given to 2 decimals gives the value
    to about 1e-2).

    *Intervals*: a record's value lies in the intersection of its bands; it
    is exact when the intersection is a single point.

    *People*: with ``person``, the same system over the records; a person
    is exposed when one of their records is exact (each person counted
    once, a record with no person value a person of its own).

    Parameters
    ----------
    releases : pandas.DataFrame or list of pandas.Series
        One column per release, aligned by record (at most 5,000 records for
        means: the projector is dense).
    kind : {"mean", "interval"}, optional
        Default: "interval" when every value parses as a band, else "mean".
    person : str, optional
        A column of ``releases`` (a DataFrame) linking the records of one
        person; it is not a release.

    Returns
    -------
    TwoReleaseResult
    """
    if person is not None:
        if not isinstance(releases, pd.DataFrame):
            raise RiskcoreError("a person column needs the releases as a table that holds it")
        check_person(releases.columns, person)
        who, n_people = person_ids(releases[person])
        found = two_release_attack(releases.drop(columns=[person]), kind=kind)
        exposed = np.zeros(n_people, dtype=bool)
        exposed[who[found.exact]] = True
        return dataclasses.replace(
            found, person=person, people=n_people, people_exact=int(exposed.sum())
        )
    cols = (
        [releases[c] for c in releases.columns]
        if isinstance(releases, pd.DataFrame)
        else list(releases)
    )
    if len(cols) < 2:
        raise RiskcoreError("give at least two releases of the same column")
    n = len(cols[0])
    if any(len(c) != n for c in cols):
        raise RiskcoreError("the releases must have the same records")
    if kind is None:
        textual = any(not pd.api.types.is_numeric_dtype(c.dtype) for c in cols)
        kind = "interval" if textual else "mean"
    if kind == "interval":
        return _intersect_bands(cols)
    if kind != "mean":
        raise RiskcoreError(f"kind must be mean or interval, got {kind!r}")
    if n > _MAX_TWO_RELEASE_ROWS:
        raise RiskcoreError(
            f"combining released means is limited to {_MAX_TWO_RELEASE_ROWS:,} records"
        )
    return _solve_means(cols)


def _intersect_bands(cols: list[pd.Series]) -> TwoReleaseResult:
    """Intersect each record's released bands (one pass per release, vectorized over records)."""
    n = len(cols[0])
    lo = np.full(n, -np.inf)
    hi = np.full(n, np.inf)
    for c in cols:
        codes, uniq = pd.factorize(c, use_na_sentinel=True)
        bands = [parse_interval(u) for u in uniq]  # one parse per distinct band
        if any(b is None for b in bands):
            raise RiskcoreError(f"release {c.name!r} has values that are not bands")
        found = [b for b in bands if b is not None]
        b_lo = np.array([b[0] for b in found] + [-np.inf], dtype=np.float64)
        b_hi = np.array([b[1] for b in found] + [np.inf], dtype=np.float64)
        codes = np.where(codes < 0, len(bands), codes)
        lo, hi = np.maximum(lo, b_lo[codes]), np.minimum(hi, b_hi[codes])
    exact = np.isfinite(lo) & (lo == hi)
    mid = np.where(np.isfinite(lo) & np.isfinite(hi), (lo + hi) / 2, np.nan)
    return TwoReleaseResult("interval", mid, lo, hi, exact)


def _solve_means(cols: list[pd.Series]) -> TwoReleaseResult:
    """Solve the group-total system A x = b of released means by the pseudo-inverse [DN03]_."""
    n = len(cols[0])
    blocks, rhs, cell_codes = [], [], []
    for c in cols:
        x = pd.to_numeric(c, errors="coerce")
        if x.isna().any():
            raise RiskcoreError(f"release {c.name!r} has missing or non-numeric values")
        codes, uniq = pd.factorize(x)
        onehot = np.zeros((len(uniq), n))
        onehot[codes, np.arange(n)] = 1.0
        blocks.append(onehot)
        rhs.append(np.asarray(uniq, dtype=float) * onehot.sum(axis=1))
        cell_codes.append(codes)
    a = np.vstack(blocks)
    b = np.concatenate(rhs)
    pinv = np.linalg.pinv(a)
    proj = pinv @ a
    xhat = pinv @ b
    exact = np.abs(np.diag(proj) - 1.0) < 1e-8
    cell, _ = pack_keys(
        [np.asarray(k, dtype=np.int64) for k in cell_codes], [int(k.max()) + 1 for k in cell_codes]
    )
    _, cell = np.unique(cell, return_inverse=True)
    cell = cell.reshape(-1)
    ind = np.zeros((int(cell.max()) + 1, n))
    ind[cell, np.arange(n)] = 1.0
    determined = np.abs(ind @ proj - ind).max(axis=1) < 1e-8
    cell_mean = (ind @ xhat) / ind.sum(axis=1)
    inferred = np.where(determined[cell], cell_mean[cell], np.nan)
    inferred = np.where(exact, xhat, inferred)
    return TwoReleaseResult("mean", inferred, inferred.copy(), inferred.copy(), exact)
