"""Every engine counts people as the in-memory engine does (issue 36, item 9).

With a person column the classes are people grouped by their QI signature (the set of
their rows' QI tuples) and a contingency cell counts the people of a class holding a
value. The Arrow stream, DuckDB and Spark must give exactly the in-memory figures: k,
the class sizes, n_people, the rows of each class, each class's cells and the value
totals, on claims whose people have rows spread over several files and row groups,
with missing person ids (each such row a person of its own), NaN QI values and a
sensitive attribute with missing values. The classes are compared by their
signatures (engines number classes differently), and checked against an independent
oracle: Python frozensets of each person's tuples.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from riskcore.demo.claims import make_claims
from riskcore.engine.arrow import ArrowEngine
from riskcore.engine.contract import Tabulation
from riskcore.engine.duck import DuckDBEngine
from riskcore.engine.memory import EncodedTable
from riskcore.engine.select import open_engine
from riskcore.errors import RiskcoreError, RolesError
from riskcore.io import load_table
from riskcore.metrics import assess
from tests.riskcore.test_engines import _close, spark_session

PERSON = "patient_id"
QIS = ["zip", "sex", "age"]
SENS = ["diagnosis", "provider"]


def _claims(n_patients: int, seed: int) -> pd.DataFrame:
    """Claims with missing person ids, NaN ages and missing diagnoses (rows by visit date)."""
    df = make_claims(n_patients, seed=seed)[[PERSON, "zip", "sex", "age", "diagnosis", "provider"]]
    rng = np.random.default_rng(seed)
    df = df.astype({PERSON: object, "diagnosis": object, "provider": object, "age": float})
    df.loc[rng.random(len(df)) < 0.04, PERSON] = None
    df.loc[rng.random(len(df)) < 0.04, "age"] = np.nan
    df.loc[rng.random(len(df)) < 0.04, "diagnosis"] = None
    df.loc[rng.random(len(df)) < 0.5, "zip"] = "00000"  # shared ZIPs: classes of several people
    return df


def _write(df: pd.DataFrame, folder: Path, parts: int, row_group: int) -> Path:
    """Write ``df`` as ``parts`` files of small row groups (a person's rows spread over them)."""
    folder.mkdir(parents=True, exist_ok=True)
    for i, chunk in enumerate(np.array_split(np.arange(len(df)), parts)):
        table = pa.Table.from_pandas(df.iloc[chunk], preserve_index=False)
        pq.write_table(table, folder / f"part-{i}.parquet", row_group_size=row_group)
    return folder


def _label(value: Any) -> Any:
    return None if value is None or (isinstance(value, float) and value != value) else value


def _classes(tab: Tabulation) -> list[tuple[Any, ...]]:
    """Return each class as (signature, people, rows, cells per attribute), sorted.

    The signature is the sorted tuples of QI labels; the cells are the sorted (value,
    people) pairs: what a class is, whatever the engine's numbering.
    """
    c = tab.classes
    sig = c.signatures
    assert sig is not None and sig.person == PERSON
    labels = [np.asarray(lab, dtype=object) for lab in c.labels]
    out = []
    for j in range(c.n_classes):
        members = sig.members[sig.offsets[j] : sig.offsets[j + 1]]
        tuples = sorted(
            (tuple(_label(lab[k[t]]) for lab, k in zip(labels, sig.tuple_keys, strict=True))
             for t in members.tolist()),
            key=repr,
        )  # fmt: skip
        first = tuple(_label(lab[k[j]]) for lab, k in zip(labels, c.keys, strict=True))
        assert first in tuples  # the class's keys are one of its tuples
        cells = []
        for s, table in sorted(tab.sensitive.items()):
            at = table.cell_class == j
            vals = [_label(table.labels[v]) for v in table.cell_value[at].tolist()]
            cells.append(
                (s, sorted(zip(vals, table.cell_count[at].tolist(), strict=True), key=repr))
            )
            assert table.class_sizes[j] == table.cell_count[at].sum()
        out.append((tuple(tuples), int(c.sizes[j]), int(sig.rows[j]), tuple(cells)))
    return sorted(out, key=repr)


def _totals(tab: Tabulation) -> dict[str, list[tuple[Any, int]]]:
    return {
        s: sorted(
            ((_label(v), int(n)) for v, n in zip(t.labels, t.value_totals, strict=True) if n),
            key=repr,
        )
        for s, t in tab.sensitive.items()
    }


def _oracle(df: pd.DataFrame, qis: list[str]) -> list[tuple[tuple[Any, ...], int, int]]:
    """Independent classes: Python frozensets of each person's tuples (a missing id: its row)."""
    people: dict[Any, set[tuple[Any, ...]]] = {}
    rows: Counter[Any] = Counter()
    for i, row in enumerate(df[[PERSON, *qis]].itertuples(index=False)):
        who = ("lone", i) if _label(row[0]) is None else row[0]
        people.setdefault(who, set()).add(tuple(_label(v) for v in row[1:]))
        rows[who] += 1
    classes: dict[frozenset[tuple[Any, ...]], list[int]] = {}
    for who, tuples in people.items():
        size = classes.setdefault(frozenset(tuples), [0, 0])
        size[0] += 1
        size[1] += rows[who]
    return sorted(((tuple(sorted(k, key=repr)), n, r) for k, (n, r) in classes.items()), key=repr)


def _same(got: Tabulation, want: Tabulation, df: pd.DataFrame | None, qis: list[str]) -> None:
    """Assert two person tabulations are the same classes, cells and totals (and the oracle's)."""
    mine, theirs = _classes(got), _classes(want)
    assert mine == theirs
    assert _totals(got) == _totals(want)
    assert got.classes.n_records == want.classes.n_records  # n_people
    assert got.classes.n_rows == want.classes.n_rows
    if df is not None:
        assert [(sig, n, r) for sig, n, r, _ in mine] == _oracle(df, qis)


@pytest.fixture(scope="module")
def claims(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("claims")
    df = _claims(300, 5)
    folder = _write(df, root / "parquet", parts=3, row_group=61)
    one = root / "one.parquet"
    pq.write_table(pa.Table.from_pandas(df, preserve_index=False), one)
    csv = root / "claims.csv"
    df.to_csv(csv, index=False)
    return {
        "df": df,
        "folder": folder,
        "one": one,
        "csv": csv,
        "memory": EncodedTable(load_table(str(one)).data),
        "memory_csv": EncodedTable(load_table(str(csv)).data),
    }


ROLES = [(QIS, SENS), (["sex"], ["diagnosis"]), (["zip", "age"], [])]


def _engines(claims: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    return [
        ("arrow", ArrowEngine(claims["folder"], batch_rows=47), claims["memory"]),
        ("duckdb", DuckDBEngine(claims["folder"], threads=2), claims["memory"]),
        ("duckdb-csv", DuckDBEngine(claims["csv"], threads=2), claims["memory_csv"]),
    ]


@pytest.mark.parametrize(("qis", "sens"), ROLES)
def test_engines_tabulate_the_people_of_the_memory_engine(
    claims: dict[str, Any], qis: list[str], sens: list[str]
) -> None:
    df = claims["df"]
    assert df[PERSON].isna().sum() > 5 and df["age"].isna().sum() > 5
    for name, engine, memory in _engines(claims):
        want = memory.tabulate(qis, sens, person=PERSON)
        got = engine.tabulate(qis, sens, person=PERSON)
        assert got.engine == name.split("-")[0]
        _same(got, want, df, qis)
        # classes of several people, and (the age changes at a birthday) people with
        # several tuples: not the trivial case
        assert got.classes.signatures is not None and got.classes.sizes.max() > 1
        assert got.classes.signatures.single == ("age" not in qis)
        _close(
            assess(engine, quasi_identifiers=qis, sensitive=sens, person=PERSON).to_dict(),
            assess(memory, quasi_identifiers=qis, sensitive=sens, person=PERSON).to_dict(),
        )
        assert sorted(engine.class_sizes(qis, person=PERSON).tolist()) == sorted(
            memory.class_sizes(qis, person=PERSON).tolist()
        )


def test_assess_through_open_engine_equals_pandas(claims: dict[str, Any]) -> None:
    # what `riskcore assess FILE --engine duckdb --person patient_id` computes
    want = assess(
        open_engine(str(claims["one"]), "pandas"),
        quasi_identifiers=QIS,
        sensitive=SENS,
        person=PERSON,
        threshold=0.2,
    )
    assert want.person == PERSON and want.engine == "memory"
    for engine in ("duckdb", "arrow"):
        got = assess(
            open_engine(str(claims["folder"]), engine),
            quasi_identifiers=QIS,
            sensitive=SENS,
            person=PERSON,
            threshold=0.2,
        )
        assert got.engine == engine
        _close(got.to_dict(), want.to_dict())
    # counting people is not counting rows
    rows = assess(open_engine(str(claims["folder"]), "duckdb"), quasi_identifiers=QIS)
    assert rows.n_records == len(claims["df"]) > want.to_dict()["n_people"]


@pytest.mark.parametrize(
    ("dense", "merge", "key_limit"),
    [(0, 16, 1 << 62), (1 << 25, 1 << 22, 1 << 62), (0, 1 << 22, 64)],
)
def test_arrow_person_keys_merge_and_widen_like_the_rows(
    claims: dict[str, Any], monkeypatch: pytest.MonkeyPatch, dense: int, merge: int, key_limit: int
) -> None:
    # sparse partial tables merged many times, dense counts, and the code-tuple path taken
    # when (person, QIs, value) keys outgrow the (lowered) int64 limit: the same people
    import riskcore.engine.arrow as arrow_mod
    import riskcore.engine.counting as counting

    monkeypatch.setattr(counting, "DENSE_KEYS", dense)
    monkeypatch.setattr(counting, "MERGE_ROWS", merge)
    monkeypatch.setattr(arrow_mod, "_KEY_LIMIT", key_limit)
    got = ArrowEngine(claims["folder"], batch_rows=29).tabulate(QIS, SENS, person=PERSON)
    _same(got, claims["memory"].tabulate(QIS, SENS, person=PERSON), claims["df"], QIS)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rows=st.lists(
        st.tuples(
            st.one_of(st.none(), st.integers(0, 5)),
            st.sampled_from(["x", "y", None]),
            st.sampled_from([0.0, 1.0, float("nan")]),
            st.sampled_from(["u", "v", None]),
        ),
        min_size=1,
        max_size=40,
    ),
    row_group=st.integers(1, 9),
    numeric=st.booleans(),
)
def test_people_property(
    tmp_path: Path, rows: list[tuple[Any, ...]], row_group: int, numeric: bool
) -> None:
    # any table of people, any split into row groups and files: the memory engine's people
    df = pd.DataFrame(rows, columns=[PERSON, "a", "b", "s"])
    if numeric:  # a numeric person id: missing ones are NaN
        df[PERSON] = df[PERSON].astype(float)
    else:
        df[PERSON] = [None if v != v or v is None else f"p{int(v)}" for v in df[PERSON]]
    name = f"t{len(rows)}_{row_group}_{numeric}"
    folder = _write(df, tmp_path / name, 2, row_group)
    whole = tmp_path / f"{name}.parquet"
    pq.write_table(pa.Table.from_pandas(df, preserve_index=False), whole)
    memory = EncodedTable(load_table(str(whole)).data)
    want = memory.tabulate(["a", "b"], ["s"], person=PERSON)
    for engine in (ArrowEngine(folder, batch_rows=row_group), DuckDBEngine(folder, threads=1)):
        _same(engine.tabulate(["a", "b"], ["s"], person=PERSON), want, df, ["a", "b"])


def test_people_without_an_id_and_an_empty_file(tmp_path: Path) -> None:
    # every person id missing: each row a person of its own, counted by its group's rows
    df = pd.DataFrame({PERSON: [None] * 5, "a": ["x", "x", "y", "x", None], "s": list("uuvvu")})
    path = tmp_path / "lone.parquet"
    pq.write_table(pa.Table.from_pandas(df, preserve_index=False), path)
    want = EncodedTable(load_table(str(path)).data).tabulate(["a"], ["s"], person=PERSON)
    for engine in (ArrowEngine(path), DuckDBEngine(path)):
        got = engine.tabulate(["a"], ["s"], person=PERSON)
        _same(got, want, df, ["a"])
        assert sorted(got.classes.sizes.tolist()) == [1, 1, 3]
    empty = tmp_path / "empty.parquet"
    pq.write_table(pa.Table.from_pandas(df.iloc[:0], preserve_index=False), empty)
    for engine in (ArrowEngine(empty), DuckDBEngine(empty)):
        got = engine.tabulate(["a"], ["s"], person=PERSON)
        assert got.classes.n_classes == 0 and got.sensitive["s"].n_records == 0


def test_person_column_cannot_be_a_role_too(claims: dict[str, Any]) -> None:
    for engine in (ArrowEngine(claims["folder"]), DuckDBEngine(claims["folder"])):
        with pytest.raises(RolesError, match="cannot be a quasi-identifier"):
            engine.tabulate([PERSON, "sex"], person=PERSON)
        with pytest.raises(RolesError, match="or sensitive attribute"):
            engine.tabulate(["sex"], [PERSON], person=PERSON)
        with pytest.raises(RiskcoreError, match="no column 'nobody'"):
            engine.tabulate(["sex"], person="nobody")


def test_source_table_passes_the_person_and_refuses_the_search(claims: dict[str, Any]) -> None:
    from riskcore.deidentify.hierarchy import default_hierarchy
    from riskcore.deidentify.on_engine import SourceTable
    from riskcore.deidentify.search.lattice import Lattice

    table = SourceTable(claims["folder"], "duckdb", threads=2)
    want = claims["memory"].tabulate(QIS, SENS, person=PERSON)
    _same(table.tabulate(QIS, SENS, person=PERSON), want, claims["df"], QIS)
    assert table.tabulate(QIS, SENS).classes.signatures is None  # rows: a cache of its own
    assert sorted(table.class_sizes(QIS, person=PERSON).tolist()) == sorted(
        want.classes.sizes.tolist()
    )
    hierarchies = {"sex": default_hierarchy(table.distinct("sex"))}
    with pytest.raises(RiskcoreError, match=r"person column 'patient_id'.*--engine pandas"):
        Lattice(table, hierarchies, person=PERSON)


@pytest.mark.spark
def test_spark_counts_the_people_of_the_memory_engine(claims: dict[str, Any]) -> None:
    from riskcore.engine.spark import SparkEngine

    with spark_session() as session:
        for source, memory in (("folder", "memory"), ("csv", "memory_csv")):
            engine = SparkEngine(claims[source], session=session)
            for qis, sens in ROLES:
                want = claims[memory].tabulate(qis, sens, person=PERSON)
                got = engine.tabulate(qis, sens, person=PERSON)
                assert got.engine == "spark"
                _same(got, want, claims["df"], qis)
                _close(
                    assess(engine, quasi_identifiers=qis, sensitive=sens, person=PERSON).to_dict(),
                    assess(
                        claims[memory], quasi_identifiers=qis, sensitive=sens, person=PERSON
                    ).to_dict(),
                )
                assert sorted(engine.class_sizes(qis, person=PERSON).tolist()) == sorted(
                    want.classes.sizes.tolist()
                )


def test_text_codes_are_global_across_batches_and_string_types() -> None:
    # a person id seen in several batches (string, large_string, dictionary, with nulls) keeps
    # one code; different ids get different codes; every null gets the one missing code
    from riskcore.engine.grouped import ArrowCodes

    batches = [
        pa.array(["p1", "p2", "p1"]),
        pa.array(["p3", None, "p2", "p4"], type=pa.large_string()),
        pa.array([None, "p4", "p1", "p5"]).dictionary_encode(),
        pa.array(["p5", "", None], type=pa.large_string()).dictionary_encode(),
    ]
    book = ArrowCodes()
    seen: dict[Any, set[int]] = {}
    for batch in batches:
        for value, code in zip(batch.to_pylist(), book.codes(batch).tolist(), strict=True):
            seen.setdefault(value, set()).add(code)
    assert all(len(codes) == 1 for codes in seen.values())
    assert len({next(iter(codes)) for codes in seen.values()}) == len(seen) == len(book) == 7
    final = book.final("who", ordered=None)
    assert sorted(final.labels[:-1].tolist()) == ["", "p1", "p2", "p3", "p4", "p5"]
    assert final.labels[-1] is None and final.codes[book.missing] == len(final.labels) - 1
