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
  them is a plain hash.

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
    "OPERATOR_NOTES",
    "PLAIN_HASH_NOTE",
    "SSN_SPACE",
    "SURROGATE_KINDS",
    "SURROGATE_NOUNS",
    "EnumerationResult",
    "SecretKey",
    "SurrogateKind",
    "Surrogates",
    "distinct_text",
    "drop_columns",
    "enumeration_attack",
    "hmac_tokens",
    "keep_initials",
    "mask_digits",
    "redact",
    "reverse_tokens",
    "reversible_tokens",
    "shift_dates",
    "substitute",
    "surrogates",
    "take_back",
    "token_collision_probability",
]

#: One line per operator on its strength and its weakness, for the page.
OPERATOR_NOTES: dict[str, str] = {
    "drop_columns": (
        "Removes the column: nothing is left to attack, and nothing is left to link records "
        "of one person or to analyse."
    ),
    "redact": (
        "Replaces every value by one text: as safe as dropping while keeping the column, and "
        "as useless; only the fact that a value was missing survives."
    ),
    "mask_digits": (
        "Keeps the last digits (***-**-6789) for a person to recognise their own record; the "
        "kept digits still narrow the field, and with a date of birth may single one out."
    ),
    "keep_initials": (
        "Keeps initials (A. L.) for a reader to tell records apart; initials plus a ZIP or a "
        "birth date often identify someone."
    ),
    "substitute": (
        "Replaces each value by a number (Person 00017) not derived from it, so it cannot be "
        "reversed without the data; the numbering follows row order, so it is consistent only "
        "within one release."
    ),
    "hmac_tokens": (
        "A keyed HMAC-SHA256 token: the same value gets the same token in every release, and "
        "without the key no enumeration reverses it; whoever holds the key can test any guess."
    ),
    "reversible_tokens": (
        "AES-SIV encryption: the key holder can decrypt every token back to the value, which "
        "is the point and the risk; the token's length shows the value's length."
    ),
    "surrogates": (
        "Realistic fake values (Faker), one per distinct value, so the data still reads "
        "naturally; the lookup table re-identifies everyone and must be kept apart."
    ),
    "shift_dates": (
        "Moves all of a person's dates by one random number of days, so intervals (length of "
        "stay, age at admission) stay exact; the weekday, the season and the year may change, "
        "and a date known from elsewhere reveals the shift."
    ),
    "plain_sha256": (
        "Never a plain hash: an SSN or a birth date is recovered from its SHA-256 by hashing "
        "every possible value, in seconds for birth dates (see the enumeration attack)."
    ),
}
