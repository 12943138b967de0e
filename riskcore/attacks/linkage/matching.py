"""Column matching for the linkage attack: both sides of a column pair in one code space.

Each (auxiliary column, released column) pair is normalised on its distinct
values only and mapped into shared integer codes, so the join itself
(:mod:`riskcore.attacks.linkage.candidates`) compares integers [S02]_.

Matching rules, per column pair (auxiliary -> release):

* text: trimmed and case-folded; digit strings are left-padded with zeros
  to the release's width (ZIP ``2139`` matches ``"02139"``);
* numbers: compared as numbers (``30`` matches ``30.0``), optionally within a
  tolerance ``|a - r| <= tol`` (one column at most);
* dates: parsed and compared at a granularity (day, month or year);
* generalized release: a released band (``"30-39"``, ``"[30, 40)"``,
  ``"90+"``, ``"<18"``) matches the numbers inside it, and a masked value
  (``"021**"``) matches values with that prefix;
* a missing auxiliary value means the attacker does not know it
  (code ``UNKNOWN``, a wildcard); a value absent from the release gets
  ``ABSENT`` (no candidate). A missing released value is its own value.

References
----------
.. [S02] L. Sweeney, "k-anonymity: a model for protecting privacy",
   IJUFKS 10(5), 2002.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from riskcore._values import DATE_FORMATS, value_text
from riskcore.errors import RiskcoreError

__all__ = ["parse_interval"]

_UNKNOWN = -2  # attacker does not know the value: wildcard
_ABSENT = -1  # value does not occur in the release: no candidate
_MAX_BANDS = 10_000

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

    Parameters
    ----------
    label : object
        A released value.

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


@dataclass(frozen=True)
class _Distinct:
    """The distinct values of both columns of a pair and each row's index into them.

    ``r_codes`` indexes ``r_uniq`` (``len(r_uniq)`` for a missing released
    value); ``a_codes`` indexes ``a_uniq`` (-1 for a missing auxiliary value).
    """

    name: str
    r_codes: np.ndarray
    a_codes: np.ndarray
    r_uniq: pd.Series
    a_uniq: pd.Series

    @classmethod
    def of(cls, aux: pd.Series, rel: pd.Series) -> _Distinct:
        """Factorize both columns."""
        r_codes, r_uniq = pd.factorize(rel, use_na_sentinel=True)
        a_codes, a_uniq = pd.factorize(aux, use_na_sentinel=True)
        r_values = pd.Series(np.asarray(r_uniq, dtype=object))
        a_values = pd.Series(np.asarray(a_uniq, dtype=object))
        return cls(
            name=f"{aux.name} -> {rel.name}",
            r_codes=np.where(r_codes < 0, len(r_values), r_codes).astype(np.int64),
            a_codes=np.asarray(a_codes, dtype=np.int64),
            r_uniq=r_values,
            a_uniq=a_values,
        )

    def finish(self, a_map: np.ndarray, r_map: np.ndarray, note: str) -> _Pair:
        """Map every row through the per-distinct-value maps into shared codes.

        ``r_map`` gives the shared code of each released distinct value (plus
        one slot for missing), ``a_map`` that of each auxiliary distinct value.
        """
        r_out = r_map[self.r_codes]
        if len(a_map):
            a_out = np.where(self.a_codes < 0, _UNKNOWN, a_map[np.maximum(self.a_codes, 0)])
        else:  # the attacker knows no value of this column
            a_out = np.full(len(self.a_codes), _UNKNOWN, dtype=np.int64)
        card = int(r_map.max()) + 1 if len(r_map) else 1
        return _Pair(a_out.astype(np.int64), r_out.astype(np.int64), card, f"{self.name}: {note}")


def _shared_codes(r_norm: pd.Series, a_norm: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """Code normalised values of both sides in the release's code space.

    Returns (a_map, r_map): an auxiliary value absent from the release gets -1
    (``_ABSENT``); a missing released value gets its own code.
    """
    codes, uniq = pd.factorize(r_norm, use_na_sentinel=True)
    m = len(uniq)
    codes = np.where(codes < 0, m, codes)
    r_map = np.append(codes, m).astype(np.int64)  # release missing -> its own code
    a_map = pd.Index(uniq).get_indexer(pd.Index(a_norm))
    return np.asarray(a_map, dtype=np.int64), r_map


def _encode_pair(
    aux: pd.Series, rel: pd.Series, *, tolerance: float = 0.0, granularity: str | None = None
) -> _Pair:
    """Normalise one column pair on its distinct values and map both into one code space.

    Tried in order: dates at a chosen granularity, released bands, numbers,
    dates by day, text (see the module docstring).
    """
    d = _Distinct.of(aux, rel)
    if granularity is not None:
        r_dates = _parse_dates(d.r_uniq, force=True)
        a_dates = _parse_dates(d.a_uniq, force=True)
        if r_dates is None or a_dates is None:
            raise RiskcoreError(f"{d.name}: a date granularity needs dates on both sides")
        return _date_pair(r_dates, a_dates, granularity, d)

    r_num = _is_numeric(rel)
    a_num = _is_numeric(aux) or (
        len(d.a_uniq) > 0 and pd.to_numeric(d.a_uniq, errors="coerce").notna().mean() == 1.0
    )
    if not r_num and 0 < len(d.r_uniq) <= _MAX_BANDS and a_num:
        banded = _band_pair(d, tolerance)
        if banded is not None:
            return banded
    if r_num and a_num:
        return _number_pair(d, tolerance)
    if tolerance:
        raise RiskcoreError(f"{d.name}: a tolerance needs numbers on both sides")
    r_dates, a_dates = _parse_dates(d.r_uniq), _parse_dates(d.a_uniq)
    if r_dates is not None and a_dates is not None:
        return _date_pair(r_dates, a_dates, "day", d)
    return _text_pair(d)


def _band_pair(d: _Distinct, tolerance: float) -> _Pair | None:
    """Match auxiliary numbers into released bands; None when the release is not banded."""
    parsed = [parse_interval(v) for v in d.r_uniq]
    bands = [b for b in parsed if b is not None]
    if len(bands) < len(parsed) or not any(b[0] != b[1] for b in bands):
        return None
    if tolerance:
        raise RiskcoreError(f"{d.name}: a tolerance cannot be used on a banded column")
    x = _to_numbers(d.a_uniq)
    a_map = np.full(len(x), _ABSENT, dtype=np.int64)
    for i, (lo, hi, lc, hc) in enumerate(bands):  # one pass per band label
        inside = ((x >= lo) if lc else (x > lo)) & ((x <= hi) if hc else (x < hi))
        a_map = np.where((a_map == _ABSENT) & inside, i, a_map)
    r_map = np.append(np.arange(len(d.r_uniq)), len(d.r_uniq)).astype(np.int64)
    return d.finish(a_map, r_map, f"numbers matched into {len(bands)} released bands")


def _number_pair(d: _Distinct, tolerance: float) -> _Pair:
    """Compare numbers on both sides, exactly or within +/- ``tolerance``."""
    r_x = _to_numbers(d.r_uniq)
    a_x = _to_numbers(d.a_uniq)
    if not tolerance:
        a_map, r_map = _shared_codes(pd.Series(r_x), pd.Series(a_x))
        return d.finish(a_map, r_map, "compared as numbers")
    # codes are the release's distinct numbers; the window does the rest
    order_vals, inv = np.unique(r_x, return_inverse=True)
    r_map = np.append(inv.reshape(-1), len(order_vals)).astype(np.int64)
    a_map = np.zeros(len(a_x), dtype=np.int64)  # placeholder: tolerance window
    pair = d.finish(a_map, r_map, f"numbers within +/- {tolerance:g}")
    a_val = (
        np.where(d.a_codes < 0, np.nan, a_x[np.maximum(d.a_codes, 0)])
        if len(a_x)
        else np.full(len(d.a_codes), np.nan)
    )
    return dataclasses.replace(
        pair, rel_values=order_vals, aux_values=a_val.astype(float), tolerance=float(tolerance)
    )


def _text_pair(d: _Distinct) -> _Pair:
    """Compare text, with leading zeros restored and masked prefixes matched."""
    r_text = _as_text(d.r_uniq)
    a_text = _as_text(d.a_uniq)
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
    a_map, r_map = _shared_codes(r_text, a_text)
    return d.finish(a_map, r_map, note)


def _date_pair(r_dates: pd.Series, a_dates: pd.Series, gran: str, d: _Distinct) -> _Pair:
    """Compare two date columns at a granularity (day, month or year)."""
    fmt = DATE_FORMATS.get(gran)
    if fmt is None:
        raise RiskcoreError(f"{d.name}: granularity must be day, month or year, got {gran!r}")
    a_map, r_map = _shared_codes(
        pd.Series(r_dates).dt.strftime(fmt), pd.Series(a_dates).dt.strftime(fmt)
    )
    return d.finish(a_map, r_map, f"dates compared by {gran}")
