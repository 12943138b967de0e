"""AppTest: "assess a large file by path" is off by default; when on it gives riskcore's numbers."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from riskcore.demo import make_people
from riskcore.metrics import assess
from riskcore.report.summary import assessment_text
from tests.app.helpers import run, seen

LABEL = "Assess a large file by path (on this server)"


def test_the_panel_is_off_without_a_data_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RISKCORE_DATA_ROOT", raising=False)
    at = run("pages/data.py")
    assert LABEL not in [e.label for e in at.expander]


def test_a_file_in_the_data_directory_is_assessed_where_it_lies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    df = make_people(5_000, seed=3)
    lake = tmp_path / "lake"
    lake.mkdir()
    for i, part in enumerate((df.iloc[:2_000], df.iloc[2_000:])):
        pq.write_table(pa.Table.from_pandas(part, preserve_index=False), lake / f"p{i}.parquet")
    monkeypatch.setenv("RISKCORE_DATA_ROOT", str(tmp_path))
    at = run("pages/data.py")
    assert LABEL in [e.label for e in at.expander]
    at.text_input(key="rc_large_path").input("lake/*.parquet").run()
    assert not at.exception and not at.error
    assert any(
        "5,000 records" in seen(c.value) and "arrow engine" in seen(c.value) for c in at.caption
    ), [c.value for c in at.caption]
    at.multiselect(key="rc_large_qis").set_value(["age", "sex", "zip"]).run()
    at.multiselect(key="rc_large_sens").set_value(["diagnosis"]).run()
    at.button(key="rc_large_go").click().run()
    assert not at.exception and not at.error
    want = assess(df, quasi_identifiers=["age", "sex", "zip"], sensitive=["diagnosis"])
    shown = at.code[-1].value
    assert f"k = {want.k} " in shown
    assert f"equivalence classes: {want.n_classes:,}" in shown
    assert shown.splitlines()[:2] == assessment_text(want).splitlines()[:2]


def test_a_path_outside_the_data_directory_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "data").mkdir()
    monkeypatch.setenv("RISKCORE_DATA_ROOT", str(tmp_path / "data"))
    at = run("pages/data.py")
    at.text_input(key="rc_large_path").input("../../etc/passwd").run()
    assert not at.exception
    assert any("names no file in the data directory" in seen(e.value) for e in at.error)
    assert all(m.key != "rc_large_qis" for m in at.multiselect)
