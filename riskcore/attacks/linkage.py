"""Simulated linkage (re-identification) attack.

The attacker holds an auxiliary table (a voter roll: names plus some
quasi-identifiers) and joins it to the released table on the shared columns
(Sweeney 2002's linkage of the Massachusetts GIC release with the Cambridge
voter list). For each target in the auxiliary table the *candidate set* is
the set of released records that agree with what the attacker knows.

Everything is a vectorized join on encoded keys: each pair of columns is
normalised on its distinct values only, mapped into one code space, packed
into an int64 key, and every target's candidate set is a window
``[lo, hi)`` of the release sorted by key (``numpy.searchsorted``). No loop
runs over records; loops run over matched columns, patterns of unknown
values and sensitive values.

Matching rules, per column pair (auxiliary -> release):

* text: trimmed and case-folded; digit strings are left-padded with zeros
  to the release's width (ZIP ``2139`` matches ``"02139"``);
* numbers: compared as numbers (``30`` matches ``30.0``), optionally within a
  tolerance ``|a - r| <= tol`` (one column at most);
* dates: parsed and compared at a granularity (day, month or year);
* generalized release: a released band (``"30-39"``, ``"[30, 40)"``,
  ``"90+"``, ``"<18"``) matches the numbers inside it, and a masked value
  (``"021**"``) matches values with that prefix;
* a missing auxiliary value means the attacker does not know it: it matches
  every released value. A missing released value is its own value.

References
----------
.. [S02] L. Sweeney, "k-anonymity: a model for protecting privacy",
   IJUFKS 10(5), 2002.
.. [W27] E. B. Wilson, "Probable inference, the law of succession, and
   statistical inference", JASA 22(158), 1927.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from riskcore._values import DATE_FORMATS, value_text
from riskcore.engine import encode_column, pack_keys
from riskcore.errors import RiskcoreError

__all__ = [
    "AttributeDisclosure",
    "LinkageCurve",
    "LinkageResult",
    "Rate",
    "linkage_attack",
    "linkage_curve",
    "parse_interval",
    "simulate_auxiliary",
    "wilson_interval",
]

_Z95 = 1.959963984540054
_UNKNOWN = -2  # attacker does not know the value: wildcard
_ABSENT = -1  # value does not occur in the release: no candidate
_MAX_BANDS = 10_000
_MAX_SENSITIVE_VALUES_WITH_TOLERANCE = 256


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


@dataclass(frozen=True)
class Rate:
    """A proportion with its 95% Wilson interval and a baseline.

    Attributes
    ----------
    successes, n : int
    rate : float
        successes / n (0 when n = 0).
    low, high : float
        95% Wilson interval.
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
        """Build a rate with its interval."""
        low, high = wilson_interval(int(successes), int(n))
        return cls(int(successes), int(n), successes / n if n else 0.0, low, high, baseline)

    def to_dict(self) -> dict[str, float]:
        """Return a JSON-ready dict."""
        return {
            "successes": self.successes,
            "n": self.n,
            "rate": self.rate,
            "ci95": [self.low, self.high],
            "baseline": self.baseline,
        }


@dataclass(frozen=True)
class AttributeDisclosure:
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
        Share of the most common value in the whole release.
    base_value : str
    """

    attribute: str
    p: float
    confident: Rate
    correct: Rate | None
    base_rate: float
    base_value: str

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "attribute": self.attribute,
            "p": self.p,
            "confident": self.confident.to_dict(),
            "correct": None if self.correct is None else self.correct.to_dict(),
            "base_rate": self.base_rate,
            "base_value": self.base_value,
        }


@dataclass(frozen=True)
class LinkageResult:
    """Outcome of a linkage attack.

    Attributes
    ----------
    n_targets, n_release : int
    columns : tuple of (str, str)
        Matched (auxiliary column, released column) pairs.
    candidates : numpy.ndarray
        Number of candidate records per target (0 = no match).
    unique : Rate
        Targets with exactly one candidate; baseline 1 / n_release.
    correct : Rate or None
        Targets with exactly one candidate that is their own record (needs
        ground truth); baseline 1 / n_release (a random guess).
    expected_correct : float or None
        Expected share re-identified when the attacker picks one candidate at
        random: mean over targets of [own record in the set] / |set|.
    in_candidates : Rate or None
        Targets whose own record is among their candidates.
    attributes : tuple of AttributeDisclosure
    notes : tuple of str
        How each column was matched.
    """

    n_targets: int
    n_release: int
    columns: tuple[tuple[str, str], ...]
    candidates: np.ndarray = field(repr=False)
    unique: Rate
    correct: Rate | None
    expected_correct: float | None
    in_candidates: Rate | None
    attributes: tuple[AttributeDisclosure, ...]
    notes: tuple[str, ...]

    @property
    def no_match(self) -> int:
        """Return the number of targets without any candidate."""
        return int((self.candidates == 0).sum())

    def candidate_histogram(self) -> pd.DataFrame:
        """Targets by candidate-set size bin (0, 1, 2, 3-4, 5-10, 11-19, 20-49, 50-99, 100+)."""
        edges = [0, 1, 2, 3, 5, 11, 20, 50, 100, np.inf]
        names = ["0 (no match)", "1", "2", "3-4", "5-10", "11-19", "20-49", "50-99", "100+"]
        idx = np.searchsorted(edges, self.candidates, side="right") - 1
        counts = np.bincount(idx, minlength=len(names))
        n = max(self.n_targets, 1)
        return pd.DataFrame(
            {"candidates": names, "targets": counts, "share": counts / n},
        )

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (the per-target array as a histogram)."""
        hist = self.candidate_histogram()
        return {
            "n_targets": self.n_targets,
            "n_release": self.n_release,
            "columns": [list(c) for c in self.columns],
            "candidate_histogram": dict(
                zip(hist["candidates"], map(int, hist["targets"]), strict=True)
            ),
            "no_match": self.no_match,
            "unique": self.unique.to_dict(),
            "correct": None if self.correct is None else self.correct.to_dict(),
            "expected_correct": self.expected_correct,
            "in_candidates": None if self.in_candidates is None else self.in_candidates.to_dict(),
            "attributes": [a.to_dict() for a in self.attributes],
            "notes": list(self.notes),
        }


# --------------------------------------------------------------------- parsing

_NUM = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_BRACKET = re.compile(rf"^\s*([\[(])\s*({_NUM})\s*[,;]\s*({_NUM})\s*([\])])\s*$")
_DASH = re.compile(rf"^\s*({_NUM})\s*(?:-|–|to|\.\.)\s*({_NUM})\s*$")
_PLUS = re.compile(rf"^\s*(?:({_NUM})\s*\+|>=\s*({_NUM})|>\s*({_NUM}))\s*$")
_LESS = re.compile(rf"^\s*(<=?)\s*({_NUM})\s*$")
_PLAIN = re.compile(rf"^\s*({_NUM})\s*$")


def parse_interval(label: object) -> tuple[float, float, bool, bool] | None:
    """Parse a released band into (low, high, low_closed, high_closed).

    Understood: ``"30-39"`` (closed), ``"[30, 40)"`` / ``"(30, 40]"``,
    ``"90+"`` / ``">=90"`` / ``">90"``, ``"<18"`` / ``"<=18"``, and a plain
    number (a one-point band).

    Returns
    -------
    tuple or None
        None when the label is not a band.

    Examples
    --------
    >>> parse_interval("30-39")
    (30.0, 39.0, True, True)
    >>> parse_interval("[30, 40)")
    (30.0, 40.0, True, False)
    """
    if not isinstance(label, str):
        if isinstance(label, (int, float, np.integer, np.floating)) and not pd.isna(label):
            return float(label), float(label), True, True
        return None
    if m := _BRACKET.match(label):
        return float(m[2]), float(m[3]), m[1] == "[", m[4] == "]"
    if m := _DASH.match(label):
        lo, hi = float(m[1]), float(m[2])
        return (lo, hi, True, True) if lo <= hi else None
    if m := _PLUS.match(label):
        if m[3] is not None:
            return float(m[3]), math.inf, False, False
        return float(m[1] or m[2]), math.inf, True, False
    if m := _LESS.match(label):
        return -math.inf, float(m[2]), False, m[1] == "<="
    if m := _PLAIN.match(label):
        return float(m[1]), float(m[1]), True, True
    return None


def _as_text(values: pd.Series) -> pd.Series:
    """Text form of distinct values for matching: trimmed and case-folded."""
    return values.map(lambda v: value_text(v, fold=True))


def _is_numeric(s: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype)


def _to_numbers(values: pd.Series) -> np.ndarray:
    return pd.to_numeric(values, errors="coerce").to_numpy(dtype=float)


def _parse_dates(values: pd.Series, *, force: bool = False) -> pd.Series | None:
    """Parse distinct values as dates; None unless at least 95% parse.

    Digit-only text (ZIPs, codes) is not taken for dates unless ``force``
    (a granularity was chosen, so ``"1987"`` is a year).
    """
    if len(values) == 0 or (_is_numeric(values) and not force):
        return None
    if pd.api.types.is_datetime64_any_dtype(values.dtype):
        return values
    text = values.map(lambda v: str(int(v)) if isinstance(v, float) and v.is_integer() else str(v))
    if not force and text.str.fullmatch(r"\s*\d{1,6}\s*").mean() > 0.5:
        return None
    parsed = pd.to_datetime(text, errors="coerce", format="mixed")
    return parsed if parsed.notna().mean() >= 0.95 else None


@dataclass(frozen=True)
class _Pair:
    """One matched column: codes in a shared space, plus the tolerance order."""

    aux_codes: np.ndarray  # >= 0, _ABSENT or _UNKNOWN
    rel_codes: np.ndarray  # >= 0
    card: int
    note: str
    rel_values: np.ndarray | None = None  # sorted distinct release numbers (tolerance)
    aux_values: np.ndarray | None = None  # number per target (tolerance)
    tolerance: float = 0.0


def _encode_pair(
    aux: pd.Series, rel: pd.Series, *, tolerance: float = 0.0, granularity: str | None = None
) -> _Pair:
    """Normalise one column pair on its distinct values and map both into one code space."""
    name = f"{aux.name} -> {rel.name}"
    r_codes, r_uniq = pd.factorize(rel, use_na_sentinel=True)
    a_codes, a_uniq = pd.factorize(aux, use_na_sentinel=True)
    r_uniq = pd.Series(np.asarray(r_uniq, dtype=object))
    a_uniq = pd.Series(np.asarray(a_uniq, dtype=object))
    r_missing = len(r_uniq)
    r_codes = np.where(r_codes < 0, r_missing, r_codes).astype(np.int64)

    def finish(a_map: np.ndarray, r_map: np.ndarray, note: str, **extra: Any) -> _Pair:
        # r_map: shared code per release unique (+1 slot for missing); a_map per aux unique
        r_out = r_map[r_codes]
        if len(a_map):
            a_out = np.where(a_codes < 0, _UNKNOWN, a_map[np.maximum(a_codes, 0)])
        else:  # the attacker knows no value of this column
            a_out = np.full(len(a_codes), _UNKNOWN, dtype=np.int64)
        card = int(r_map.max()) + 1 if len(r_map) else 1
        return _Pair(
            a_out.astype(np.int64), r_out.astype(np.int64), card, f"{name}: {note}", **extra
        )

    def shared(r_norm: pd.Series, a_norm: pd.Series) -> tuple[np.ndarray, np.ndarray]:
        codes, uniq = pd.factorize(r_norm, use_na_sentinel=True)
        m = len(uniq)
        codes = np.where(codes < 0, m, codes)
        r_map = np.append(codes, m).astype(np.int64)  # release missing -> its own code
        a_map = pd.Index(uniq).get_indexer(a_norm)
        return a_map.astype(np.int64), r_map

    if granularity is not None:
        r_dates = _parse_dates(r_uniq, force=True)
        a_dates = _parse_dates(a_uniq, force=True)
        if r_dates is None or a_dates is None:
            raise RiskcoreError(f"{name}: a date granularity needs dates on both sides")
        return _date_pair(r_dates, a_dates, granularity, shared, finish, name)

    r_num = _is_numeric(rel)
    a_num = _is_numeric(aux) or (
        len(a_uniq) > 0 and pd.to_numeric(a_uniq, errors="coerce").notna().mean() == 1.0
    )

    # generalized release: bands
    if not r_num and 0 < len(r_uniq) <= _MAX_BANDS and a_num:
        bands = [parse_interval(v) for v in r_uniq]
        if all(b is not None for b in bands) and any(b[0] != b[1] for b in bands):
            if tolerance:
                raise RiskcoreError(f"{name}: a tolerance cannot be used on a banded column")
            x = _to_numbers(a_uniq)
            a_map = np.full(len(x), _ABSENT, dtype=np.int64)
            for i, (lo, hi, lc, hc) in enumerate(bands):  # one pass per band label
                inside = ((x >= lo) if lc else (x > lo)) & ((x <= hi) if hc else (x < hi))
                a_map = np.where((a_map == _ABSENT) & inside, i, a_map)
            r_map = np.append(np.arange(len(r_uniq)), len(r_uniq)).astype(np.int64)
            return finish(a_map, r_map, f"numbers matched into {len(bands)} released bands")

    # numbers on both sides
    if r_num and a_num:
        r_x = _to_numbers(r_uniq)
        a_x = _to_numbers(a_uniq)
        if tolerance:
            # codes are the release's distinct numbers; the window does the rest
            order_vals, inv = np.unique(r_x, return_inverse=True)
            r_map = np.append(inv.reshape(-1), len(order_vals)).astype(np.int64)
            a_map = np.zeros(len(a_x), dtype=np.int64)  # placeholder: tolerance window
            pair = finish(a_map, r_map, f"numbers within +/- {tolerance:g}")
            a_val = (
                np.where(a_codes < 0, np.nan, a_x[np.maximum(a_codes, 0)])
                if len(a_x)
                else np.full(len(a_codes), np.nan)
            )
            return _Pair(
                pair.aux_codes,
                pair.rel_codes,
                pair.card,
                pair.note,
                rel_values=order_vals,
                aux_values=a_val.astype(float),
                tolerance=float(tolerance),
            )
        a_map, r_map = shared(pd.Series(r_x), pd.Series(a_x))
        return finish(a_map, r_map, "compared as numbers")
    if tolerance:
        raise RiskcoreError(f"{name}: a tolerance needs numbers on both sides")

    # dates
    r_dates, a_dates = _parse_dates(r_uniq), _parse_dates(a_uniq)
    if r_dates is not None and a_dates is not None:
        return _date_pair(r_dates, a_dates, "day", shared, finish, name)

    # text (with leading zeros restored and masked prefixes)
    r_text = _as_text(r_uniq)
    a_text = _as_text(a_uniq)
    note = "text, trimmed and case-folded"
    digits = r_text.dropna().str.fullmatch(r"\d+\**")  # digits, possibly masked (021**)
    if len(digits) and digits.all():
        width = int(r_text.dropna().str.len().max())
        a_digits = a_text.fillna("").str.fullmatch(r"\d+")
        a_text = a_text.where(~a_digits, a_text.str.zfill(width))
        note += f"; digit strings padded to {width} digits"
    stars = r_text.dropna().str.extract(r"(\*+)$")[0].dropna().str.len().unique()
    if len(stars):
        r_set = pd.Index(r_text.dropna().unique())
        for m in sorted(stars):  # one pass per mask length: unmatched values take the mask
            masked = (a_text.str[: -int(m)] + "*" * int(m)).where(a_text.str.len() > int(m))
            use = ~a_text.isin(r_set) & masked.isin(r_set)
            a_text = a_text.where(~use, masked)
        note += "; masked values (*) matched by prefix"
    a_map, r_map = shared(r_text, a_text)
    return finish(a_map, r_map, note)


def _date_pair(
    r_dates: pd.Series,
    a_dates: pd.Series,
    gran: str,
    shared: Any,
    finish: Any,
    name: str,
) -> _Pair:
    """Compare two date columns at a granularity (day, month or year)."""
    fmt = DATE_FORMATS.get(gran)
    if fmt is None:
        raise RiskcoreError(f"{name}: granularity must be day, month or year, got {gran!r}")
    a_map, r_map = shared(pd.Series(r_dates).dt.strftime(fmt), pd.Series(a_dates).dt.strftime(fmt))
    return finish(a_map, r_map, f"dates compared by {gran}")


# --------------------------------------------------------------------- the join


def _windows(
    pairs: list[_Pair], known: np.ndarray, n_rel: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return (lo, hi, order, absent) for targets sharing one pattern of known columns.

    ``order`` sorts the release by the packed key of the known columns; each
    target's candidates are ``order[lo:hi]``.
    """
    exact = [p for p in pairs if p.rel_values is None]
    ranged = [p for p in pairs if p.rel_values is not None]
    n_t = len(known)
    absent = np.zeros(n_t, dtype=bool)
    for p in pairs:
        absent |= p.aux_codes[known] == _ABSENT
    if exact:
        # release and targets packed together, so both get the same (possibly re-densified) key
        both, _ = pack_keys(
            [np.concatenate([p.rel_codes, np.maximum(p.aux_codes[known], 0)]) for p in exact],
            [p.card for p in exact],
        )
        r_key, a_key = both[:n_rel], both[n_rel:]
    else:
        r_key = np.zeros(n_rel, dtype=np.int64)
        a_key = np.zeros(n_t, dtype=np.int64)
    if not ranged:
        order = np.argsort(r_key, kind="stable")
        sorted_key = r_key[order]
        lo = np.searchsorted(sorted_key, a_key, side="left")
        hi = np.searchsorted(sorted_key, a_key, side="right")
    else:
        (rp,) = ranged
        u = len(rp.rel_values) + 1  # distinct numbers + the missing slot
        # dense key of the exact columns, then key * u + rank of the number
        dense_vals, r_dense = np.unique(r_key, return_inverse=True)
        composite = r_dense.reshape(-1).astype(np.int64) * u + rp.rel_codes
        order = np.argsort(composite, kind="stable")
        sorted_c = composite[order]
        pos = np.searchsorted(dense_vals, a_key)
        found = (pos < len(dense_vals)) & (
            dense_vals[np.minimum(pos, len(dense_vals) - 1)] == a_key
        )
        vals = rp.rel_values
        x = rp.aux_values[known]
        tol = rp.tolerance
        r_lo = np.searchsorted(vals, x - tol, side="left")
        r_hi = np.searchsorted(vals, x + tol, side="right")
        base = pos.astype(np.int64) * u
        lo = np.searchsorted(sorted_c, base + r_lo, side="left")
        hi = np.searchsorted(sorted_c, base + r_hi, side="left")
        hi = np.where(found & ~np.isnan(x), hi, lo)
    hi = np.where(absent, lo, hi)
    return lo, hi, order, absent


def linkage_attack(
    release: pd.DataFrame,
    auxiliary: pd.DataFrame,
    on: dict[str, str] | list[str],
    *,
    truth: np.ndarray | tuple[str, str] | None = None,
    sensitive: list[str] | tuple[str, ...] = (),
    p: float = 0.9,
    tolerance: dict[str, float] | None = None,
    granularity: dict[str, str] | None = None,
) -> LinkageResult:
    """Join an auxiliary table to a release on shared quasi-identifiers.

    For each target t (a row of ``auxiliary``) the candidate set is
    C_t = {released records r : r agrees with t on every known column}; the
    target is re-identified uniquely when |C_t| = 1, and correctly when that
    one record is its own [S02]_. Attribute disclosure: the attacker predicts
    the most common sensitive value in C_t, with confidence (its count) / |C_t|.

    Parameters
    ----------
    release : pandas.DataFrame
        The released table (possibly generalized).
    auxiliary : pandas.DataFrame
        The attacker's table, one row per target.
    on : dict or list
        {auxiliary column: released column}, or a list of names present in both.
    truth : numpy.ndarray or (str, str), optional
        Ground truth: the position in ``release`` of each target's own record
        (-1 when not in the release), or a pair (auxiliary id column, released
        id column) holding a shared identifier.
    sensitive : list of str
        Released sensitive attributes to test for attribute disclosure.
    p : float
        Confidence threshold for attribute disclosure, in (0, 1].
    tolerance : dict, optional
        {auxiliary column: t}: numbers match when |a - r| <= t (one column at most).
    granularity : dict, optional
        {auxiliary column: "day" | "month" | "year"} for date columns.

    Returns
    -------
    LinkageResult

    Raises
    ------
    RiskcoreError
        Unknown columns, bad parameters or incompatible column pairs.
    """
    mapping = dict(on) if isinstance(on, dict) else {c: c for c in on}
    if not mapping:
        raise RiskcoreError("choose at least one column the attacker knows")
    for a, r in mapping.items():
        if a not in auxiliary.columns:
            raise RiskcoreError(f"the auxiliary table has no column {a!r}")
        if r not in release.columns:
            raise RiskcoreError(f"the released table has no column {r!r}")
    for s in sensitive:
        if s not in release.columns:
            raise RiskcoreError(f"the released table has no column {s!r}")
    if not 0 < p <= 1:
        raise RiskcoreError(f"the confidence threshold p must be in (0, 1], got {p!r}")
    tolerance = {k: float(v) for k, v in (tolerance or {}).items() if v}
    granularity = dict(granularity or {})
    if len(tolerance) > 1:
        raise RiskcoreError("a numeric tolerance can be set on one column only")
    for k, v in tolerance.items():
        if k not in mapping or not v >= 0:
            raise RiskcoreError(f"bad tolerance {k!r}: {v!r}")
    n_rel, n_t = len(release), len(auxiliary)
    if n_rel == 0:
        raise RiskcoreError("the released table is empty")

    pairs = [
        _encode_pair(
            auxiliary[a].reset_index(drop=True),
            release[r].reset_index(drop=True),
            tolerance=tolerance.get(a, 0.0),
            granularity=granularity.get(a),
        )
        for a, r in mapping.items()
    ]
    true_pos = _truth_positions(release, auxiliary, truth)

    # one join per pattern of unknown values (wildcards), vectorized inside
    unknown = np.stack([p.aux_codes == _UNKNOWN for p in pairs], axis=1)
    weights = 1 << np.arange(unknown.shape[1], dtype=np.int64)
    pattern = (unknown.astype(np.int64) * weights).sum(axis=1) if n_t else np.zeros(0, np.int64)
    candidates = np.zeros(n_t, dtype=np.int64)
    in_set = np.zeros(n_t, dtype=bool)
    sens_codes = [(e.codes, e.labels) for e in (encode_column(release[s]) for s in sensitive)]
    conf = [np.zeros(n_t) for _ in sensitive]
    pred = [np.full(n_t, -1, dtype=np.int64) for _ in sensitive]
    for pat in np.unique(pattern):
        idx = np.flatnonzero(pattern == pat)
        use = [pr for j, pr in enumerate(pairs) if not (int(pat) >> j) & 1]
        if use:
            lo, hi, order, _ = _windows(use, idx, n_rel)
        else:  # the attacker knows nothing: everyone is a candidate
            lo = np.zeros(len(idx), dtype=np.int64)
            hi = np.full(len(idx), n_rel, dtype=np.int64)
            order = np.arange(n_rel)
        size = hi - lo
        candidates[idx] = size
        if true_pos is not None:
            rank = np.empty(n_rel, dtype=np.int64)
            rank[order] = np.arange(n_rel)
            tp = true_pos[idx]
            r = np.where(tp >= 0, rank[np.maximum(tp, 0)], -1)
            in_set[idx] = (tp >= 0) & (r >= lo) & (r < hi)
        for k, (codes, _labels) in enumerate(sens_codes):
            c, v = _majority_in_windows(
                codes[order], lo, hi, exact=all(pr.rel_values is None for pr in use)
            )
            conf[k][idx] = c
            pred[k][idx] = v

    baseline = 1.0 / n_rel
    unique = Rate.of(int((candidates == 1).sum()), n_t, baseline)
    correct = expected = in_cand = None
    if true_pos is not None:
        correct = Rate.of(int(((candidates == 1) & in_set).sum()), n_t, baseline)
        expected = (
            float(np.where(in_set, 1.0 / np.maximum(candidates, 1), 0.0).mean()) if n_t else 0.0
        )
        in_cand = Rate.of(int(in_set.sum()), n_t, 1.0)
    attrs = []
    for k, s in enumerate(sensitive):
        codes, labels = sens_codes[k]
        totals = np.bincount(codes, minlength=len(labels))
        base_code = int(np.argmax(totals))
        base_rate = float(totals[base_code] / n_rel)
        confident = (candidates > 0) & (conf[k] >= p - 1e-12)
        attr_correct = None
        if true_pos is not None:
            truth_val = np.where(true_pos >= 0, codes[np.maximum(true_pos, 0)], -2)
            hit = confident & (pred[k] == truth_val)
            attr_correct = Rate.of(int(hit.sum()), n_t, base_rate)
        attrs.append(
            AttributeDisclosure(
                attribute=s,
                p=float(p),
                confident=Rate.of(int(confident.sum()), n_t, 1.0 if base_rate >= p else 0.0),
                correct=attr_correct,
                base_rate=base_rate,
                base_value=str(labels[base_code]),
            )
        )
    return LinkageResult(
        n_targets=n_t,
        n_release=n_rel,
        columns=tuple((str(a), str(r)) for a, r in mapping.items()),
        candidates=candidates,
        unique=unique,
        correct=correct,
        expected_correct=expected,
        in_candidates=in_cand,
        attributes=tuple(attrs),
        notes=tuple(p.note for p in pairs),
    )


def _truth_positions(
    release: pd.DataFrame, auxiliary: pd.DataFrame, truth: np.ndarray | tuple[str, str] | None
) -> np.ndarray | None:
    if truth is None:
        return None
    if isinstance(truth, tuple):
        a_col, r_col = truth
        if a_col not in auxiliary.columns or r_col not in release.columns:
            raise RiskcoreError(f"ground-truth columns not found: {a_col!r}, {r_col!r}")
        r_ids = _as_text(pd.Series(release[r_col].to_numpy(dtype=object)))
        a_ids = _as_text(pd.Series(auxiliary[a_col].to_numpy(dtype=object)))
        if r_ids.duplicated().any():
            raise RiskcoreError(f"the released id column {r_col!r} has duplicate values")
        return pd.Index(r_ids).get_indexer(a_ids).astype(np.int64)
    pos = np.asarray(truth, dtype=np.int64)
    if pos.shape != (len(auxiliary),):
        raise RiskcoreError("truth must give one release position per auxiliary row")
    if (pos >= len(release)).any() or (pos < -1).any():
        raise RiskcoreError("truth positions must be -1 or valid release rows")
    return pos


def _majority_in_windows(
    sorted_codes: np.ndarray, lo: np.ndarray, hi: np.ndarray, *, exact: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Majority share and value of ``sorted_codes[lo:hi]`` for every window.

    Exact windows are whole runs of equal keys, so the counts are taken per
    run (one ``np.unique``); tolerance windows overlap, so the counts come from
    one prefix sum per sensitive value.
    """
    n_w = len(lo)
    size = hi - lo
    conf = np.zeros(n_w)
    pred = np.full(n_w, -1, dtype=np.int64)
    if n_w == 0 or len(sorted_codes) == 0:
        return conf, pred
    m = int(sorted_codes.max()) + 1
    if exact:
        # runs: windows start at run boundaries; label each position by its window start
        starts = np.unique(lo[size > 0])
        if len(starts) == 0:
            return conf, pred
        run_of = np.searchsorted(starts, np.arange(len(sorted_codes)), side="right") - 1
        # restrict to positions inside some window (positions after a run's end belong to none)
        w_hi = np.zeros(len(starts), dtype=np.int64)
        w_hi[np.searchsorted(starts, lo[size > 0])] = hi[size > 0]
        pos = np.arange(len(sorted_codes))
        inside = (run_of >= 0) & (pos < w_hi[np.maximum(run_of, 0)])
        pair = run_of[inside] * m + sorted_codes[inside]
        up, cnt = np.unique(pair, return_counts=True)
        pr, pv = up // m, up % m
        o = np.lexsort((pv, -cnt, pr))
        first = o[np.r_[True, pr[o][1:] != pr[o][:-1]]]
        best_cnt = np.zeros(len(starts))
        best_val = np.full(len(starts), -1, dtype=np.int64)
        best_cnt[pr[first]] = cnt[first]
        best_val[pr[first]] = pv[first]
        w = np.searchsorted(starts, lo)
        ok = size > 0
        conf[ok] = best_cnt[w[ok]] / size[ok]
        pred[ok] = best_val[w[ok]]
        return conf, pred
    if m > _MAX_SENSITIVE_VALUES_WITH_TOLERANCE:
        raise RiskcoreError(
            f"attribute disclosure with a numeric tolerance supports up to "
            f"{_MAX_SENSITIVE_VALUES_WITH_TOLERANCE} distinct sensitive values, got {m}"
        )
    best = np.zeros(n_w, dtype=np.int64)
    for v in range(m):  # one prefix sum per sensitive value
        csum = np.concatenate([[0], np.cumsum(sorted_codes == v)])
        cnt = csum[hi] - csum[lo]
        better = cnt > best
        best = np.where(better, cnt, best)
        pred = np.where(better, v, pred)
    ok = size > 0
    conf[ok] = best[ok] / size[ok]
    pred[~ok] = -1
    return conf, pred


# --------------------------------------------------------------------- simulation


def simulate_auxiliary(
    data: pd.DataFrame,
    known: list[str] | tuple[str, ...],
    *,
    identifiers: list[str] | tuple[str, ...] = (),
    n: int | None = None,
    error_rate: float = 0.0,
    missing_rate: float = 0.0,
    seed: int = 0,
) -> tuple[pd.DataFrame, np.ndarray]:
    """Simulate the attacker's auxiliary table from the data itself.

    The attacker knows the direct identifiers and the ``known`` columns of a
    random sample of ``n`` people. Each known value is, independently, wrong
    with probability ``error_rate`` (replaced by the value of another random
    person, as a stale or mistyped record would be) or unknown with
    probability ``missing_rate``.

    Parameters
    ----------
    data : pandas.DataFrame
        The full table (before release).
    known : list of str
        Quasi-identifiers the attacker knows.
    identifiers : list of str
        Direct identifiers copied into the auxiliary table (for display).
    n : int, optional
        Number of targets (default: everyone).
    error_rate, missing_rate : float
        In [0, 1], with error_rate + missing_rate <= 1.
    seed : int

    Returns
    -------
    auxiliary : pandas.DataFrame
    truth : numpy.ndarray
        Position in ``data`` of each target's own record.
    """
    cols = list(identifiers) + [c for c in known if c not in identifiers]
    for c in cols:
        if c not in data.columns:
            raise RiskcoreError(f"the table has no column {c!r}")
    if not (0 <= error_rate <= 1 and 0 <= missing_rate <= 1 and error_rate + missing_rate <= 1):
        raise RiskcoreError("error and missing rates must be shares that add up to at most 1")
    total = len(data)
    n = total if n is None else int(n)
    if not 0 < n <= total:
        raise RiskcoreError(f"the number of targets must be between 1 and {total:,}")
    rng = np.random.default_rng(seed)
    truth = np.sort(rng.choice(total, size=n, replace=False)) if n < total else np.arange(total)
    aux = data.iloc[truth][cols].reset_index(drop=True).copy()
    for c in known:
        u = rng.random(n)
        wrong = u < error_rate
        gone = (u >= error_rate) & (u < error_rate + missing_rate)
        col = aux[c]
        if wrong.any():
            donors = rng.integers(0, total, size=int(wrong.sum()))
            vals = data[c].iloc[donors].to_numpy()
            col = col.astype(object) if not _is_numeric(col) else col.astype(float)
            col.iloc[np.flatnonzero(wrong)] = vals
        if gone.any():
            col = col.astype(object) if not _is_numeric(col) else col.astype(float)
            col.iloc[np.flatnonzero(gone)] = np.nan
        aux[c] = col
    return aux, truth


@dataclass(frozen=True)
class LinkageCurve:
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
        """Return one row per step."""
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

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "columns": list(self.columns),
            "unique": [r.to_dict() for r in self.unique],
            "correct": [r.to_dict() for r in self.correct],
        }


def linkage_curve(
    release: pd.DataFrame,
    auxiliary: pd.DataFrame,
    order: list[str] | tuple[str, ...],
    *,
    truth: np.ndarray | tuple[str, str] | None,
    mapping: dict[str, str] | None = None,
) -> LinkageCurve:
    """Run the linkage attack knowing the first 1, 2, ..., q columns of ``order``.

    With exact matching and error-free knowledge the candidate sets are
    nested, so the unique re-identification rate never falls as a column is
    added (tested).

    Parameters
    ----------
    release, auxiliary : pandas.DataFrame
    order : list of str
        Auxiliary columns in the order the attacker learns them (e.g. by their
        uniqueness contribution, :mod:`riskcore.uniqueness`).
    truth : see :func:`linkage_attack`
    mapping : dict, optional
        {auxiliary column: released column}; default same names.

    Returns
    -------
    LinkageCurve
    """
    mapping = mapping or {c: c for c in order}
    uniq, corr = [], []
    for i in range(1, len(order) + 1):
        on = {c: mapping[c] for c in order[:i]}
        res = linkage_attack(release, auxiliary, on, truth=truth)
        uniq.append(res.unique)
        corr.append(res.correct if res.correct is not None else res.unique)
    return LinkageCurve(tuple(order), tuple(uniq), tuple(corr))
