"""Check the numpydoc docstrings of riskcore's public API (run by ``.ci/run``).

Public means: defined in a module of ``riskcore`` with no part of its dotted path starting
with ``_`` (``riskcore._results`` is private, ``riskcore.metrics`` is not), under a name not
starting with ``_``; for a public class, also its methods and properties defined in the class
itself. Each public function, method, class and property must have

* ``SUMMARY``: a one-line summary ending with a period, then a blank line (numpydoc's
  SS01/SS03/SS06);
* ``PARAMS``: for a callable with parameters (``self`` / ``cls`` aside), a ``Parameters``
  section (or ``Other Parameters``) naming exactly the signature's parameters: a missing one
  and one the signature lacks are both errors (numpydoc's PR01/PR02); ``*args`` and
  ``**kwargs`` may be written with or without their stars. A class's constructor parameters
  go in the class docstring (or ``Attributes``, for a dataclass's fields) or in
  ``__init__``'s;
* ``RETURNS``: for a function or method whose return annotation is not ``None``, a
  ``Returns`` (or ``Yields``) section (numpydoc's RT01).

A method without a docstring of its own that overrides a documented method of a base class is
checked where it is declared (``inspect.getdoc`` and the API reference show the base's text).

numpydoc's own validator needs Sphinx; these three checks are the ones the API reference
depends on, parsed here with the same section grammar (a title, then a line of dashes).

Entries of ``scripts/docstring_allowlist.txt`` (``qualified.name CODE``) are known failures in
files other work is editing; the check fails when one of them passes (remove it), so the
list only shrinks.

Run: ``python scripts/check_docstrings.py`` (exit 1 and one line per failure).
"""

from __future__ import annotations

import enum
import importlib
import inspect
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ALLOWLIST = ROOT / "scripts" / "docstring_allowlist.txt"
_SECTION = re.compile(r"^([A-Z][A-Za-z ]+)\n-{3,}$", re.MULTILINE)
_ENTRY = re.compile(r"^(\*{0,2}[A-Za-z_]\w*(?:\s*,\s*\*{0,2}[A-Za-z_]\w*)*)\s*(?::.*)?$")
_NONE = {"None", "NoReturn", "Never", "typing.NoReturn", "None | None"}


def public_modules(package: str = "riskcore") -> list[str]:
    """Return ``package`` and its public modules (no part of the path starting with ``_``).

    Parameters
    ----------
    package : str
        A dotted package name under the project root.

    Returns
    -------
    list of str
        The dotted module names, sorted.
    """
    base = ROOT.joinpath(*package.split("."))
    found = []
    for path in sorted(base.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if not any(part.startswith("_") for part in parts):
            found.append(".".join(parts))
    return sorted(found)


def sections(doc: str) -> dict[str, str]:
    """Return ``{section title: body}`` of a cleaned numpydoc docstring.

    Parameters
    ----------
    doc : str
        The docstring, as :func:`inspect.cleandoc` leaves it.

    Returns
    -------
    dict of str to str
        Each section's body (the text up to the next section), by title; ``""`` holds the
        text before the first section.
    """
    out: dict[str, str] = {}
    matches = list(_SECTION.finditer(doc))
    out[""] = doc[: matches[0].start()] if matches else doc
    for i, match in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(doc)
        out[match.group(1).strip()] = doc[match.end() : end]
    return out


def documented_names(body: str) -> set[str]:
    """Return the parameter names a ``Parameters``-style section body lists.

    Parameters
    ----------
    body : str
        The section's text: entries start at column 0 (``name : type`` or ``a, b : type``),
        their descriptions are indented.

    Returns
    -------
    set of str
        The names, stars stripped.
    """
    names: set[str] = set()
    for line in body.splitlines():
        if not line or line[0].isspace():
            continue
        match = _ENTRY.match(line.rstrip())
        if match:
            names.update(part.strip().lstrip("*") for part in match.group(1).split(","))
    return names


def summary_error(doc: str) -> str | None:
    """Return what is wrong with a docstring's summary, or None.

    Parameters
    ----------
    doc : str
        The cleaned docstring.

    Returns
    -------
    str or None
        A short description of the fault.
    """
    lines = doc.splitlines()
    if not lines or not lines[0].strip():
        return "no summary"
    if len(lines) > 1 and lines[1].strip():
        return "summary runs over one line (a blank line must follow it)"
    if not lines[0].rstrip().endswith((".", "?", "!")):
        return "summary does not end with a period"
    return None


def _parameters(func: Callable[..., Any], bound: bool) -> tuple[list[str], str | None]:
    """Return the documented-parameter names of ``func``'s signature and its return text."""
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return [], None
    star = {inspect.Parameter.VAR_POSITIONAL: "*", inspect.Parameter.VAR_KEYWORD: "**"}
    names = [star.get(p.kind, "") + p.name for p in sig.parameters.values()]
    if bound and names and names[0] in ("self", "cls"):
        names = names[1:]
    ret = sig.return_annotation
    if ret is inspect.Signature.empty:
        text = None
    else:
        text = ret if isinstance(ret, str) else getattr(ret, "__name__", repr(ret))
    return [n for n in names if not n.lstrip("*").startswith("_")], text


def check_callable(
    name: str, func: Callable[..., Any], bound: bool, extra_doc: str = ""
) -> Iterator[tuple[str, str, str]]:
    """Yield ``(name, code, message)`` for each fault of a function or method's docstring.

    Parameters
    ----------
    name : str
        The qualified name reported.
    func : callable
        The function (unbound, for a method).
    bound : bool
        Whether it is a method (its ``self`` / ``cls`` is not documented).
    extra_doc : str, optional
        Another docstring whose parameter sections count too (a class's, for ``__init__``).

    Yields
    ------
    tuple of str
        The name, the code (``SUMMARY``, ``PARAMS``, ``RETURNS``) and the message.
    """
    doc = inspect.cleandoc(func.__doc__ or "")
    if not extra_doc:
        fault = summary_error(doc)
        if fault:
            yield name, "SUMMARY", fault
    params, returns = _parameters(func, bound)
    parts = sections(doc)
    if extra_doc:
        for title, body in sections(inspect.cleandoc(extra_doc)).items():
            parts[title] = parts.get(title, "") + "\n" + body
    listed = set()
    for title in ("Parameters", "Other Parameters", "Attributes" if extra_doc else "-"):
        listed |= documented_names(parts.get(title, ""))
    wanted = {p.lstrip("*") for p in params}
    missing = [p for p in params if p.lstrip("*") not in listed]
    if missing:
        yield name, "PARAMS", f"parameters not documented: {', '.join(missing)}"
    unknown = sorted(listed - wanted) if "Parameters" in parts and not extra_doc else []
    if unknown and not any(p.startswith("*") for p in params):
        yield name, "PARAMS", f"documented but not in the signature: {', '.join(unknown)}"
    if (
        not extra_doc
        and returns is not None
        and returns not in _NONE
        and "Returns" not in parts
        and "Yields" not in parts
    ):
        yield name, "RETURNS", f"returns {returns} but has no Returns section"


def _overrides(cls: type, attr: str) -> bool:
    """Whether a base class of ``cls`` defines ``attr`` with a docstring."""
    return any(getattr(base.__dict__.get(attr), "__doc__", None) for base in cls.__mro__[1:])


def check_class(name: str, cls: type) -> Iterator[tuple[str, str, str]]:
    """Yield the faults of a public class's docstring and of its public methods.

    Parameters
    ----------
    name : str
        The qualified name reported.
    cls : type
        The class.

    Yields
    ------
    tuple of str
        The name, the code and the message, as :func:`check_callable`.
    """
    doc = inspect.cleandoc(cls.__doc__ or "")
    fault = summary_error(doc)
    if fault:
        yield name, "SUMMARY", fault
    init = cls.__dict__.get("__init__")  # a dataclass's generated one too
    if getattr(init, "__qualname__", "") != f"{cls.__qualname__}.__init__":
        init = None  # one a base put there (``typing.Protocol``'s)
    if init is not None and not issubclass(cls, (enum.Enum, BaseException)):
        yield from check_callable(name, init, bound=True, extra_doc=cls.__doc__ or "")
    for attr, value in cls.__dict__.items():
        if attr.startswith("_"):
            continue
        qual = f"{name}.{attr}"
        if isinstance(value, property):
            if value.fget is not None and (value.fget.__doc__ or not _overrides(cls, attr)):
                fault = summary_error(inspect.cleandoc(value.fget.__doc__ or ""))
                if fault:
                    yield qual, "SUMMARY", fault
        elif isinstance(value, (staticmethod, classmethod)):
            yield from check_callable(qual, value.__func__, bound=isinstance(value, classmethod))
        elif inspect.isfunction(value):
            if not value.__doc__ and _overrides(cls, attr):
                continue  # documented where it is declared (inspect.getdoc inherits it)
            yield from check_callable(qual, value, bound=True)


def check_module(module_name: str) -> Iterator[tuple[str, str, str]]:
    """Yield the faults of the public functions and classes a module defines.

    Parameters
    ----------
    module_name : str
        A dotted module name.

    Yields
    ------
    tuple of str
        The qualified name, the code and the message.
    """
    module = importlib.import_module(module_name)
    for attr, value in sorted(vars(module).items()):
        if attr.startswith("_") or getattr(value, "__module__", None) != module_name:
            continue
        qual = f"{module_name}.{attr}"
        if inspect.isclass(value):
            yield from check_class(qual, value)
        elif inspect.isfunction(value):
            yield from check_callable(qual, value, bound=False)


def allowlist(path: Path = ALLOWLIST) -> set[tuple[str, str]]:
    """Return the allowed ``(qualified name, code)`` failures of ``path``.

    Parameters
    ----------
    path : Path
        The list: one ``name CODE`` a line; blank lines and ``#`` comments are skipped.

    Returns
    -------
    set of tuple of str
        The allowed pairs.
    """
    if not path.exists():
        return set()
    out = set()
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            qual, code = line.split()
            out.add((qual, code))
    return out


def problems(
    package: str = "riskcore", allowed: set[tuple[str, str]] | None = None
) -> list[str]:
    """Return one line per docstring fault not allowed, and per allowed pair now passing.

    Parameters
    ----------
    package : str, optional
        The package whose public modules are checked.
    allowed : set of tuple of str, optional
        The allowed ``(name, code)`` failures; by default :func:`allowlist`.

    Returns
    -------
    list of str
        Empty when the docstrings pass.
    """
    allowed = allowlist() if allowed is None else allowed
    found: dict[tuple[str, str], list[str]] = {}
    for module_name in public_modules(package):
        for qual, code, message in check_module(module_name):
            found.setdefault((qual, code), []).append(message)
    lines = [
        f"{qual}: {code}: {'; '.join(messages)}"
        for (qual, code), messages in sorted(found.items())
        if (qual, code) not in allowed
    ]
    lines += [
        f"{qual}: {code}: passes now; remove it from {ALLOWLIST.relative_to(ROOT)}"
        for qual, code in sorted(allowed - set(found))
        if qual.split(".")[0] == package
    ]
    return lines


def main() -> int:
    """Print the faults of riskcore's public docstrings.

    Returns
    -------
    int
        The exit status: 0 when they pass, 1 otherwise.
    """
    sys.path.insert(0, str(ROOT))
    lines = problems()
    for line in lines:
        print(line)
    if lines:
        print(f"{len(lines)} docstring problem(s) (numpydoc: see scripts/check_docstrings.py)")
    return 1 if lines else 0


if __name__ == "__main__":
    raise SystemExit(main())
