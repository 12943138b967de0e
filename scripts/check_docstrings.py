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
  ``Returns`` (or ``Yields``) section (numpydoc's RT01);
* ``PARAMDESC``: every entry of a ``Parameters`` / ``Other Parameters`` section (a function's,
  a method's or a class's) has a description: an indented line under ``name : type``
  (numpydoc's PR07);
* ``REPEAT``: a ``Returns`` description says something the summary does not. It *repeats* the
  summary when, both lowercased, stripped of markup and punctuation, with the articles, "return"
  and a plural's last ``s`` dropped, at least 80% of the description's words are words of the
  summary (:func:`repeats`): "The count of unique records." under "Return the count of
  unique records." repeats; "The count; 0 for an empty table." does not. A ``Returns`` entry
  with a type and no description is fine;
* ``EXAMPLE``: each public entry point in :data:`ENTRY_POINTS` (assess, the record risks,
  SUDA, the anonymize search, a recipe's apply, the review, the DP releases) has an
  ``Examples`` section (run by ``tests/test_doctests.py``).

A method without a docstring of its own that overrides a documented method of a base class is
checked where it is declared (``inspect.getdoc`` and the API reference show the base's text).

numpydoc's own validator needs Sphinx; these checks are the ones the API reference
depends on, parsed here with the same section grammar (a title, then a line of dashes).

Entries of ``scripts/docstring_allowlist.txt`` (``qualified.name CODE``) are known failures in
files other work is editing; the check fails when one of them passes (remove it), so the
list only shrinks.

Packages named in :data:`TODO` are not yet held to ``PARAMDESC`` and ``REPEAT`` (their
docstrings are being rewritten, issue 40); the run prints how many of those faults each still
has, so the list only shrinks.

Run: ``python scripts/check_docstrings.py`` (exit 1 and one line per failure);
``--counts`` prints the number of Returns sections and parameter entries, and how many repeat
the summary or lack a description, over the whole of riskcore.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ALLOWLIST = ROOT / "scripts" / "docstring_allowlist.txt"
_SECTION = re.compile(r"^([A-Z][A-Za-z ]+)\n-{3,}$", re.MULTILINE)
_ENTRY = re.compile(r"^(\*{0,2}[A-Za-z_]\w*(?:\s*,\s*\*{0,2}[A-Za-z_]\w*)*)\s*(?::.*)?$")
COUNTS: Counter[str] = Counter()
PENDING: dict[str, int] = {}
_NONE = {"None", "NoReturn", "Never", "typing.NoReturn", "None | None"}
_MARKUP = re.compile(r":[a-z]+:|[`*~]")
_WORD = re.compile(r"[a-z0-9_]+")
_DROPPED = {"a", "an", "the", "return", "returns"}
#: The share of a Returns description's words found in the summary from which it repeats it.
REPEAT_SHARE = 0.8
#: The public entry points of riskcore that must show an example: ``(module, name)``, the name
#: looked up on the module (a package's lazy export resolves wherever the function lives).
ENTRY_POINTS: tuple[tuple[str, str], ...] = (
    ("riskcore", "assess"),
    ("riskcore.metrics", "record_individual_risk"),
    ("riskcore.metrics", "record_risk"),
    ("riskcore.metrics", "suda"),
    ("riskcore.deidentify.search", "search"),
    ("riskcore.deidentify", "apply_recipe"),
    ("riskcore.review", "review"),
    ("riskcore.dp.release", "release"),
    ("riskcore.dp.release", "release_sample_aggregate"),
)
#: Packages (dotted prefixes) whose PARAMDESC and REPEAT faults are counted, not failed: the
#: docstrings still to rewrite (issue 40). Remove a prefix once its faults are fixed.
TODO: tuple[str, ...] = ()


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


def entries(body: str) -> list[tuple[str, str]]:
    """Split a numpydoc section body into its entries.

    Parameters
    ----------
    body : str
        The section's text: each entry's first line at column 0 (``name : type`` or a type),
        its description indented under it.

    Returns
    -------
    list of tuple of str
        ``(first line, description)`` in the order written; the description is the indented
        lines joined by spaces, ``""`` when there are none. Text before the first entry is
        skipped.
    """
    out: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if not line.strip():
            continue
        if not line[0].isspace():
            out.append((line.strip(), []))
        elif out:
            out[-1][1].append(line.strip())
    return [(head, " ".join(lines)) for head, lines in out]


def words(text: str) -> list[str]:
    """Return the words a repeat is judged on.

    Parameters
    ----------
    text : str
        A summary line or a description.

    Returns
    -------
    list of str
        Lowercased, reST markup (roles, backquotes, stars) and punctuation removed, without
        "a", "an", "the", "return" and "returns", a final ``s`` dropped from words of four
        letters or more (so "counts" matches "count").
    """
    found = _WORD.findall(_MARKUP.sub(" ", text.lower()))
    return [
        w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
        for w in found
        if w not in _DROPPED
    ]


def repeats(summary: str, description: str) -> bool:
    """Whether a Returns description only repeats the summary line.

    Parameters
    ----------
    summary : str
        The docstring's first line.
    description : str
        One Returns entry's description.

    Returns
    -------
    bool
        True when the description has words and at least :data:`REPEAT_SHARE` of them (as
        :func:`words` gives them, counted with repeats) occur in the summary.

    Examples
    --------
    >>> repeats("Return the number of unique records.", "The number of unique records.")
    True
    >>> repeats("Return the number of unique records.", "Unique records; 0 when empty.")
    False
    """
    said = words(description)
    if not said:
        return False
    known = set(words(summary))
    return sum(w in known for w in said) >= REPEAT_SHARE * len(said)


def section_faults(name: str, doc: str, *, returns: bool = True) -> Iterator[tuple[str, str, str]]:
    """Yield the ``PARAMDESC`` and ``REPEAT`` faults of one docstring.

    Parameters
    ----------
    name : str
        The qualified name reported.
    doc : str
        The cleaned docstring.
    returns : bool, optional
        Whether its ``Returns`` section is checked (not for a class's docstring).

    Yields
    ------
    tuple of str
        The name, the code and the message, as :func:`check_callable`.
    """
    parts = sections(doc)
    bare = []
    for title in ("Parameters", "Other Parameters"):
        for head, text in entries(parts.get(title, "")):
            match = _ENTRY.match(head)
            if match is None:
                continue
            names = [n.strip() for n in match.group(1).split(",")]
            COUNTS["parameters"] += len(names)
            if not text:
                COUNTS["parameters without a description"] += len(names)
                bare += names
    if bare:
        yield name, "PARAMDESC", f"parameters without a description: {', '.join(bare)}"
    if not returns or "Returns" not in parts:
        return
    COUNTS["Returns sections"] += 1
    summary = doc.splitlines()[0] if doc else ""
    same = [head for head, text in entries(parts["Returns"]) if repeats(summary, text)]
    if same:
        COUNTS["Returns sections repeating the summary"] += 1
        yield name, "REPEAT", f"Returns ({', '.join(same)}) repeats the summary; say what it adds"


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
    yield from section_faults(name, doc)


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
    yield from section_faults(name, doc, returns=False)
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


def check_entry_points(
    points: tuple[tuple[str, str], ...] = ENTRY_POINTS,
) -> Iterator[tuple[str, str, str]]:
    """Yield an ``EXAMPLE`` fault for each entry point whose docstring has no example.

    Parameters
    ----------
    points : tuple of tuple of str, optional
        ``(module, name)`` pairs; by default :data:`ENTRY_POINTS`.

    Yields
    ------
    tuple of str
        The qualified name where the function is defined, ``EXAMPLE`` and the message.
    """
    for module_name, attr in points:
        func = getattr(importlib.import_module(module_name), attr)
        parts = sections(inspect.cleandoc(func.__doc__ or ""))
        if ">>> " not in parts.get("Examples", ""):
            qual = f"{func.__module__}.{func.__qualname__}"
            yield qual, "EXAMPLE", f"entry point {module_name}.{attr} has no Examples section"


def problems(
    package: str = "riskcore",
    allowed: set[tuple[str, str]] | None = None,
    todo: tuple[str, ...] = TODO,
) -> list[str]:
    """Return one line per docstring fault not allowed, and per allowed pair now passing.

    Parameters
    ----------
    package : str, optional
        The package whose public modules are checked (riskcore's entry points too, for
        ``"riskcore"``).
    allowed : set of tuple of str, optional
        The allowed ``(name, code)`` failures; by default :func:`allowlist`.
    todo : tuple of str, optional
        Dotted prefixes whose ``PARAMDESC`` and ``REPEAT`` faults are only counted, into
        :data:`PENDING`; by default :data:`TODO`. A prefix with none left is a fault (remove
        it).

    Returns
    -------
    list of str
        Empty when the docstrings pass.
    """
    allowed = allowlist() if allowed is None else allowed
    found: dict[tuple[str, str], list[str]] = {}
    faults = [f for module_name in public_modules(package) for f in check_module(module_name)]
    if package == "riskcore":
        faults += list(check_entry_points())
    PENDING.clear()
    PENDING.update(dict.fromkeys(todo, 0))
    for qual, code, message in faults:
        prefix = next((p for p in todo if qual == p or qual.startswith(p + ".")), None)
        if prefix is not None and code in ("PARAMDESC", "REPEAT"):
            PENDING[prefix] += 1
            continue
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
    lines += [
        f"{prefix}: PARAMDESC / REPEAT pass now; remove it from TODO in scripts/check_docstrings.py"
        for prefix, count in PENDING.items()
        if count == 0
    ]
    return lines


def main(argv: list[str] | None = None) -> int:
    """Print the faults of riskcore's public docstrings.

    Parameters
    ----------
    argv : list of str, optional
        The arguments (by default ``sys.argv[1:]``): ``--counts`` prints the Returns sections and
        parameter entries found and how many fail, the ``TODO`` packages included.

    Returns
    -------
    int
        The exit status: 0 when they pass, 1 otherwise.
    """
    argv = sys.argv[1:] if argv is None else argv
    sys.path.insert(0, str(ROOT))
    COUNTS.clear()
    lines = problems()
    for line in lines:
        print(line)
    if "--counts" in argv:
        for what in (
            "Returns sections",
            "Returns sections repeating the summary",
            "parameters",
            "parameters without a description",
        ):
            print(f"{COUNTS[what]:6d} {what}")
    for prefix, count in PENDING.items():
        if count:
            print(f"not yet enforced (TODO): {prefix}: {count} PARAMDESC / REPEAT fault(s)")
    if lines:
        print(f"{len(lines)} docstring problem(s) (numpydoc: see scripts/check_docstrings.py)")
    return 1 if lines else 0


if __name__ == "__main__":
    raise SystemExit(main())
