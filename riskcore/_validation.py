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
from collections.abc import Iterable
from typing import Any

__all__ = [
    "check_bounds",
    "check_delta",
    "check_epsilon",
    "check_fraction",
    "check_one_of",
    "check_positive",
    "check_positive_int",
    "check_probability",
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


def check_positive(name: str, value: Any) -> float:
    """Return ``value`` as a float, checking it is a finite number > 0.

    Used for sensitivities, noise scales, accuracies and epsilons.

    Raises
    ------
    TypeError
        When ``value`` is not a real number.
    ValueError
        When it is not > 0, or is infinite or NaN.
    """
    x = check_real(name, value)
    if not x > 0:
        raise ValueError(f"{name} must be positive, got {value!r}")
    if not math.isfinite(x):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return x


def check_epsilon(value: Any, name: str = "epsilon") -> float:
    """Return a privacy-loss parameter epsilon, checking it is positive and finite.

    Raises
    ------
    TypeError
        When ``value`` is not a real number.
    ValueError
        When it is not in (0, inf).
    """
    x = check_real(name, value)
    if not (x > 0 and math.isfinite(x)):
        raise ValueError(f"{name} must be positive and finite, got {value!r}")
    return x


def check_probability(name: str, value: Any) -> float:
    """Return ``value`` as a float, checking it lies strictly between 0 and 1.

    Raises
    ------
    TypeError
        When ``value`` is not a real number.
    ValueError
        When it is not in the open interval (0, 1).
    """
    x = check_real(name, value)
    if not 0 < x < 1:
        raise ValueError(f"{name} must be strictly between 0 and 1, got {value!r}")
    return x


def check_fraction(name: str, value: Any) -> float:
    """Return a sampling fraction, checking it lies in (0, 1].

    Raises
    ------
    TypeError
        When ``value`` is not a real number.
    ValueError
        When it is not in the half-open interval (0, 1].
    """
    x = check_real(name, value)
    if not 0 < x <= 1:
        raise ValueError(f"{name} must be in (0, 1], got {value!r}")
    return x


def check_unit_interval(name: str, value: Any) -> float:
    """Return a risk threshold or share, checking it lies in [0, 1].

    Raises
    ------
    TypeError
        When ``value`` is not a real number.
    ValueError
        When it is not in the closed interval [0, 1] (NaN included).
    """
    x = check_real(name, value)
    if not 0 <= x <= 1:
        raise ValueError(f"{name} must be in [0, 1], got {value!r}")
    return x


def check_delta(value: Any, name: str = "delta") -> float:
    """Return a privacy parameter delta, checking it lies in (0, 1).

    Raises
    ------
    TypeError
        When ``value`` is not a real number.
    ValueError
        When it is not in (0, 1).
    """
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
