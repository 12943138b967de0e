"""Direct identifiers a release would carry as they are: found, and refused unless allowed.

``riskcore anonymize demo:3000 --qi age --qi sex --k 5`` once wrote every name, SSN,
full date of birth and 5-digit ZIP code as they were, with exit code 0, under
"k = 5"; ``riskcore apply`` did the same with a recipe made on a table without
them, or with a recipe whose masking was deleted and whose SHA-256 seal was
recomputed (issue 37). Before either command writes a table, :func:`check_identifiers`
runs the identifier detection of the Data page (:func:`riskcore.roles.suggest_roles`:
the name and value rules, then the free-text scan) on the table as given, and
refuses the run when a direct identifier it finds (a column suggested as a direct
identifier or as the person, a column the profile tags so, or a text column whose
text holds Safe Harbor identifiers) is treated by no step: no masking, no Safe
Harbor transform, no date shift, no generalization above level 0. A column the
operator names with ``--allow-identifiers`` is released as it is, and the recipe
and the report say so.

What the detection cannot see is not refused: an identifier under a name and in a
format no rule knows, or identifiers inside a text column longer than the scan's
limit (:data:`riskcore.freetext.MAX_CHARS`, beyond which it is scanned partly). PRAM
and local suppression, which leave most values as they are, do not count as treating
a column; microaggregation and noise, which change every value, do. A masking operator
that keeps the text and removes only the identifiers found in it (``redact_found``,
:attr:`~riskcore.deidentify.masking.MaskOperator.treats`) treats a column taken for
free text holding identifiers, not a column of names or SSNs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from riskcore._results import Result
from riskcore.deidentify.masking import OPERATORS
from riskcore.deidentify.recipe.base import Recipe, _masked_columns, seal_recipe
from riskcore.errors import RiskcoreError
from riskcore.perturb.steps import numeric_columns

if TYPE_CHECKING:
    import pandas as pd

    from riskcore.deidentify.masking import SecretKey
    from riskcore.roles import RoleSuggestions

__all__ = [
    "DetectedIdentifier",
    "IdentifierCheck",
    "check_identifiers",
    "detect_identifiers",
    "partly_treated",
    "record_allowed",
    "treated_columns",
    "untreated_identifiers",
]


@dataclass(frozen=True)
class DetectedIdentifier(Result):
    """A column the detection takes for a direct identifier.

    Attributes
    ----------
    column : str
        The column's name.
    kind : str
        What it appears to hold (``"ssn"``, ``"name"``, ``"free_text"``, ``"tagged"`` for a
        column the profile tags as a direct identifier or the person).
    reason : str
        Why, in words (the role suggestion's reason, or the free-text scan's).
    """

    column: str
    kind: str
    reason: str

    @property
    def gist(self) -> str:
        """The reason without its counts, citation and column name ("person names")."""
        return self.reason.split(" (", 1)[0].split(": ", 1)[0]


@dataclass(frozen=True)
class IdentifierCheck(Result):
    """What a run does with the direct identifiers found in its table.

    Attributes
    ----------
    detected : tuple of DetectedIdentifier
        Every direct identifier found, in table order.
    treated : tuple of str
        Those a step masks, drops or transforms.
    allowed : tuple of str
        Those no step treats, released as they are because the operator allowed them.
    """

    detected: tuple[DetectedIdentifier, ...] = ()
    treated: tuple[str, ...] = ()
    allowed: tuple[str, ...] = ()


def detect_identifiers(
    data: pd.DataFrame,
    *,
    tagged: Iterable[str] = (),
    suggestions: RoleSuggestions | None = None,
) -> tuple[DetectedIdentifier, ...]:
    """Return the direct identifiers of a table, as the Data page suggests them.

    A column is one when :func:`riskcore.roles.suggest_roles` suggests it as a
    direct identifier or as the person (a direct identifier too), when its text
    holds Safe Harbor identifiers whatever role it is suggested (the built-in
    free-text scan, within :data:`riskcore.freetext.MAX_CHARS` characters per
    column), or when it is in ``tagged``.

    Parameters
    ----------
    data : pandas.DataFrame
        The table as given (before any step).
    tagged : iterable of str, optional
        Columns the profile tags as direct identifiers or as the person.
    suggestions : RoleSuggestions, optional
        The suggestions already made on ``data`` (the app's cached ones); made here
        when None.

    Returns
    -------
    tuple of DetectedIdentifier
        In table order.
    """
    from riskcore.roles import free_text_reason, suggest_roles

    sugg = suggest_roles(data) if suggestions is None else suggestions
    marked = set(tagged)
    out: list[DetectedIdentifier] = []
    for column, s in sugg.items():
        scan = None if sugg.text is None else sugg.text.get(column)
        if s.role in ("identifier", "person"):
            out.append(DetectedIdentifier(column, s.kind, s.reason))
        elif scan is not None and scan.identifiers:
            out.append(DetectedIdentifier(column, "free_text", free_text_reason(scan)))
        elif column in marked:
            out.append(DetectedIdentifier(column, "tagged", "tagged as a direct identifier"))
    return tuple(out)


def treated_columns(recipe: Recipe, *, pending: Collection[str] = ()) -> frozenset[str]:
    """Return the columns a recipe masks, drops or transforms.

    Every masking step's column (but one whose every masking step treats only some
    kinds of identifier, :func:`partly_treated`), every Safe Harbor step's (``zip3``,
    ``age_90_plus``, ``date_year``, ``dropped``), the date shift's date columns
    (not its person column, which it only reads), and each quasi-identifier or
    event column generalized above level 0, and each column microaggregated (every
    value replaced by its group's mean) or noised (every value moved). PRAM and local
    suppression are not counted: PRAM keeps most values, local suppression blanks some
    cells only.

    Parameters
    ----------
    recipe : Recipe
        The recipe.
    pending : collection of str, optional
        Columns a step still to come will transform (the quasi-identifiers before
        the search has chosen their levels).

    Returns
    -------
    frozenset of str
    """
    out = set(_masked_columns(recipe)) - set(partly_treated(recipe))
    out |= {x.column for x in recipe.safe_harbor}
    if recipe.date_shift is not None:
        out |= set(recipe.date_shift.columns)
    out |= {q for q, lv in zip(recipe.quasi_identifiers, recipe.levels, strict=True) if int(lv) > 0}
    out |= set(numeric_columns(recipe.perturb))
    return frozenset(out | set(pending))


def partly_treated(recipe: Recipe) -> dict[str, frozenset[str]]:
    """Return the columns whose every masking step treats only some kinds of identifier.

    ``redact_found`` keeps the text and removes the identifiers the patterns find
    in it: it treats a column detected as free text holding identifiers
    (``"free_text"``), not one detected as names.

    Parameters
    ----------
    recipe : Recipe
        The recipe.

    Returns
    -------
    dict of str to frozenset of str
        ``{column: the detected kinds its masking treats}``.
    """
    kinds: dict[str, frozenset[str] | None] = {}
    for m in recipe.masking:
        (col,) = m.columns
        op = OPERATORS.get(m.operation)
        some = None if op is None or op.treats is None else frozenset(op.treats)
        before = kinds.get(col, frozenset())
        kinds[col] = None if some is None or before is None else before | some
    return {c: k for c, k in kinds.items() if k is not None}


def _treated(
    d: DetectedIdentifier, treated: frozenset[str], partly: dict[str, frozenset[str]]
) -> bool:
    """Whether a step treats a detected identifier (its column, or its kind there)."""
    return d.column in treated or d.kind in partly.get(d.column, frozenset())


def untreated_identifiers(
    recipe: Recipe,
    detected: Sequence[DetectedIdentifier],
    allowed: Collection[str] = (),
    *,
    pending: Collection[str] = (),
) -> tuple[DetectedIdentifier, ...]:
    """Return the detected direct identifiers that no step of ``recipe`` treats nor is allowed.

    Parameters
    ----------
    recipe : Recipe
        The steps a release applies.
    detected : sequence of DetectedIdentifier
        :func:`detect_identifiers` of the table.
    allowed : collection of str, optional
        The columns allowed as they are.
    pending : collection of str, optional
        Columns a step still to come will transform (:func:`treated_columns`).

    Returns
    -------
    tuple of DetectedIdentifier
        What the release would carry as it is, in table order.
    """
    treated, partly = treated_columns(recipe, pending=pending), partly_treated(recipe)
    return tuple(
        d for d in detected if not _treated(d, treated, partly) and d.column not in allowed
    )


def check_identifiers(
    data: pd.DataFrame,
    recipe: Recipe,
    allowed: Sequence[str] = (),
    *,
    detected: Sequence[DetectedIdentifier] | None = None,
    pending: Collection[str] = (),
    remedy: str = "",
) -> IdentifierCheck:
    """Refuse a run that would write a detected direct identifier as it is, unless allowed.

    Parameters
    ----------
    data : pandas.DataFrame
        The table as given (before any step).
    recipe : Recipe
        The steps the run applies.
    allowed : sequence of str, optional
        The columns the operator allows to be released as they are
        (``--allow-identifiers``); each must be a column of ``data``.
    detected : sequence of DetectedIdentifier, optional
        The detection already run on ``data`` (:func:`detect_identifiers`); run here when
        None.
    pending : collection of str, optional
        Columns a step still to come will transform (:func:`treated_columns`).
    remedy : str, optional
        What to do, appended to the message (the command's options).

    Returns
    -------
    IdentifierCheck

    Raises
    ------
    RiskcoreError
        Naming every untreated direct identifier and why it was taken for one, or an
        allowed column the table does not hold.
    """
    columns = {str(c) for c in data.columns}
    absent = [c for c in allowed if c not in columns]
    if absent:
        raise RiskcoreError(f"--allow-identifiers {absent[0]}: the table has no such column")
    found = detect_identifiers(data) if detected is None else tuple(detected)
    treated, partly = treated_columns(recipe, pending=pending), partly_treated(recipe)
    bare = untreated_identifiers(recipe, found, allowed, pending=pending)
    if bare:
        level0 = set(recipe.quasi_identifiers) - treated
        named = "; ".join(
            f"{d.column!r} ({d.gist}"
            + (", a quasi-identifier kept at level 0" if d.column in level0 else "")
            + (
                ", whose masking keeps the text and removes only identifiers found in it"
                if d.column in partly
                else ""
            )
            + ")"
            for d in bare
        )
        raise RiskcoreError(
            "the table holds direct identifiers that no step masks, drops or transforms, "
            f"which would be written as they are: {named}; {remedy}"
            + ("; " if remedy else "")
            + "or, to release one as it is, give --allow-identifiers "
            + " --allow-identifiers ".join(d.column for d in bare)
        )
    return IdentifierCheck(
        detected=found,
        treated=tuple(d.column for d in found if _treated(d, treated, partly)),
        allowed=tuple(d.column for d in found if not _treated(d, treated, partly)),
    )


def record_allowed(
    recipe: Recipe, check: IdentifierCheck, key: SecretKey | bytes | None = None
) -> Recipe:
    """Return ``recipe`` recording the direct identifiers it releases as they are, re-sealed.

    Parameters
    ----------
    recipe : Recipe
        The recipe the run applied (sealed under ``key`` when a step is keyed).
    check : IdentifierCheck
        Its :func:`check_identifiers`: ``allowed`` are the detected direct identifiers no
        step treats that the operator allowed (a column allowed but masked or generalized
        anyway is not recorded: it is not released as it is).
    key : SecretKey or bytes, optional
        The key of its keyed steps.

    Returns
    -------
    Recipe
        With ``allowed_identifiers``; the same recipe when there are none.
    """
    if recipe.allowed_identifiers == check.allowed:
        return recipe
    return seal_recipe(dataclasses.replace(recipe, allowed_identifiers=check.allowed), key)
