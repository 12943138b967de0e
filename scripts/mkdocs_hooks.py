"""MkDocs hooks of the documentation site (``hooks:`` in ``mkdocs.yml``).

:func:`api_reference` expands a marker ``<!-- api: riskcore.metrics ... -->`` into one
mkdocstrings block (``::: module``) per public module of those packages, found on disk, so a new
module is in the Python API reference without editing a page (``tests/test_docs.py`` checks
that every public module is covered). :func:`cli_reference` renders the help of ``riskcore``
and of every sub-command (nested ones included, e.g. ``riskcore report verify``) from the
parser itself, so the CLI reference page
(``docs/reference/cli.md``, marker ``<!-- cli-reference -->``) is generated at every build and
cannot drift from the code. ``tests/test_docs.py`` checks it lists every sub-command.
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

MARKER = "<!-- cli-reference -->"
API = re.compile(r"<!-- api: ([\w. ]+) -->")
WIDTH = "100"  # argparse wraps at $COLUMNS
ROOT = Path(__file__).resolve().parents[1]


def public_modules(package: str) -> list[str]:
    """Return ``package`` and its public modules (no part of the path starting with ``_``)."""
    base = ROOT.joinpath(*package.split("."))
    if not base.is_dir():
        return [package]
    found = []
    for path in sorted(base.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if any(part.startswith("_") for part in parts):
            continue
        found.append(".".join(parts))
    return sorted(found, key=lambda name: (name != package, name))


def api_reference(packages: list[str]) -> str:
    """Return the mkdocstrings blocks of every public module of ``packages``."""
    blocks = []
    for package in packages:
        for name in public_modules(package):
            options = "    options:\n      show_root_heading: false\n"
            if ROOT.joinpath(*name.split(".")).is_dir():
                # a package: its docstring only; what it re-exports is documented once, in
                # the module defining it (its submodules follow)
                options += "      members: false\n"
            blocks.append(f"## `{name}`\n\n::: {name}\n{options}")
    return "\n".join(blocks)


def _commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _commands(sub, (*path, name))
    if path == ("riskcore", "report"):  # `report verify` is parsed on its own (riskcore.cli)
        from riskcore.cli.report import _verify_parser

        yield (*path, "verify"), _verify_parser()


def cli_reference() -> str:
    """Return the Markdown of every command's ``--help``, in the parser's order."""
    from riskcore.cli import build_parser as _build_parser

    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH
    try:
        parser = _build_parser()
        parser.prog = "riskcore"
        parts = []
        for path, sub in _commands(parser, ("riskcore",)):
            title = " ".join(path)
            level = "#" * min(2 + len(path) - 1, 4)
            parts.append(f"{level} `{title}`\n\n```text\n{sub.format_help().rstrip()}\n```\n")
        return "\n".join(parts)
    finally:
        if previous is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = previous


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Put the generated CLI and API references where the page has their markers."""
    if MARKER in markdown:
        markdown = markdown.replace(MARKER, cli_reference())
    return API.sub(lambda m: api_reference(m.group(1).split()), markdown)
