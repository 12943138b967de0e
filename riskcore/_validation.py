"""One set of input validators for the public functions of :mod:`riskcore`.

Each validator checks one argument once, at the public boundary, and returns
it as a plain Python value. A value of the wrong type raises ``TypeError``; a
value of the right type out of range raises ``ValueError``. Every message
names the argument and quotes the bad value, e.g.
``epsilon must be positive and finite, got -1``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable
from typing import Any

__all__ = [
    "RANGES",
    "check_bounds",
    "check_delta",
    "check_epsilon",
    "check_fraction",
    "check_one_of",
    "check_positive",
    "check_positive_int",
    "check_probability",
    "check_range",
    "check_real",
    "check_unit_interval",
]


def check_real(name: str, value: Any) -> float:
    """Return ``value`` as a float, or raise ``TypeError`` when it is not a real number.

    Booleans are refused (``True`` is not a number of anything).

    Parameters
    ----------
    name : str
        The argument's name, for the message.
    value : object
        An int, float or numpy real scalar.

    Returns
    -------
    float
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    return float(value)


#: The ranges a real argument is checked against: each one's test and the words of its
#: message ("{name} must be {words}, got {value!r}"). NaN fails every test (a comparison
#: with NaN is false).
RANGES: dict[str, tuple[Callable[[float], bool], str]] = {
    "positive": (lambda x: x > 0, "positive"),
    "finite": (math.isfinite, "finite"),
    "positive and finite": (lambda x: x > 0 and math.isfinite(x), "positive and finite"),
    "(0, 1)": (lambda x: 0 < x < 1, "strictly between 0 and 1"),
    "(0, 1]": (lambda x: 0 < x <= 1, "in (0, 1]"),
    "[0, 1]": (lambda x: 0 <= x <= 1, "in [0, 1]"),
}


def check_range(name: str, value: Any, *ranges: str) -> float:
    """Return ``value`` as a float, checking it lies in each of ``ranges`` in turn.

    Parameters
    ----------
    name : str
        The argument's name, which the message starts with.
    value : object
        The argument: a real number (:func:`check_real`) before any range is tried.
    *ranges : str
        Keys of :data:`RANGES`; the first one ``value`` is outside of names the message.

    Returns
    -------
    float

    Raises
    ------
    TypeError
        When ``value`` is not a real number.
    ValueError
        When it is outside a range (NaN is outside every one).
    """
    x = check_real(name, value)
    for key in ranges:
        inside, words = RANGES[key]
        if not inside(x):
            raise ValueError(f"{name} must be {words}, got {value!r}")
    return x


def check_positive(name: str, value: Any) -> float:
    """Return ``value`` as a float, checking it is > 0, then finite (:func:`check_range`).

    Used for sensitivities, noise scales, accuracies and epsilons.
    """
    return check_range(name, value, "positive", "finite")


def check_epsilon(value: Any, name: str = "epsilon") -> float:
    """Return a privacy-loss parameter epsilon, checking it is in (0, inf) (:func:`check_range`)."""
    return check_range(name, value, "positive and finite")


def check_probability(name: str, value: Any) -> float:
    """Return ``value`` as a float in the open interval (0, 1) (:func:`check_range`)."""
    return check_range(name, value, "(0, 1)")


def check_fraction(name: str, value: Any) -> float:
    """Return a sampling fraction, checking it lies in (0, 1] (:func:`check_range`)."""
    return check_range(name, value, "(0, 1]")


def check_unit_interval(name: str, value: Any) -> float:
    """Return a risk threshold or share, checking it lies in [0, 1] (:func:`check_range`)."""
    return check_range(name, value, "[0, 1]")


def check_delta(value: Any, name: str = "delta") -> float:
    """Return a privacy parameter delta, checking it lies in (0, 1) (:func:`check_range`)."""
    return check_probability(name, value)


def check_positive_int(name: str, value: Any, *, minimum: int = 1) -> int:
    """Return ``value`` as an int, checking it is an integer >= ``minimum``.

    Raises
    ------
    TypeError
        When ``value`` is not an integer (booleans and floats are refused).
    ValueError
        When it is below ``minimum``.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def check_bounds(name: str, value: Any) -> tuple[float, float]:
    """Return clipping bounds (L, U) as floats, checking they are finite with L < U.

    Raises
    ------
    TypeError
        When ``value`` is not a pair of real numbers.
    ValueError
        When a bound is not finite or L >= U.
    """
    try:
        lo, hi = value
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a pair (L, U), got {value!r}") from None
    lo, hi = check_real(name, lo), check_real(name, hi)
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise ValueError(f"{name} must be finite with L < U, got {value!r}")
    return lo, hi


def check_one_of(name: str, value: Any, options: Iterable[Any]) -> Any:
    """Return ``value`` when it is one of ``options``.

    Raises
    ------
    ValueError
        When it is not; the message lists the options.
    """
    allowed = tuple(options)
    if value not in allowed:
        listed = ", ".join(repr(o) for o in allowed)
        raise ValueError(f"{name} must be one of {listed}, got {value!r}")
    return value
