"""The enumeration attack: why a plain hash is never a pseudonym.

:func:`enumeration_attack` reverses SHA-256 hashes of a column's SSNs or birth
dates by hashing every candidate.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from riskcore._results import Result
from riskcore.deidentify.masking.values import check_series, per_value

__all__ = ["PLAIN_HASH_NOTE", "SSN_SPACE", "EnumerationResult", "enumeration_attack"]

#: Why no operator is a plain hash, in one line (shown beside the attack).
PLAIN_HASH_NOTE = (
    "Never a plain hash: an SSN or a birth date is recovered from its SHA-256 by hashing "
    "every possible value, in seconds for birth dates (see the enumeration attack)."
)

#: Every 9-digit SSN and every day from 1900-01-01 to 2025-12-31.
SSN_SPACE = 10**9
_DATE_FIRST, _DATE_LAST = "1900-01-01", "2025-12-31"


@dataclass(frozen=True)
class EnumerationResult(Result):
    """What enumerating candidates recovered from plain SHA-256 hashes of a column.

    Attributes
    ----------
    kind : str
        ``"ssn"`` or ``"birth_date"``.
    n_values : int
        Non-missing values in the column.
    n_hashed : int
        Distinct values in the kind's form (9 digits; a date), hashed as a
        plain SHA-256 release would be.
    n_recovered : int
        Distinct hashes reversed by the enumeration (matched by hash, not by
        comparing values).
    rows_recovered : int
        Rows whose value was recovered.
    space_searched : int
        Candidates hashed (measured).
    full_space : int
        Size of the whole space: 10^9 SSNs, or every day of 1900-2025.
    seconds : float
        Wall time of the enumeration (measured, one CPU core, Python hashlib).
    hashes_per_second : float
        ``space_searched / seconds`` (measured).
    projected_seconds : float
        ``full_space / hashes_per_second``: the time for the whole space at the
        measured rate. Equal to ``seconds`` when the whole space was searched;
        for SSNs it is a projection, not a measurement.
    whole_space : bool
        True when every candidate of the full space was tried.
    assumption : str
        What the attacker is assumed to know.
    """

    kind: str
    n_values: int
    n_hashed: int
    n_recovered: int
    rows_recovered: int
    space_searched: int
    full_space: int
    seconds: float
    hashes_per_second: float
    projected_seconds: float
    whole_space: bool
    assumption: str


def _sha(text: str) -> bytes:
    return hashlib.sha256(text.encode("ascii")).digest()


def _ssn_forms(series: pd.Series) -> pd.Series:
    """Return each value's SSN as ``ddd-dd-dddd`` (missing where it is not 9 digits).

    Numbers (a column read as integers lost its leading zeros) are padded to 9 digits.
    """
    numeric = pd.api.types.is_numeric_dtype(series.dtype)

    def forms(texts: list[str]) -> list[object]:
        out: list[object] = []
        for t in texts:
            digits = "".join(ch for ch in t if ch.isdigit())
            if numeric and t.isdigit():
                digits = digits.zfill(9)
            ok = len(digits) == 9 and len(digits) >= sum(ch.isalnum() for ch in t)
            out.append(f"{digits[:3]}-{digits[3:5]}-{digits[5:]}" if ok else np.nan)
        return out

    return per_value(series, forms)


def _date_forms(series: pd.Series) -> pd.Series:
    """Return each value's date as ``YYYY-MM-DD`` (missing where it is not a date)."""

    def parse(texts: list[str]) -> list[object]:
        parsed = pd.to_datetime(pd.Series(texts, dtype=object), errors="coerce", format="mixed")
        text = parsed.dt.strftime("%Y-%m-%d").to_numpy(dtype=object)
        return list(np.where(parsed.notna().to_numpy(), text, np.nan))

    return per_value(series, parse)


def enumeration_attack(
    series: pd.Series,
    kind: Literal["ssn", "birth_date"],
    *,
    max_candidates: int = 2_000_000,
) -> EnumerationResult:
    """Reverse a plain SHA-256 "pseudonymisation" of the column by trying every candidate.

    Each distinct value is put in one form (SSNs as ``ddd-dd-dddd``, dates as
    ``YYYY-MM-DD``) and hashed with SHA-256 as a naive release would. The
    attacker then hashes candidates and looks each hash up among the released
    ones; a value counts as recovered only when its hash is matched.

    - ``birth_date``: every day from 1900-01-01 to 2025-12-31 (46,022
      candidates) is tried: the whole space, measured.
    - ``ssn``: the full space is 10^9. The attacker is assumed to know which
      area-group prefixes (first 5 digits) are in use (before 2011 the area
      followed the state of issue and groups were issued in a published
      order), and tries all 10,000 serials of each prefix, the prefixes
      holding most rows first, until ``max_candidates``. The time for the full
      space is **projected** from the measured rate, not measured. Values
      whose prefix was not tried are not recovered here, though the full
      enumeration would recover them all.

    Rates are of one CPU core in Python's ``hashlib``; dedicated software on a
    GPU is orders of magnitude faster, so the projection is an upper bound on
    an attacker's time. The attacker is also assumed to know the form that was
    hashed; trying a few other forms multiplies the time by their number.

    Parameters
    ----------
    series : pandas.Series
        The user's column of SSNs or birth dates.
    kind : {"ssn", "birth_date"}
        What the column holds: the candidates tried.
    max_candidates : int, default 2,000,000
        Most SSN candidates to hash (a multiple of 10,000 is used).

    Returns
    -------
    EnumerationResult
        Recovered values and rows, the space searched, measured seconds and
        rate, and the projected seconds for the full space.
    """
    series = check_series(series)
    if kind not in ("ssn", "birth_date"):
        raise ValueError(f"kind must be 'ssn' or 'birth_date', got {kind!r}")
    if isinstance(max_candidates, bool) or not isinstance(max_candidates, int):
        raise TypeError(f"max_candidates must be an integer, got {max_candidates!r}")
    if max_candidates < 10_000:
        raise ValueError(f"max_candidates must be at least 10,000, got {max_candidates!r}")
    forms = _ssn_forms(series) if kind == "ssn" else _date_forms(series)
    counts = forms.value_counts(dropna=True)
    released = {_sha(str(v)): int(c) for v, c in counts.items()}  # the naive release
    found: set[bytes] = set()
    start = time.perf_counter()
    if kind == "birth_date":
        days = pd.date_range(_DATE_FIRST, _DATE_LAST, freq="D").strftime("%Y-%m-%d")
        found = released.keys() & {_sha(d) for d in days}
        searched, full = len(days), len(days)
        assumption = (
            "the hash is of the date written YYYY-MM-DD; every day from 1900 to 2025 is tried"
        )
    else:
        by_prefix = (
            pd.Series(counts.to_numpy(), index=[str(v)[:7] for v in counts.index])
            .groupby(level=0, sort=False)
            .sum()
            .sort_values(ascending=False, kind="stable")
        )
        # with no SSN in the column, one block of serials still measures the rate
        prefixes = list(by_prefix.index[: max_candidates // 10_000]) or ["000-00-"]
        serials = [f"{s:04d}" for s in range(10_000)]
        for prefix in prefixes:
            found |= released.keys() & {_sha(prefix + s) for s in serials}
        searched, full = 10_000 * len(prefixes), SSN_SPACE
        assumption = (
            "the hash is of the SSN written ddd-dd-dddd, and the attacker knows the area-group "
            f"prefixes in use; {len(prefixes):,} of {len(by_prefix):,} prefixes tried, "
            "all 10,000 serials each"
        )
    seconds = time.perf_counter() - start
    rate = searched / seconds if seconds > 0 else math.inf
    return EnumerationResult(
        kind=kind,
        n_values=int(series.notna().sum()),
        n_hashed=len(released),
        n_recovered=len(found),
        rows_recovered=sum(released[h] for h in found),
        space_searched=searched,
        full_space=full,
        seconds=seconds,
        hashes_per_second=rate,
        projected_seconds=seconds if searched == full else full / rate,
        whole_space=searched == full,
        assumption=assumption,
    )
