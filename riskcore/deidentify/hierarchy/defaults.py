"""The hierarchy of a column when the user gave none, and UCI Adult's census groups."""

from __future__ import annotations

import pandas as pd

from riskcore.deidentify.hierarchy.base import Hierarchy, leaves_of, present, text_of
from riskcore.deidentify.hierarchy.builders import (
    banded_hierarchy,
    date_format,
    date_hierarchy,
    flat_hierarchy,
    grouping_hierarchy,
    prefix_hierarchy,
)
from riskcore.errors import RiskcoreError

__all__ = ["builtin_hierarchy", "default_hierarchy"]


#: Built-in groups of UCI Adult's census categories (level 1, then level 2), after the
#: Census Bureau's own groupings (class of worker, educational attainment, marital status,
#: major occupation group); "*" above them.
_ADULT_GROUPS: dict[str, list[dict[str, str]]] = {
    "workclass": [
        {
            "Private": "Private",
            "Self-emp-not-inc": "Self-employed",
            "Self-emp-inc": "Self-employed",
            "Federal-gov": "Government",
            "State-gov": "Government",
            "Local-gov": "Government",
            "Without-pay": "Not paid",
            "Never-worked": "Not paid",
        },
    ],
    "education": [
        {
            "Preschool": "No high-school diploma",
            "1st-4th": "No high-school diploma",
            "5th-6th": "No high-school diploma",
            "7th-8th": "No high-school diploma",
            "9th": "No high-school diploma",
            "10th": "No high-school diploma",
            "11th": "No high-school diploma",
            "12th": "No high-school diploma",
            "HS-grad": "High school",
            "Some-college": "Some college or associate",
            "Assoc-voc": "Some college or associate",
            "Assoc-acdm": "Some college or associate",
            "Bachelors": "Bachelor's",
            "Masters": "Graduate or professional",
            "Prof-school": "Graduate or professional",
            "Doctorate": "Graduate or professional",
        },
        {
            "No high-school diploma": "High school or less",
            "High school": "High school or less",
            "Some college or associate": "Some college or more",
            "Bachelor's": "Some college or more",
            "Graduate or professional": "Some college or more",
        },
    ],
    "marital-status": [
        {
            "Married-civ-spouse": "Married",
            "Married-AF-spouse": "Married",
            "Married-spouse-absent": "Married",
            "Separated": "Formerly married",
            "Divorced": "Formerly married",
            "Widowed": "Formerly married",
            "Never-married": "Never married",
        },
    ],
    "occupation": [
        {
            "Exec-managerial": "Management and professional",
            "Prof-specialty": "Management and professional",
            "Tech-support": "Service and sales",
            "Sales": "Service and sales",
            "Adm-clerical": "Service and sales",
            "Other-service": "Service and sales",
            "Priv-house-serv": "Service and sales",
            "Protective-serv": "Service and sales",
            "Craft-repair": "Production and manual",
            "Machine-op-inspct": "Production and manual",
            "Transport-moving": "Production and manual",
            "Handlers-cleaners": "Production and manual",
            "Farming-fishing": "Production and manual",
            "Armed-Forces": "Production and manual",
        },
    ],
    "race": [],
    "sex": [],
}
_ADULT_ALIASES = {"marital_status": "marital-status", "marital status": "marital-status"}


def builtin_hierarchy(series: pd.Series) -> Hierarchy | None:
    """Return the built-in hierarchy of a UCI Adult census column, or None.

    Columns: workclass, education, marital-status, occupation, race, sex
    (the last two: value or ``"*"``), and native-country (country, then
    "United-States" / "Other", then ``"*"``). Values not in the census
    categories make it None (the caller then builds a flat hierarchy).

    Parameters
    ----------
    series : pandas.Series
        The column's values.

    Returns
    -------
    Hierarchy or None
    """
    name = str(series.name).strip().lower()
    name = _ADULT_ALIASES.get(name, name)
    if name in ("native-country", "native_country", "country"):
        values = leaves_of(series)
        home = "United-States"
        country = [{text_of(v): (home if text_of(v) == home else "Other") for v in values}]
        return grouping_hierarchy(series, country)
    if name not in _ADULT_GROUPS:
        return None
    groups = _ADULT_GROUPS[name]
    if groups:
        texts = {text_of(v) for v in leaves_of(series)}
        if not texts <= set(groups[0]):
            return None
    return grouping_hierarchy(series, groups) if groups else flat_hierarchy(series)


def default_hierarchy(series: pd.Series) -> Hierarchy:
    """Return a hierarchy suited to a column when the user gave none.

    * UCI Adult census categories: :func:`builtin_hierarchy`;
    * numbers: bands of a round width (1, 2 or 5 times a power of ten, about
      16 bands over the range), doubling at each level up to the range;
    * dates (datetime columns, or text that is all dates written one common way:
      ISO ``YYYY-MM-DD``, US ``MM/DD/YYYY`` (``DD/MM/YYYY`` when a day is above 12),
      ``DD.MM.YYYY``; :func:`~riskcore.deidentify.hierarchy.builders.date_format`):
      month, year, decade (the value or ``"*"`` beyond the date builder's limit of
      :data:`~riskcore.deidentify.hierarchy.dates.MAX_DATE_VALUES` distinct values);
    * codes of one length made of digits (ZIP codes, postcodes): masked from
      the right;
    * anything else: the value or ``"*"``.

    Parameters
    ----------
    series : pandas.Series
        The column's values.

    Returns
    -------
    Hierarchy
    """
    built = builtin_hierarchy(series)
    if built is not None:
        return built
    values = present(series)
    if pd.api.types.is_bool_dtype(series.dtype) or values.empty:
        return flat_hierarchy(series)
    if pd.api.types.is_numeric_dtype(series.dtype):
        return banded_hierarchy(series)
    if pd.api.types.is_datetime64_any_dtype(series.dtype):
        try:
            return date_hierarchy(series)
        except RiskcoreError:  # beyond the date builder's limit: the same as text dates
            return flat_hierarchy(series)
    text = values.astype(str)
    if date_format(text) is not None:
        try:
            return date_hierarchy(series)
        except RiskcoreError:
            pass
    lengths = text.str.len()
    if text.str.fullmatch(r"\d+").all() and lengths.nunique() == 1 and int(lengths.iloc[0]) >= 3:
        return prefix_hierarchy(series)
    return flat_hierarchy(series)
