"""``riskcore assess`` without pandas (issue 28, item 6): the Arrow path gives the pandas figures.

A CSV file that ``--engine auto`` keeps in memory is read by ``load_arrow`` and assessed on
an :class:`~riskcore.engine.columnar.ArrowTable` (pyarrow and numpy only). Every figure,
the verdict and both output formats must be those of the pandas engine (``--engine pandas``:
``load_table`` and :class:`~riskcore.engine.EncodedTable`) on tables with missing values,
ties, leading zeros, numeric-looking text, a single class and all-unique records; a fresh
process running the command must end without pandas in ``sys.modules``; the options that
need each record (``--weights``) and the other formats (Parquet, .xlsx, the demo) keep the
pandas engine.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from riskcore.cli import main
from riskcore.cli.assess import assess_engine as _assess_engine
from riskcore.cli.entry import build_parser as _build_parser
from riskcore.engine import EncodedTable, encode_column
from riskcore.engine.columnar import ArrowTable, encode_arrow
from riskcore.io import load_arrow, load_table
from riskcore.metrics import Population, assess

ROOT = Path(__file__).resolve().parents[2]

# name -> (CSV text, QIs, sensitive attributes)
TABLES: dict[str, tuple[str, list[str], list[str]]] = {
    # missing QI and sensitive values (empty cell, "?", "NA"), an integer column with a
    # missing value (floats to pandas), a float sensitive attribute with one
    "missing": (
        "age,sex,zip,income,score\n"
        "30,F,02139,high,1.5\n"
        ",F,02139,low,\n"
        "30,?,02139,high,2.5\n"
        "40,M,NA,low,1.5\n"
        "40,M,02140,,3.0\n"
        "30,F,02139,low,2.5\n"
        "40,M,02140,high,1.5\n",
        ["age", "sex", "zip"],
        ["income", "score"],
    ),
    # ties: three classes of 2, values appearing in another order than sorted
    "ties": (
        "b,a,s\nz,2,y\nz,2,x\ny,1,x\ny,1,x\nx,3,y\nx,3,y\n",
        ["b", "a"],
        ["s"],
    ),
    # leading zeros (kept as text) and numeric-looking text (a column named code, a column
    # of numbers with one word in it, whole numbers of 16 digits)
    "text": (
        "zip,code,mixed,long,dx\n"
        "02139,10,5,1234567890123456,a\n"
        "02139,10,7,1234567890123457,b\n"
        "00501,2,5,1234567890123456,a\n"
        "00501,2,n/k,1234567890123458,c\n"
        "02139,10,7,1234567890123456,a\n",
        ["zip", "code", "mixed"],
        ["dx", "long"],
    ),
    # one class holding every record
    "single": (
        "q,r,s,t\n1,a,x,5\n1,a,y,6\n1,a,x,7\n1,a,z,5\n",
        ["q", "r"],
        ["s", "t"],
    ),
    # every record unique
    "unique": (
        "id_no,age,s\n1,21,a\n2,22,b\n3,23,a\n4,24,b\n5,25,c\n",
        ["age"],
        ["s"],
    ),
    # odd files: a short row (read by pandas' reader), quoted values with the delimiter,
    # a column the assessment does not read holding a byte that is not UTF-8 (cp1252: the
    # whole file is then decoded as cp1252, the columns read included)
    "ragged": (
        "a,b,c,s\n1,x,u,p\n1,x\n2,y,v,q\n1,x,w,p\n",
        ["a", "b"],
        ["s", "c"],
    ),
    "quoted": (
        'a,b,s,z\n"1,5",x,p,1\n"1,5",x,q,2\n2,"y ""z""",p,3\n',
        ["a", "b"],
        ["s"],
    ),
    # ("\u00c3\u00a9" is the bytes C3 A9 in cp1252: valid UTF-8 for "\u00e9", so only the
    # unread column says the file is cp1252)
    "cp1252": (
        "a,b,note,s\n\u00c3\u00a9,1,r\u00e9sum\u00e9,p\n\u00c3\u00a9,1,x,q\nT,2,y,p\n",
        ["a", "b"],
        ["s"],
    ),
}


@pytest.fixture(params=sorted(TABLES))
def table(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, list[str], list[str]]:
    text, qis, sens = TABLES[request.param]
    path = tmp_path / f"{request.param}.csv"
    path.write_text(text, encoding="cp1252" if request.param == "cp1252" else "utf-8")
    return path, qis, sens


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def test_encode_arrow_hand_worked() -> None:
    import pyarrow as pa

    text = encode_arrow("s", pa.array(["b", "a", None, "b"]))
    assert text.codes.tolist() == [0, 1, 2, 0]  # first appearance, missing last
    assert text.labels.tolist() == ["b", "a", None]
    assert (text.ordered, text.n_missing) == (False, 1)
    ints = encode_arrow("n", pa.array([3, None, 1, 3]))
    assert ints.codes.tolist() == [1, 2, 0, 1]  # value order; the missing value last
    assert ints.labels.tolist() == [1.0, 3.0, None]  # floats, as pandas converts the column
    assert ints.ordered
    cat = encode_arrow("c", pa.array(["u", "v", "u", None]).dictionary_encode())
    assert cat.codes.tolist() == [0, 1, 0, 2]
    assert cat.labels.tolist() == ["u", "v", None]
    # a dictionary entry no record uses is dropped (as from a Categorical's categories)
    unused = pa.DictionaryArray.from_arrays(pa.array([2, 0, 2]), pa.array(["p", "q", "r"]))
    enc = encode_arrow("u", unused)
    assert enc.codes.tolist() == [1, 0, 1]
    assert enc.labels.tolist() == ["p", "r"]
    nan = encode_arrow("f", pa.array([2.0, float("nan"), None, 0.5]))
    assert nan.codes.tolist() == [1, 2, 2, 0]  # NaN and null: one missing value
    assert nan.labels.tolist() == [0.5, 2.0, None]
    assert nan.n_missing == 2


def test_columns_are_encoded_as_the_pandas_engine_encodes_them(table) -> None:
    path, qis, sens = table
    arrow = load_arrow(path)
    frame = load_table(path).data
    assert arrow.column_names == list(frame.columns)
    some = load_arrow(path, columns=[*sens, *qis, "not there"])  # only these, in file order
    assert some.column_names == [c for c in frame.columns if c in {*qis, *sens}]
    for name in some.column_names:
        assert some.column(name).equals(arrow.column(name)), name
    for name in frame.columns:
        for ordered in (None, True, False):
            got = encode_arrow(name, arrow.column(name), ordered=ordered)
            want = encode_column(frame[name], ordered=ordered)
            assert got.codes.tolist() == want.codes.tolist(), (name, ordered)
            assert [type(v) for v in got.labels] == [type(v) for v in want.labels], name
            assert list(got.labels) == list(want.labels), (name, ordered)
            assert (got.ordered, got.n_missing) == (want.ordered, want.n_missing), name


@pytest.mark.parametrize("missing", ["own", "any"])
def test_assessment_equals_the_pandas_engine(table, missing: str) -> None:
    path, qis, sens = table
    kwargs = dict(
        quasi_identifiers=qis,
        sensitive=sens,
        missing=missing,
        population_model=Population(sampling_fraction=0.5),
    )
    fast = assess(ArrowTable(load_arrow(path)), **kwargs)
    slow = assess(EncodedTable(load_table(path).data), **kwargs)
    assert fast.to_dict() == slow.to_dict()
    assert fast.evidence is not None and slow.evidence is not None


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_cli_output_equals_the_pandas_engine(table, fmt: str, tmp_path: Path) -> None:
    path, qis, sens = table
    argv = ["assess", str(path), "--format", fmt, "--k", "2", "--l", "2", "--t", "0.5"]
    for q in qis:
        argv += ["--qi", q]
    for s in sens:
        argv += ["--sensitive", s]
    fast = _run([*argv, "--profile-out", str(tmp_path / "fast.json")])
    slow = _run([*argv, "--engine", "pandas", "--profile-out", str(tmp_path / "slow.json")])
    assert fast == slow
    assert fast[0] == 0 and fast[1]
    if fmt == "json":
        assert json.loads(fast[1])["k"] >= 1
    assert (tmp_path / "fast.json").read_text() == (tmp_path / "slow.json").read_text()


def test_ordered_text_and_a_larger_file_equal_the_pandas_engine(tmp_path: Path) -> None:
    """A file over 2 MB (the parser dictionary-encodes its repetitive columns) and --order."""
    rng = np.random.default_rng(7)
    n = 60_000
    frame = pd.DataFrame(
        {
            "age": rng.integers(18, 90, n),
            "zip": [f"{z:05d}" for z in rng.integers(0, 3000, n)],
            "sex": rng.choice(["F", "M", ""], n, p=[0.49, 0.49, 0.02]),
            "grade": rng.choice(["low", "mid", "high"], n),
            "note": [f"free text number {i} " * 2 for i in rng.integers(0, 10**6, n)],
            "weight": rng.normal(70, 12, n).round(1),
        }
    )
    path = tmp_path / "big.csv"
    frame.to_csv(path, index=False)
    assert path.stat().st_size > 2 << 20
    argv = ["assess", str(path), "--qi", "age", "--qi", "zip", "--qi", "sex"]
    argv += ["--sensitive", "grade", "--sensitive", "weight", "--order", "grade=low,mid,high"]
    argv += ["--format", "json", "--missing", "any"]
    fast, slow = _run(argv), _run([*argv, "--engine", "pandas"])
    assert fast == slow
    got = json.loads(fast[1])
    assert got["sensitive"]["grade"]["distance"] == "ordered"
    assert got["sensitive"]["weight"]["distance"] == "ordered"


def test_a_byte_not_utf8_in_a_column_not_read_still_decodes_the_file_as_cp1252(
    tmp_path: Path,
) -> None:
    """Past the first megabyte (which the encoding rule reads), in a column left unconverted."""
    rows = "T,2,y,p\n" * 150_000 + "\u00c3\u00a9,1,r\u00e9sum\u00e9,p\n"
    path = tmp_path / "late.csv"
    path.write_bytes(("a,b,note,s\n" + rows).encode("cp1252"))
    assert path.stat().st_size > 1 << 20
    some = load_arrow(path, columns=["a", "s"])
    assert some.column("a")[-1].as_py() == "\u00c3\u00a9"  # cp1252, as load_table reads it
    assert load_table(path).data["a"].iloc[-1] == "\u00c3\u00a9"


def _engine_for(argv: list[str]) -> str:
    args = _build_parser("assess").parse_args(argv)
    weights = args.weights is not None
    return type(_assess_engine(args, weights=weights)).__name__


def test_only_what_needs_pandas_falls_back_to_it(tmp_path: Path) -> None:
    csv = tmp_path / "t.csv"
    csv.write_text("a,b,w\n1,x,2\n2,y,3\n", encoding="utf-8")
    parquet = tmp_path / "t.parquet"
    pd.read_csv(csv).to_parquet(parquet)
    xlsx = tmp_path / "t.xlsx"
    pd.read_csv(csv).to_excel(xlsx, index=False)
    assert _engine_for(["assess", str(csv), "--qi", "a"]) == "ArrowTable"
    assert _engine_for(["assess", str(csv), "--qi", "a", "--engine", "pandas"]) == "EncodedTable"
    assert _engine_for(["assess", str(csv), "--qi", "a", "--weights", "w"]) == "EncodedTable"
    assert _engine_for(["assess", str(parquet), "--qi", "a"]) == "EncodedTable"
    assert _engine_for(["assess", str(xlsx), "--qi", "a"]) == "EncodedTable"
    assert _engine_for(["assess", "demo:100", "--qi", "age"]) == "EncodedTable"
    # the same figures through the fallback
    for path in (parquet, xlsx):
        base = ["assess", str(path), "--qi", "a", "--sensitive", "b", "--format", "json"]
        assert _run(base) == _run(["assess", str(csv), *base[2:]])


def test_a_bad_csv_gets_the_loaders_message(tmp_path: Path) -> None:
    path = tmp_path / "empty.csv"
    path.write_text("a,b\n", encoding="utf-8")
    code, out, err = _run(["assess", str(path), "--qi", "a"])
    assert (code, out) == (2, "")
    assert err == "error: empty.csv has a header but no data rows\n"
    code, _, err = _run(["assess", str(tmp_path / "nope.csv"), "--qi", "a"])
    assert code == 2 and err.startswith("error: ") and "nope.csv" in err


def _modules_after(argv: list[str], tmp_path: Path) -> tuple[str, bool]:
    """Run the command line in a fresh process; return its output and whether pandas loaded."""
    code = (
        "import sys\n"
        "from riskcore.cli import main\n"
        f"code = main({argv!r})\n"
        "print('PANDAS', 'pandas' in sys.modules)\n"
        "raise SystemExit(code)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    text, _, flag = out.stdout.rpartition("PANDAS ")
    return text, flag.strip() == "True"


def test_assess_never_imports_pandas(tmp_path: Path) -> None:
    text, qis, sens = TABLES["missing"]
    path = tmp_path / "m.csv"
    path.write_text(text, encoding="utf-8")
    profile = tmp_path / "p.json"
    argv = ["assess", str(path), "--qi", "age", "--sensitive", "income", "--k", "2"]
    assert _run([*argv, "--profile-out", str(profile)])[0] == 0  # read back below
    argv = ["assess", str(path), "--format", "json", "--sampling-fraction", "0.5"]
    argv += ["--missing", "any", "--order", "income=low,high", "--l", "2", "--t", "0.4"]
    argv += ["--profile", str(profile), "--profile-out", str(tmp_path / "q.json")]
    for q in qis:
        argv += ["--qi", q]
    for s in sens:
        argv += ["--sensitive", s]
    out, loaded = _modules_after(argv, tmp_path)
    assert not loaded
    assert json.loads(out)["n_records"] == 7
    assert (tmp_path / "q.json").is_file()
    weighted = tmp_path / "w.csv"
    weighted.write_text("a,w\n1,2\n1,3\n2,4\n", encoding="utf-8")
    out, loaded = _modules_after(["assess", str(weighted), "--qi", "a", "--weights", "w"], tmp_path)
    assert loaded  # the fallback: sampling weights need each record's class
    assert "Journalist risk" in out
