"""The engine contract is one abstract class (issue 40): every engine derives from it, none
writes its own ``tabulate``, and the checks before counting are the same for each engine."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from riskcore.engine import EncodedTable, Engine
from riskcore.engine.arrow import ArrowEngine
from riskcore.engine.columnar import ArrowTable
from riskcore.engine.duck import DuckDBEngine
from riskcore.engine.grouped import GroupingEngine
from riskcore.engine.source import SourceTable
from riskcore.engine.spark import SparkEngine
from riskcore.errors import RolesError
from tests.riskcore.reference import GroupbyEngine

DATA = pd.DataFrame(
    {
        "age": [30, 30, 40, 40, 40, 50],
        "sex": ["F", "F", "M", "M", "F", "F"],
        "dx": ["a", "b", "a", "a", "c", "b"],
        "pid": [1, 1, 2, 3, 4, 5],
    }
)


@pytest.mark.parametrize(
    "engine",
    [EncodedTable, ArrowTable, ArrowEngine, GroupingEngine, DuckDBEngine, SparkEngine, SourceTable],
)
def test_every_engine_derives_from_the_contract_and_inherits_tabulate(engine):
    assert issubclass(engine, Engine)
    assert "tabulate" not in vars(engine)  # the checks and the entry point are the contract's
    assert Engine.tabulate.__qualname__ == "Engine.tabulate"


def test_an_object_with_the_contracts_members_still_counts_as_an_engine():
    assert isinstance(GroupbyEngine(DATA), Engine)
    assert not isinstance(DATA, Engine)


def _engines(tmp_path):
    path = tmp_path / "data.parquet"
    pq.write_table(pa.Table.from_pandas(DATA, preserve_index=False), path)
    return {
        "memory": EncodedTable(DATA),
        "arrow table": ArrowTable(pa.Table.from_pandas(DATA, preserve_index=False)),
        "arrow": ArrowEngine(str(path)),
        "duckdb": DuckDBEngine(str(path)),
    }


def test_every_engine_makes_the_same_checks(tmp_path):
    for name, engine in _engines(tmp_path).items():
        with pytest.raises(RolesError, match="no column 'nope'"):
            engine.tabulate(["age", "nope"])
        with pytest.raises(RolesError, match="no column 'nope'"):
            engine.tabulate(["age"], ["nope"])
        with pytest.raises(ValueError, match="at least one quasi-identifier"):
            engine.tabulate([])
        with pytest.raises(RolesError, match="cannot be a quasi-identifier"):
            engine.tabulate(["age", "pid"], person="pid")
        with pytest.raises(RolesError, match="cannot be a quasi-identifier"):
            engine.tabulate(["age"], ["pid"], person="pid")
        # a sensitive attribute that is also a QI is not tabulated, by any engine
        tab = engine.tabulate(["age", "sex"], ["sex", "dx"])
        assert list(tab.sensitive) == ["dx"], name
        assert sorted(tab.classes.sizes.tolist()) == [1, 1, 2, 2], name


def test_an_engine_with_its_members_set_on_the_instance_is_an_engine():
    """As with the former Protocol: ``self.columns = ...`` in ``__init__`` counts (review)."""
    import pandas as pd

    from riskcore.engine import EncodedTable
    from riskcore.engine.contract import Engine
    from riskcore.metrics import assess

    inner = EncodedTable(pd.DataFrame({"a": [1, 1, 2], "b": [1, 2, 2]}))

    class Oracle:
        name = "oracle"

        def __init__(self):
            self.columns = ("a", "b")
            self.n_records = 3

        def class_sizes(self, q, person=None):
            return inner.class_sizes(q, person=person)

        def tabulate(self, q, s=(), *, ordered=None, person=None):
            return inner.tabulate(q, s, ordered=ordered, person=person)

    assert isinstance(Oracle(), Engine)
    assert not isinstance(object(), Engine)
    assert assess(Oracle(), quasi_identifiers=["a"]).k == 1


def test_a_subclass_that_implements_tabulate_itself_can_be_made():
    import pandas as pd

    from riskcore.engine import EncodedTable
    from riskcore.engine.contract import Engine

    inner = EncodedTable(pd.DataFrame({"a": [1, 1, 2]}))

    class Mine(Engine):
        name = "mine"
        columns = ("a",)
        n_records = 3

        def class_sizes(self, q, person=None):
            return inner.class_sizes(q, person=person)

        def tabulate(self, q, s=(), *, ordered=None, person=None):
            return inner.tabulate(q, s)

    assert Mine().tabulate(["a"]).classes.n_classes == 2

    class Neither(Engine):
        columns = ("a",)
        n_records = 3

        def class_sizes(self, q, person=None):
            return inner.class_sizes(q, person=person)

    with pytest.raises(NotImplementedError, match="neither"):
        Neither().tabulate(["a"])
