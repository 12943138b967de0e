"""Deprecation shims for renamed public arguments (one vocabulary across the API).

The public API names the quasi-identifier list ``quasi_identifiers`` and the input table
``data``. Functions that used other names (``qis``, ``df``, ``table``, ``enc``) keep
accepting the old keyword for a while: :func:`renamed_arguments` passes it on under the new
name with a :class:`DeprecationWarning` naming the new one. Positional calls are unchanged.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])


def renamed_arguments(**old_to_new: str) -> Callable[[F], F]:
    """Accept the old keyword names of renamed arguments, with a DeprecationWarning.

    Parameters
    ----------
    **old_to_new : str
        Each old keyword name and the new name it maps to, e.g. ``qis="quasi_identifiers"``.

    Returns
    -------
    callable
        A decorator; the decorated function keeps its signature (``inspect.signature`` and
        the API reference show the new names).

    Raises
    ------
    TypeError
        From the decorated function, when a call passes both the old and the new name.

    Examples
    --------
    >>> @renamed_arguments(qis="quasi_identifiers")
    ... def width(quasi_identifiers):
    ...     return len(quasi_identifiers)
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     width(qis=["age", "zip"])
    2
    >>> str(caught[0].message)
    "width(): the argument 'qis' is deprecated; use 'quasi_identifiers'"
    """

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for old, new in old_to_new.items():
                if old in kwargs:
                    if new in kwargs:
                        raise TypeError(
                            f"{func.__name__}() got both {old!r} and {new!r}; "
                            f"{old!r} is the old name of {new!r}: pass only {new!r}"
                        )
                    warnings.warn(
                        f"{func.__name__}(): the argument {old!r} is deprecated; use {new!r}",
                        DeprecationWarning,
                        stacklevel=2,
                    )
                    kwargs[new] = kwargs.pop(old)
            return func(*args, **kwargs)

        return cast(F, wrapper)

    return decorate
