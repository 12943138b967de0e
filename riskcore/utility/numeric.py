"""Risk and utility of perturbed numeric variables: sdcMicro's ``dRisk`` and IL1s.

Interval disclosure risk ([MDT05]_; sdcMicro ``R/dRisk.R``, ``dRiskWORK``, read at
commit cf32510, version 5.8.1): around each perturbed value x'_ij an interval of
half-width k * s'_j is drawn, s'_j the standard deviation (n - 1 in the
denominator) of the perturbed column j; with o_i the number of record i's original
values outside their intervals (missing values ignored, as sdcMicro's
``na.rm = TRUE``), a record is counted when **every** value lies inside
(``w <- rowSums(x < mi | x > ma, na.rm = TRUE) == 0; mean(w)``):

.. math:: \\mathrm{dRisk} = \\frac{1}{n} \\#\\{i : o_i = 0\\}, \\quad
          o_i = \\#\\{j : |x_{ij} - x'_{ij}| > k s'_j\\}

with k = 0.05 by default. Unperturbed data have dRisk = 1 (every record at risk);
lower is safer. sdcMicro has counted so since commit c2022f6 ("wrong calculation in
numrisk fixed", 2020-09-30; first released in 5.6.0). Version 5.5.1 and earlier
counted a record when at most one value lay outside (``%in% 0:1``), which counts
every record of a single column whatever the perturbation; riskcore 0.2.0 followed
that older rule, with today's figure beside it as ``drisk_all_inside``. The older
figure is no longer given, and ``drisk_all_inside`` is a deprecated name of ``drisk``.

Information loss IL1s (Yancey, Winkler and Creecy 2002, scaled as sdcMicro's
``dUtility(method = "IL1s")``, ``R/dUtility.R``): the sum over all cells of
the absolute change divided by the original column's standard deviation
(n - 1) times sqrt(2),

.. math:: \\mathrm{IL1s} = \\sum_{i,j} \\frac{|x_{ij} - x'_{ij}|}{\\sqrt{2}\\, s_j}

Unperturbed data have IL1s = 0; lower keeps more. sdcMicro reports the sum;
:attr:`NumericRiskUtility.il1s_per_cell` divides it by the number of cells,
to compare tables of different sizes.

References
----------
.. [MDT05] J. M. Mateo-Sanz, J. Domingo-Ferrer, F. Sebe, "Probabilistic
   information loss measures in confidentiality protection of continuous
   microdata", Data Mining and Knowledge Discovery 11(2), 181-193, 2005;
   W. E. Yancey, W. E. Winkler, R. H. Creecy, "Disclosure risk assessment in
   perturbative microdata protection", Inference Control in Statistical
   Databases, LNCS 2316, 135-152, 2002.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from riskcore._results import Migrations, Result
from riskcore._validation import check_positive
from riskcore.errors import RiskcoreError

__all__ = [
    "DRISK_K",
    "NumericRiskUtility",
    "drisk",
    "drisk_all_inside",
    "il1s",
    "numeric_risk_utility",
    "unperturbed",
]

#: sdcMicro's default half-width of the intervals, in perturbed standard deviations.
DRISK_K = 0.05

_RENAMED = (
    "drisk_all_inside is deprecated: it is drisk, which counts the records with every value "
    "inside its interval as sdcMicro 5.8.1 does"
)


def _drisk_from_0_2_0(data: dict[str, Any]) -> dict[str, Any]:
    """Return a version-1 result as version 2 writes it: ``drisk`` of today's rule.

    riskcore 0.2.0 wrote ``drisk`` by sdcMicro's pre-2020 rule (at most one value
    outside) and ``drisk_all_inside``, the share with every value inside: that is
    version 2's ``drisk``. A version-1 dict without it already holds today's rule.
    """
    out = dict(data)
    if "drisk_all_inside" in out:
        out["drisk"] = out.pop("drisk_all_inside")
    return out


@dataclass(frozen=True)
class NumericRiskUtility(Result):
    """dRisk and IL1s of perturbed numeric columns (:func:`numeric_risk_utility`).

    Attributes
    ----------
    columns : tuple of str
    drisk : float
        sdcMicro's dRisk: the share of records whose every original value lies
        within k perturbed standard deviations of its perturbed value (1 for
        unperturbed data; lower is safer).
    il1s : float
        sdcMicro's IL1s, a sum over cells (0 for unperturbed data; lower keeps
        more).
    il1s_per_cell : float
        IL1s divided by the number of cells.
    k : float
        The half-width of the intervals, in perturbed standard deviations.
    """

    columns: tuple[str, ...]
    drisk: float
    il1s: float
    il1s_per_cell: float
    k: float = DRISK_K

    #: 2: ``drisk`` counts the records with every value inside (1: riskcore 0.2.0 wrote
    #: sdcMicro's pre-2020 rule there, today's beside it as ``drisk_all_inside``).
    schema_version: ClassVar[int] = 2
    migrations: ClassVar[Migrations] = {1: _drisk_from_0_2_0}

    @property
    def drisk_all_inside(self) -> float:
        """Return ``drisk`` (deprecated name, from when ``drisk`` followed the pre-2020 rule)."""
        warnings.warn(_RENAMED, DeprecationWarning, stacklevel=2)
        return self.drisk


def _pair(
    original: pd.DataFrame, perturbed: pd.DataFrame, columns: Sequence[str]
) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    cols = tuple(str(c) for c in ([columns] if isinstance(columns, str) else columns))
    if not cols:
        raise RiskcoreError("name at least one numeric column")
    if len(original) != len(perturbed):
        raise RiskcoreError(
            f"the perturbed table has {len(perturbed)} rows and the original {len(original)}; "
            "dRisk and IL1s compare the same records"
        )
    for table in (original, perturbed):
        absent = [c for c in cols if c not in table.columns]
        if absent:
            raise RiskcoreError(f"the table has no column {absent[0]!r}")
    x = np.column_stack([pd.to_numeric(original[c], errors="coerce") for c in cols])
    xm = np.column_stack([pd.to_numeric(perturbed[c], errors="coerce") for c in cols])
    return cols, x.astype(np.float64), xm.astype(np.float64)


def _outside(
    original: pd.DataFrame, perturbed: pd.DataFrame, columns: Sequence[str], k: float
) -> np.ndarray:
    """Return, per record, how many original values lie outside their intervals."""
    k = check_positive("k", k)
    _, x, xm = _pair(original, perturbed, columns)
    if len(xm) > 1:
        sd = np.nanstd(xm, axis=0, ddof=1)
    else:
        sd = np.zeros(xm.shape[1])
    with np.errstate(invalid="ignore"):
        outside = (x < xm - k * sd) | (x > xm + k * sd)  # NaN compares False: ignored
    return np.asarray(outside.sum(axis=1))


def drisk(
    original: pd.DataFrame,
    perturbed: pd.DataFrame,
    columns: Sequence[str],
    *,
    k: float = DRISK_K,
) -> float:
    """Return sdcMicro's interval disclosure risk ``dRisk`` (see the module docstring).

    A record counts when every one of its original values lies inside its
    interval, as in sdcMicro 5.8.1's ``dRiskWORK``.

    Parameters
    ----------
    original, perturbed : pandas.DataFrame
        The same records in the same order.
    columns : sequence of str
        The numeric columns compared.
    k : float, default 0.05
        Half-width of the intervals, in perturbed standard deviations.

    Returns
    -------
    float
        In [0, 1]; lower is safer. NaN on an empty table.

    Raises
    ------
    RiskcoreError
        When the tables differ in length or lack a column.
    """
    o = _outside(original, perturbed, columns, k)
    return float((o == 0).mean()) if len(o) else float("nan")


def drisk_all_inside(
    original: pd.DataFrame,
    perturbed: pd.DataFrame,
    columns: Sequence[str],
    *,
    k: float = DRISK_K,
) -> float:
    """Return :func:`drisk` (deprecated name, from when ``drisk`` followed the pre-2020 rule).

    Parameters
    ----------
    original, perturbed : pandas.DataFrame
        Passed on to :func:`drisk`.
    columns : sequence of str
        Passed on to :func:`drisk`.
    k : float, default 0.05
        Passed on to :func:`drisk`.

    Returns
    -------
    float
        :func:`drisk` of the same arguments.
    """
    warnings.warn(_RENAMED, DeprecationWarning, stacklevel=2)
    return drisk(original, perturbed, columns, k=k)


def il1s(original: pd.DataFrame, perturbed: pd.DataFrame, columns: Sequence[str]) -> float:
    """Return sdcMicro's information loss IL1s (see the module docstring).

    Parameters
    ----------
    original, perturbed : pandas.DataFrame
        The records before and after the perturbation, row by row.
    columns : sequence of str
        The numeric columns whose scaled absolute differences are summed.

    Returns
    -------
    float
        At least 0; lower keeps more. Infinite when a constant original column
        was changed.

    Raises
    ------
    RiskcoreError
        When the tables differ in length or lack a column.
    """
    _, x, xm = _pair(original, perturbed, columns)
    if len(x) < 2:
        return 0.0
    sd = np.nanstd(x, axis=0, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        cells = np.abs(x - xm) / (sd * np.sqrt(2.0))
    return float(np.nansum(cells))


def numeric_risk_utility(
    original: pd.DataFrame,
    perturbed: pd.DataFrame,
    columns: Sequence[str],
    *,
    k: float = DRISK_K,
) -> NumericRiskUtility:
    """Compute dRisk and IL1s of perturbed numeric columns together.

    Parameters
    ----------
    original, perturbed : pandas.DataFrame
        The same records in the same order.
    columns : sequence of str
        The numeric columns the perturbation changed.
    k : float, default 0.05
        dRisk's interval half-width, in perturbed standard deviations.

    Returns
    -------
    NumericRiskUtility

    Raises
    ------
    RiskcoreError
        When the tables differ in length or lack a column.
    """
    cols = tuple(str(c) for c in ([columns] if isinstance(columns, str) else columns))
    loss = il1s(original, perturbed, cols)
    cells = len(original) * len(cols)
    return NumericRiskUtility(
        columns=cols,
        drisk=drisk(original, perturbed, cols, k=k),
        il1s=loss,
        il1s_per_cell=loss / cells if cells else 0.0,
        k=float(k),
    )


def unperturbed(columns: Sequence[str], k: float = DRISK_K) -> NumericRiskUtility:
    """Return dRisk and IL1s of columns left as they are: the "before" of every comparison.

    By the definitions (module docstring) an unchanged column has every original value
    at the centre of its interval, so dRisk = 1 and IL1s = 0;
    this is :func:`numeric_risk_utility` of a table against itself, without the table.

    Parameters
    ----------
    columns : sequence of str
        The numeric columns.
    k : float, default 0.05
        The half-width of the intervals, in perturbed standard deviations.

    Returns
    -------
    NumericRiskUtility
        dRisk 1, IL1s 0.
    """
    cols = tuple(str(c) for c in ([columns] if isinstance(columns, str) else columns))
    return NumericRiskUtility(columns=cols, drisk=1.0, il1s=0.0, il1s_per_cell=0.0, k=float(k))
