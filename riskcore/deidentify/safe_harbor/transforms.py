"""The standard Safe Harbor transforms: ZIP to 3 digits, ages over 89, dates to the year, and
identifiers written inside free text replaced by placeholders."""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Self

import numpy as np
import pandas as pd

from riskcore._results import plain
from riskcore._steps import ReadAsDict, Step
from riskcore.deidentify.masking import distinct_text, take_back
from riskcore.deidentify.safe_harbor.categories import RESTRICTED_ZIP3, RESTRICTED_ZIP3_YEAR
from riskcore.errors import RiskcoreError
from riskcore.freetext import entity, redact_found

__all__ = [
    "SafeHarborStep",
    "SafeHarborTransform",
    "TransformStep",
    "ages_to_90_plus",
    "dates_to_year",
    "redact_text",
    "safe_harbor_step",
    "zip_to_zip3",
]

_ZIP_RE = re.compile(r"^(\d{1,5})(?:-?\d{4})?$")
_YEAR_RE = re.compile(r"^\d{4}$")


@dataclass(frozen=True)
class SafeHarborStep(ReadAsDict, Step):
    """One Safe Harbor transform a recipe records: a :class:`~riskcore._steps.Step`.

    ``kind`` is ``"safe_harbor"``, ``operation`` the action (``"zip3"``,
    ``"age_90_plus"``, ``"date_year"``, ``"redact_text"``, ``"dropped"``), ``columns``
    the one column and ``parameters`` the action's (``birth`` and ``as_of`` of
    ``date_year``, ``why`` of ``dropped``). It is written as a recipe's ``safe_harbor``
    entry has always been written, ``{"column", "action", ...}`` with the parameters in
    their order, so recipes keep their JSON and their seals; reading one as a dict
    (``step["column"]``) still works, with a DeprecationWarning. :func:`run_safe_harbor
    <riskcore.deidentify.safe_harbor.run_safe_harbor>` runs it and says what it did as a
    :class:`TransformStep`.

    Attributes
    ----------
    kind : str
        ``"safe_harbor"``.
    operation : str
        The action.
    columns : tuple of str
        The one column it transforms.
    parameters : dict
        The action's parameters, JSON values.

    Raises
    ------
    RiskcoreError
        For another kind, not one column, or parameters named ``column`` or ``action``.

    Examples
    --------
    >>> step = SafeHarborStep.from_dict({"column": "zip", "action": "zip3"})
    >>> (step.column, step.action, step.to_dict())
    ('zip', 'zip3', {'column': 'zip', 'action': 'zip3'})
    """

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.kind != "safe_harbor":
            raise RiskcoreError(f"a Safe Harbor step's kind is 'safe_harbor', not {self.kind!r}")
        if len(self.columns) != 1:
            raise RiskcoreError(f"a Safe Harbor step transforms one column, not {self.columns!r}")
        clash = [k for k in ("column", "action") if k in self.parameters]
        if clash:
            raise RiskcoreError(f"a Safe Harbor step's parameters hold no {clash[0]!r}")

    @property
    def column(self) -> str:
        """The column it transforms."""
        return self.columns[0]

    @property
    def action(self) -> str:
        """The action (``operation``)."""
        return self.operation

    def to_dict(self) -> dict[str, Any]:
        """Return the step as a recipe's ``safe_harbor`` entry writes it.

        Returns
        -------
        dict of str to Any
            ``{"column", "action"}`` and the parameters, in their order.
        """
        return {"column": self.column, "action": self.operation, **plain(self.parameters)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Read a recipe's ``safe_harbor`` entry (or a Step's own JSON).

        Parameters
        ----------
        data : mapping
            ``{"column", "action", ...}`` as a recipe holds it (and
            :func:`~riskcore.deidentify.safe_harbor.safe_harbor_plan` makes it), or
            :meth:`Step.to_dict <riskcore._steps.Step.to_dict>`'s output.

        Returns
        -------
        SafeHarborStep

        Raises
        ------
        RiskcoreError
            For a column or an action that is not text.
        """
        if not isinstance(data, Mapping):
            raise RiskcoreError(f"a Safe Harbor step is a mapping, not {type(data).__name__}")
        if "operation" in data and "action" not in data:  # a Step's own JSON
            step = Step.from_dict(data)
            return cls(step.kind, step.operation, step.columns, step.parameters)
        column, action = data.get("column"), data.get("action")
        if not isinstance(column, str) or not isinstance(action, str):
            raise RiskcoreError(
                f"a Safe Harbor step names its column and action as text, not {dict(data)!r}"
            )
        params = {k: v for k, v in data.items() if k not in ("column", "action")}
        return cls("safe_harbor", action, (column,), params)


def safe_harbor_step(step: SafeHarborStep | Mapping[str, Any]) -> SafeHarborStep:
    """Return a Safe Harbor step as a :class:`SafeHarborStep` (a recipe's dict read).

    Parameters
    ----------
    step : SafeHarborStep or mapping
        A step, or a recipe's ``safe_harbor`` entry ``{"column", "action", ...}``.

    Returns
    -------
    SafeHarborStep
        ``step`` itself when it is one (a :class:`TransformStep`, what a run did, as the
        step alone).

    Raises
    ------
    RiskcoreError
        For a mapping that is not a Safe Harbor step.
    """
    if type(step) is SafeHarborStep:
        return step
    if isinstance(step, SafeHarborStep):
        return SafeHarborStep(step.kind, step.operation, step.columns, step.parameters)
    return SafeHarborStep.from_dict(step)


@dataclass(frozen=True, init=False)
class TransformStep(SafeHarborStep):
    """One Safe Harbor transform applied to one column: a :class:`SafeHarborStep` and what it did.

    Made as it always was, ``TransformStep(column, action, n_changed, note)``, and
    written as before (``column``, ``action``, ``n_changed``, ``note``): its ``kind`` is
    ``"safe_harbor"``, its ``operation`` the action and its ``columns`` ``(column,)``.

    Attributes
    ----------
    column : str
        The column's name.
    action : str
        ``"dropped"``, ``"zip3"``, ``"age_90_plus"``, ``"date_year"`` or
        ``"redact_text"``.
    n_changed : int
        Non-missing values the step changed (all of them for ``"dropped"``).
    note : str
        What was done, in a sentence (padded ZIP codes, restricted areas,
        values that could not be read).
    """

    n_changed: int = 0
    note: str = ""

    def __init__(self, column: str, action: str, n_changed: int, note: str) -> None:
        self._made(kind="safe_harbor", operation=action, columns=(column,), parameters={},
                   n_changed=n_changed, note=note)  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """Return what the transform did as JSON values, as it was always written.

        Returns
        -------
        dict of str to Any
            ``schema_version``, ``column``, ``action``, ``n_changed`` and ``note``.
        """
        return {"schema_version": self.schema_version, "column": self.column,
                "action": self.action, "n_changed": self.n_changed, "note": self.note}  # fmt: skip

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Read what :meth:`to_dict` wrote.

        Parameters
        ----------
        data : mapping
            ``{"column", "action", "n_changed", "note"}`` (and ``schema_version``).

        Returns
        -------
        TransformStep

        Raises
        ------
        ValueError
            When a field is missing or its schema version is newer than this code knows.
        """
        data = cls.upgrade(data)
        missing = [k for k in ("column", "action", "n_changed", "note") if k not in data]
        if missing:
            raise ValueError(f"TransformStep data has no field {missing[0]!r}")
        return cls(data["column"], data["action"], int(data["n_changed"]), data["note"])


class SafeHarborTransform(NamedTuple):
    """A table transformed by :func:`apply_safe_harbor` and the steps taken.

    Attributes
    ----------
    data : pandas.DataFrame
        The table.
    steps : tuple of TransformStep
        One per column changed or dropped, in column order.
    """

    data: pd.DataFrame
    steps: tuple[TransformStep, ...]


def year_of(as_of: int | None) -> int:
    """Return the year ages are counted to: ``as_of``, or this year.

    Parameters
    ----------
    as_of : int or None
        A year, or None for this year.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        When ``as_of`` is not a year from 1800 to 2200.
    """
    if as_of is None:
        return _dt.date.today().year
    if isinstance(as_of, bool) or not isinstance(as_of, int) or not 1800 <= as_of <= 2200:
        raise ValueError(f"as_of must be a year, got {as_of!r}")
    return as_of


def rows_of(codes: np.ndarray, which: Sequence[bool]) -> int:
    """Rows whose distinct value is flagged in ``which``.

    Parameters
    ----------
    codes : numpy.ndarray
        The code of each row's distinct value.
    which : sequence of bool
        One flag per distinct value.

    Returns
    -------
    int
    """
    if not len(which):
        return 0
    flags = np.append(np.asarray(which, dtype=bool), False)
    return int(flags[codes].sum())


def zip_to_zip3(series: pd.Series) -> tuple[pd.Series, TransformStep]:
    """Keep the first 3 digits of each ZIP code; ``000`` for the restricted areas.

    45 CFR 164.514(b)(2)(i)(B): the initial three digits may stay when the
    area they cover holds more than 20,000 people; the others
    (:data:`RESTRICTED_ZIP3`, 2000 Census) become ``000``. The result is text,
    so leading zeros stay (``"02139"`` -> ``"021"``). ZIP codes that lost
    their leading zeros (a column read as numbers: 2139) are padded to 5
    digits first, and the step's note says how many. ZIP+4 (``02139-4307``)
    keeps its first 3 digits; a value that is not a ZIP code becomes missing
    (counted in the note). A column whose every value has at most 3 digits
    already holds areas: they are padded to 3 digits (21 -> ``"021"``) and
    the restricted ones set to ``000``.

    Parameters
    ----------
    series : pandas.Series
        ZIP codes as text or numbers.

    Returns
    -------
    zip3 : pandas.Series
        3-digit text; missing stays missing.
    step : TransformStep
    """
    codes, texts = distinct_text(series)
    matches = [_ZIP_RE.match(t) for t in texts]
    # a column whose every value has at most 3 digits holds areas already (021, or 21 read as
    # a number), not ZIP codes that lost their leading zeros
    areas = bool(texts) and all(m is not None and len(m.group(0)) <= 3 for m in matches)
    width = 3 if areas else 5
    out: list[object] = []
    padded: list[bool] = []  # flags per distinct value
    restricted: list[bool] = []
    invalid: list[bool] = []
    for match in matches:
        digits = match.group(1) if match else ""
        zip3 = digits.zfill(width)[:3]
        padded.append(bool(match) and len(digits) < width)
        restricted.append(bool(match) and zip3 in RESTRICTED_ZIP3)
        invalid.append(not match)
        out.append(np.nan if not match else "000" if restricted[-1] else zip3)
    n_padded, n_restricted, n_invalid = (rows_of(codes, f) for f in (padded, restricted, invalid))
    what = "3-digit ZIP areas" if areas else "ZIP codes"
    note = [
        f"kept the first 3 digits of {int((codes >= 0).sum()) - n_invalid:,} {what}"
        if not areas
        else f"read {int((codes >= 0).sum()) - n_invalid:,} values as {what}"
    ]
    if n_padded:
        note.append(
            f"{n_padded:,} had lost their leading zeros (the column was read as numbers) and "
            f"were padded to {width} digits first"
        )
    note.append(
        f"{n_restricted:,} in the {len(RESTRICTED_ZIP3)} areas of 20,000 people or fewer "
        f"({RESTRICTED_ZIP3_YEAR} Census) became 000"
    )
    if n_invalid:
        note.append(f"{n_invalid:,} values that are not ZIP codes became missing")
    name = str(series.name)
    step = TransformStep(name, "zip3", int((codes >= 0).sum()), "; ".join(note) + ".")
    return take_back(series, codes, out), step


def ages_to_90_plus(series: pd.Series) -> tuple[pd.Series, TransformStep]:
    """Group every age over 89 into one category, ``"90+"``.

    45 CFR 164.514(b)(2)(i)(C): "all ages over 89 ... may be aggregated into
    a single category of age 90 or older". Numeric ages are written as text
    (``"34"``); when every value is a number the result is an ordered
    categorical (numeric order, ``"90+"`` last), so ordered t-closeness still
    ranks it. Text that is not a number (bands such as ``"30-39"``) is kept
    as it is.

    Parameters
    ----------
    series : pandas.Series
        Ages as numbers or text.

    Returns
    -------
    ages : pandas.Series
        Missing stays missing.
    step : TransformStep
    """
    codes, texts = distinct_text(series)
    numbers = pd.to_numeric(pd.Series(texts, dtype=object), errors="coerce").to_numpy(float)
    over = numbers > 89
    out = ["90+" if o else t for t, o in zip(texts, over, strict=True)]
    n_over = rows_of(codes, list(over))
    result = take_back(series, codes, out)
    if len(texts) and not np.isnan(numbers).any():
        under = sorted({(x, t) for x, t, o in zip(numbers, texts, over, strict=True) if not o})
        cats = [t for _, t in under] + (["90+"] if over.any() else [])
        result = result.astype(pd.CategoricalDtype(cats, ordered=True))
    step = TransformStep(
        str(series.name),
        "age_90_plus",
        n_over,
        f"{n_over:,} ages over 89 became one category, 90+.",
    )
    return result, step


def birth_year_label(as_of: int) -> str:
    """Return the one category of birth years implying an age over 89 ("1936 or earlier").

    Parameters
    ----------
    as_of : int
        The year ages are counted to.

    Returns
    -------
    str
    """
    return f"{as_of - 90} or earlier"


def dates_to_year(
    series: pd.Series, *, birth: bool = False, as_of: int | None = None
) -> tuple[pd.Series, TransformStep]:
    """Keep only the year of each date.

    45 CFR 164.514(b)(2)(i)(C) removes every element of a date except the
    year. For birth dates (``birth=True``) the year too goes when it implies
    an age over 89: years up to ``as_of - 90`` become one category,
    ``"1936 or earlier"`` for ``as_of=2026`` (someone born in 1936 is 89 or
    90 during 2026; someone born in 1937 at most 89). A column of years
    (numbers such as 1987) is read as years.

    Parameters
    ----------
    series : pandas.Series
        Dates, text that parses as dates, or years.
    birth : bool, default False
        The dates are birth dates.
    as_of : int, optional
        The year ages are counted to; default this year.

    Returns
    -------
    years : pandas.Series
        Text years; missing stays missing; a value that is not a date becomes
        missing (counted in the note).
    step : TransformStep
    """
    year_now = year_of(as_of)
    codes, texts = distinct_text(series)
    text = pd.Series(texts, dtype=object)
    is_year = np.array([bool(_YEAR_RE.match(t)) for t in texts], dtype=bool)
    parsed = pd.to_datetime(text.where(~is_year), errors="coerce", format="mixed")
    years = np.where(is_year, pd.to_numeric(text, errors="coerce"), parsed.dt.year)
    years = np.asarray(years, dtype=float)
    bad = np.isnan(years)
    old = birth & (years <= year_now - 90)
    out: list[object] = [
        np.nan if b else birth_year_label(year_now) if o else str(int(y))
        for y, b, o in zip(years, bad, old, strict=True)
    ]
    n_old, n_bad = rows_of(codes, list(old)), rows_of(codes, list(bad))
    note = [f"kept the year of {int((codes >= 0).sum()) - n_bad:,} dates"]
    if birth:
        note.append(
            f"{n_old:,} birth years implying an age over 89 in {year_now} became "
            f"{birth_year_label(year_now)!r}"
        )
    if n_bad:
        note.append(f"{n_bad:,} values that are not dates became missing")
    step = TransformStep(
        str(series.name), "date_year", int((codes >= 0).sum()), "; ".join(note) + "."
    )
    return take_back(series, codes, out), step


def redact_text(series: pd.Series) -> tuple[pd.Series, TransformStep]:
    """Replace the identifiers written inside free text by placeholders, keeping the rest.

    Every occurrence the built-in patterns find
    (:func:`riskcore.freetext.redact_found`: phone and fax numbers, e-mail
    addresses, SSNs, URLs, IP addresses, dates, record and card numbers, ZIP
    codes, long numbers) becomes ``[PHONE]``, ``[EMAIL]`` ...: ``"Call back on
    (212) 555-0182"`` becomes ``"Call back on [PHONE]"``. The whole column is
    read, however long. Names and places written in the text are not found
    by any pattern and stay.

    Parameters
    ----------
    series : pandas.Series
        Text.

    Returns
    -------
    text : pandas.Series
        Missing stays missing.
    step : TransformStep
        ``n_changed`` counts the occurrences replaced.
    """
    out, counts = redact_found(series)
    n = sum(counts.values())
    found = ", ".join(
        f"{counts[k]:,} {entity(k).label} ({entity(k).letter})" for k in sorted(counts)
    )
    note = (
        f"replaced {found} written in the text by placeholders"
        if n
        else "no identifier was found in the text"
    ) + "; names and places written in the text are not recognised and stay."
    return out, TransformStep(str(series.name), "redact_text", n, note[0].upper() + note[1:])
