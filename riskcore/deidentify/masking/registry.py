"""The masking operators in one registry: one entry per operator, everything about it there.

Each :class:`MaskOperator` holds the operator's recipe name, its label for a
menu, its parameters (:class:`Param`: default, validation, whether a recipe
step records it), whether it needs the key, its one-line strength / weakness
note, the function that describes a configured step in words, and the
function that applies it to a table. The recipe (:mod:`riskcore.deidentify.recipe.base`),
the recipe's steps in words (:mod:`riskcore.deidentify.recipe.steps`), the
Remediate page and the command line read :data:`OPERATORS`; nothing else
dispatches on an operator's name.

A recipe's masking step is ``{"column", "operator", "params"}``
(:func:`make_step`); a menu choice is the operator's name, or
``"NAME:VALUE"`` for an operator with a variant parameter
(``"surrogates:name"`` sets ``kind``).
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd

from riskcore._validation import check_one_of, check_positive_int
from riskcore.deidentify.masking.dateshift import shift_dates
from riskcore.deidentify.masking.fakes import (
    SEXED_KINDS,
    SURROGATE_KINDS,
    SURROGATE_NOUNS,
    surrogates,
)
from riskcore.deidentify.masking.operators import Apply, Masked, MaskOperator, Param
from riskcore.deidentify.masking.simple import (
    drop_columns,
    keep_initials,
    mask_digits,
    redact,
    substitute,
)
from riskcore.deidentify.masking.tokens import (
    BITS_PER_CHAR,
    MAX_TOKEN_LENGTH,
    SecretKey,
    hmac_tokens,
    reversible_tokens,
)
from riskcore.errors import RiskcoreError
from riskcore.freetext import MAX_CHARS, redact_found

__all__ = [
    "MENU",
    "OPERATORS",
    "MaskOperator",
    "Masked",
    "Param",
    "choice_label",
    "get_operator",
    "make_step",
    "parse_choice",
    "spelled_operators",
    "step_words",
]


# ------------------------------------------------------------------ parameter checks


def _whole(name: str, minimum: int) -> Callable[[Any], int]:
    return lambda v: check_positive_int(name, v, minimum=minimum)


def _one_of(name: str, options: Sequence[str]) -> Callable[[Any], Any]:
    return lambda v: check_one_of(name, v, options)


def _text(name: str) -> Callable[[Any], str]:
    def check(v: Any) -> str:
        if not isinstance(v, str):
            raise TypeError(f"{name} must be text, got {v!r}")
        return v

    return check


def _one_char(v: Any) -> str:
    if not isinstance(v, str) or len(v) != 1:
        raise ValueError(f"mask must be one character, got {v!r}")
    return v


def _seed(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"seed must be an integer, got {v!r}")
    return int(v)


# ------------------------------------------------------------------ applying


def _per_column(fn: Callable[[pd.Series, Mapping[str, Any], SecretKey | None], pd.Series]) -> Apply:
    """Return an ``apply`` that replaces each column by ``fn(column, params, key)``."""

    def apply(
        data: pd.DataFrame, columns: Sequence[str], params: Mapping[str, Any], key: SecretKey | None
    ) -> Masked:
        out = data.copy()
        for col in columns:
            out[col] = fn(data[col], params, key)
        return Masked(out, None)

    return apply


def _with_key(key: SecretKey | None) -> SecretKey:
    if key is None:  # MaskOperator.run refuses a keyed operator without its key
        raise RiskcoreError("a keyed masking operator needs the key")
    return key


def _drop(
    data: pd.DataFrame, columns: Sequence[str], params: Mapping[str, Any], key: SecretKey | None
) -> Masked:
    return Masked(drop_columns(data, columns), None)


def _surrogates(
    data: pd.DataFrame, columns: Sequence[str], params: Mapping[str, Any], key: SecretKey | None
) -> Masked:
    out = data.copy()
    lookups = []
    for col in columns:
        by = params.get("sex") or None
        if by is not None and by not in data.columns:
            raise RiskcoreError(f"the table has no column {by!r}, which the surrogates follow")
        made = surrogates(
            data[col],
            params["kind"],
            seed=params["seed"],
            locale=params["locale"],
            sex=None if by is None else data[by],
        )
        out[col] = made.values
        lookups.append(made.lookup.assign(column=col)[["column", "original", "surrogate"]])
    return Masked(out, pd.concat(lookups, ignore_index=True) if lookups else None)


def _shift(
    data: pd.DataFrame, columns: Sequence[str], params: Mapping[str, Any], key: SecretKey | None
) -> Masked:
    moved = shift_dates(
        data,
        person=params["person"],
        columns=columns,
        max_days=params["max_days"],
        key=_with_key(key),
    )
    return Masked(moved, None)


def _found(series: pd.Series, params: Mapping[str, Any], key: SecretKey | None) -> pd.Series:
    """The identifiers the free-text patterns find, replaced or removed; the text kept."""
    out, _ = redact_found(series, remove=params["found"] == "removed", max_chars=MAX_CHARS)
    return out


# ------------------------------------------------------------------ words


def _found_words(p: Mapping[str, Any]) -> str:
    done = "removed" if p["found"] == "removed" else "replaced by [PHONE], [EMAIL] ..."
    return f"identifiers found in the text {done}, the rest of the text kept"


def _redact_words(p: Mapping[str, Any]) -> str:
    return "redacted" if p["text"] == "[REDACTED]" else f"redacted (every value {p['text']!r})"


def _digits_words(p: Mapping[str, Any]) -> str:
    n = p["keep_last"]
    if n == 0:
        return "every digit masked"
    return "last digit kept" if n == 1 else f"last {n} digits kept"


def _substitute_words(p: Mapping[str, Any]) -> str:
    first = f"{p['prefix']} {1:0{p['width']}d}"
    return f"a number per distinct value ({first}, ...)"


def _hmac_words(p: Mapping[str, Any]) -> str:
    bits = BITS_PER_CHAR[p["encoding"]] * p["length"]
    return f"keyed HMAC-SHA256 token ({p['length']} {p['encoding']} characters, {bits} bits)"


def _surrogate_words(p: Mapping[str, Any]) -> str:
    where = "" if p["locale"] == "en_US" else f", {p['locale']}"
    sexed = f", following {p['sex']}" if p.get("sex") and p["kind"] in SEXED_KINDS else ""
    return f"surrogate {SURROGATE_NOUNS[p['kind']][1]} (Faker{where}{sexed})"


def _shift_words(p: Mapping[str, Any]) -> str:
    days = p["max_days"]
    return (
        f"shifted by one keyed random number of days per {p['person']}, at most {days:,} "
        f"{'day' if days == 1 else 'days'} either way"
    )


def _hmac_length(p: Mapping[str, Any]) -> None:
    most = MAX_TOKEN_LENGTH[p["encoding"]]
    if p["length"] > most:
        raise ValueError(
            f"length must be from 1 to {most} for {p['encoding']}, got {p['length']!r}"
        )


#: What ``redact_found`` writes in place of an identifier found: its placeholder, or nothing.
_FOUND = ("tagged", "removed")

#: Surrogate kinds the Remediate page offers for a direct identifier.
_MENU_KINDS = ("name", "ssn", "email")

_ALL: tuple[MaskOperator, ...] = (
    MaskOperator(
        name="drop",
        label="drop the column",
        note=(
            "Removes the column: nothing is left to attack, and nothing is left to link records "
            "of one person or to analyse."
        ),
        needs_key=False,
        params=(),
        describe=lambda p: "column dropped",
        apply=_drop,
    ),
    MaskOperator(
        name="redact",
        label="redact (one text for all)",
        note=(
            "Replaces every value by one text: as safe as dropping while keeping the column, "
            "and as useless; only the fact that a value was missing survives."
        ),
        needs_key=False,
        params=(Param("text", "[REDACTED]", _text("text"), recorded=False),),
        describe=_redact_words,
        apply=_per_column(lambda s, p, k: redact(s, text=p["text"])),
    ),
    MaskOperator(
        name="redact_found",
        label="remove the identifiers found, keep the text",
        note=(
            "Keeps the text and removes what the built-in patterns find in it (phone numbers, "
            "e-mails, SSNs, IP addresses, dates ...); names, places and forms no pattern knows "
            f"stay. Reads at most {MAX_CHARS:,} characters of distinct text per column."
        ),
        needs_key=False,
        params=(Param("found", "tagged", _one_of("found", _FOUND), options=_FOUND),),
        describe=_found_words,
        apply=_per_column(_found),
        variant="found",
        choices=(
            ("redact_found", "keep text, mark [PHONE]"),
            ("redact_found:removed", "keep text, erase [PHONE]"),
        ),
        treats=("free_text",),
    ),
    MaskOperator(
        name="mask_digits",
        label="keep the last 4 digits",
        note=(
            "Keeps the last digits (***-**-6789) for a person to recognise their own record; "
            "the kept digits still narrow the field, and with a date of birth may single one out."
        ),
        needs_key=False,
        params=(
            Param("keep_last", 4, _whole("keep_last", 0)),
            Param("mask", "*", _one_char, recorded=False),
        ),
        describe=_digits_words,
        apply=_per_column(lambda s, p, k: mask_digits(s, keep_last=p["keep_last"], mask=p["mask"])),
    ),
    MaskOperator(
        name="keep_initials",
        label="keep the initials",
        note=(
            "Keeps initials (A. L.) for a reader to tell records apart; initials plus a ZIP or "
            "a birth date often identify someone."
        ),
        needs_key=False,
        params=(),
        describe=lambda p: "initials kept",
        apply=_per_column(lambda s, p, k: keep_initials(s)),
    ),
    MaskOperator(
        name="substitute",
        label="a number per value (Person 00017)",
        note=(
            "Replaces each value by a number (Person 00017) not derived from it, so it cannot "
            "be reversed without the data; the numbering follows row order, so it is consistent "
            "only within one release."
        ),
        needs_key=False,
        params=(
            Param("prefix", "Person", _text("prefix"), recorded=False),
            Param("width", 5, _whole("width", 1), recorded=False),
        ),
        describe=_substitute_words,
        apply=_per_column(lambda s, p, k: substitute(s, prefix=p["prefix"], width=p["width"])),
    ),
    MaskOperator(
        name="hmac_tokens",
        label="keyed token (HMAC-SHA256)",
        note=(
            "A keyed HMAC-SHA256 token: the same value gets the same token in every release, "
            "and without the key no enumeration reverses it; whoever holds the key can test "
            "any guess."
        ),
        needs_key=True,
        params=(
            Param("length", 16, _whole("length", 1)),
            Param(
                "encoding",
                "hex",
                _one_of("encoding", tuple(MAX_TOKEN_LENGTH)),
                options=tuple(MAX_TOKEN_LENGTH),
            ),
        ),
        describe=_hmac_words,
        validate=_hmac_length,
        apply=_per_column(
            lambda s, p, k: hmac_tokens(s, _with_key(k), length=p["length"], encoding=p["encoding"])
        ),
    ),
    MaskOperator(
        name="reversible_tokens",
        label="reversible token (AES-SIV)",
        note=(
            "AES-SIV encryption: the key holder can decrypt every token back to the value, "
            "which is the point and the risk; the token's length shows the value's length."
        ),
        needs_key=True,
        params=(),
        describe=lambda p: "reversible AES-SIV token (the key holder can decrypt it)",
        apply=_per_column(lambda s, p, k: reversible_tokens(s, _with_key(k))),
    ),
    MaskOperator(
        name="surrogates",
        label="realistic surrogates (Faker)",
        note=(
            "Realistic fake values (Faker), one per distinct value, so the data still reads "
            "naturally; the lookup table re-identifies everyone and must be kept apart."
        ),
        needs_key=False,
        params=(
            Param("kind", None, _one_of("kind", SURROGATE_KINDS), options=SURROGATE_KINDS),
            Param("seed", 0, _seed),
            Param("locale", "en_US", _text("locale"), recorded=False),
            Param("sex", "", _text("sex")),  # "": no sex column to follow
        ),
        describe=_surrogate_words,
        apply=_surrogates,
        variant="kind",
        choices=tuple(
            (f"surrogates:{k}", f"realistic surrogate {SURROGATE_NOUNS[k][0]} (Faker)")
            for k in _MENU_KINDS
        ),
    ),
    MaskOperator(
        name="shift_dates",
        label="shift dates per person (keyed)",
        note=(
            "Moves all of a person's dates by one random number of days, so intervals (length "
            "of stay, age at admission) stay exact; the weekday, the season and the year may "
            "change, and a date known from elsewhere reveals the shift."
        ),
        needs_key=True,
        params=(
            Param("person", None, _text("person")),
            Param("max_days", 180, _whole("max_days", 1)),
        ),
        describe=_shift_words,
        apply=_shift,
        choices=(),
    ),
)

#: Every masking operator by its recipe name, in menu order (read-only).
OPERATORS: Mapping[str, MaskOperator] = types.MappingProxyType({op.name: op for op in _ALL})

#: The menu choices for a direct identifier, in order, with their labels (read-only).
MENU: Mapping[str, str] = types.MappingProxyType(
    {
        choice: label
        for op in _ALL
        for choice, label in (((op.name, op.label),) if op.choices is None else op.choices)
    }
)


def get_operator(name: str) -> MaskOperator:
    """Return the operator of a recipe name.

    Parameters
    ----------
    name : str
        An operator's name in a recipe.

    Returns
    -------
    MaskOperator

    Raises
    ------
    RiskcoreError
        For a name the registry does not hold; the message lists the operators.
    """
    op = OPERATORS.get(str(name))
    if op is None:
        raise RiskcoreError(
            f"unknown masking operator {name!r}: use one of {', '.join(spelled_operators())}"
        )
    return op


def spelled_operators() -> list[str]:
    """Return the operators one column can be given, as a command line writes them.

    Returns
    -------
    list of str
        Names, with ``NAME:VARIANT`` for an operator with a variant parameter
        (``"surrogates:KIND"``), ``NAME[:VALUE]`` for one whose variant has a
        default (``"redact_found[:removed]"``); the date shift, which moves several columns
        per person, is not one of them.
    """
    return [_spelled(op) for op in _ALL if op.choices != ()]


def _spelled(op: MaskOperator) -> str:
    """``NAME``, ``NAME:VARIANT`` (a variant it needs) or ``NAME[:A|B]`` (one it may take)."""
    if op.variant is None:
        return op.name
    param = next(p for p in op.params if p.name == op.variant)
    if param.default is None:
        return f"{op.name}:{op.variant.upper()}"
    return f"{op.name}[:{'|'.join(o for o in param.options if o != param.default)}]"


def parse_choice(choice: str) -> tuple[MaskOperator, dict[str, Any]]:
    """Return the operator of a menu choice and the parameters the choice sets.

    Parameters
    ----------
    choice : str
        An operator's name, or ``"NAME:VALUE"`` for an operator with a variant
        parameter (``"surrogates:ssn"``).

    Returns
    -------
    operator : MaskOperator
    params : dict
        ``{variant: VALUE}``, or empty.

    Raises
    ------
    RiskcoreError
        For an unknown operator, a variant the operator does not take, or a
        missing one it needs.
    """
    name, sep, value = str(choice).partition(":")
    op = OPERATORS.get(name)
    if op is None or op.choices == ():
        raise RiskcoreError(
            f"unknown masking operator {choice!r}: use one of {', '.join(spelled_operators())}"
        )
    if op.variant is None:
        if sep:
            raise RiskcoreError(f"the operator {name!r} takes no kind")
        return op, {}
    param = next(p for p in op.params if p.name == op.variant)
    if not value and param.default is None:
        raise RiskcoreError(
            f"{name} need a {op.variant} ({', '.join(param.options)}): write "
            f"{name}:{op.variant.upper()}"
        )
    return op, ({op.variant: value} if value else {})


def make_step(column: str, choice: str, **params: Any) -> dict[str, Any]:
    """Return the recipe step of one operator on one column.

    Parameters
    ----------
    column : str
        The column's name.
    choice : str
        A menu choice (:func:`parse_choice`).
    **params
        Further parameters (checked); a parameter the operator does not take is ignored.

    Returns
    -------
    dict
        ``{"column", "operator", "params"}``; ``params`` holds the operator's
        recorded parameters (:attr:`Param.recorded`, defaults filled in).
    """
    op, chosen = parse_choice(choice)
    names = {p.name for p in op.params}
    given = {k: v for k, v in params.items() if k in names} | chosen
    full = op.configure(given)
    # an optional text parameter left at its default "" (no sex column) is not written
    kept = {
        p.name: full[p.name]
        for p in op.params
        if p.recorded and not (p.default == "" and full[p.name] == "")
    }
    return {"column": str(column), "operator": op.name, "params": kept}


def step_words(step: Mapping[str, Any]) -> str:
    """Return what a recipe's masking step does to its column, in words ("last 4 digits kept").

    Parameters
    ----------
    step : mapping of str to Any
        A masking step of a recipe (its operator, column and parameters).

    Returns
    -------
    str

    Raises
    ------
    RiskcoreError
        For an unknown operator or bad parameters.
    """
    return get_operator(str(step["operator"])).words(step.get("params"))


def choice_label(choice: str) -> str:
    """Return a menu choice's label ("keep the last 4 digits").

    Parameters
    ----------
    choice : str
        A menu choice's name.

    Returns
    -------
    str

    Raises
    ------
    RiskcoreError
        For a choice that is not in the menu.
    """
    if choice not in MENU:
        raise RiskcoreError(f"{choice!r} is not a choice of the masking menu")
    return MENU[choice]
