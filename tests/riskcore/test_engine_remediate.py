"""Remediation on the engines: ``anonymize`` / ``apply --engine arrow|duckdb|spark``.

The reference is the in-memory path on the same data (the file loaded by the
loader, :func:`riskcore.deidentify.recipe.apply.apply_levels`): the release an
engine writes must be the same multiset of rows, cell by cell (numbers compared as
numbers, a missing value as missing), with the same levels and suppression. The
tables hold what breaks joins: missing values in text, numbers and dates, a number
column with missing values read as floating point, leading-zero ZIP codes, several
files and row groups, and rare combinations that force suppression.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from riskcore.cli import main
from riskcore.deidentify.on_engine import FailingSet, SourceTable
from riskcore.errors import RiskcoreError

ENGINES = ["arrow", "duckdb"]


def _table(n: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    age = rng.integers(17, 90, n).astype(float)
    age[rng.random(n) < 0.04] = np.nan
    dob = pd.Series(pd.to_datetime("1940-01-01") + pd.to_timedelta(rng.integers(0, 20000, n), "D"))
    dob[rng.random(n) < 0.03] = pd.NaT
    return pd.DataFrame(
        {
            "age": age,
            "sex": rng.choice(np.array(["F", "M", None], dtype=object), n, p=[0.48, 0.48, 0.04]),
            "zip": np.array([f"{z:05d}" for z in rng.integers(0, 300, n)], dtype=object),
            "dob": dob.astype("datetime64[us]"),
            "diagnosis": rng.choice(np.array(["flu", "cold", "asthma", None], dtype=object), n),
            "income": rng.normal(50, 10, n).round(1),
            # whole numbers with missing values: Parquet int16 with nulls, loaded as float64
            "visits": pd.array(
                np.where(rng.random(n) < 0.05, -1, rng.integers(0, 12, n)), dtype="Int16"
            ),
        }
    ).assign(visits=lambda f: f["visits"].mask(f["visits"] < 0))


def _arrow(df: pd.DataFrame) -> pa.Table:
    """Return ``df`` as Arrow without pandas' metadata (so integers with nulls load as floats)."""
    return pa.Table.from_pandas(df, preserve_index=False).replace_schema_metadata(None)


def _write(df: pd.DataFrame, folder: Path, parts: int = 3) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i, chunk in enumerate(np.array_split(np.arange(len(df)), parts)):
        pq.write_table(_arrow(df.iloc[chunk]), folder / f"part-{i}.parquet", row_group_size=211)
    return folder


def _cell(v: Any) -> Any:
    """One cell, comparable across writers: missing as None, numbers as floats, dates as text."""
    if v is None or (isinstance(v, float) and math.isnan(v)) or v is pd.NaT:
        return None
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, float, np.integer, np.floating)):
        return float(v)
    if isinstance(v, (pd.Timestamp,)):
        return v.isoformat()
    return str(v)


def _rows(path: Path, columns: list[str]) -> Counter[tuple[Any, ...]]:
    """Return the multiset of rows of a Parquet file or Hive-partitioned directory."""
    if path.is_dir():
        table = ds.dataset(path, format="parquet", partitioning="hive").to_table()
    else:
        table = pq.read_table(path)
    data = {c: table.column(c).to_pylist() for c in columns}
    hive_null = "__HIVE_DEFAULT_PARTITION__"
    rows = zip(*(data[c] for c in columns), strict=True)
    return Counter(tuple(None if x == hive_null else _cell(x) for x in row) for row in rows)


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("remediate")
    df = _table(2_400, 11)
    folder = _write(df, root / "parquet")
    one = root / "one.parquet"
    pq.write_table(_arrow(df), one)
    return {"df": df, "folder": folder, "one": one, "root": root}


COLUMNS = ["age", "sex", "zip", "dob", "diagnosis", "income", "visits"]
# 5-digit ZIP codes and full dates of birth: direct identifiers, released as they are by
# choice where no level above 0 is chosen (issue 37), in memory and on the engines alike
ALLOW = ["--allow-identifiers", "zip", "--allow-identifiers", "dob"]

CASES = {
    "k with suppression": ["--qi", "age", "--qi", "sex", "--qi", "zip", "--k", "4",
                           "--max-suppression", "0.1", "--levels", "zip=0:3"],
    "l-diversity, dates": ["--qi", "visits", "--qi", "dob", "--sensitive", "diagnosis",
                           "--k", "3", "--l", "2", "--max-suppression", "0.08"],
    "missing any, mask": ["--qi", "age", "--qi", "sex", "--qi", "zip", "--k", "3",
                          "--missing", "any", "--max-suppression", "0.2", "--suppression",
                          "mask", "--levels", "age=1:5", "--levels", "zip=1:5"],
}  # fmt: skip


def _anonymize(data: dict[str, Any], engine: str, case: str, out: Path, *extra: str) -> None:
    source = str(data["one"] if engine == "pandas" else data["folder"])
    code = main(
        ["anonymize", source, "--engine", engine, *CASES[case], "--out", str(out),
         "--recipe-out", str(out.parent / f"{out.stem}.json"), "--format", "json", *ALLOW,
         *extra]
    )  # fmt: skip
    assert code == 0


@pytest.fixture(scope="module")
def memory(
    data: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> Callable[[str], tuple[dict[str, Any], Path]]:
    """Return, per case, the in-memory path's JSON summary and release (run once per case)."""
    done: dict[str, tuple[dict[str, Any], Path]] = {}

    def run(case: str) -> tuple[dict[str, Any], Path]:
        if case not in done:
            out = tmp_path_factory.mktemp("memory") / "memory.parquet"
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                _anonymize(data, "pandas", case, out)
            done[case] = (json.loads(printed.getvalue()), out)
        return done[case]

    return run


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("engine", ENGINES)
def test_anonymize_on_the_engine_writes_the_in_memory_release(
    data: dict[str, Any],
    memory: Callable[[str], tuple[dict[str, Any], Path]],
    engine: str,
    case: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    reference, released = memory(case)
    _anonymize(data, engine, case, tmp_path / "engine.parquet")
    got = json.loads(capsys.readouterr().out)
    assert got["engine"] == engine
    assert got["levels"] == reference["levels"]
    assert got["best"]["suppressed"] == reference["best"]["suppressed"]
    if case != "l-diversity, dates":
        assert got["best"]["suppressed"] > 0  # the suppression join is exercised
    assert got["rows_written"] == reference["rows_written"]
    assert _rows(tmp_path / "engine.parquet", COLUMNS) == _rows(released, COLUMNS)
    # the recipe is the in-memory one (the same hierarchies, built on the distinct values)
    a = json.loads((released.parent / "memory.json").read_text())
    b = json.loads((tmp_path / "engine.json").read_text())
    assert a["hierarchies"] == b["hierarchies"] and a["levels"] == b["levels"]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_partitioned_release_holds_the_same_rows(
    data: dict[str, Any],
    memory: Callable[[str], tuple[dict[str, Any], Path]],
    engine: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, released = memory("k with suppression")
    _anonymize(data, engine, "k with suppression", tmp_path / "engine", "--partition-by", "sex")
    capsys.readouterr()
    assert sorted(p.name for p in (tmp_path / "engine").iterdir()) == [
        "sex=F", "sex=M", "sex=__HIVE_DEFAULT_PARTITION__",
    ]  # fmt: skip
    assert _rows(tmp_path / "engine", COLUMNS) == _rows(released, COLUMNS)


@pytest.mark.parametrize("engine", ENGINES)
def test_apply_on_the_engine_reproduces_the_in_memory_apply(
    data: dict[str, Any], engine: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a recipe from the in-memory path, applied to new data holding a ZIP its table lacks
    hierarchy = tmp_path / "zip.csv"
    zips = sorted(set(data["df"]["zip"]))
    hierarchy.write_text("".join(f"{z};{z[:3]}**;*\n" for z in zips))
    _anonymize(data, "pandas", "k with suppression", tmp_path / "first.parquet",
               "--hierarchy", f"zip={hierarchy}", "--levels", "zip=0:2")  # fmt: skip
    capsys.readouterr()
    new = _table(1_500, 12)
    new.loc[:4, "zip"] = "99999"  # unknown to the hierarchy table: made "*"
    folder = _write(new, tmp_path / "new", parts=2)
    one = tmp_path / "new.parquet"
    pq.write_table(_arrow(new), one)
    recipe = str(tmp_path / "first.json")
    args = ["--recipe", recipe, "--format", "json", *ALLOW]
    code_m = main(
        ["apply", str(one), "--engine", "pandas", "--out", str(tmp_path / "m.parquet"), *args]
    )
    memory = json.loads(capsys.readouterr().out)
    code_e = main(
        ["apply", str(folder), "--engine", engine, "--out", str(tmp_path / "e.parquet"), *args]
    )
    got = json.loads(capsys.readouterr().out)
    assert code_e == code_m
    assert got["suppressed"] == memory["suppressed"] > 0
    assert got["within_limit"] == memory["within_limit"]
    assert got["unknown_values"] == {"zip": ["99999"]} == memory["unknown_values"]
    assert got["n_unknown"] == {"zip": 5} == memory["n_unknown"]
    assert _rows(tmp_path / "e.parquet", COLUMNS) == _rows(tmp_path / "m.parquet", COLUMNS)


def test_failing_set_matches_a_set_of_tuples() -> None:
    rng = np.random.default_rng(3)
    cards = [7, 1, 300, 5]
    failing = np.column_stack([rng.integers(0, c, 40) for c in cards])
    records = np.column_stack([rng.integers(0, c, 5_000) for c in cards])
    records[:40] = failing  # every failing tuple occurs
    expected = {tuple(r) for r in failing.tolist()}
    got = FailingSet(failing, cards).hits([records[:, i] for i in range(len(cards))])
    assert got.tolist() == [tuple(r) in expected for r in records.tolist()]
    assert 40 <= got.sum() < 5_000
    empty = FailingSet(np.zeros((0, 4), dtype=np.int64), cards)
    assert not empty.hits([records[:, i] for i in range(4)]).any()


def _error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 2
    return capsys.readouterr().err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--qi", "nope"], "the data have no column 'nope'"),
        (["--qi", "age", "--sensitive", "nope", "--l", "2"], "the data have no column 'nope'"),
        (["--qi", "age", "--safe-harbor"], "--safe-harbor works on each record"),
        (["--qi", "age", "--mask", "zip=drop"], "--mask works on each record"),
        (["--qi", "age", "--noise", "income=1"], "perturbation works on each record"),
    ],
)
def test_bad_anonymize_input_gets_a_sentence(
    data: dict[str, Any], extra: list[str], message: str, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    out = ["--out", str(tmp_path / "o.parquet"), "--recipe-out", str(tmp_path / "r.json")]
    err = _error(capsys, ["anonymize", str(data["folder"]), "--engine", "duckdb", *extra, *out])
    assert message in err, err
    assert not (tmp_path / "o.parquet").exists()


@pytest.mark.parametrize("engine", ["pandas", "arrow"])
@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--qi", "age", "--threshold", "0.2", "--max-risk", "0.1"], "--threshold or --max-risk,"),
        (["--k", "2"], "give the quasi-identifiers: --qi COL"),
        (["--qi", "age", "--l", "2"], "--l and --t need at least one --sensitive column"),
    ],
)
def test_anonymize_inputs_are_checked_alike_in_memory_and_on_an_engine(
    data: dict[str, Any], engine: str, extra: list[str], message: str, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    out = ["--out", str(tmp_path / "o.parquet"), "--recipe-out", str(tmp_path / "r.json")]
    err = _error(capsys, ["anonymize", str(data["one"]), "--engine", engine, *extra, *out])
    assert message in err, err
    assert not (tmp_path / "o.parquet").exists()


def test_bad_sources_and_outputs_get_a_sentence(
    data: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = ["--recipe-out", str(tmp_path / "r.json"), "--qi", "age"]
    out = ["--out", str(tmp_path / "o.parquet")]
    err = _error(
        capsys, ["anonymize", str(tmp_path / "none-*.parquet"), "--engine", "arrow", *out, *rec]
    )
    assert "no file matches" in err
    csv = tmp_path / "t.csv"
    data["df"].to_csv(csv, index=False)
    err = _error(capsys, ["anonymize", str(csv), "--engine", "duckdb", *out, *rec])
    assert "remediates Parquet files" in err
    err = _error(capsys, ["anonymize", str(data["folder"]), "--engine", "arrow",
                          "--out", str(tmp_path / "o.csv"), *rec])  # fmt: skip
    assert "the engines write Parquet" in err
    full = tmp_path / "full"
    full.mkdir()
    (full / "x").write_text("x")
    err = _error(capsys, ["anonymize", str(data["folder"]), "--engine", "arrow", "--out",
                          str(full), "--partition-by", "sex", *rec])  # fmt: skip
    assert "new or empty directory" in err
    err = _error(capsys, ["anonymize", str(data["folder"]), "--engine", "arrow", "--out",
                          str(tmp_path / "d"), "--partition-by", "nope", *rec])  # fmt: skip
    assert "--partition-by 'nope'" in err
    err = _error(capsys, ["anonymize", str(data["one"]), "--engine", "pandas", *out, *rec,
                          "--partition-by", "sex"])  # fmt: skip
    assert "--partition-by and --memory-limit apply to --engine arrow" in err
    assert not (tmp_path / "o.parquet").exists() and not (tmp_path / "r.json").exists()


def test_apply_refuses_a_recipe_with_steps_on_each_record(
    data: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recipe = tmp_path / "r.json"
    argv = ["anonymize", str(data["one"]), "--qi", "age", "--k", "2", "--mask", "zip=drop",
            "--out", str(tmp_path / "m.parquet"), "--recipe-out", str(recipe),
            *ALLOW[2:]]  # fmt: skip
    assert main(argv) == 0
    capsys.readouterr()
    err = _error(capsys, ["apply", str(data["folder"]), "--engine", "arrow", "--recipe",
                          str(recipe), "--out", str(tmp_path / "e.parquet")])  # fmt: skip
    assert "masking of 'zip'" in err and "--engine pandas" in err


def test_source_table_holds_no_rows(data: dict[str, Any]) -> None:
    table = SourceTable(data["folder"], "arrow")
    assert table.n_records == len(data["df"]) and table.columns == tuple(data["df"].columns)
    with pytest.raises(RiskcoreError, match="needs each record, which the arrow engine"):
        table.record_classes(["age"])
    assert table.arrow_type("visits") == pa.int16()
    values = table.distinct("visits")  # whole numbers with a missing value: float, as loaded
    assert values.dtype == np.float64 and not values.isna().any()
    assert sorted(values) == list(range(12))


@pytest.mark.spark
def test_spark_writes_the_in_memory_release(
    data: dict[str, Any],
    memory: Callable[[str], tuple[dict[str, Any], Path]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for case in ("k with suppression", "missing any, mask"):
        reference, released = memory(case)
        _anonymize(data, "spark", case, tmp_path / f"{len(case)}.parquet")
        got = json.loads(capsys.readouterr().out)
        assert got["levels"] == reference["levels"] and got["best"]["suppressed"] > 0
        assert _rows(tmp_path / f"{len(case)}.parquet", COLUMNS) == _rows(released, COLUMNS)
    _, released = memory("k with suppression")
    _anonymize(data, "spark", "k with suppression", tmp_path / "part", "--partition-by", "sex")
    capsys.readouterr()
    assert _rows(tmp_path / "part", COLUMNS) == _rows(released, COLUMNS)
    recipe = str(released.parent / "memory.json")
    code = main(["apply", str(data["folder"]), "--engine", "spark", "--recipe", recipe,
                 "--out", str(tmp_path / "a.parquet"), *ALLOW])  # fmt: skip
    capsys.readouterr()
    assert code == 0
    assert _rows(tmp_path / "a.parquet", COLUMNS) == _rows(released, COLUMNS)
