"""Number and name formatting shared by the readings."""

from __future__ import annotations

__all__ = [
    "NOTHING_RELEASED",
    "format_number",
    "join_names",
    "mechanism_label",
    "or_nothing_released",
    "plural",
    "short_share",
]

#: What a figure of the released records reads when every record is suppressed (it is NaN).
NOTHING_RELEASED = "n/a: nothing released"


def join_names(names: list[str] | tuple[str, ...]) -> str:
    """Return column names joined with ' + ' (as written in the readings)."""
    return " + ".join(names)


def short_share(x: float) -> str:
    """Format a share so that small non-zero values do not read as 0%.

    0 and shares of 10% or more get no decimals, shares from 0.1% one
    decimal, smaller ones two (0.05 -> "5.0%", 0.0004 -> "0.04%").
    """
    if x == 0 or x >= 0.1:
        return f"{x:.0%}"
    return f"{x:.1%}" if x >= 0.001 else f"{x:.2%}"


def mechanism_label(value: str) -> str:
    """Return the name people read for a DP mechanism ("laplace" -> "Laplace").

    Values that are not one of :class:`riskcore.dp.Mechanism` (a local-DP
    ledger entry, say) are returned as they are.
    """
    from riskcore.dp.mechanisms import Mechanism

    try:
        return Mechanism(value).label
    except ValueError:
        return str(value)


def plural(count: int, one: str, many: str) -> str:
    """Return ``one`` for a count of 1 and ``many`` otherwise ("1 query", "2 queries")."""
    return one if count == 1 else many


def format_number(x: float, *, integer: bool = False, digits: int = 6) -> str:
    """Format a number for a metric without scientific notation for large values.

    A count (``integer=True``) is rounded to a whole number with thousands
    separators (1000000 -> "1,000,000", never "1e+06"). Other values keep
    ``digits`` significant digits ("1,234.57", "0.0123457") unless that
    would need an exponent ("1.23457e+07", or 999,999.7 -> "1e+06"); those are
    shown to the unit ("12,345,679", "1,000,000").
    """
    if integer:
        return f"{round(x):,}"
    text = f"{x:,.{digits}g}"
    return f"{x:,.0f}" if "e+" in text else text


def or_nothing_released(x: float, fmt: str) -> str:
    """Return ``x`` formatted by ``fmt`` ("{:.2%}"), or :data:`NOTHING_RELEASED` when it is NaN.

    A figure of the released records (average risk, average class size) is
    NaN when nothing is released; it must never read "nan%".
    """
    return NOTHING_RELEASED if x != x else fmt.format(x)
