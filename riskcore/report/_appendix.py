"""The recipe's JSON as the PDF prints it: at most two pages, the whole of it attached.

A recipe holds its uploaded hierarchies row by row and a PRAM step's matrix
(:class:`riskcore.deidentify.recipe.base.Recipe`): printed whole, a postcode
hierarchy of a few hundred rows filled 90 pages of an otherwise 11-page
report. The PDF prints it abridged (:func:`printed_json`) and says where the
whole of it is (:func:`recipe_pointer`): in the JSON twin attached to the PDF.
The HTML report keeps the whole recipe (folded away in ``<details>``).
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["MAX_ITEMS", "MAX_LINES", "SHOWN_ITEMS", "WIDTH", "printed_json", "recipe_pointer"]

#: A list of more items than this is printed by its first :data:`SHOWN_ITEMS` and a count.
MAX_ITEMS = 8
#: The items a long list keeps in print.
SHOWN_ITEMS = 3
#: Printed lines at most, a line of :data:`WIDTH` characters counting once: the PDF's
#: monospace (7.7 pt, line height 1.45) sets about 57 lines of 84 characters on an A4 page
#: within the report's margins, so 100 lines stay within two pages.
MAX_LINES = 100
#: Characters on one printed line of the PDF's monospace across A4 within the margins.
WIDTH = 80


class _More:
    """Stands for the items a long list leaves out of print."""

    def __init__(self, n: int) -> None:
        self.n = n


def _abridged(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _abridged(v) for k, v in value.items()}
    if isinstance(value, list):
        if len(value) > MAX_ITEMS:
            kept = [_abridged(v) for v in value[:SHOWN_ITEMS]]
            return [*kept, _More(len(value) - SHOWN_ITEMS)]
        return [_abridged(v) for v in value]
    return value


def _dump(value: Any, pad: str = "") -> str:
    """Return ``value`` as indented JSON, a list of plain values on one line, an elision
    as ``... N more`` (unquoted: visibly not one of the values)."""
    if isinstance(value, _More):
        return f"... {value.n:,} more"
    inner = pad + "  "
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{inner}{json.dumps(k)}: {_dump(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list):
        if all(not isinstance(v, (dict, list)) for v in value):
            return "[" + ", ".join(_dump(v) for v in value) + "]"
        return "[\n" + ",\n".join(inner + _dump(v, inner) for v in value) + "\n" + pad + "]"
    return json.dumps(value, allow_nan=False)


def _height(line: str) -> int:
    return max(1, math.ceil(len(line) / WIDTH))


def printed_json(value: Any) -> tuple[str, bool]:
    """Return ``value`` as JSON to print in at most two pages, and whether it was abridged.

    A list of more than :data:`MAX_ITEMS` items keeps its first
    :data:`SHOWN_ITEMS` and says how many more (``... 770 more``); a list of
    plain values stands on one line; what still runs past :data:`MAX_LINES`
    printed lines (a line of :data:`WIDTH` characters counting once) is cut
    there, with the count of the lines left out.

    Parameters
    ----------
    value : Any
        JSON values (a recipe's :meth:`~riskcore.deidentify.recipe.base.Recipe.to_dict`).

    Returns
    -------
    tuple of (str, bool)
        The text, and True when anything was left out of it.
    """
    text = _dump(_abridged(value))
    abridged = text != _dump(value)
    lines = text.split("\n")
    used = 0
    for i, line in enumerate(lines):
        used += _height(line)
        if used > MAX_LINES - 1:  # one line kept for the count of the lines left out
            return "\n".join([*lines[:i], f"... {len(lines) - i:,} more lines"]), True
    return text, abridged


def recipe_pointer(attachment: str, *, abridged: bool) -> str:
    """Return the sentence under the printed recipe: where the whole recipe is.

    Parameters
    ----------
    attachment : str
        The name of the file attached to the PDF that holds the JSON twin.
    abridged : bool
        Whether :func:`printed_json` left anything out.

    Returns
    -------
    str
        The sentence under the printed recipe: where the whole recipe is.
    """
    where = (
        f"in the file {attachment} attached to this PDF (an embedded file: the PDF reader's "
        'attachments, or the paperclip), under "remediation", then "recipe"'
    )
    if not abridged:
        return f"The same recipe, as applied, is {where}."
    return (
        f"Abridged to fit two pages: a list of more than {MAX_ITEMS} items shows its first "
        f"{SHOWN_ITEMS} and how many more. The whole recipe, as applied, is {where}; the "
        "steps above state it in words."
    )
