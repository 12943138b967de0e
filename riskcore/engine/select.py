"""Choosing an engine for a data source: ``--engine auto|pandas|arrow|duckdb|spark``.

========  =================================================================
engine    when
========  =================================================================
pandas    the table fits in memory: loaded by :func:`riskcore.io.load_table`
          (every loader check), then :class:`~riskcore.engine.EncodedTable`;
          the only engine that answers per-record questions (SUDA, record
          risk); remediation runs on every engine
          (:mod:`riskcore.deidentify.on_engine`).
arrow     Parquet files, directories or globs streamed by pyarrow in
          bounded memory (:class:`~riskcore.engine.arrow.ArrowEngine`).
duckdb    Parquet or CSV, out of core, in DuckDB (optional extra).
spark     Parquet or CSV in a lake, through PySpark (optional extra, Java).
========  =================================================================

``auto`` keeps one file under :data:`AUTO_MEMORY_BYTES` in memory and
streams anything larger, or any directory or glob: Parquet with ``arrow``,
CSV with ``duckdb`` when it is installed.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore._lazy import is_frame
from riskcore.engine.contract import Engine
from riskcore.engine.grouped import CSV_SUFFIXES
from riskcore.engine.memory import EncodedTable
from riskcore.errors import RiskcoreError

__all__ = [
    "AUTO_MEMORY_BYTES",
    "DATA_ROOT_MAX_FILES",
    "ENGINES",
    "SUPPORTED_ENGINES",
    "check_supported",
    "distinct_values",
    "open_engine",
    "path_under_root",
    "resolve_engine",
]

#: The engine names the CLI accepts.
ENGINES = ("auto", "pandas", "arrow", "duckdb", "spark")

#: Which engines each figure runs on. Class-based figures need only the
#: contract's tables (class sizes and class x value counts), which every
#: engine returns; per-record questions need each record, which only the
#: in-memory engine holds.
SUPPORTED_ENGINES: dict[str, tuple[str, ...]] = {
    "assess": ("pandas", "arrow", "duckdb", "spark"),
    "uniqueness by QI subset": ("pandas", "arrow", "duckdb", "spark"),
    "linkage candidate counts": ("pandas", "arrow", "duckdb", "spark"),
    "sampling weights": ("pandas",),
    "records": ("pandas",),
    "SUDA": ("pandas",),
    "record explorer": ("pandas",),
    "anonymize": ("pandas", "arrow", "duckdb", "spark"),
    "apply": ("pandas", "arrow", "duckdb", "spark"),
    "report": ("pandas",),
}


def check_supported(what: str, engine: str) -> None:
    """Raise a plain error when ``engine`` cannot compute ``what`` (``auto`` always can).

    Parameters
    ----------
    what : str
        A key of :data:`SUPPORTED_ENGINES` (a command or figure).
    engine : str
        An engine name, or ``auto``.

    Raises
    ------
    RiskcoreError
        Naming the engines that can, and why.
    """
    allowed = SUPPORTED_ENGINES[what]
    if engine == "auto" or engine in allowed:
        return
    raise RiskcoreError(
        f"{what} needs each record, which only the {' / '.join(allowed)} engine holds; "
        f"the {engine} engine returns class counts only (they give riskcore assess)"
    )


#: ``auto`` loads a single file up to this size into memory (1 GiB).
AUTO_MEMORY_BYTES = 1 << 30


def _is_many(spec: str) -> bool:
    return any(ch in spec for ch in "*?[") or os.path.isdir(spec)


def resolve_engine(spec: str, engine: str = "auto") -> str:
    """Return the engine that will read ``spec`` ("pandas", "arrow", "duckdb" or "spark").

    Parameters
    ----------
    spec : str
        A file, a directory, a glob, or demo data (``demo``, ``claims``, ``:N``).
    engine : str
        One of :data:`ENGINES`.

    Returns
    -------
    str

    Raises
    ------
    RiskcoreError
        For an unknown engine name, or one that cannot read the source.
    """
    if engine not in ENGINES:
        raise RiskcoreError(f"unknown engine {engine!r}: one of {', '.join(ENGINES)}")
    from riskcore.io._source import is_demo

    demo = is_demo(spec)
    csv = spec.lower().endswith(CSV_SUFFIXES)
    if engine == "auto":
        if demo:
            return "pandas"
        if not _is_many(spec):
            # one file: in memory unless it is large (a missing one gets the loader's message)
            if not os.path.isfile(spec) or os.path.getsize(spec) <= AUTO_MEMORY_BYTES:
                return "pandas"
        if csv:
            from riskcore.engine.duck import duckdb_available

            return "duckdb" if duckdb_available() else "pandas"
        return "arrow"
    if demo and engine != "pandas":
        raise RiskcoreError(f"the demo data are made in memory: use --engine pandas, not {engine}")
    if engine == "pandas" and _is_many(spec):
        raise RiskcoreError(
            f"{spec!r} names several files: the pandas engine loads one file; "
            "use --engine arrow (Parquet) or duckdb"
        )
    if engine == "arrow" and csv:
        raise RiskcoreError(
            "the arrow engine streams Parquet; for CSV use --engine duckdb or pandas"
        )
    return engine


def open_engine(
    spec: str, engine: str = "auto", *, load: Callable[[str], pd.DataFrame] | None = None
) -> Engine:
    """Return an engine over a data source.

    Parameters
    ----------
    spec : str
        A file, a directory, a glob, or demo data (``demo``, ``claims``, ``:N``).
    engine : str
        One of :data:`ENGINES` (see :func:`resolve_engine`).
    load : callable, optional
        How the pandas engine loads ``spec`` (default
        :func:`riskcore.io.load_table`).

    Returns
    -------
    Engine
    """
    name = resolve_engine(spec, engine)
    if name == "pandas":
        if load is None:
            from riskcore.io import load_table

            return EncodedTable(load_table(spec).data)
        return EncodedTable(load(spec))
    if name == "arrow":
        from riskcore.engine.arrow import ArrowEngine

        return ArrowEngine(spec)
    if name == "duckdb":
        from riskcore.engine.duck import DuckDBEngine

        return DuckDBEngine(spec)
    from riskcore.engine.spark import SparkEngine

    return SparkEngine(spec)


def distinct_values(engine: Engine, column: str) -> list[Any]:
    """Return the distinct non-missing values of one column, as the engine reads them.

    Parameters
    ----------
    engine : Engine
        Any engine.
    column : str
        Column name.

    Returns
    -------
    list
    """
    if column not in engine.columns:
        raise RiskcoreError(f"the data have no column {column!r}")
    frame = getattr(engine, "df", None)
    if is_frame(frame):
        return list(frame[column].dropna().unique())
    labels = engine.tabulate([column]).classes.labels[0]
    return [v for v in labels if v is not None and not (isinstance(v, float) and v != v)]


#: Most files a path under the data root may name (a directory's or a pattern's).
DATA_ROOT_MAX_FILES = 10_000


def path_under_root(spec: str, root: str | os.PathLike[str]) -> str:
    """Return ``spec`` as a path inside ``root``, or raise: what the app may read by path.

    The app reads a file by path only when its operator names a data
    directory; a path (or glob) typed in the browser must stay inside it,
    after symbolic links are resolved, so no user can read another file of
    the server. Everything is checked before anything outside is touched:
    a pattern is taken relative to the root only (an absolute one outside the
    root or one with ``..`` is refused before globbing), it names at most
    :data:`DATA_ROOT_MAX_FILES` files, and every file must be a regular file
    (a FIFO would block the reader for ever). A path outside the root and a
    path that does not exist get the same message: the answer tells nothing
    about the server's files.

    Parameters
    ----------
    spec : str
        A file, directory or glob, absolute or relative to ``root``.
    root : str or path
        The data directory.

    Returns
    -------
    str
        The absolute path (pattern characters kept).

    Raises
    ------
    RiskcoreError
        When the path leaves ``root`` or names nothing there, names more than
        :data:`DATA_ROOT_MAX_FILES` files, or a file that is not a regular file.
    """
    import glob
    import itertools
    import stat

    base = os.path.realpath(os.fspath(root))

    def inside(path: str) -> bool:
        return os.path.commonpath([os.path.realpath(path), base]) == base

    text = spec.strip()
    if not text:
        raise RiskcoreError("type a file, directory or glob inside the data directory")
    # one message for "not allowed" and "does not exist"
    nothing = RiskcoreError(
        f"{spec!r} names no file in the data directory (only files below it are read)"
    )
    pattern = any(ch in text for ch in "*?[")
    if pattern and ".." in text.replace("\\", "/").split("/"):
        raise RiskcoreError(f"{spec!r}: '..' is not allowed in a pattern")
    full = os.path.normpath(text if os.path.isabs(text) else os.path.join(base, text))
    if os.path.commonpath([full, base]) != base:  # lexically outside: nothing is looked at
        raise nothing
    if pattern:
        relative = os.path.relpath(full, base)
        found = glob.iglob(relative, root_dir=base, recursive=True)
        names = list(itertools.islice(found, DATA_ROOT_MAX_FILES + 1))
        files = [os.path.join(base, f) for f in names]
        files = [f for f in files if not os.path.isdir(f)]
    else:
        full = os.path.realpath(full)
        if not inside(full) or not os.path.exists(full):
            raise nothing
        if os.path.isdir(full):
            walked = (str(p) for p in Path(full).rglob("*") if not p.is_dir())
            files = list(itertools.islice(walked, DATA_ROOT_MAX_FILES + 1))
        else:
            files = [full]
    if not files:
        raise nothing
    if len(files) > DATA_ROOT_MAX_FILES:
        raise RiskcoreError(
            f"{spec!r} names more than {DATA_ROOT_MAX_FILES:,} files (DATA_ROOT_MAX_FILES): "
            "name a directory or pattern of fewer files, or merge them into larger Parquet files"
        )
    if not all(inside(f) for f in files):
        raise nothing
    for f in files:
        try:
            mode = os.stat(f).st_mode
        except OSError:  # a broken link
            raise nothing from None
        if not stat.S_ISREG(mode):  # a FIFO, a socket or a device
            raise RiskcoreError(
                f"{spec!r} holds {os.path.basename(f)!r}, which is not a regular file (a pipe "
                "or device is never read): remove it from the data directory or name the "
                "files alone"
            )
    return full
