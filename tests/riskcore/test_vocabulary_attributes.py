"""One vocabulary (issue 40, item 3): the attributes and keywords renamed after the JSON.

The class table, the partition, the lattice and a node's plan say ``quasi_identifiers``
where they said ``qis``; ``assess`` names its population model ``population_model``. The
old names keep working with a DeprecationWarning (code written against them still runs),
and riskcore itself never uses them: an assessment, a search and a release on an engine
run with every DeprecationWarning an error.
"""

from __future__ import annotations

import inspect
import json
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import flat_hierarchy, interval_hierarchy
from riskcore.deidentify.on_engine import SourceTable, anonymize_source, hierarchy_values, plan_node
from riskcore.deidentify.search.lattice import Lattice
from riskcore.deidentify.search.run import search
from riskcore.engine import ClassTable, EncodedTable
from riskcore.engine.partition import Partition
from riskcore.engine.release import NodePlan
from riskcore.errors import RiskcoreError
from riskcore.metrics import Population, assess
from riskcore.metrics.evidence import Evidence, PopulationEvidence
from riskcore.metrics.uniqueness import UniquenessResult, subset_uniqueness
from riskcore.report.readings.uniqueness import contribution_reading, subset_table

ROOT = Path(__file__).resolve().parents[2]

DATA = pd.DataFrame(
    {
        "age": [20, 25, 30, 40, 40, 41, 52, 58],
        "sex": ["F", "F", "M", "M", "M", "F", "F", "M"],
        "dx": ["flu", "hiv", "flu", "flu", "flu", "hiv", "cold", "flu"],
    }
)


def _old_name_reads_the_same(obj: object, owner: str) -> None:
    """``obj.qis`` warns, naming the new attribute, and is the same object; it is read-only."""
    new = obj.quasi_identifiers  # type: ignore[attr-defined]
    with pytest.warns(
        DeprecationWarning, match=rf"^{owner}\.qis is deprecated; use {owner}\.quasi_identifiers$"
    ):
        old = obj.qis  # type: ignore[attr-defined]
    assert old is new
    with pytest.raises(AttributeError):
        obj.qis = ("sex",)  # type: ignore[attr-defined]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert obj.quasi_identifiers is new  # type: ignore[attr-defined]


def _lattice(data: pd.DataFrame | EncodedTable, values: pd.DataFrame) -> Lattice:
    h = {"age": interval_hierarchy(values["age"], [10, 20]), "sex": flat_hierarchy(values["sex"])}
    return Lattice(data, h, sensitive=["dx"], targets=Targets.of(k=2, max_suppression=0.25))


def test_the_class_table_says_quasi_identifiers_and_still_reads_qis():
    classes = EncodedTable(DATA).tabulate(["age", "sex"]).classes
    assert isinstance(classes, ClassTable) and classes.quasi_identifiers == ("age", "sex")
    _old_name_reads_the_same(classes, "ClassTable")
    parts = {"sizes": classes.sizes, "keys": classes.keys, "labels": classes.labels}
    with pytest.warns(
        DeprecationWarning, match=r"ClassTable\(\): the argument 'qis' is deprecated; "
    ):
        again = ClassTable(qis=("age", "sex"), **parts)
    assert again.quasi_identifiers == ("age", "sex")
    with pytest.raises(TypeError, match="both 'qis' and 'quasi_identifiers'"):
        ClassTable(qis=("age",), quasi_identifiers=("age",), **parts)


def test_the_partition_says_quasi_identifiers_and_still_reads_qis():
    part = EncodedTable(DATA).partition(["sex", "age"])
    assert isinstance(part, Partition) and part.quasi_identifiers == ("sex", "age")
    _old_name_reads_the_same(part, "Partition")


def test_the_lattice_says_quasi_identifiers_and_still_reads_qis():
    lat = _lattice(DATA, DATA)
    assert lat.quasi_identifiers == ("age", "sex") and lat.heights == (
        3,
        1,
    )  # 10, 20 years, then "*"
    _old_name_reads_the_same(lat, "Lattice")
    assert lat.class_quasi_identifiers == ("age", "sex")  # no event columns
    with pytest.warns(DeprecationWarning, match=r"^Lattice\.class_qis is deprecated; use "):
        assert lat.class_qis is lat.class_quasi_identifiers


def test_a_node_plan_says_quasi_identifiers_and_still_reads_qis(tmp_path: Path):
    pq.write_table(pa.Table.from_pandas(DATA, preserve_index=False), tmp_path / "d.parquet")
    table = SourceTable(tmp_path / "d.parquet", "arrow")
    values = pd.DataFrame(hierarchy_values(table, ["age", "sex"], ["dx"]))
    plan = plan_node(_lattice(table, values), table, [1, 0])
    assert isinstance(plan, NodePlan) and plan.quasi_identifiers == ("age", "sex")
    assert plan.levels == (1, 0) and plan.n_records == len(DATA)
    _old_name_reads_the_same(plan, "NodePlan")


def test_uniqueness_over_every_qi_says_quasi_identifiers_and_old_json_reads():
    result = subset_uniqueness(DATA, ["age", "sex"])
    full = result.all_quasi_identifiers
    assert full.columns == ("age", "sex") and full.unique_records == 6  # all but the 40 M pair
    with pytest.warns(
        DeprecationWarning,
        match=r"^UniquenessResult\.all_qis is deprecated; use "
        r"UniquenessResult\.all_quasi_identifiers$",
    ):
        assert result.all_qis is full
    out = result.to_dict()
    assert out["schema_version"] == 2 and "all_qis" not in out
    # as riskcore wrote it before the rename (schema version 1), written out by hand
    old = {
        "schema_version": 1,
        "n_records": 8,
        "all_qis": {
            "schema_version": 1,
            "columns": ["age", "sex"],
            "unique_records": 6,
            "unique_share": 0.75,
            "n_classes": 7,
            "k": 1,
        },
        "subsets": [],
        # without age the 8 are 4 F and 4 M (no one unique): age's removal drops all 6
        "contributions": [
            {"column": "age", "unique_without": 0, "drop": 6, "drop_share": 1.0},
            {"column": "sex", "unique_without": 6, "drop": 0, "drop_share": 0.0},
        ],
        "complete": False,
        "person": None,
        "n_people": None,
    }
    read = UniquenessResult.from_dict(json.loads(json.dumps(old)))
    assert read.all_quasi_identifiers.columns == ("age", "sex")
    assert (read.all_quasi_identifiers.unique_records, read.n_records) == (6, 8)
    reading = contribution_reading(read)
    assert reading.startswith("6 people (75.0%) are unique on age + sex; removing age would")
    assert read.contributions == result.contributions  # the hand-worked counts above


def test_assess_names_its_population_model_and_still_takes_population():
    model = Population(sampling_fraction=0.1)
    new = assess(DATA, quasi_identifiers=["age", "sex"], population_model=model)
    with pytest.warns(
        DeprecationWarning,
        match=r"^assess\(\): the argument 'population' is deprecated; use 'population_model'$",
    ):
        old = assess(DATA, quasi_identifiers=["age", "sex"], population=model)
    assert old.to_dict() == new.to_dict()
    assert new.journalist is not None and new.population_note  # the model was used
    with pytest.raises(TypeError, match="both 'population' and 'population_model'"):
        assess(DATA, quasi_identifiers=["age"], population=model, population_model=model)


def test_the_evidence_names_its_population_model_and_still_reads_population():
    classes = EncodedTable(DATA).tabulate(["age", "sex"]).classes
    model = PopulationEvidence("fraction", sampling_fraction=0.5)
    new = Evidence.of(classes, population_model=model)
    assert new.population_model is model
    with pytest.warns(
        DeprecationWarning,
        match=r"^Evidence\.population is deprecated; use Evidence\.population_model$",
    ):
        assert new.population is model
    with pytest.warns(
        DeprecationWarning, match="'population' is deprecated; use 'population_model'"
    ):
        old = Evidence.of(classes, population=model)
    assert old.population_model is model
    # F_j estimated as f_j / pi = 2 f_j, by both; none without the model
    assert np.array_equal(new.population_sizes(), 2.0 * classes.sizes)
    assert np.array_equal(old.population_sizes(), 2.0 * classes.sizes)
    assert Evidence.of(classes).population_sizes() is None


def test_riskcore_itself_never_uses_a_deprecated_name(tmp_path: Path):
    """An assessment, a lattice search and a release on an engine: no DeprecationWarning."""
    pq.write_table(pa.Table.from_pandas(DATA, preserve_index=False), tmp_path / "d.parquet")
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        found = assess(
            DATA,
            quasi_identifiers=["age", "sex"],
            sensitive=["dx"],
            population_model=Population(sampling_fraction=0.5),
        )
        assert found.k == 1
        assert search(_lattice(DATA, DATA)).best is not None
        table = SourceTable(tmp_path / "d.parquet", "arrow")
        values = hierarchy_values(table, ["age", "sex"], ["dx"])
        hierarchies = {
            "age": interval_hierarchy(values["age"], [10, 20]),
            "sex": flat_hierarchy(values["sex"]),
        }
        result, _, release = anonymize_source(
            table,
            hierarchies,
            tmp_path / "out.parquet",
            sensitive=["dx"],
            targets=Targets.of(k=2, max_suppression=0.25),
        )
        assert result.best is not None and release is not None
        unique = subset_uniqueness(DATA, ["age", "sex"])
        assert contribution_reading(unique) and len(subset_table(unique))
    assert len(pq.read_table(tmp_path / "out.parquet")) == len(DATA) - release.suppressed


#: ``.qis`` read on an object: the deprecated attribute (its definition and doctest excepted;
#: a command line's ``args.qis`` is argparse's, not ours).
OLD_ATTRIBUTE = re.compile(r"\w(?<!args)\.(all_|class_)?qis\b")


def test_no_module_reads_the_old_attribute():
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for folder in ("riskcore", "ui", "pages", "benchmarks", "scripts")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if path.name != "_deprecation.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OLD_ATTRIBUTE.search(line)
    ]
    assert found == []
    assert OLD_ATTRIBUTE.search("zip(lattice.qis, levels)")  # the pattern finds a use
    assert OLD_ATTRIBUTE.search("result.all_qis.k") and not OLD_ATTRIBUTE.search("self.n_qis")
    assert not OLD_ATTRIBUTE.search("args.qis.split(',')")


def test_assess_and_the_source_table_show_the_new_names(tmp_path: Path):
    assert "population_model" in inspect.signature(assess).parameters
    assert "population" not in inspect.signature(assess).parameters
    pq.write_table(pa.Table.from_pandas(DATA, preserve_index=False), tmp_path / "d.parquet")
    table = SourceTable(tmp_path / "d.parquet", "arrow")
    with pytest.raises(RiskcoreError, match="the class of every record"):
        table.partition(quasi_identifiers=["age"])  # as EncodedTable.partition names it
    with (
        pytest.warns(DeprecationWarning, match="'qis' is deprecated; use 'quasi_identifiers'"),
        pytest.raises(RiskcoreError, match="the class of every record"),
    ):
        table.partition(qis=["age"])
