"""Number and name formatting shared by the readings."""

from __future__ import annotations

__all__ = ["join_names", "mechanism_label", "plural", "short_share"]


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
