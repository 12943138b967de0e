"""MkDocs hooks of the documentation site (``hooks:`` in ``mkdocs.yml``).

:func:`cli_reference` renders the help of ``riskcore`` and of every sub-command (nested ones
included, e.g. ``riskcore audit verify``) from the parser itself, so the CLI reference page
(``docs/reference/cli.md``, marker ``<!-- cli-reference -->``) is generated at every build and
cannot drift from the code. ``tests/test_docs.py`` checks it lists every sub-command.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from typing import Any

MARKER = "<!-- cli-reference -->"
WIDTH = "100"  # argparse wraps at $COLUMNS


def _commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _commands(sub, (*path, name))
    if path == ("riskcore", "report"):  # `report verify` is parsed on its own (riskcore.cli)
        from riskcore._cli_report import _verify_parser

        yield (*path, "verify"), _verify_parser()


def cli_reference() -> str:
    """Return the Markdown of every command's ``--help``, in the parser's order."""
    from riskcore.cli import _build_parser

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
    """Put the generated CLI reference where the page has the marker."""
    if MARKER in markdown:
        return markdown.replace(MARKER, cli_reference())
    return markdown
