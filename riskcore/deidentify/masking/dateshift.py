"""Per-person date shifting: one random number of days per person, for all of their dates."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import pandas as pd

from riskcore.deidentify.masking.tokens import SecretKey, key_bytes
from riskcore.deidentify.masking.values import distinct_text
from riskcore.errors import RiskcoreError

__all__ = ["shift_dates"]


def _person_offsets(
    person: pd.Series, max_days: int, seed: int | None, key: SecretKey | bytes | None
) -> npt.NDArray[np.int64]:
    """Return one shift in days per row: the same for every row of a person, never 0."""
    codes, texts = distinct_text(person)
    n = len(texts)
    alone = np.flatnonzero(codes < 0)  # rows without a person id: each is its own person
    codes = codes.copy()
    codes[alone] = n + np.arange(len(alone))
    total = n + len(alone)
    if key is not None:
        mac = hmac.new(key_bytes(key), digestmod=hashlib.sha256)
        labels = [b"person:" + t.encode("utf-8") for t in texts]
        labels += [b"row:" + str(int(i)).encode("ascii") for i in alone]
        draws = []
        for label in labels:
            h = mac.copy()
            h.update(label)
            draws.append(int.from_bytes(h.digest()[:8], "big") % (2 * max_days))
        u = np.asarray(draws, dtype=np.int64)
    else:
        u = np.random.default_rng(seed).integers(0, 2 * max_days, size=total, dtype=np.int64)
    offsets = np.where(u < max_days, u - max_days, u - max_days + 1)  # -N..-1, 1..N
    return np.asarray(offsets[codes], dtype=np.int64)


def shift_dates(
    data: pd.DataFrame,
    *,
    person: str,
    columns: Sequence[str],
    max_days: int,
    seed: int | None = None,
    key: SecretKey | bytes | None = None,
) -> pd.DataFrame:
    """Shift every date of a person by the same random number of days.

    Each distinct value of ``person`` gets one offset, uniform on
    -``max_days`` .. -1 and 1 .. ``max_days`` (never 0, which would leave the
    dates exact), and every date in ``columns`` of that person's rows moves
    by it: intervals between a person's dates (length of stay, age at an
    event) are unchanged; intervals between different people are not. With
    ``seed`` the offsets are drawn from ``numpy.random.default_rng(seed)``
    in order of first appearance; with ``key`` each is taken from
    HMAC-SHA256(key, person id), so a person gets the same shift in every
    release made with the key. A row without a person id is a person of its
    own.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    person : str
        Column identifying the person.
    columns : sequence of str
        Date columns: datetimes, or text that parses as dates.
    max_days : int
        Largest shift, >= 1.
    seed : int, optional
        Seed of the random generator.
    key : SecretKey or bytes, optional
        Exactly one of ``seed`` and ``key``.

    Returns
    -------
    pandas.DataFrame
        A new table; datetime columns stay datetimes, text columns become
        ISO text (``YYYY-MM-DD``, with the time when a value has one).
        Missing dates stay missing.

    Raises
    ------
    RiskcoreError
        When a column is missing or holds text that is not a date.
    """
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"data must be a pandas DataFrame, got {type(data).__name__}")
    if isinstance(max_days, bool) or not isinstance(max_days, int) or max_days < 1:
        raise ValueError(f"max_days must be an integer >= 1, got {max_days!r}")
    if (seed is None) == (key is None):
        raise ValueError("give exactly one of seed and key")
    if isinstance(columns, str):
        raise TypeError("columns must be a sequence of column names, not a string")
    for col in (person, *columns):
        if col not in data.columns:
            raise RiskcoreError(f"column {col!r} is not in the table")
    shift = pd.to_timedelta(_person_offsets(data[person], max_days, seed, key), unit="D")
    out = data.copy()
    for col in columns:
        values = data[col]
        if pd.api.types.is_datetime64_any_dtype(values.dtype):
            out[col] = values + shift
            continue
        dates = pd.to_datetime(values, errors="coerce", format="mixed")
        bad = int((dates.isna() & values.notna()).sum())
        if bad:
            raise RiskcoreError(
                f"column {col!r} has {bad:,} values that are not dates; shift only date columns"
            )
        moved = dates + shift
        has_time = bool((moved.dropna() != moved.dropna().dt.normalize()).any())
        text = moved.dt.strftime("%Y-%m-%d %H:%M:%S" if has_time else "%Y-%m-%d")
        out[col] = pd.Series(
            np.where(moved.isna(), np.nan, text.to_numpy(dtype=object)),
            index=data.index,
            dtype=object,
        )
    return out
