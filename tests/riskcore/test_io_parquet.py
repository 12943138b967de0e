"""Parquet through pyarrow, fingerprints, and the LoadedTable / LoadInfo pair."""

from __future__ import annotations

import hashlib
import io

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from riskcore.errors import DataLoadError
from riskcore.io import LoadedTable, LoadInfo, fingerprint, load_table


def _parquet(table: pa.Table, **kwargs: object) -> bytes:
    buf = io.BytesIO()
    pq.write_table(table, buf, **kwargs)
    return buf.getvalue()


def test_dictionary_encoded_text_is_read_as_categorical():
    n = 20_000
    dx = [("flu", "cold", None, "asthma")[i % 4] for i in range(n)]
    table = pa.table(
        {
            "dx": pa.array(dx, type=pa.string()),  # plain strings, dictionary pages on disk
            "pid": pa.array([f"P{i:07d}" for i in range(n)]),  # all distinct
            "zip": pa.array([("02139", "10001")[i % 2] for i in range(n)]),
            "age": pa.array([i % 90 for i in range(n)], type=pa.int64()),
        }
    )
    t = load_table(_parquet(table, row_group_size=5_000), name="d.parquet")
    d = t.data
    assert isinstance(d["dx"].dtype, pd.CategoricalDtype)
    assert d["dx"].astype(object).where(d["dx"].notna(), None).tolist() == dx
    assert not isinstance(d["pid"].dtype, pd.CategoricalDtype)
    assert d["pid"].iloc[12_345] == "P0012345"
    assert d["zip"].iloc[0] == "02139"  # leading zero from the stored text
    assert d["age"].dtype.kind == "i"
    assert t.missing == {"dx": n // 4, "pid": 0, "zip": 0, "age": 0}
    assert t.file_format == "parquet" and t.info.n_rows == n


def test_pandas_categorical_round_trips():
    df = pd.DataFrame({"sex": pd.Categorical(["F", "M", "F"]), "age": [30, 40, 50]})
    buf = io.BytesIO()
    df.to_parquet(buf)
    t = load_table(buf.getvalue(), name="c.parquet")
    assert isinstance(t.data["sex"].dtype, pd.CategoricalDtype)
    assert list(t.data["sex"]) == ["F", "M", "F"]


def test_fingerprint_is_sha256_of_the_bytes():
    # the FIPS 180-2 test vector for "abc"
    assert fingerprint(b"abc") == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )
    raw = b"a,b\n1,2\n"
    assert load_table(raw).fingerprint == hashlib.sha256(raw).hexdigest()
    with pytest.raises(TypeError, match=r"raw must be bytes"):
        fingerprint("abc")  # type: ignore[arg-type]


def test_same_fingerprint_from_a_path_and_from_bytes(tmp_path):
    raw = b"x;y\n1;a\n2;b\n"
    path = tmp_path / "f.csv"
    path.write_bytes(raw)
    assert load_table(path).fingerprint == load_table(raw).fingerprint


def test_loaded_table_from_frame_counts_missing_values():
    df = pd.DataFrame({"a": [1.0, None, 3.0], "b": ["x", None, None]}, index=[5, 6, 7])
    t = LoadedTable.from_frame(df, name="gen", file_format="demo", notes=("made up",))
    assert list(t.data.index) == [0, 1, 2]
    assert t.missing == {"a": 1, "b": 2} and t.info.n_missing == 3
    assert (t.n_rows, t.n_columns) == (3, 2)
    assert t.name == "gen" and t.notes == ("made up",) and t.fingerprint is None
    assert LoadInfo.from_dict(t.to_dict()) == t.info
    with pytest.raises(TypeError, match=r"pandas DataFrame"):
        LoadedTable.from_frame([1, 2], name="x", file_format="demo")  # type: ignore[arg-type]


def test_wrong_argument_types():
    with pytest.raises(TypeError, match=r"limits must be a LoadLimits"):
        load_table(b"a\n1\n", limits={"max_rows": 5})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"name must be a string"):
        load_table(b"a\n1\n", name=3)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("column", "kind"),
    [
        (pa.array([[1, 2], [3]]), "list<"),
        (pa.array([{"zip": "02139"}, {"zip": "10001"}]), "struct<"),
        (pa.array([[("k", 1)], [("k", 2)]], type=pa.map_(pa.string(), pa.int64())), "map<"),
    ],
    ids=["list", "struct", "map"],
)
def test_a_nested_column_is_refused_at_load_with_a_sentence(column, kind):
    # issue 37: a nested column loaded, then assess ended in "unhashable type: 'list'"
    raw = _parquet(pa.table({"age": [30, 40], "nested": column}))
    with pytest.raises(DataLoadError, match=rf"n\.parquet: the column 'nested' holds nested "
                       rf"values \({kind}.*flatten them"):  # fmt: skip
        load_table(raw, name="n.parquet")
