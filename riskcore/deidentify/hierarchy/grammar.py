"""The builder string: a hierarchy described in one short line (the CLI's ``--hierarchy``).

Grammar (spaces around parts are ignored; the kind is case-insensitive)::

    SPEC     = KIND [":" ARGS] *(";" OPTION)  |  FILE
    interval:W1,W2,...[;start=S][;bottom=B][;top=T][;labels=range|interval]
    date:LEVEL,LEVEL,...      LEVEL in day, week, month, quarter, year, 5y, 10y (or decade)
    mask[:N1,N2,...][;width=W][;from=right|left]
                              N characters masked from the right (or left) at each level
    keep:N1,N2,...[;width=W]  the first N characters kept at each level (codes of any length)
    flat                      the value or "*"

Examples: ``interval:5,10,20;top=90`` (5-, 10- and 20-year bands, 90 and over
top-coded), ``date:month,year,5y``, ``mask:1,2,3`` (ZIP5 -> ZIP4 -> ZIP3 ->
ZIP2 -> ``*``), ``keep:5,3`` (ZIP5 and ZIP+4 mixed: "02139*", then "021*").
Numbers are bounded where the builders state a limit (band count and
levels, code width, labels: :mod:`~riskcore.deidentify.hierarchy.builders`).
Text whose part before the first ``:`` is not a kind is a file in ARX's CSV
format (write ``./interval:x.csv`` for a file named like a kind).

:func:`parse_builder` turns a string into the spec a recipe stores
(:meth:`~riskcore.deidentify.hierarchy.base.Hierarchy.recipe`, built by
:func:`~riskcore.deidentify.hierarchy.tables.rebuild`); :func:`builder_string`
writes a spec back, so the page can show the command-line equivalent of a
hierarchy built there.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from riskcore.deidentify.hierarchy.builders import LABEL_STYLES, MASK_SIDES
from riskcore.deidentify.hierarchy.dates import DATE_LEVELS
from riskcore.errors import RiskcoreError

__all__ = ["BUILDER_KINDS", "builder_string", "parse_builder"]

#: The kinds a builder string names, and the recipe kind each builds.
BUILDER_KINDS: Mapping[str, str] = {
    "interval": "interval",
    "date": "date",
    "mask": "prefix",
    "keep": "prefix",
    "flat": "flat",
}
_OPTIONS = {
    "interval": ("start", "bottom", "top", "labels"),
    "date": (),
    "mask": ("width", "from"),
    "keep": ("width",),
    "flat": (),
}
_DATE_NAMES = {"10y": "decade", **{lv: lv for lv in DATE_LEVELS}}


def _number(text: str, what: str, spec: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise RiskcoreError(
            f"in the hierarchy {spec!r}, the {what} {text!r} is not a number"
        ) from None
    if not math.isfinite(x):
        raise RiskcoreError(f"in the hierarchy {spec!r}, the {what} {text!r} is not a number")
    return x


def _whole(text: str, what: str, spec: str) -> int:
    x = _number(text, what, spec)
    if not x.is_integer() or x < 1:
        raise RiskcoreError(
            f"in the hierarchy {spec!r}, the {what} {text!r} is not a whole number of 1 or more"
        )
    return int(x)


def _items(args: str, what: str, spec: str) -> list[str]:
    items = [a.strip() for a in args.split(",")]
    if not args.strip() or any(not a for a in items):
        raise RiskcoreError(
            f"in the hierarchy {spec!r}, write the {what} separated by commas, with none empty"
        )
    return items


def _one_of(opts: Mapping[str, str], name: str, allowed: tuple[str, ...], spec: str) -> str | None:
    """Return the option ``name`` in lower case (None when not given), one of ``allowed``."""
    if name not in opts:
        return None
    value = opts[name].lower()
    if value not in allowed:
        raise RiskcoreError(
            f"in the hierarchy {spec!r}, the option {name}={opts[name]!r} is not one of "
            f"{', '.join(allowed)}"
        )
    return value


def parse_builder(text: str) -> dict[str, Any] | None:
    """Return the recipe spec a builder string describes, or None when the text is a file.

    Parameters
    ----------
    text : str
        A builder string (grammar in the module docstring) or a file name.

    Returns
    -------
    dict or None
        ``{"kind", "params"}`` as :meth:`Hierarchy.recipe` records it (the
        builders check the parameters against the data when it is built);
        None when the part before the first ``:`` names no kind (a file).

    Raises
    ------
    RiskcoreError
        A sentence naming the offending part: an unknown option, a number that
        is not one, an unknown date level, a label style not known.
    """
    spec = text.strip()
    head, *options = spec.split(";")
    kind, _, args = head.partition(":")
    kind = kind.strip().lower()
    if kind not in BUILDER_KINDS:
        return None
    opts: dict[str, str] = {}
    for opt in options:
        if not opt.strip():
            continue
        name, eq, value = opt.partition("=")
        name = name.strip().lower()
        if not eq or name not in _OPTIONS[kind]:
            known = ", ".join(f"{o}=" for o in _OPTIONS[kind]) or "none"
            raise RiskcoreError(
                f"in the hierarchy {spec!r}, {opt.strip()!r} is not an option of {kind} "
                f"(options: {known})"
            )
        if not value.strip():
            raise RiskcoreError(f"in the hierarchy {spec!r}, the option {name}= has no value")
        opts[name] = value.strip()
    params: dict[str, Any] = {}
    if kind == "interval":
        params["widths"] = [_number(w, "width", spec) for w in _items(args, "widths", spec)]
        params["start"] = _number(opts["start"], "start", spec) if "start" in opts else 0.0
        for side in ("bottom", "top"):
            params[side] = _number(opts[side], side, spec) if side in opts else None
        style = _one_of(opts, "labels", LABEL_STYLES, spec)
        if style not in (None, "auto"):
            params["labels"] = style
    elif kind == "date":
        levels = []
        for lv in _items(args, "date levels", spec):
            if lv.lower() not in _DATE_NAMES:
                raise RiskcoreError(
                    f"in the hierarchy {spec!r}, {lv!r} is not a date level (levels: "
                    f"{', '.join(DATE_LEVELS[:-1])}, 10y)"
                )
            levels.append(_DATE_NAMES[lv.lower()])
        params["levels"] = levels
    elif kind == "mask":
        if args.strip():
            params["masked"] = [
                _whole(m, "count of masked characters", spec) for m in _items(args, "counts", spec)
            ]
        if "width" in opts:
            params["width"] = _whole(opts["width"], "width", spec)
        masked_from = _one_of(opts, "from", MASK_SIDES, spec)
        if masked_from not in (None, "right"):
            params["side"] = masked_from
    elif kind == "keep":
        params["keep"] = [
            _whole(m, "count of kept characters", spec) for m in _items(args, "counts", spec)
        ]
        if "width" in opts:
            params["width"] = _whole(opts["width"], "width", spec)
    elif args.strip():
        raise RiskcoreError(f"in the hierarchy {spec!r}, flat takes no arguments")
    return {"kind": BUILDER_KINDS[kind], "params": params}


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{float(x):g}"


def builder_string(spec: Mapping[str, Any]) -> str | None:
    """Return the builder string of a recipe spec, or None for a kind it cannot say (a table).

    Parameters
    ----------
    spec : mapping
        ``{"kind", "params"}`` (:meth:`Hierarchy.recipe`).

    Returns
    -------
    str or None
        Such that ``parse_builder(builder_string(spec))`` builds the same
        hierarchy on the same column (a mask's width is written, since the
        spec holds it).
    """
    kind = spec.get("kind")
    p = dict(spec.get("params") or {})
    if kind == "interval":
        text = "interval:" + ",".join(_num(w) for w in p["widths"])
        if p.get("start"):
            text += f";start={_num(p['start'])}"
        for side in ("bottom", "top"):
            if p.get(side) is not None:
                text += f";{side}={_num(p[side])}"
        if p.get("labels") not in (None, "auto"):
            text += f";labels={p['labels']}"
        return text
    if kind == "date":
        return "date:" + ",".join("10y" if lv == "decade" else str(lv) for lv in p["levels"])
    if kind == "prefix":
        width = f";width={int(p['width'])}" if p.get("width") else ""
        if p.get("keep") is not None:
            return "keep:" + ",".join(str(int(m)) for m in p["keep"]) + width
        text = "mask"
        if p.get("masked") is not None:
            text += ":" + ",".join(str(int(m)) for m in p["masked"])
        side = f";from={p['side']}" if p.get("side") not in (None, "right") else ""
        return text + width + side
    if kind == "flat":
        return "flat"
    return None
