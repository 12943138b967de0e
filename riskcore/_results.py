"""One base for every result: ``to_dict()``, ``from_dict()``, a schema version, strict JSON.

Every result of :mod:`riskcore` is a frozen dataclass deriving from
:class:`Result`. ``to_dict()`` gives plain JSON-ready values (numpy arrays
and scalars made Python, tuples made lists, NaN and infinity made ``None``,
since JSON has neither) with the ``schema_version`` of the result type;
``from_dict()`` rebuilds an equal result from that dictionary, reading the
field types from the annotations. :func:`dumps` writes strict JSON
(``allow_nan=False``): a value that is not valid JSON is an error, never
silently written.

A field whose metadata has ``{"json": False}`` (a per-class array, say) is
left out of ``to_dict()`` and takes its default in ``from_dict()``.

Older versions are read through one declared path: a result type that raised
its ``schema_version`` states, in ``migrations``, the step that upgrades a
dict of each older version to the next one, and :meth:`Result.upgrade` (called
by ``from_dict``) runs them in order::

    schema_version: ClassVar[int] = 2
    migrations: ClassVar[Migrations] = {1: _from_v1}  # a dict of v1 made v2
"""

from __future__ import annotations

import dataclasses
import enum
import json
import math
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Self

import numpy as np

__all__ = ["NOT_IN_JSON", "SCHEMA_VERSION", "Migrations", "Result", "dumps", "plain"]

#: Version of the JSON written by every ``to_dict()``; raise it when a field
#: changes meaning or is removed (adding a field does not need it).
SCHEMA_VERSION = 1

#: ``dataclasses.field(metadata=NOT_IN_JSON)`` marks a field left out of JSON.
NOT_IN_JSON: Mapping[str, Any] = types.MappingProxyType({"json": False})

#: Each older schema version and the step that upgrades a dict of it to the next version.
Migrations = Mapping[int, Callable[[dict[str, Any]], dict[str, Any]]]


def plain(value: Any) -> Any:
    """Return ``value`` made JSON-ready.

    Dataclasses become dicts (a :class:`Result` through its own ``to_dict``),
    numpy arrays and tuples become lists, numpy scalars and enums Python
    values, and non-finite floats ``None``.

    Parameters
    ----------
    value : object
        Any result, container or scalar.

    Returns
    -------
    object
        Only dicts, lists, str, int, float, bool and None.
    """
    if isinstance(value, Result):
        return value.to_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _fields(value)
    if isinstance(value, enum.Enum):
        return plain(value.value)
    if isinstance(value, np.ndarray):
        return [plain(v) for v in value.tolist()]
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _fields(obj: Any) -> dict[str, Any]:
    return {
        f.name: plain(getattr(obj, f.name))
        for f in dataclasses.fields(obj)
        if f.metadata.get("json", True)
    }


def dumps(value: Any, **kwargs: Any) -> str:
    """Return strict JSON text of a result or plain value.

    Parameters
    ----------
    value : object
        Converted with :func:`plain` first.
    **kwargs
        Passed to :func:`json.dumps` (``indent``, ``sort_keys``).

    Returns
    -------
    str
        JSON without NaN or infinity (``allow_nan=False``).
    """
    return json.dumps(plain(value), allow_nan=False, **kwargs)


class Result:
    """Base of the frozen dataclass results of :mod:`riskcore`.

    Subclasses are ``@dataclass(frozen=True)``; they inherit ``to_dict`` and
    ``from_dict`` and may override ``to_dict`` for a documented public shape
    (then they override ``from_dict`` too, and call :meth:`upgrade` first).
    A subclass that raises ``schema_version`` states only its ``migrations``.
    """

    schema_version: ClassVar[int] = SCHEMA_VERSION
    #: The step from each older version to the next (a version without one reads as is).
    migrations: ClassVar[Migrations] = types.MappingProxyType({})

    @classmethod
    def data_version(cls, data: Mapping[str, Any]) -> Any:
        """Return the schema version a dict was written with (its ``schema_version``).

        Parameters
        ----------
        data : mapping
            As written by :meth:`to_dict`, of any version.

        Returns
        -------
        object
            The version as written (checked by :meth:`upgrade`); without one, this
            class's own version.
        """
        return data.get("schema_version", cls.schema_version)

    @classmethod
    def upgrade(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """Return ``data`` upgraded to this class's ``schema_version`` by its ``migrations``.

        Parameters
        ----------
        data : mapping
            As written by :meth:`to_dict` of this version or an older one.

        Returns
        -------
        dict
            A copy, each step of ``migrations`` from the data's version up applied in
            order, with ``schema_version`` set to this class's.

        Raises
        ------
        ValueError
            When the version is not a number or is newer than this code knows.
        """
        version = cls.data_version(data)
        if not isinstance(version, int) or version > cls.schema_version:
            raise ValueError(
                f"{cls.__name__} data has schema version {version!r}; this riskcore reads "
                f"versions up to {cls.schema_version}"
            )
        out = dict(data)
        for old in range(version, cls.schema_version):
            step = cls.migrations.get(old)
            if step is not None:
                out = step(out)
        out["schema_version"] = cls.schema_version
        return out

    def to_dict(self) -> dict[str, Any]:
        """Return the result as JSON-ready values, with ``schema_version``.

        Returns
        -------
        dict
            Field name to plain value; fields marked ``NOT_IN_JSON`` are left out.
        """
        return {"schema_version": self.schema_version, **_fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild a result from :meth:`to_dict` output.

        Parameters
        ----------
        data : mapping
            As written by :meth:`to_dict` (possibly read back from JSON).

        Returns
        -------
        Result
            Equal, field by field, to the result that was written (``None``
            read back as NaN where the field is a float).

        Raises
        ------
        ValueError
            When the schema version is newer than this code knows, or a field
            is missing.
        """
        if not isinstance(data, Mapping):
            raise TypeError(f"from_dict needs a mapping, got {type(data).__name__}")
        data = cls.upgrade(data)
        hints = typing.get_type_hints(cls)
        kwargs: dict[str, Any] = {}
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            if not f.init:
                continue
            if not f.metadata.get("json", True) or f.name not in data:
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                    raise ValueError(f"{cls.__name__} data has no field {f.name!r}")
                continue
            kwargs[f.name] = revive(data[f.name], hints[f.name])
        return cls(**kwargs)


def revive(value: Any, hint: Any) -> Any:
    """Convert a plain JSON value back to the annotated type ``hint``.

    Parameters
    ----------
    value : object
        A plain value from :func:`plain` or JSON.
    hint : type
        The field's annotation (resolved).

    Returns
    -------
    object
    """
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is Any or hint is object:
        return value
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        options = [a for a in args if a is not type(None)]
        for option in options:
            try:
                return revive(value, option)
            except (TypeError, ValueError):
                continue
        return value
    if origin is typing.Literal:
        return value
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(revive(v, args[0]) for v in value)
        if not args:
            return tuple(value)
        return tuple(revive(v, a) for v, a in zip(value, args, strict=True))
    if origin is list:
        return [revive(v, args[0]) for v in value] if args else list(value)
    if origin in (dict, Mapping) or hint is dict:
        if not isinstance(value, Mapping):
            raise TypeError(f"expected a mapping, got {type(value).__name__}")
        if not args:
            return dict(value)
        return {k: revive(v, args[1]) for k, v in value.items()}
    if isinstance(hint, type):
        if issubclass(hint, Result):
            return hint.from_dict(value)
        if issubclass(hint, enum.Enum):
            return hint(value)
        if issubclass(hint, np.ndarray):
            if any(v is None for v in value):
                return np.array([math.nan if v is None else v for v in value], dtype=np.float64)
            return np.asarray(value)
        if hint is float:
            if value is None:
                return math.nan
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"expected a number, got {value!r}")
            return float(value)
        if hint is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"expected an integer, got {value!r}")
            return value
        if hint is str and not isinstance(value, str):
            raise TypeError(f"expected text, got {value!r}")
    return value
