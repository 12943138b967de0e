"""Command-line options shared by several sub-commands (one definition each)."""

from __future__ import annotations

from typing import Any

__all__ = ["add_memory_engine", "add_missing", "add_targets"]

MISSING_HELP = (
    "a missing QI value is a value of its own (default) or matches any value "
    "(sdcMicro's convention)"
)


def add_targets(parser: Any) -> None:
    """Add ``--sensitive``, ``--k``, ``--l``, ``--l-kind``, ``--c`` and ``--t`` (the targets)."""
    parser.add_argument("--sensitive", action="append", default=[], metavar="COL")
    parser.add_argument("--k", type=int, default=5, help="smallest class size (default 5)")
    parser.add_argument("--l", type=int, default=None, help="l-diversity of each sensitive column")
    parser.add_argument(
        "--l-kind", choices=("distinct", "entropy", "recursive"), default="distinct"
    )
    parser.add_argument("--c", type=float, default=2.0, help="c of recursive (c,l)-diversity")
    parser.add_argument(
        "--t", type=float, default=None, help="t-closeness of each sensitive column"
    )


def add_missing(parser: Any, *, default: str | None = "own", help: str = MISSING_HELP) -> None:
    """Add ``--missing own|any``, the missing-value policy."""
    parser.add_argument("--missing", choices=("own", "any"), default=default, help=help)


def add_memory_engine(parser: Any, command: str) -> None:
    """Add ``--engine``, which a per-record command accepts as ``auto`` or ``pandas`` only."""
    parser.add_argument(
        "--engine",
        choices=("auto", "pandas", "arrow", "duckdb", "spark"),
        default="auto",
        help=f"{command} needs each record: it runs on the pandas engine (in memory) only; "
        "the other engines are refused with a message (default auto: pandas)",
    )
