"""The result base: to_dict / from_dict round trips, schema version, strict JSON."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np
import pytest

from riskcore._results import NOT_IN_JSON, Migrations, Result, dumps, plain


@dataclass(frozen=True)
class _Inner(Result):
    rate: float
    low: float | None = None


@dataclass(frozen=True, eq=False)
class _Outer(Result):
    name: str
    sizes: np.ndarray
    inner: _Inner
    per_key: dict[str, _Inner]
    labels: tuple[str, ...]
    maybe: _Inner | None = None
    hidden: np.ndarray | None = field(default=None, metadata=NOT_IN_JSON)


def _outer() -> _Outer:
    return _Outer(
        name="x",
        sizes=np.array([1, 2, 3]),
        inner=_Inner(math.nan, 0.5),
        per_key={"a": _Inner(0.25)},
        labels=("p", "q"),
        hidden=np.arange(4),
    )


def test_to_dict_is_plain_json_with_schema_version_and_no_nan():
    d = _outer().to_dict()
    assert d["schema_version"] == 1
    assert d["sizes"] == [1, 2, 3] and isinstance(d["sizes"][0], int)
    assert d["inner"]["rate"] is None  # NaN is not JSON
    assert "hidden" not in d
    assert json.loads(dumps(_outer())) == d


def test_from_dict_round_trips_through_json():
    back = _Outer.from_dict(json.loads(dumps(_outer())))
    assert back.name == "x" and back.labels == ("p", "q")
    assert isinstance(back.sizes, np.ndarray) and back.sizes.tolist() == [1, 2, 3]
    assert isinstance(back.inner, _Inner) and math.isnan(back.inner.rate)
    assert back.inner.low == 0.5
    assert back.per_key == {"a": _Inner(0.25)}
    assert back.maybe is None and back.hidden is None


def test_from_dict_refuses_newer_schema_and_missing_fields():
    d = _outer().to_dict()
    with pytest.raises(ValueError, match="schema version 2"):
        _Outer.from_dict({**d, "schema_version": 2})
    del d["name"]
    with pytest.raises(ValueError, match="no field 'name'"):
        _Outer.from_dict(d)


def test_dumps_refuses_what_plain_cannot_make_valid():
    assert plain({"a": np.float64("inf"), "b": (np.int64(3),)}) == {"a": None, "b": [3]}
    with pytest.raises(TypeError):
        dumps({"a": object()})


def _to_v2(data):
    return {**data, "rate": data.pop("share"), "steps": [*data.get("steps", []), 1]}


def _to_v3(data):
    return {**data, "steps": [*data["steps"], 2]}


@dataclass(frozen=True)
class _Migrated(Result):
    schema_version = 3
    migrations: ClassVar[Migrations] = {1: _to_v2, 2: _to_v3}

    rate: float
    steps: tuple[int, ...] = ()


def test_older_versions_read_through_the_declared_migrations():
    """A subclass states only its steps: version 1 goes through both, in order; 2 through
    the last; 3 (and no version) as written; a newer one is refused."""
    assert _Migrated.from_dict({"schema_version": 1, "share": 0.5}) == _Migrated(0.5, (1, 2))
    assert _Migrated.from_dict({"schema_version": 2, "rate": 0.5, "steps": [7]}) == _Migrated(
        0.5, (7, 2)
    )
    assert _Migrated.from_dict({"schema_version": 3, "rate": 0.5}) == _Migrated(0.5)
    assert _Migrated.from_dict({"rate": 0.5}) == _Migrated(0.5)
    assert _Migrated.upgrade({"schema_version": 1, "share": 0.5})["schema_version"] == 3
    with pytest.raises(ValueError, match="reads versions up to 3"):
        _Migrated.from_dict({"schema_version": 4, "rate": 0.5})
