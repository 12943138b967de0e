"""Masking operators for direct identifiers.

Each operator is a pure function of a pandas Series that returns a new
Series with the same index and name (the input is never changed); missing
values stay missing. Work is done once per *distinct* value
(:mod:`~riskcore.deidentify.masking.values`).

Modules:

- :mod:`~riskcore.deidentify.masking.values`: per-value work on a column;
- :mod:`~riskcore.deidentify.masking.simple`: :func:`drop_columns`,
  :func:`redact`, :func:`mask_digits`, :func:`keep_initials`, :func:`substitute`;
- :mod:`~riskcore.deidentify.masking.tokens`: :class:`SecretKey`,
  :func:`hmac_tokens`, :func:`reversible_tokens` / :func:`reverse_tokens`;
- :mod:`~riskcore.deidentify.masking.fakes`: :func:`surrogates` (Faker), with a lookup table;
- :mod:`~riskcore.deidentify.masking.dateshift`: :func:`shift_dates`, one shift per person;
- :mod:`~riskcore.deidentify.masking.enumeration`: :func:`enumeration_attack`, why none of
  them is a plain hash;
- :mod:`~riskcore.deidentify.masking.registry`: :data:`OPERATORS`, every operator in one
  entry (a :class:`MaskOperator` of :mod:`~riskcore.deidentify.masking.operators`: name,
  label, parameters, key, note, words, function): the recipe, the steps in words, the
  Remediate page and the command line read it.

A key is never written into a result, a repr, a message or a log: a
:class:`SecretKey` shows only its length, and :meth:`SecretKey.reveal_hex` is
the one way to read it (to show it to its owner once).
"""

from __future__ import annotations

from riskcore.deidentify.masking.dateshift import shift_dates
from riskcore.deidentify.masking.enumeration import (
    PLAIN_HASH_NOTE,
    SSN_SPACE,
    EnumerationResult,
    enumeration_attack,
)
from riskcore.deidentify.masking.fakes import (
    SURROGATE_KINDS,
    SURROGATE_NOUNS,
    SurrogateKind,
    Surrogates,
    surrogates,
)
from riskcore.deidentify.masking.registry import (
    MENU,
    OPERATORS,
    Masked,
    MaskOperator,
    Param,
    choice_label,
    get_operator,
    make_step,
    parse_choice,
    spelled_operators,
    step_words,
)
from riskcore.deidentify.masking.simple import (
    drop_columns,
    keep_initials,
    mask_digits,
    redact,
    substitute,
)
from riskcore.deidentify.masking.tokens import (
    SecretKey,
    hmac_tokens,
    reverse_tokens,
    reversible_tokens,
    token_collision_probability,
)
from riskcore.deidentify.masking.values import distinct_text, take_back

__all__ = [
    "MENU",
    "OPERATORS",
    "PLAIN_HASH_NOTE",
    "SSN_SPACE",
    "SURROGATE_KINDS",
    "SURROGATE_NOUNS",
    "EnumerationResult",
    "MaskOperator",
    "Masked",
    "Param",
    "SecretKey",
    "SurrogateKind",
    "Surrogates",
    "choice_label",
    "distinct_text",
    "drop_columns",
    "enumeration_attack",
    "get_operator",
    "hmac_tokens",
    "keep_initials",
    "make_step",
    "mask_digits",
    "parse_choice",
    "redact",
    "reverse_tokens",
    "reversible_tokens",
    "shift_dates",
    "spelled_operators",
    "step_words",
    "substitute",
    "surrogates",
    "take_back",
    "token_collision_probability",
]
