"""Deprecation shims for renamed public arguments (one vocabulary across the API).

The public API names the quasi-identifier list ``quasi_identifiers`` and the input table
``data``. Functions that used other names (``qis``, ``df``, ``table``, ``enc``) keep
accepting the old keyword for a while: :func:`renamed_arguments` passes it on under the new
name with a :class:`DeprecationWarning` naming the new one. Positional calls are unchanged.
Results whose fields were renamed (``qis``) read JSON written with the old key and keep a
read-only, warning attribute under the old name (:func:`renamed_fields`); other classes whose
attributes were renamed (the class table, the lattice) keep the old name the same way
(:func:`renamed_attributes`).
"""

from __future__ import annotations

import dataclasses
import functools
import warnings
from collections.abc import Callable, Mapping
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
        # a constructor is named by its class: "ClassTable()", not "__init__()"
        name = func.__name__
        if name == "__init__":
            name = func.__qualname__.removesuffix(".__init__")

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for old, new in old_to_new.items():
                if old in kwargs:
                    if new in kwargs:
                        raise TypeError(
                            f"{name}() got both {old!r} and {new!r}; "
                            f"{old!r} is the old name of {new!r}: pass only {new!r}"
                        )
                    warnings.warn(
                        f"{name}(): the argument {old!r} is deprecated; use {new!r}",
                        DeprecationWarning,
                        stacklevel=2,
                    )
                    kwargs[new] = kwargs.pop(old)
            return func(*args, **kwargs)

        return cast(F, wrapper)

    return decorate


C = TypeVar("C", bound=type)


def renamed_keys(data: Any, old_to_new: Mapping[str, str]) -> Any:
    """Return ``data`` with each old key read under its new name (JSON written before a rename).

    Parameters
    ----------
    data : object
        A mapping read from JSON (anything else is returned as it is, for ``from_dict``
        to refuse with its own message).
    old_to_new : mapping of str to str
        Each old key and its new name; an old key is moved only when the new one is absent.

    Returns
    -------
    object
        A new dict when a key moved, else ``data`` itself.

    Examples
    --------
    >>> renamed_keys({"qis": ["age"], "k": 2}, {"qis": "quasi_identifiers"})
    {'k': 2, 'quasi_identifiers': ['age']}
    """
    if not isinstance(data, Mapping) or not any(
        old in data and new not in data for old, new in old_to_new.items()
    ):
        return data
    out = dict(data)
    for old, new in old_to_new.items():
        if old in out and new not in out:
            out[new] = out.pop(old)
    return out


def _deprecated_property(owner: str, old: str, new: str) -> property:
    def get(self: Any) -> Any:
        warnings.warn(
            f"{owner}.{old} is deprecated; use {owner}.{new}", DeprecationWarning, stacklevel=2
        )
        return getattr(self, new)

    get.__doc__ = f"Deprecated: the old name of :attr:`{new}` (read-only)."
    return property(get)


def renamed_attributes(**old_to_new: str) -> Callable[[C], C]:
    """Keep the old name of renamed attributes readable, with a DeprecationWarning.

    The decorated class gets a read-only property under each old name that returns the
    attribute under its new name with a :class:`DeprecationWarning`; a dataclass's
    constructor also accepts the old keyword (:func:`renamed_arguments`).

    Parameters
    ----------
    **old_to_new : str
        Each old attribute name and its new name, e.g. ``qis="quasi_identifiers"``.

    Returns
    -------
    callable
        A class decorator (put it above ``@dataclass``).

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @renamed_attributes(qis="quasi_identifiers")
    ... @dataclass(frozen=True)
    ... class Columns:
    ...     quasi_identifiers: tuple[str, ...]
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     Columns(("age",)).qis
    ('age',)
    >>> str(caught[0].message)
    'Columns.qis is deprecated; use Columns.quasi_identifiers'
    """

    def decorate(owner: C) -> C:
        for old, new in old_to_new.items():
            setattr(owner, old, _deprecated_property(owner.__name__, old, new))
        if dataclasses.is_dataclass(owner):
            init = owner.__init__
            owner.__init__ = renamed_arguments(**old_to_new)(init)  # type: ignore[method-assign]
        return owner

    return decorate


def renamed_fields(**old_to_new: str) -> Callable[[C], C]:
    """Read results written before a field was renamed, and keep the old attribute name.

    The decorated :class:`~riskcore._results.Result` class gets a ``from_dict`` that reads
    each old key under its new name (:func:`renamed_keys`), and a read-only property under
    each old name that returns the new field with a :class:`DeprecationWarning`
    (:func:`renamed_attributes`).

    Parameters
    ----------
    **old_to_new : str
        Each old field name and its new name, e.g. ``qis="quasi_identifiers"``.

    Returns
    -------
    callable
        A class decorator (put it above ``@dataclass``).
    """

    def decorate(result_class: C) -> C:
        read = result_class.from_dict.__func__  # type: ignore[attr-defined]

        def from_dict(cls: Any, data: Any) -> Any:
            return read(cls, renamed_keys(data, old_to_new))

        from_dict.__doc__ = read.__doc__
        result_class.from_dict = classmethod(from_dict)  # type: ignore[attr-defined]
        return renamed_attributes(**old_to_new)(result_class)

    return decorate
