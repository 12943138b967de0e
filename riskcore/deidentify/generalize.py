"""Simple generalizations used by the attacks and the guided demo.

Each function returns a new text column whose labels the linkage attack can
match raw values against (:func:`riskcore.linkage.parse_interval` reads the
bands; trailing ``*`` masks are matched by prefix). Missing values stay
missing.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from riskcore._values import DATE_FORMATS, value_text

__all__ = ["band_numeric", "date_part", "mask_trailing", "suppress_small_classes"]


def band_numeric(series: pd.Series, width: float, *, start: float | None = None) -> pd.Series:
    """Replace numbers by the band of ``width`` that holds them.

    Integer-valued columns get inclusive labels ``"30-39"``; other columns get
    half-open labels ``"[30, 40)"``.

    Parameters
    ----------
    series : pandas.Series
        Numeric column (or text that parses as numbers).
    width : float
        Band width, > 0.
    start : float, optional
        Left edge of the first band (default: 0, so bands are 0-9, 10-19, ...).

    Returns
    -------
    pandas.Series
        Text labels, same index; missing where the input is missing.

    Examples
    --------
    >>> band_numeric(pd.Series([34, 41, None]), 10).tolist()
    ['30-39', '40-49', nan]
    """
    if not width > 0:
        raise ValueError(f"width must be positive, got {width!r}")
    x = pd.to_numeric(series, errors="coerce").to_numpy(dtype=float)
    origin = 0.0 if start is None else float(start)
    lo = origin + np.floor((x - origin) / width) * width
    integral = bool(np.all(np.isnan(x) | (x == np.round(x)))) and float(width).is_integer()
    integral = integral and float(origin).is_integer()
    uniq, inv = np.unique(lo, return_inverse=True)  # NaN sorts last
    labels: list[str | float] = []
    for v in uniq:  # one label per band (few), not per row
        if np.isnan(v):
            labels.append(np.nan)
        elif integral:
            labels.append(f"{int(v)}-{int(v + width - 1)}")
        else:
            labels.append(f"[{v:g}, {v + width:g})")
    out = np.asarray(labels, dtype=object)[inv.reshape(-1)]
    return pd.Series(out, index=series.index, name=series.name, dtype=object)


def mask_trailing(series: pd.Series, keep: int, *, width: int | None = None) -> pd.Series:
    """Keep the first ``keep`` characters and mask the rest with ``*``.

    ZIP codes read as numbers are restored to ``width`` digits (leading
    zeros) first, so ``2139`` becomes ``"021**"`` with ``keep=3, width=5``.

    Parameters
    ----------
    series : pandas.Series
        The column's values.
    keep : int
        Characters kept (>= 0).
    width : int, optional
        Left-pad digit strings with zeros to this width before masking.

    Returns
    -------
    pandas.Series
        Text labels; missing stays missing.

    Examples
    --------
    >>> mask_trailing(pd.Series(["02139", 2148]), 3, width=5).tolist()
    ['021**', '021**']
    """
    if keep < 0:
        raise ValueError(f"keep must be >= 0, got {keep!r}")
    codes, uniques = pd.factorize(series, use_na_sentinel=True)
    text = pd.Series(uniques).map(value_text)
    if width:
        digits = text.str.fullmatch(r"\d+")
        text = text.where(~digits, text.str.zfill(width))
    masked = text.str[:keep] + text.str.len().sub(keep).clip(lower=0).map(lambda m: "*" * m)
    out = np.append(masked.to_numpy(dtype=object), np.nan)[codes]
    return pd.Series(out, index=series.index, name=series.name, dtype=object)


def date_part(series: pd.Series, granularity: str = "year") -> pd.Series:
    """Reduce dates to their year (``"1987"``) or month (``"1987-03"``).

    Parameters
    ----------
    series : pandas.Series
        Dates or text that parses as dates (unparseable values become missing).
    granularity : {"year", "month", "day"}
        The part kept; another value is refused.

    Returns
    -------
    pandas.Series
        Text labels.
    """
    fmt = DATE_FORMATS.get(granularity)
    if fmt is None:
        raise ValueError(f"granularity must be year, month or day, got {granularity!r}")
    codes, uniques = pd.factorize(series, use_na_sentinel=True)
    dates = pd.to_datetime(pd.Series(uniques), errors="coerce", format="mixed")
    text = dates.dt.strftime(fmt).to_numpy(dtype=object)
    out = np.append(text, np.nan)[codes]
    return pd.Series(out, index=series.index, name=series.name, dtype=object)


def suppress_small_classes(
    data: pd.DataFrame, quasi_identifiers: list[str] | tuple[str, ...], k: int
) -> tuple[pd.DataFrame, np.ndarray]:
    """Remove the records whose equivalence class has fewer than ``k`` members.

    Record suppression as ARX applies it under a suppression limit: after
    generalization, the few records still in small classes are withheld, so
    the released table is k-anonymous.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    quasi_identifiers : list of str
        The quasi-identifier columns.
    k : int
        Smallest class size kept (>= 1).

    Returns
    -------
    released : pandas.DataFrame
        The kept records, index reset.
    kept : numpy.ndarray
        Positions in ``data`` of the kept records (``len(data) - len(kept)``
        records were suppressed).
    """
    from riskcore.engine import EncodedTable

    if k < 1:
        raise ValueError(f"k must be >= 1, got {k!r}")
    enc = EncodedTable(data)
    ids = enc.record_classes(list(quasi_identifiers))
    sizes = np.bincount(ids)[ids]  # records sharing each record's QI values
    kept = np.flatnonzero(sizes >= k)
    return data.iloc[kept].reset_index(drop=True), kept
