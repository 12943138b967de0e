"""The table of hostile and careless files of issue 17, shared by the app and CLI suites.

Every file is built in memory by the test that uses it (nothing hostile is kept in the
repository); the loader-level builders are reused. A case is either refused with a
message matching :attr:`Case.error`, or loads to :attr:`Case.shape` with :attr:`Case.check`
holding on the first rows shown, and with the CLI's figures :attr:`Case.cli` for
``assess --qi`` :attr:`Case.qi`.
"""

from __future__ import annotations

import csv
import gzip
import io
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import pandas as pd

from tests.file_builders import (
    NAMES,
    ODD_NAMES,
    billion_laughs,
    distinct,
    nested_parquet,
    odd_names_csv,
    repeat,
    sheet,
    wide,
    workbook,
)


@dataclass(frozen=True)
class Case:
    """One hostile file and what must come of it."""

    name: str
    file: str
    make: Callable[[], bytes]
    error: str | None = None  # a regex of the message, when the file is refused
    shape: tuple[int, int] | None = None  # (rows, columns), when it loads
    check: Callable[[pd.DataFrame], None] | None = None  # on the first 100 rows shown
    qi: tuple[str, ...] = ()
    sensitive: tuple[str, ...] = ()
    cli: dict[str, object] = field(default_factory=dict)  # figures of assess --format json


def same_characters(got: list, want: list[str]) -> None:
    """Assert two lists of text are equal code point by code point (a clearer failure)."""
    assert len(got) == len(want), (got, want)
    for g, w in zip(got, want, strict=True):
        assert [hex(ord(c)) for c in str(g)] == [hex(ord(c)) for c in w], (w, g)


def _names_csv(encoding: str) -> Callable[[], bytes]:
    names = _names(encoding)
    return lambda: ("name,n\n" + "".join(f"{x},{i}\n" for i, x in enumerate(names))).encode(
        encoding
    )


def _names(encoding: str) -> list[str]:
    return NAMES + ([] if encoding == "latin-1" else ["€"])  # latin-1 has no euro sign


def _names_case(encoding: str, note: str) -> Case:
    names = _names(encoding)
    return Case(
        f"{encoding} names{note}",
        f"names-{encoding}.csv",
        _names_csv(encoding),
        shape=(len(names), 2),
        check=lambda d: same_characters(list(d["name"]), names),
        qi=("name",),
        cli={"n_records": len(names), "k": 1, "unique_records": len(names)},
    )


def _column(name: str, values: list) -> Callable[[pd.DataFrame], None]:
    def check(d: pd.DataFrame) -> None:
        got = [None if pd.isna(v) else v for v in d[name].tolist()]
        assert got == values, (name, got)

    return check


def _check_duplicates(d: pd.DataFrame) -> None:
    assert list(d.columns) == ["age", "age (2)", "sex"]
    _column("age", [1, 3])(d)
    _column("age (2)", [2, 2])(d)


def _big_field() -> bytes:
    return b'a,b\n1,"' + b"x" * 50_000_000 + b'"\n2,short\n'


def _check_big_field(d: pd.DataFrame) -> None:
    assert len(d["b"].iloc[0]) == 50_000_000 and set(d["b"].iloc[0][:1000]) == {"x"}
    assert d["b"].iloc[1] == "short" and d["a"].tolist() == [1, 2]


def _check_distinct(d: pd.DataFrame) -> None:
    assert d["id"].tolist() == [f"p{i}" for i in range(100)]
    assert d["sex"].tolist() == ["F", "M"] * 50


def _check_odd_names(d: pd.DataFrame) -> None:
    same_characters(list(d.columns), ODD_NAMES)
    assert d.iloc[0].tolist() == [f"v{i}" for i in range(len(ODD_NAMES))]


def _ragged(where: str) -> bytes:
    rows = ["1,2,3", "4,5,6", "7,8,9"]
    i = {"first": 0, "middle": 1, "last": 2}[where]
    rows[i] += ",extra"
    return ("a,b,c\n" + "\n".join(rows) + "\n").encode()


def _mixed() -> bytes:
    return b"v,sex\n1,F\n2.5,M\nabc,F\n,M\n2024-01-02,F\nTRUE,M\n"


def _zip_bomb() -> bytes:
    return workbook(sheet(repeat(b"<row/>", 15_000_000)))  # 90 MB of XML in ~130 KB


CASES: list[Case] = [
    Case("empty", "empty.csv", lambda: b"", error=r"empty\.csv is empty"),
    Case("header only", "header.csv", lambda: b"a,b\n", error=r"header but no data rows"),
    Case(
        "one column",
        "one.csv",
        lambda: b"only\n1\n2\n1\n",
        shape=(3, 1),
        check=_column("only", [1, 2, 1]),
        qi=("only",),
        cli={"n_records": 3, "n_classes": 2, "k": 1, "unique_records": 1},
    ),
    Case(
        "duplicate names",
        "dup.csv",
        lambda: b"age,age,sex\n1,2,F\n3,2,M\n",
        shape=(2, 3),
        check=_check_duplicates,
        qi=("age (2)",),
        cli={"n_records": 2, "n_classes": 1, "k": 2, "unique_records": 0},
    ),
    *(
        Case(f"ragged {w} row", f"ragged-{w}.csv", (lambda w=w: _ragged(w)), error=e)
        for w, e in (
            ("first", r"line 2 has 4 fields, the header has 3"),
            ("middle", r"line 3 has 4 fields, the header has 3"),
            ("last", r"line 4 has 4 fields, the header has 3"),
        )
    ),
    Case(
        "short middle row",
        "short.csv",
        lambda: b"a,b,c\n1,2,3\n4,5\n7,8,9\n",
        shape=(3, 3),
        check=_column("c", [3, None, 9]),
        qi=("c",),
        cli={"n_records": 3, "n_classes": 3, "k": 1, "unique_records": 3},
    ),
    _names_case("latin-1", ""),
    _names_case("cp1252", ""),
    _names_case("utf-16", " (its byte-order mark)"),
    _names_case("utf-8-sig", " (UTF-8 with a byte-order mark)"),
    Case(
        "binary garbage",
        "garbage.csv",
        lambda: bytes(range(256)) * 400,
        error=r"binary data \(NUL bytes\)",
    ),
    Case(
        "gzip bomb",
        "bomb.csv",
        lambda: gzip.compress(b"\x00" * 100_000_000),
        error=r"gzip-compressed file.*refused",
    ),
    Case("zip bomb (.xlsx)", "bomb.xlsx", _zip_bomb, error=r"unpacks from .* KB to 90 MB"),
    Case("billion laughs (.xlsx)", "lol.xlsx", billion_laughs, error=r"cannot be read"),
    Case(
        "nested Parquet columns",
        "nested.parquet",
        nested_parquet,
        error=r"the column 'tags' holds nested values \(list<.*\) and 2 other nested column",
    ),
    Case(
        "100,000 columns",
        "wide.csv",
        lambda: wide(100_000),
        error=r"has 100,000 columns, above the limit",
    ),
    Case(
        "a 50 MB field",
        "field.csv",
        _big_field,
        shape=(2, 2),
        check=_check_big_field,
        qi=("a",),
        cli={"n_records": 2, "n_classes": 2, "k": 1, "unique_records": 2},
    ),
    Case(
        "all-missing QI",
        "missing.csv",
        lambda: b"a,b\n1,\n2,NA\n3,?\n",
        shape=(3, 2),
        check=_column("b", [None, None, None]),
        qi=("b",),
        # missing is one more value: the three records form one class
        cli={"n_records": 3, "n_classes": 1, "k": 3, "unique_records": 0},
    ),
    Case(
        "one-valued sensitive column",
        "flu.csv",
        lambda: b"sex,dx\nF,flu\nM,flu\nF,flu\n",
        shape=(3, 2),
        check=_column("dx", ["flu"] * 3),
        qi=("sex",),
        sensitive=("dx",),
        # every class holds one diagnosis: distinct l = 1, each class homogeneous
        cli={"n_records": 3, "n_classes": 2, "k": 1, "distinct_l": 1, "homogeneous_classes": 2},
    ),
    Case(
        "1,000,000 distinct values",
        "distinct.csv",
        lambda: distinct(1_000_000),
        shape=(1_000_000, 2),
        check=_check_distinct,
        qi=("id",),
        cli={"n_records": 1_000_000, "n_classes": 1_000_000, "k": 1, "unique_records": 1_000_000},
    ),
    Case(
        "mixed types",
        "mixed.csv",
        _mixed,
        shape=(6, 2),
        check=_column("v", ["1", "2.5", "abc", None, "2024-01-02", "TRUE"]),
        qi=("v",),
        # the missing value is one more value: six classes of one
        cli={"n_records": 6, "n_classes": 6, "k": 1, "unique_records": 6},
    ),
    Case(
        "HTML, script, newline, emoji names",
        "odd.csv",
        odd_names_csv,
        shape=(1, len(ODD_NAMES)),
        check=_check_odd_names,
        qi=(ODD_NAMES[0], ODD_NAMES[3], ODD_NAMES[5]),
        cli={"n_records": 1, "n_classes": 1, "k": 1, "unique_records": 1},
    ),
]
BY_NAME = {c.name: c for c in CASES}


def rss_mb() -> float:
    """Return this process's resident set size in MB (Linux ``/proc/self/statm``)."""
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


@contextmanager
def bounded(seconds: float, mb: float) -> Iterator[dict[str, float]]:
    """Measure the block's time and its peak RSS growth (sampled every 20 ms); assert the
    bounds. Yields the figures {"seconds", "mb"}, filled when the block ends."""
    figures: dict[str, float] = {}
    base = peak = rss_mb()
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.wait(0.02):
            peak = max(peak, rss_mb())

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    t0 = time.perf_counter()
    try:
        yield figures
    finally:
        figures["seconds"] = time.perf_counter() - t0
        done.set()
        sampler.join()
        figures["mb"] = max(peak, rss_mb()) - base
    assert figures["seconds"] < seconds, f"took {figures['seconds']:.1f} s (bound {seconds} s)"
    assert figures["mb"] < mb, f"RSS grew by {figures['mb']:.0f} MB (bound {mb} MB)"


def csv_bytes(rows: list[list[object]]) -> bytes:
    """Return ``rows`` (the header first) as UTF-8 CSV bytes."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue().encode()
