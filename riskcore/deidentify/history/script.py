"""A history as a runnable script: :func:`command_script` (the counterpart of sdcApp's R script).

The script lists a :class:`~riskcore.deidentify.history.base.History`'s applied steps as
comments, writes the recipe they fold into, and re-applies it with ``riskcore apply``;
every argument is quoted with :func:`shlex.quote`, and the key is never in it.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence

from riskcore.deidentify.history.base import AppliedStep, History
from riskcore.deidentify.masking import SecretKey
from riskcore.deidentify.recipe.base import Recipe, keyed_steps
from riskcore.errors import RiskcoreError

__all__ = ["command_script"]


def _comment(step: AppliedStep, number: int, width: int = 160) -> str:
    """Return one step as a comment line (JSON text: no newline can end the comment)."""
    params = json.dumps(step.parameters, ensure_ascii=True, sort_keys=True)
    if len(params) > width:
        params = params[: width - 3] + "..."
    after = [f"{n} {v:.6g}" for n, v in (("risk", step.risk), ("loss", step.loss)) if v is not None]
    tail = f" ({', '.join(after)})" if after else ""
    at = json.dumps(step.at, ensure_ascii=True)[1:-1]
    return f"# {number:>3}. {at} {step.kind}: {params}{tail}"


def command_script(
    history: History,
    data_name: str,
    *,
    base: Recipe,
    key: SecretKey | bytes | None = None,
    recipe_name: str = "recipe.json",
    out_name: str = "remediated.csv",
    key_file: str = "riskcore.key",
    command: Sequence[str] = ("riskcore",),
    allowed: Sequence[str] = (),
) -> str:
    """Return a POSIX shell script that reproduces the table of a history's applied steps.

    The script lists the applied steps as comments (the session's record, like
    sdcMicro's sdcApp R script), writes the recipe they fold into
    (:meth:`History.to_recipe`) to ``recipe_name``, and runs ``riskcore apply
    DATA --recipe RECIPE --out OUT [--key-file KEY]``, which re-applies it to
    the table: the same table as :func:`~riskcore.deidentify.recipe.apply.apply_recipe`
    gives in process. Every argument is quoted with :func:`shlex.quote`. The
    key is never in the script: with keyed steps it says that the key must be
    in ``key_file`` (hexadecimal text, as ``riskcore anonymize --key-file``
    writes it) and passes that path.

    Parameters
    ----------
    history : History
        The session's steps; the applied ones are reproduced.
    data_name : str
        The table's path as the script will see it (or ``demo:N``).
    base : Recipe
        The recipe before any step (:meth:`History.to_recipe`).
    key : SecretKey or bytes, optional
        The key of the keyed steps: it seals the recipe; only its check value
        is written.
    recipe_name, out_name, key_file : str
        Where the script writes the recipe and the table, and where it reads
        the key (used only with keyed steps).
    command : sequence of str, default ("riskcore",)
        The command that runs riskcore (e.g. ``("python", "-m", "riskcore")``).
    allowed : sequence of str, default ()
        Detected direct identifiers the session's table carries as they are
        (:func:`~riskcore.deidentify.recipe.identifiers.untreated_identifiers`):
        passed as ``--allow-identifiers COL``, each named in a comment, so that
        ``riskcore apply`` writes the same table instead of stopping.

    Returns
    -------
    str
        The script's text (``#!/bin/sh``, ``set -eu``).

    Raises
    ------
    RiskcoreError
        As :meth:`History.to_recipe`, or for an empty name or command.
    """
    for name, value in (
        ("data_name", data_name),
        ("recipe_name", recipe_name),
        ("out_name", out_name),
        ("key_file", key_file),
    ):
        if not isinstance(value, str) or not value or value.startswith("-"):
            raise RiskcoreError(
                f"the script needs a {name}: a path not starting with '-' (write ./-x), "
                f"not {value!r}"
            )
    if not command or not all(isinstance(c, str) and c for c in command):
        raise RiskcoreError("the script needs the command that runs riskcore")
    recipe = history.to_recipe(base, key=key)
    keyed = keyed_steps(recipe)
    applied = history.current_steps()
    lines = [
        "#!/bin/sh",
        "# Reproduces a remediated table from a riskcore session's history: the steps below",
        "# fold into the recipe this script writes, and `riskcore apply` re-applies it.",
        f"# Table: {json.dumps(data_name, ensure_ascii=True)}; "
        f"{len(applied)} step{'' if len(applied) == 1 else 's'} applied "
        "(time, kind, parameters, risk and loss after it):",
        *(_comment(s, i) for i, s in enumerate(applied, 1)),
    ]
    if not applied:
        lines.append("#   (none: the recipe is the starting one)")
    if keyed:
        lines += [
            "# Keyed steps: " + json.dumps("; ".join(keyed), ensure_ascii=True)[1:-1] + ".",
            f"# Put the key they were made with in {json.dumps(key_file, ensure_ascii=True)} "
            "(hexadecimal text, readable by you only).",
            "# The key is not in this script nor in the recipe (only its check value).",
        ]
    if allowed:
        names = json.dumps(", ".join(allowed), ensure_ascii=True)[1:-1]
        lines += [
            f"# Direct identifiers no step masks, written as they are: {names}.",
            "# They were released so in the session; remove --allow-identifiers to stop instead.",
        ]
    text = json.dumps(recipe.to_dict(), indent=2, ensure_ascii=True)
    run = [*command, "apply", data_name, "--recipe", recipe_name, "--out", out_name]
    if keyed:
        run += ["--key-file", key_file]
    run += [a for c in allowed for a in ("--allow-identifiers", c)]
    lines += [
        "set -eu",
        f"printf '%s\\n' {shlex.quote(text)} > {shlex.quote(recipe_name)}",
        " ".join(shlex.quote(a) for a in run),
    ]
    return "\n".join(lines) + "\n"
