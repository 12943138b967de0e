"""pandas imported when first used, so that ``riskcore assess`` never pays for it.

A module on the command line's ``assess`` path writes::

    if TYPE_CHECKING:
        import pandas as pd
    else:
        from riskcore._lazy import pandas as pd

Type checkers see pandas itself; at run time ``pd`` is a stand-in that
imports pandas at its first attribute read (``pd.DataFrame``, ``pd.isna``)
and hands every attribute over from then on. The fast ``assess`` path loads
with pyarrow and computes with numpy, so no attribute is read and pandas is
never imported (``tests/riskcore/test_fast_assess.py`` checks it in a fresh
process). :func:`is_frame` and :func:`is_series` answer "is this a pandas
object?" without importing pandas: no object can be one before pandas is
imported.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TypeGuard

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["is_frame", "is_missing", "is_series", "missing_mask", "pandas"]


class _LazyModule:
    """A module imported at its first attribute read."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        import importlib

        module = importlib.import_module(self._name)
        return getattr(module, attr)

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}>"


#: The stand-in for ``import pandas as pd``.
pandas: Any = _LazyModule("pandas")


def is_frame(obj: object) -> TypeGuard[pd.DataFrame]:
    """Return whether ``obj`` is a pandas DataFrame, without importing pandas.

    Parameters
    ----------
    obj : object

    Returns
    -------
    bool
        False whenever pandas has not been imported (no DataFrame exists then).
    """
    module = sys.modules.get("pandas")
    return module is not None and isinstance(obj, module.DataFrame)


def is_series(obj: object) -> TypeGuard[pd.Series]:
    """Return whether ``obj`` is a pandas Series, without importing pandas.

    Parameters
    ----------
    obj : object

    Returns
    -------
    bool
        False whenever pandas has not been imported.
    """
    module = sys.modules.get("pandas")
    return module is not None and isinstance(obj, module.Series)


def missing_mask(values: Any) -> np.ndarray:
    """Return, per value, whether it is missing: ``pd.isna``, without importing pandas.

    Parameters
    ----------
    values : array-like
        Labels of an encoded column (few: one per distinct value).

    Returns
    -------
    numpy.ndarray
        bool. With pandas loaded, ``pd.isna`` itself; before, ``None`` and
        every value unequal to itself (a float ``NaN``, ``NaT``): the only
        missing values an object can hold while pandas is not loaded.
    """
    arr = np.asarray(values, dtype=object)
    module = sys.modules.get("pandas")
    if module is not None:
        return np.asarray(module.isna(arr), dtype=bool)
    if not len(arr):
        return np.zeros(0, dtype=bool)
    none = np.equal(arr, np.array(None, dtype=object))
    return np.asarray(none | np.not_equal(arr, arr), dtype=bool)


def is_missing(value: object) -> bool:
    """Return whether one value is missing, as :func:`missing_mask` decides.

    Parameters
    ----------
    value : object

    Returns
    -------
    bool
    """
    return bool(missing_mask([value])[0])
