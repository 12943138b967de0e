"""Every engine gives the same assessment: pandas (in memory), arrow, duckdb and spark.

The reference is twofold: the in-memory engine on the same file loaded by
the loader, and an independent count of the class sizes by a Python
``Counter`` over the rows' QI tuples (missing values, None or NaN, counted
as one value). The tables hold what breaks group-bys: missing keys in text
and numbers, ties, one-row classes, a ZIP code with leading zeros, an
integer column with missing values, several row groups and several files.
"""

from __future__ import annotations

import json
import math
import shutil
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from riskcore.cli import main
from riskcore.engine.arrow import ArrowEngine
from riskcore.engine.duck import DuckDBEngine
from riskcore.engine.select import open_engine, resolve_engine
from riskcore.errors import DataLoadError, RiskcoreError
from riskcore.io import load_table
from riskcore.metrics import assess
from tests.conftest import IN_CI
from tests.file_builders import nested_parquet

QIS = ["age", "sex", "zip", "dept"]
SENS = ["income", "diagnosis"]


def _table(n: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    age = rng.integers(17, 90, n).astype(float)
    age[rng.random(n) < 0.05] = np.nan  # an integer column with missing values
    sex = rng.choice(np.array(["F", "M", None], dtype=object), n, p=[0.48, 0.48, 0.04])
    zips = np.array([f"{z:05d}" for z in rng.integers(0, 400, n)], dtype=object)  # "00042"
    dept = rng.choice(np.array(["a", "b", "c", "d"], dtype=object), n)
    income = rng.choice(np.array([1.5, 2.5, 7.0, np.nan]), n)
    diagnosis = rng.choice(np.array(["flu", "cold", "asthma", None], dtype=object), n)
    df = pd.DataFrame(
        {
            "age": age,
            "sex": sex,
            "zip": zips,
            "dept": dept,
            "income": income,
            "diagnosis": diagnosis,
        }
    )
    # ties and one-row classes: a block of identical rows and one odd row
    df.loc[: min(30, n - 1), QIS] = [40.0, "F", "00001", "a"]
    df.loc[n - 1, QIS] = [99.0, "M", "99999", "z"]
    return df


def _write_parquet(df: pd.DataFrame, folder: Path, parts: int = 3) -> Path:
    """Write ``df`` as ``parts`` files with small row groups; return the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    for i, chunk in enumerate(np.array_split(np.arange(len(df)), parts)):
        table = pa.Table.from_pandas(df.iloc[chunk], preserve_index=False)
        pq.write_table(table, folder / f"part-{i}.parquet", row_group_size=97)
    return folder


def _close(a: Any, b: Any, path: str = "") -> None:
    """Assert two JSON-like results equal: integers and text exactly, floats to 1e-12."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and set(a) == set(b), path
        for key in a:
            if key != "engine":
                _close(a[key], b[key], f"{path}.{key}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _close(x, y, f"{path}[{i}]")
    elif isinstance(a, float) and isinstance(b, float):
        assert math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15), (path, a, b)
    else:
        assert a == b, (path, a, b)


def _counter_sizes(df: pd.DataFrame, qis: list[str]) -> list[int]:
    """Independent class sizes: a Counter over the rows' QI tuples, missing as one value."""
    rows = zip(*(df[q].tolist() for q in qis), strict=True)
    norm = (tuple(None if pd.isna(v) else v for v in row) for row in rows)
    return sorted(Counter(norm).values())


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("engines")
    df = _table(2_000, 7)
    folder = _write_parquet(df, root / "parquet")
    csv = root / "table.csv"
    df.to_csv(csv, index=False)
    one = root / "one.parquet"
    pq.write_table(pa.Table.from_pandas(df, preserve_index=False), one, row_group_size=300)
    return {
        "df": df,
        "folder": folder,
        "glob": str(folder / "*.parquet"),
        "csv": csv,
        "one": one,
        "memory_parquet": load_table(str(one)).data,
        "memory_csv": load_table(str(csv)).data,
    }


ROLES = [
    (["age"], []),
    (["age", "sex"], ["income"]),
    (QIS, SENS),
    (["zip", "dept"], ["diagnosis"]),
]


@pytest.mark.parametrize(("qis", "sens"), ROLES)
@pytest.mark.parametrize("source", ["folder", "glob", "one"])
def test_arrow_equals_memory_and_counter(
    data: dict[str, Any], source: str, qis: list[str], sens: list[str]
) -> None:
    engine = ArrowEngine(data[source], batch_rows=128)  # many batches, merged partials
    got = assess(engine, quasi_identifiers=qis, sensitive=sens)
    want = assess(data["memory_parquet"], quasi_identifiers=qis, sensitive=sens)
    assert got.engine == "arrow" and want.engine == "memory"
    _close(got.to_dict(), want.to_dict())
    assert sorted(got.classes.sizes.tolist()) == _counter_sizes(data["df"], qis)


@pytest.mark.parametrize(("qis", "sens"), ROLES)
@pytest.mark.parametrize("source", ["folder", "csv"])
def test_duckdb_equals_memory_and_counter(
    data: dict[str, Any], source: str, qis: list[str], sens: list[str]
) -> None:
    engine = DuckDBEngine(data[source], threads=2)
    memory = data["memory_csv"] if source == "csv" else data["memory_parquet"]
    got = assess(engine, quasi_identifiers=qis, sensitive=sens)
    want = assess(memory, quasi_identifiers=qis, sensitive=sens)
    assert got.engine == "duckdb"
    _close(got.to_dict(), want.to_dict())
    assert sorted(got.classes.sizes.tolist()) == _counter_sizes(data["df"], qis)


def test_duckdb_csv_keeps_leading_zeros_and_types(data: dict[str, Any]) -> None:
    # the loader's typing rule on DuckDB's text: ZIP stays text, age a number
    groups = DuckDBEngine(data["csv"]).groups(["zip", "age"])
    assert "00001" in set(groups["zip"])
    assert pd.api.types.is_numeric_dtype(groups["age"])


def test_ordered_sensitive_attribute_has_the_same_order_on_every_engine(
    data: dict[str, Any],
) -> None:
    # t with the ordered distance depends on the value order: numbers sort on every engine
    for engine in (ArrowEngine(data["folder"], batch_rows=64), DuckDBEngine(data["folder"])):
        tab = engine.tabulate(["dept"], ["income"])
        table = tab.sensitive["income"]
        assert table.ordered
        present = [v for v in table.labels if v is not None]
        assert present == sorted(present) and table.labels[-1] is None


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    rows=st.lists(
        st.tuples(
            st.sampled_from(["x", "y", "", None]),
            st.one_of(st.none(), st.integers(0, 3)),
            st.sampled_from(["p", "q", None]),
        ),
        min_size=1,
        max_size=60,
    ),
    batch=st.integers(1, 7),
)
def test_arrow_stream_property(tmp_path: Path, rows: list[tuple[Any, ...]], batch: int) -> None:
    # any table, any batch size: classes as the Counter's, figures as the memory engine's
    df = pd.DataFrame(rows, columns=["a", "b", "s"])
    path = tmp_path / f"t{len(rows)}_{batch}.parquet"
    pq.write_table(pa.Table.from_pandas(df, preserve_index=False), path, row_group_size=batch)
    engine = ArrowEngine(path, batch_rows=batch)
    tab = engine.tabulate(["a", "b"], ["s"])
    assert sorted(tab.classes.sizes.tolist()) == _counter_sizes(df, ["a", "b"])
    got = assess(engine, quasi_identifiers=["a", "b"], sensitive=["s"]).to_dict()
    frame = load_table(str(path)).data
    _close(got, assess(frame, quasi_identifiers=["a", "b"], sensitive=["s"]).to_dict())


def _cli_json(capsys: pytest.CaptureFixture[str], args: list[str]) -> dict[str, Any]:
    assert main(args) == 0
    out = capsys.readouterr().out
    result: dict[str, Any] = json.loads(out)
    return result


def test_cli_prints_the_same_json_on_every_engine(
    data: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["--qi", "age", "--qi", "sex", "--qi", "zip", "--sensitive", "income"]
    base += ["--sensitive", "diagnosis", "--sampling-fraction", "0.1", "--format", "json"]
    want = _cli_json(capsys, ["assess", str(data["one"]), "--engine", "pandas", *base])
    assert want["engine"] == "memory"
    for engine, spec in (("arrow", data["glob"]), ("duckdb", str(data["folder"]))):
        got = _cli_json(capsys, ["assess", spec, "--engine", engine, *base])
        assert got["engine"] == engine
        _close(got, want)
    got = _cli_json(capsys, ["assess", str(data["csv"]), "--engine", "duckdb", *base])
    _close(got, _cli_json(capsys, ["assess", str(data["csv"]), "--engine", "pandas", *base]))


def test_cli_order_is_typed_by_the_engine(
    data: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--qi", "dept", "--sensitive", "diagnosis", "--order", "diagnosis=cold,flu,asthma"]
    want = _cli_json(capsys, ["assess", str(data["one"]), *args, "--format", "json"])
    got = _cli_json(
        capsys, ["assess", data["glob"], "--engine", "arrow", *args, "--format", "json"]
    )
    _close(got, want)
    assert main(["assess", data["glob"], "--engine", "arrow", "--qi", "dept", "--sensitive",
                 "diagnosis", "--order", "diagnosis=cold,flu,measles"]) == 2  # fmt: skip
    assert "'measles' is not a value" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("spec", "engine", "message"),
    [
        ("demo", "arrow", "use --engine pandas"),
        ("x.csv", "arrow", "for CSV use --engine duckdb"),
        ("nowhere/*.parquet", "arrow", "no file matches"),
        ("nowhere.parquet", "arrow", "no such file or directory"),
        ("demo", "nonsense", "unknown engine"),
    ],
)
def test_engine_choice_errors_are_plain(spec: str, engine: str, message: str) -> None:
    with pytest.raises(RiskcoreError, match=message):
        open_engine(spec, engine)


def test_auto_streams_directories_and_keeps_small_files_in_memory(data: dict[str, Any]) -> None:
    assert resolve_engine(str(data["one"])) == "pandas"
    assert resolve_engine("demo") == "pandas"
    assert resolve_engine(str(data["folder"])) == "arrow"
    assert resolve_engine(data["glob"]) == "arrow"
    assert resolve_engine(str(data["csv"]).replace("table.csv", "*.csv")) == "duckdb"


def test_unknown_column_and_bad_file_are_plain_errors(tmp_path: Path, data: dict[str, Any]) -> None:
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"PAR1 this is not parquet")
    with pytest.raises(RiskcoreError, match="cannot be read"):
        ArrowEngine(bad)
    with pytest.raises(RiskcoreError, match="cannot read"):
        DuckDBEngine(bad)
    with pytest.raises(RiskcoreError, match="no column 'nope'"):
        ArrowEngine(data["folder"]).tabulate(["nope"])
    with pytest.raises(RiskcoreError, match="no column 'nope'"):
        DuckDBEngine(data["folder"]).tabulate(["nope"])


def test_nested_parquet_columns_are_refused_by_the_streaming_engines(tmp_path: Path) -> None:
    # issue 37: the arrow engine ended in ArrowNotImplementedError ("dictionary_encode")
    path = tmp_path / "nested.parquet"
    path.write_bytes(nested_parquet())
    message = r"nested\.parquet: the column 'tags' holds nested values \(list<"
    with pytest.raises(DataLoadError, match=message):
        ArrowEngine(path)
    with pytest.raises(DataLoadError, match=message):
        DuckDBEngine(path)
    with pytest.raises(DataLoadError, match=message):
        ArrowEngine(tmp_path).tabulate(["a"])
    for engine in ("arrow", "duckdb"):
        assert main(["assess", str(path), "--qi", "tags", "--engine", engine]) == 2


@contextmanager
def spark_session() -> Iterator[Any]:
    """Yield a local Spark session, stopped afterwards (skip without Java; fail so in CI)."""
    if shutil.which("java") is None:
        if IN_CI:
            pytest.fail("Java is missing in CI: .ci/run installs openjdk-17-jre-headless")
        pytest.skip("no Java runtime for Spark")
    from riskcore.engine.spark import local_session

    session = local_session("local[2]")
    try:
        yield session
    finally:
        session.stop()


@pytest.mark.spark
def test_spark_equals_memory(data: dict[str, Any]) -> None:
    from riskcore.engine.spark import SparkEngine

    with spark_session() as session:
        for source, memory in (("folder", "memory_parquet"), ("csv", "memory_csv")):
            engine = SparkEngine(data[source], session=session)
            for qis, sens in ROLES:
                got = assess(engine, quasi_identifiers=qis, sensitive=sens)
                assert got.engine == "spark"
                want = assess(data[memory], quasi_identifiers=qis, sensitive=sens)
                _close(got.to_dict(), want.to_dict())
                assert sorted(got.classes.sizes.tolist()) == _counter_sizes(data["df"], qis)
                # the size-histogram pushdown gives the same classes
                assert sorted(engine.class_sizes(qis).tolist()) == _counter_sizes(data["df"], qis)
        nan = pa.table({"x": pa.array([1.0, float("nan"), None, float("nan"), 2.0, None])})
        pq.write_table(nan, data["folder"].parent / "nan.parquet")
        engine = SparkEngine(data["folder"].parent / "nan.parquet", session=session)
        assert engine.class_sizes(["x"]).tolist() == [1, 1, 4]  # NaN and null: one value


def test_path_under_root_refuses_every_way_out(tmp_path: Path) -> None:
    from riskcore.engine.select import path_under_root

    root = tmp_path / "data"
    (root / "lake").mkdir(parents=True)
    (root / "lake" / "a.parquet").write_bytes(b"x")
    secret = tmp_path / "secret.parquet"
    secret.write_bytes(b"x")
    assert path_under_root("lake/a.parquet", root) == str((root / "lake" / "a.parquet").resolve())
    assert path_under_root("lake/*.parquet", root).endswith("lake/*.parquet")
    assert path_under_root("lake", root) == str((root / "lake").resolve())
    for spec in ("../secret.parquet", str(secret), "lake/../../secret.parquet", "/etc/passwd"):
        with pytest.raises(RiskcoreError, match="names no file in the data directory"):
            path_under_root(spec, root)
    with pytest.raises(RiskcoreError, match=r"'\.\.' is not allowed"):
        path_under_root("lake/../../*.parquet", root)
    (root / "lake" / "link.parquet").symlink_to(secret)  # a link inside pointing out
    for spec in ("lake/link.parquet", "lake/*.parquet", "lake"):
        with pytest.raises(RiskcoreError, match="names no file in the data directory"):
            path_under_root(spec, root)
    with pytest.raises(RiskcoreError, match="names no file in the data directory"):
        path_under_root("nothing.parquet", root)
    with pytest.raises(RiskcoreError, match="names no file in the data directory"):
        path_under_root("*.csv", root)


@pytest.mark.parametrize(
    ("dense", "merge", "pack_bits", "raw_share"),
    [
        (0, 64, 63, 0.5),
        (0, 1, 63, 0.5),
        (1 << 25, 64, 63, 0.5),
        (0, 64, 8, 0.5),  # keys and counts never fit one integer: the argsort merge
        (0, 64, 63, 0.0),  # every batch's keys wait unsorted (nearly all distinct)
        (0, 1, 63, 2.0),  # every batch counted on its own first
    ],
)
def test_arrow_counts_sparse_and_merged_equal_memory(
    data: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    dense: int,
    merge: int,
    pack_bits: int,
    raw_share: float,
) -> None:
    # force the sparse counter (no dense array), many merges of sorted runs, and each merge path
    import riskcore.engine.counting as counting

    monkeypatch.setattr(counting, "DENSE_KEYS", dense)
    monkeypatch.setattr(counting, "MERGE_ROWS", merge)
    monkeypatch.setattr(counting, "PACK_BITS", pack_bits)
    monkeypatch.setattr(counting, "RAW_SHARE", raw_share)
    got = assess(ArrowEngine(data["folder"], batch_rows=50), quasi_identifiers=QIS, sensitive=SENS)
    want = assess(data["memory_parquet"], quasi_identifiers=QIS, sensitive=SENS)
    _close(got.to_dict(), want.to_dict())
    assert sorted(got.classes.sizes.tolist()) == _counter_sizes(data["df"], QIS)


def test_missing_matches_any_is_engine_free(data: dict[str, Any]) -> None:
    # the "any" policy works on the class table alone, so every engine gives it
    for engine in (ArrowEngine(data["folder"], batch_rows=300), DuckDBEngine(data["folder"])):
        got = assess(engine, quasi_identifiers=QIS, sensitive=SENS, missing="any")
        want = assess(data["memory_parquet"], quasi_identifiers=QIS, sensitive=SENS, missing="any")
        assert got.missing == "any" and got.missing_records > 0
        _close(got.to_dict(), want.to_dict())


def test_weights_need_the_in_memory_engine(data: dict[str, Any]) -> None:
    from riskcore.metrics import Population

    with pytest.raises(RiskcoreError, match="only the in-memory engine"):
        assess(ArrowEngine(data["folder"]), quasi_identifiers=["sex"],
               population_model=Population(weights="age"))  # fmt: skip


def test_auto_leaves_a_missing_file_to_the_loader(tmp_path: Path) -> None:
    # the loader's message ("there is no file at ...") whatever the extension
    assert resolve_engine(str(tmp_path / "none.csv")) == "pandas"
    assert resolve_engine(str(tmp_path / "none.parquet")) == "pandas"


def test_duckdb_size_histogram_pushdown_equals_memory(tmp_path: Path, data: dict[str, Any]) -> None:
    # one small result per question: the class-size histogram computed in DuckDB
    engine = DuckDBEngine(data["folder"])
    for qis, _ in ROLES:
        got = engine.class_sizes(qis)
        assert got.tolist() == _counter_sizes(data["df"], qis)
    # NaN and NULL in one float column are one missing value, as in memory
    table = pa.table(
        {
            "x": pa.array([1.0, float("nan"), None, float("nan"), 2.0, None]),
            "g": pa.array(["a", "a", "a", "b", "b", "b"]),
        }
    )
    pq.write_table(table, tmp_path / "nan.parquet")
    duck = DuckDBEngine(tmp_path / "nan.parquet")
    memory = load_table(str(tmp_path / "nan.parquet")).data
    assert duck.class_sizes(["x"]).tolist() == [1, 1, 4]
    assert duck.class_sizes(["x", "g"]).tolist() == sorted(
        open_engine(str(tmp_path / "nan.parquet"), "pandas").class_sizes(["x", "g"]).tolist()
    )
    assert sorted(_counter_sizes(memory, ["x"])) == [1, 1, 4]


def test_subset_uniqueness_is_the_same_through_the_pushdown(data: dict[str, Any]) -> None:
    from riskcore.metrics.uniqueness import subset_uniqueness

    got = subset_uniqueness(DuckDBEngine(data["folder"]), QIS, max_size=2)
    want = subset_uniqueness(EncodedTableFrom(data["memory_parquet"]), QIS, max_size=2)
    _close(got.to_dict(), want.to_dict())


def EncodedTableFrom(df: pd.DataFrame) -> Any:  # noqa: N802 - reads as a constructor
    from riskcore.engine import EncodedTable

    return EncodedTable(df)


@pytest.mark.parametrize("tolerance", [None, {"age": 2.0}])
def test_linkage_counts_through_every_engine_equal_the_row_join(
    data: dict[str, Any], tolerance: dict[str, float] | None
) -> None:
    # candidate counts from the class table (any engine) = the linkage attack on the rows
    from riskcore.attacks.linkage import linkage_attack, linkage_counts

    df = data["memory_parquet"]
    rng = np.random.default_rng(11)
    aux = df.sample(300, random_state=5)[["age", "sex", "zip"]].reset_index(drop=True)
    aux.loc[rng.random(300) < 0.2, "sex"] = None  # unknown to the attacker: a wildcard
    aux.loc[:9, "zip"] = "77777"  # absent from the release: no candidate
    on = ["age", "sex", "zip"]
    want = linkage_attack(df, aux, on, tolerance=tolerance)
    for engine in (
        ArrowEngine(data["folder"], batch_rows=300),
        DuckDBEngine(data["folder"]),
        open_engine(str(data["one"]), "pandas"),
    ):
        got = linkage_counts(engine, aux, on, tolerance=tolerance)
        assert got.candidates.tolist() == want.candidates.tolist()
        assert got.unique == want.unique and got.n_release == want.n_release
    assert (want.candidates[:10] == 0).all() and want.candidates.max() > 1


def test_arrow_falls_back_to_code_tuples_when_keys_outgrow_int64(
    data: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # a key space beyond the (lowered) limit takes the tuple path: same figures
    import riskcore.engine.arrow as arrow_mod

    monkeypatch.setattr(arrow_mod, "_KEY_LIMIT", 16)
    got = assess(ArrowEngine(data["folder"], batch_rows=64), quasi_identifiers=QIS, sensitive=SENS)
    want = assess(data["memory_parquet"], quasi_identifiers=QIS, sensitive=SENS)
    _close(got.to_dict(), want.to_dict())


def test_arrow_sorted_cells_orders_only_within_classes() -> None:
    # cells grouped by class but in dictionary order inside a class come out in (class, value)
    # order, every cell kept with its count
    from riskcore.engine.counting import sorted_cells

    rng = np.random.default_rng(3)
    cls = np.sort(rng.integers(0, 40, 300))
    value = rng.integers(0, 7, 300)
    key = cls * 7 + value
    _, first = np.unique(key, return_index=True)
    cls, value = cls[np.sort(first)], value[np.sort(first)]  # one cell per (class, value)
    counts = rng.integers(1, 9, len(cls))
    assert not (np.diff(cls * 7 + value) > 0).all()  # the input has classes out of order
    want = sorted(zip((cls * 7 + value).tolist(), counts.tolist(), strict=True))
    got = sorted_cells(cls.copy(), value.copy(), counts.copy(), 7)
    got_key = got[0] * 7 + got[1]
    assert (np.diff(got_key) > 0).all()
    assert list(zip(got_key.tolist(), got[2].tolist(), strict=True)) == want


def test_packed_codes_unpack_each_qi_as_the_digits_of_the_key() -> None:
    # one packed key per class unpacks to the same codes as the digits it was packed from
    from riskcore.engine.contract import PackedCodes

    rng = np.random.default_rng(4)
    radices = [5, 3, 7, 2]
    digits = [rng.integers(0, r, 50) for r in radices]
    key = np.zeros(50, dtype=np.int64)
    for d, r in zip(digits, radices, strict=True):
        key = key * r + d
    maps = [rng.permutation(r) + 10 * i for i, r in enumerate(radices)]
    codes = PackedCodes(key, radices, maps)
    assert len(codes) == 4 and codes.n_classes() == 50
    for i in range(4):
        assert codes[i].tolist() == maps[i][digits[i]].tolist()
    assert codes[-1].tolist() == codes[3].tolist()
    assert [c.tolist() for c in codes[1:3]] == [codes[1].tolist(), codes[2].tolist()]
    assert [c.tolist() for c in codes] == [maps[i][digits[i]].tolist() for i in range(4)]
    with pytest.raises(IndexError):
        codes[4]


@pytest.mark.parametrize("command", ["records", "report"])
def test_per_record_commands_say_they_run_in_memory_only(
    command: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # every engine answers assess; the per-record commands refuse the others by name
    from riskcore.engine.select import SUPPORTED_ENGINES

    assert set(SUPPORTED_ENGINES["assess"]) == {"pandas", "arrow", "duckdb", "spark"}
    assert SUPPORTED_ENGINES[command] == ("pandas",)
    # remediation runs on every engine (tests/riskcore/test_engine_remediate.py)
    assert SUPPORTED_ENGINES["anonymize"] == SUPPORTED_ENGINES["apply"] == (
        "pandas", "arrow", "duckdb", "spark",
    )  # fmt: skip
    extra = {
        "records": ["--qi", "age", "--out", str(tmp_path / "r.csv")],
        "report": ["--profile", str(tmp_path / "p.json"), "--out", str(tmp_path / "r.html")],
    }[command]  # fmt: skip
    for engine in ("arrow", "duckdb", "spark"):
        assert main([command, "demo", "--engine", engine, *extra]) == 2
        err = capsys.readouterr().err
        assert f"{command} needs each record" in err and f"the {engine} engine" in err
    assert not any(tmp_path.iterdir())  # refused before anything was written


def test_arrow_counter_keeps_counts_when_radices_shrink() -> None:
    # without headroom the radices fall back to the exact cardinalities, which may be below
    # the old ones: the dense counts are re-keyed digit by digit, not copied into a corner
    from riskcore.engine.counting import KeyCounter

    counter = KeyCounter(100)
    counter.set_radices((4, 4, 1))
    class_key = np.array([0 * 4 + 1, 2 * 4 + 3, 2 * 4 + 3, 1 * 4 + 0], dtype=np.int64)
    counter.add(class_key, None)
    counter.set_radices((3, 5, 1))
    keys, counts = counter.result()
    assert [(int(k) // 5, int(k) % 5, int(c)) for k, c in zip(keys, counts, strict=True)] == [
        (0, 1, 1),
        (1, 0, 1),
        (2, 3, 2),
    ]


def test_arrow_reads_a_float_column_with_nan_and_null_in_separate_batches(
    tmp_path: Path,
) -> None:
    # NaN and null are one missing value, even when they first appear in different batches
    table = pa.table(
        {
            "x": pa.array([float("nan"), None, float("nan"), 1.0, None, 1.0]),
            "s": pa.array(["a", "b", "a", "b", "a", "b"]),
        }
    )
    pq.write_table(table, tmp_path / "t.parquet")
    memory = load_table(str(tmp_path / "t.parquet")).data
    want = assess(memory, quasi_identifiers=["x"], sensitive=["s"])
    got = assess(ArrowEngine(tmp_path / "t.parquet", batch_rows=1), quasi_identifiers=["x"],
                 sensitive=["s"])  # fmt: skip
    _close(got.to_dict(), want.to_dict())
    assert sorted(got.classes.sizes.tolist()) == [2, 4]


def test_arrow_assesses_an_empty_file_with_a_sensitive_attribute(tmp_path: Path) -> None:
    table = pa.table({"x": pa.array([], type=pa.int64()), "s": pa.array([], type=pa.string())})
    pq.write_table(table, tmp_path / "empty.parquet")
    got = assess(ArrowEngine(tmp_path / "empty.parquet"), quasi_identifiers=["x"],
                 sensitive=["s"])  # fmt: skip
    assert got.n_records == 0 and got.n_classes == 0
