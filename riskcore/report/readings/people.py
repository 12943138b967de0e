"""The unit of privacy in words: people in rows, and what a remediation removed of them.

With a person column the figures count people (a person with several rows is
one unit); without one each row is taken to be a different person. Every
sentence that states a count of the table says which, from the numbers and
the column's name alone.
"""

from __future__ import annotations

from typing import Any

__all__ = ["people_phrase", "suppressed_share", "suppression_line", "unit_reading"]


def suppressed_share(suppressed: int, n_units: int, suppressed_rows: int | None) -> str:
    """Return the share suppressed, with the suppressed people's rows when they count people.

    Parameters
    ----------
    suppressed : int
        Records suppressed (people, with a person column).
    n_units : int
        The records (people) the share is of.
    suppressed_rows : int or None
        The rows of the suppressed people (None without a person column).

    Returns
    -------
    str

    Examples
    --------
    >>> suppressed_share(64, 2500, 283), suppressed_share(5, 100, None)
    ('2.56%, their 283 rows', '5.00%')
    """
    from riskcore.report.readings.criteria import share_text

    share = share_text(suppressed / max(n_units, 1))
    if suppressed_rows is None:
        return share
    return f"{share}, their {suppressed_rows:,} row{'' if suppressed_rows == 1 else 's'}"


def people_phrase(n_people: int, n_rows: int, person: str | None) -> str:
    """Return the table's size in its unit: "2,500 people in 8,177 rows" or "8,177 records".

    Parameters
    ----------
    n_people : int
        The people (the units the figures count).
    n_rows : int
        The rows.
    person : str or None
        The person column; None: each row is taken to be a different person.

    Returns
    -------
    str

    Examples
    --------
    >>> people_phrase(2500, 8177, "patient_id")
    '2,500 people in 8,177 rows'
    >>> people_phrase(32561, 32561, None)
    '32,561 records'
    """
    if person is None:
        return f"{n_rows:,} record{'' if n_rows == 1 else 's'}"
    noun = "person" if n_people == 1 else "people"
    return f"{n_people:,} {noun} in {n_rows:,} row{'' if n_rows == 1 else 's'}"


def unit_reading(n_people: int, n_rows: int, person: str | None) -> str:
    """Return the sentence stating the unit of privacy of every figure.

    Parameters
    ----------
    n_people : int
        The people.
    n_rows : int
        The rows of the table.
    person : str or None
        The person column (None: each row is a person).

    Returns
    -------
    str

    Examples
    --------
    >>> unit_reading(2500, 8177, "patient_id")[:72]
    'The unit of privacy is one person: 2,500 people in 8,177 rows, linked by'
    """
    if person is None:
        return (
            f"Each of the {n_rows:,} rows is taken to be a different person: no column is "
            "tagged as the person linking the rows of one individual."
        )
    lo_hi = "" if n_people == n_rows else f" ({n_rows / max(n_people, 1):.2f} rows per person)"
    return (
        f"The unit of privacy is one person: {people_phrase(n_people, n_rows, person)}, "
        f"linked by {person}{lo_hi}. Every class, k and risk counts people, and a suppressed "
        "class loses all of its people's rows."
    )


def suppression_line(best: Any, n_units: int, n_rows: int, *, person: str | None) -> str:
    """Return the search's headline: k, what was suppressed, the classes released.

    Parameters
    ----------
    best : NodeResult
        The chosen node (``k``, ``suppressed``, ``suppressed_rows``, ``n_classes``).
    n_units : int
        The people (with a person column) or records the suppression is counted in.
    n_rows, person
        As :func:`unit_reading`.

    Returns
    -------
    str

    Examples
    --------
    >>> from types import SimpleNamespace as N
    >>> line = suppression_line(N(k=5, suppressed=64, suppressed_rows=283, n_classes=57),
    ...                         2500, 8177, person="patient_id")
    >>> print(line)  # doctest: +NORMALIZE_WHITESPACE
    k = 5 people; suppressed 64 of 2,500 people (2.56%; their 283 of 8,177 rows);
    57 classes released
    """
    share = best.suppressed / max(n_units, 1)
    if person is None:
        return (
            f"k = {best.k:,}; suppressed {best.suppressed:,} of {n_units:,} records "
            f"({share:.2%}); {best.n_classes:,} classes released"
        )
    rows = best.suppressed_rows if best.suppressed_rows is not None else 0
    return (
        f"k = {best.k:,} people; suppressed {best.suppressed:,} of {n_units:,} people "
        f"({share:.2%}; their {rows:,} of {n_rows:,} rows); {best.n_classes:,} classes released"
    )
