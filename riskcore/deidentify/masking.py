"""Masking operators for direct identifiers.

Each operator is a pure function of a pandas Series that returns a new
Series with the same index and name (the input is never changed); missing
values stay missing. Work is done once per *distinct* value, not per row: the
column is factorized, the distinct values are transformed, and the results
are taken back to the rows. Values are read as their trimmed text
(:func:`riskcore._values.value_text`: a ZIP read as the float ``2139.0`` is
``"2139"``; a text ``"02139"`` keeps its leading zero).

Operators (the page shows :data:`OPERATOR_NOTES`, one line each):

- :func:`drop_columns`: remove whole columns;
- :func:`redact`: one constant text;
- :func:`mask_digits`, :func:`keep_initials`: partial masks;
- :func:`substitute`: ``"Person 00017"``, numbered by first appearance;
- :func:`hmac_tokens`: keyed HMAC-SHA256 tokens (a :class:`SecretKey`);
- :func:`reversible_tokens` / :func:`reverse_tokens`: AES-SIV tokens that the
  key holder can decrypt;
- :func:`surrogates`: realistic fake values from Faker, with a lookup table;
- :func:`shift_dates`: one random shift per person for all of the person's dates.

:func:`enumeration_attack` shows why none of them is a plain hash: it reverses
SHA-256 hashes of a column's SSNs or birth dates by trying every candidate.

A key is never written into a result, a repr, a message or a log: a
:class:`SecretKey` shows only its length, and :meth:`SecretKey.reveal_hex` is
the one way to read it (to show it to its owner once).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import math
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, NamedTuple

import numpy as np
import numpy.typing as npt
import pandas as pd

from riskcore._results import Result
from riskcore._values import value_text
from riskcore.errors import RiskcoreError

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.ciphers.aead import AESSIV
    from faker import Faker

__all__ = [
    "OPERATOR_NOTES",
    "SURROGATE_KINDS",
    "EnumerationResult",
    "SecretKey",
    "Surrogates",
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


# ------------------------------------------------------------------ helpers


def _check_series(series: object) -> pd.Series:
    if not isinstance(series, pd.Series):
        raise TypeError(f"series must be a pandas Series, got {type(series).__name__}")
    return series


def distinct_text(series: pd.Series) -> tuple[npt.NDArray[np.intp], list[str]]:
    """Return row codes (-1 for missing) and the distinct trimmed texts, in first-appearance order.

    Two values with the same text (``" x"`` and ``"x"``) are one value.
    """
    codes, uniques = pd.factorize(series, use_na_sentinel=True, sort=False)
    texts = np.array([value_text(v) for v in np.asarray(uniques, dtype=object)], dtype=object)
    merged, distinct = pd.factorize(texts, sort=False)
    rows = np.where(codes >= 0, np.append(merged, -1)[codes], -1)
    return rows.astype(np.intp), [str(t) for t in distinct]


def take_back(
    series: pd.Series, codes: npt.NDArray[np.intp], values: Sequence[object]
) -> pd.Series:
    """Return a Series of ``values[code]`` per row, missing where the code is -1.

    The index and name are those of ``series``; the dtype is object.
    """
    out = np.empty(len(values) + 1, dtype=object)
    out[: len(values)] = list(values)
    out[-1] = np.nan
    return pd.Series(out[codes], index=series.index, name=series.name, dtype=object)


def _per_value(series: pd.Series, transform: Callable[[list[str]], Sequence[object]]) -> pd.Series:
    """Apply ``transform`` to the distinct texts of a column and take the results back to the rows.

    ``transform`` gets the distinct non-missing texts (first-appearance order)
    and returns one output per text. Missing rows stay missing (NaN).
    """
    series = _check_series(series)
    codes, texts = distinct_text(series)
    values = list(transform(texts))
    if len(values) != len(texts):  # pragma: no cover - internal contract
        raise AssertionError("a transform returned the wrong number of values")
    return take_back(series, codes, values)


# ------------------------------------------------------------------ simple operators


def drop_columns(data: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """Return the table without the given columns.

    Parameters
    ----------
    data : pandas.DataFrame
    columns : sequence of str
        Columns to remove; each must exist.

    Returns
    -------
    pandas.DataFrame
        A new table; ``data`` is not changed.

    Raises
    ------
    RiskcoreError
        Naming the first column that is not in the table.
    """
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"data must be a pandas DataFrame, got {type(data).__name__}")
    if isinstance(columns, str):
        raise TypeError("columns must be a sequence of column names, not a string")
    present = [str(c) for c in data.columns]
    for col in columns:
        if col not in present:
            raise RiskcoreError(f"cannot drop column {col!r}: it is not in the table")
    return data.drop(columns=list(columns))


def redact(series: pd.Series, *, text: str = "[REDACTED]") -> pd.Series:
    """Replace every non-missing value by one constant text.

    Parameters
    ----------
    series : pandas.Series
    text : str, default "[REDACTED]"

    Returns
    -------
    pandas.Series
        ``text`` where the input has a value, missing where it is missing.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    return _per_value(series, lambda texts: [text] * len(texts))


def mask_digits(series: pd.Series, *, keep_last: int = 4, mask: str = "*") -> pd.Series:
    """Mask every digit except the last ``keep_last``, keeping other characters.

    ``"123-45-6789"`` becomes ``"***-**-6789"``; ``"0012"`` with
    ``keep_last=2`` becomes ``"**12"`` (leading zeros of text are digits like
    any other). A value with at most ``keep_last`` digits is masked entirely,
    since showing all of its digits would show the value.

    Parameters
    ----------
    series : pandas.Series
    keep_last : int, default 4
        Digits kept at the end (>= 0).
    mask : str, default "*"
        One character written over each hidden digit.

    Returns
    -------
    pandas.Series
        Text; missing stays missing.
    """
    if isinstance(keep_last, bool) or not isinstance(keep_last, int) or keep_last < 0:
        raise ValueError(f"keep_last must be an integer >= 0, got {keep_last!r}")
    if not isinstance(mask, str) or len(mask) != 1:
        raise ValueError(f"mask must be one character, got {mask!r}")

    def one(text: str) -> str:
        n_digits = sum(ch.isdigit() for ch in text)
        keep = keep_last if n_digits > keep_last else 0
        out, seen = [], 0
        for ch in text:
            if ch.isdigit():
                seen += 1
                out.append(ch if seen > n_digits - keep else mask)
            else:
                out.append(ch)
        return "".join(out)

    return _per_value(series, lambda texts: [one(t) for t in texts])


def keep_initials(series: pd.Series) -> pd.Series:
    """Replace each word of a name by its first letter and a full stop.

    ``"ada lovelace"`` becomes ``"A. L."``; words without a letter are left
    out; a value without any letter becomes ``""``.

    Parameters
    ----------
    series : pandas.Series

    Returns
    -------
    pandas.Series
        Text; missing stays missing.
    """

    def one(text: str) -> str:
        initials = []
        for word in text.split():
            letter = next((ch for ch in word if ch.isalpha()), None)
            if letter is not None:
                initials.append(letter.upper() + ".")
        return " ".join(initials)

    return _per_value(series, lambda texts: [one(t) for t in texts])


def substitute(series: pd.Series, *, prefix: str = "Person", width: int = 5) -> pd.Series:
    """Replace each distinct value by a numbered label, ``"Person 00017"``.

    Numbering is by first appearance: the value of the first non-missing row
    is ``Person 00001``, the next value not seen before ``Person 00002``, and
    so on; equal values get equal labels. The label is not derived from the
    value, so it cannot be reversed without the original table (a
    re-identification code as 45 CFR 164.514(c) allows); but the numbering
    depends on the row order, so two releases number people differently.

    Parameters
    ----------
    series : pandas.Series
    prefix : str, default "Person"
    width : int, default 5
        Digits of the number, zero-padded (more when there are more values).

    Returns
    -------
    pandas.Series
        Text; missing stays missing.
    """
    if isinstance(width, bool) or not isinstance(width, int) or width < 1:
        raise ValueError(f"width must be an integer >= 1, got {width!r}")

    def labels(texts: list[str]) -> list[str]:
        digits = max(width, len(str(len(texts))))
        return [f"{prefix} {i:0{digits}d}" for i in range(1, len(texts) + 1)]

    return _per_value(series, labels)


# ------------------------------------------------------------------ keys and tokens


class SecretKey:
    """A secret key that never shows its bytes.

    ``repr`` and ``str`` give only the key's length; the bytes are read with
    :meth:`reveal_hex`, meant for showing the key to its owner once. Keep the
    key apart from the data: whoever holds it can test guesses against HMAC
    tokens and decrypt reversible tokens.

    Parameters
    ----------
    key : bytes
        At least 16 bytes (128 bits); 32 for HMAC-SHA256, 32 / 48 / 64 for
        AES-SIV (64: AES-256-SIV).

    Raises
    ------
    TypeError
        When ``key`` is not bytes (the message names the type only).
    ValueError
        When it is shorter than 16 bytes (the message gives the length only).
    """

    __slots__ = ("_key",)
    _key: bytes

    def __init__(self, key: bytes | SecretKey) -> None:
        if isinstance(key, SecretKey):
            key = key._key
        if not isinstance(key, (bytes, bytearray)):
            raise TypeError(f"key must be bytes, got {type(key).__name__}")
        if len(key) < 16:
            raise ValueError(f"key must be at least 16 bytes (128 bits), got {len(key)} bytes")
        self._key = bytes(key)

    @classmethod
    def generate(cls, nbytes: int = 32) -> SecretKey:
        """Return a new random key from :func:`secrets.token_bytes`.

        Parameters
        ----------
        nbytes : int, default 32
            32 (256 bits) for HMAC tokens; 64 for AES-256-SIV.
        """
        if isinstance(nbytes, bool) or not isinstance(nbytes, int) or nbytes < 16:
            raise ValueError(f"nbytes must be an integer >= 16, got {nbytes!r}")
        return cls(secrets.token_bytes(nbytes))

    @classmethod
    def from_hex(cls, text: str) -> SecretKey:
        """Read a key written by :meth:`reveal_hex`.

        Raises
        ------
        ValueError
            When the text is not hexadecimal (the text itself is not quoted).
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        try:
            return cls(bytes.fromhex(text.strip()))
        except ValueError:
            raise ValueError("the key is not hexadecimal text of at least 16 bytes") from None

    def reveal_hex(self) -> str:
        """Return the key as hexadecimal text: show it to its owner once, store it apart."""
        return self._key.hex()

    @property
    def n_bytes(self) -> int:
        """The key's length in bytes."""
        return len(self._key)

    def __repr__(self) -> str:
        return f"SecretKey({8 * len(self._key)} bits, hidden)"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SecretKey):
            return NotImplemented
        return hmac.compare_digest(self._key, other._key)

    def __hash__(self) -> int:
        return hash(hashlib.sha256(b"riskcore-key-id" + self._key).digest())


def _key_bytes(key: SecretKey | bytes) -> bytes:
    return SecretKey(key)._key


#: Characters of each token encoding and the bits each carries.
_BITS_PER_CHAR = {"hex": 4, "base32": 5}
_MAX_LENGTH = {"hex": 64, "base32": 51}


def token_collision_probability(n_distinct: int, bits: int) -> float:
    """Return the probability that two of ``n_distinct`` values share a ``bits``-bit token.

    The birthday bound for a random function truncated to ``bits`` bits:

    .. math:: p \\approx 1 - \\exp\\left(-\\frac{n(n-1)}{2 \\cdot 2^{b}}\\right)

    accurate while :math:`n \\ll 2^{b/2}`, and an upper bound otherwise. 16 hex
    characters (64 bits) for a million distinct values give
    :math:`p \\approx 2.7 \\times 10^{-8}`; 8 hex characters (32 bits) for
    100,000 values give :math:`p \\approx 0.69`.

    Parameters
    ----------
    n_distinct : int
        Distinct values tokenized.
    bits : int
        Bits kept of the 256-bit HMAC.

    Returns
    -------
    float
        In [0, 1]; lower is safer.
    """
    if n_distinct < 0 or bits < 1:
        raise ValueError(f"need n_distinct >= 0 and bits >= 1, got {n_distinct!r}, {bits!r}")
    pairs = n_distinct * (n_distinct - 1) / 2
    return float(-math.expm1(-pairs / 2.0**bits))


def hmac_tokens(
    series: pd.Series,
    key: SecretKey | bytes,
    *,
    length: int = 16,
    encoding: Literal["hex", "base32"] = "hex",
) -> pd.Series:
    """Replace each value by a keyed HMAC-SHA256 token.

    The token is the first ``length`` characters of the hex (or lower-case
    base32, no padding) encoding of ``HMAC-SHA256(key, UTF-8 text of the
    value)`` (RFC 2104; NIST SP 800-53r5 SI-19(4)). Equal values get equal
    tokens in every release made with the same key, so records still link;
    without the key nobody can compute a token, so the SSN or birth-date
    enumeration that reverses a plain hash (:func:`enumeration_attack`) does
    not work. With the key, every guess can be tested: keep it apart from the
    data. A token derived from an identifier is not a Safe Harbor
    re-identification code (164.514(c)); use :func:`substitute` or
    :func:`surrogates` for that.

    Truncation: ``length`` hex characters keep ``4 * length`` bits (base32:
    ``5 * length``), and two distinct values share a token with the
    probability of :func:`token_collision_probability`. A collision that
    happens is reported as an error, never silently merged.

    Parameters
    ----------
    series : pandas.Series
    key : SecretKey or bytes
        At least 16 bytes; :meth:`SecretKey.generate` makes one.
    length : int, default 16
        Characters kept (hex: 1-64, base32: 1-51).
    encoding : {"hex", "base32"}

    Returns
    -------
    pandas.Series
        Tokens; missing stays missing.

    Raises
    ------
    RiskcoreError
        When two distinct values of the column get the same truncated token.
    """
    raw = _key_bytes(key)
    if encoding not in _BITS_PER_CHAR:
        raise ValueError(f"encoding must be 'hex' or 'base32', got {encoding!r}")
    if isinstance(length, bool) or not isinstance(length, int):
        raise TypeError(f"length must be an integer, got {length!r}")
    if not 1 <= length <= _MAX_LENGTH[encoding]:
        raise ValueError(
            f"length must be from 1 to {_MAX_LENGTH[encoding]} for {encoding}, got {length!r}"
        )
    mac = hmac.new(raw, digestmod=hashlib.sha256)

    def token(text: str) -> str:
        h = mac.copy()
        h.update(text.encode("utf-8"))
        digest = h.digest()
        if encoding == "hex":
            return digest.hex()[:length]
        return base64.b32encode(digest).decode("ascii").lower()[:length]

    def tokens(texts: list[str]) -> list[str]:
        out = [token(t) for t in texts]
        n_shared = len(out) - len(set(out))
        if n_shared:
            bits = _BITS_PER_CHAR[encoding] * length
            raise RiskcoreError(
                f"{n_shared} distinct values share a {bits}-bit token with another value; "
                "use a longer token"
            )
        return out

    return _per_value(series, tokens)


def _aes_siv(key: SecretKey | bytes) -> AESSIV:
    raw = _key_bytes(key)
    if len(raw) not in (32, 48, 64):
        raise ValueError(f"an AES-SIV key must be 32, 48 or 64 bytes, got {len(raw)} bytes")
    from cryptography.hazmat.primitives.ciphers import aead

    return aead.AESSIV(raw)


def reversible_tokens(series: pd.Series, key: SecretKey | bytes) -> pd.Series:
    """Encrypt each value into a token that the key holder can decrypt.

    AES-SIV (RFC 5297, from ``cryptography``) without a nonce is
    deterministic: equal values get equal tokens, so records still link, and
    :func:`reverse_tokens` with the same key gives the values back. The token
    is the URL-safe base64 text (no padding) of the 16-byte synthetic IV and
    the ciphertext.

    **Reversibility is the point and the risk**: anyone who obtains the key
    recovers every value, so the released column is exactly as sensitive as
    the key's storage; and the token's length shows the value's length. Use
    it only where a named party must re-link; otherwise prefer
    :func:`hmac_tokens` or :func:`substitute`.

    Parameters
    ----------
    series : pandas.Series
    key : SecretKey or bytes
        32, 48 or 64 bytes (AES-128/192/256-SIV); ``SecretKey.generate(64)``.

    Returns
    -------
    pandas.Series
        Tokens; missing stays missing.
    """
    siv = _aes_siv(key)

    def tokens(texts: list[str]) -> list[str]:
        return [
            base64.urlsafe_b64encode(siv.encrypt(t.encode("utf-8"), None))
            .rstrip(b"=")
            .decode("ascii")
            for t in texts
        ]

    return _per_value(series, tokens)


def reverse_tokens(series: pd.Series, key: SecretKey | bytes) -> pd.Series:
    """Decrypt tokens made by :func:`reversible_tokens` with the same key.

    Parameters
    ----------
    series : pandas.Series
        Tokens.
    key : SecretKey or bytes
        The key that made them.

    Returns
    -------
    pandas.Series
        The original values as text; missing stays missing.

    Raises
    ------
    RiskcoreError
        When a token does not decrypt with this key (wrong key, or a token
        altered or not made by :func:`reversible_tokens`).
    """
    from cryptography.exceptions import InvalidTag

    siv = _aes_siv(key)

    def values(texts: list[str]) -> list[str]:
        out = []
        for i, t in enumerate(texts):
            try:
                blob = base64.urlsafe_b64decode(t + "=" * (-len(t) % 4))
                out.append(siv.decrypt(blob, None).decode("utf-8"))
            except (InvalidTag, binascii.Error, ValueError):
                raise RiskcoreError(
                    f"distinct token {i + 1} of {len(texts)} does not decrypt with this key: "
                    "the key is wrong or the token was altered"
                ) from None
        return out

    return _per_value(series, values)


# ------------------------------------------------------------------ surrogates

SurrogateKind = Literal[
    "name", "first_name", "last_name", "email", "phone", "address", "company", "ssn"
]
#: Kinds of realistic surrogate :func:`surrogates` makes.
SURROGATE_KINDS: tuple[str, ...] = (
    "name",
    "first_name",
    "last_name",
    "email",
    "phone",
    "address",
    "company",
    "ssn",
)


def _draw(fake: Faker, kind: str) -> str:
    if kind == "name":  # first and last name only: no "Dr." or "DVM"
        return f"{fake.first_name()} {fake.last_name()}"
    if kind == "first_name":
        return str(fake.first_name())
    if kind == "last_name":
        return str(fake.last_name())
    if kind == "email":
        return str(fake.email(safe=True))  # example.com / .net / .org only
    if kind == "phone":
        return str(fake.numerify("(%##) 555-01##"))  # 555-0100..0199: fictional numbers
    if kind == "address":
        return str(fake.address()).replace("\n", ", ")
    if kind == "company":
        return str(fake.company())
    return str(fake.numerify("666-##-####"))  # area 666 is never issued as an SSN


class Surrogates(NamedTuple):
    """Surrogate values and the lookup table that reverses them.

    Attributes
    ----------
    values : pandas.Series
        The column with each value replaced by its surrogate.
    lookup : pandas.DataFrame
        Columns ``original`` and ``surrogate``, one row per distinct value in
        order of first appearance: the re-identification code of Safe Harbor
        (164.514(c)). Keep it apart from the released data.
    n_shared : int
        Distinct values that had to share a surrogate with another value
        (the kind has too few fakes, e.g. last names); 0 means one-to-one.
    """

    values: pd.Series
    lookup: pd.DataFrame
    n_shared: int


#: Draws tried for a surrogate not already used before one is shared.
_SURROGATE_TRIES = 25


def surrogates(
    series: pd.Series, kind: SurrogateKind, *, seed: int, locale: str = "en_US"
) -> Surrogates:
    """Replace each distinct value by a realistic fake one from Faker.

    One surrogate per distinct value, drawn in order of first appearance from
    a Faker generator seeded with ``seed``: the same column, seed, locale and
    Faker version (pinned in requirements.txt) give the same surrogates.
    A surrogate already given to another value is drawn again (up to 25
    tries), so surrogates are one-to-one unless the kind has too few fakes
    (``n_shared`` counts those; after the first shared one, the kind is taken
    as used up and the rest are drawn once each). Surrogates are random, not derived from the
    values, so with the lookup table kept apart they are a Safe Harbor
    re-identification code (164.514(c)).

    Values are drawn uniformly from Faker's lists (``use_weighting=False``,
    ten times faster than frequency weighting: 100,000 names take about 2 s),
    so a rare first name is as likely as a common one. Fakes avoid real
    contact details: e-mails use example.com / .net / .org,
    phones the fictional 555-0100 to 555-0199 range, SSN-like values the
    area 666, which the SSA never issues.

    Parameters
    ----------
    series : pandas.Series
    kind : {"name", "first_name", "last_name", "email", "phone", "address", "company", "ssn"}
    seed : int
    locale : str, default "en_US"
        A Faker locale.

    Returns
    -------
    Surrogates
        ``values``, the separate ``lookup`` table and ``n_shared``.
    """
    if kind not in SURROGATE_KINDS:
        raise ValueError(f"kind must be one of {', '.join(SURROGATE_KINDS)}, got {kind!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an integer, got {seed!r}")
    from faker import Faker

    fake = Faker(locale, use_weighting=False)
    fake.seed_instance(seed)
    used: set[str] = set()
    n_shared = 0
    table: dict[str, list[str]] = {"original": [], "surrogate": []}

    def draw_all(texts: list[str]) -> list[str]:
        nonlocal n_shared
        for _ in texts:
            value = _draw(fake, kind)
            for _try in range(_SURROGATE_TRIES - 1 if not n_shared else 0):
                if value not in used:
                    break
                value = _draw(fake, kind)
            n_shared += value in used
            used.add(value)
            table["surrogate"].append(value)
        table["original"].extend(texts)
        return table["surrogate"]

    values = _per_value(series, draw_all)
    lookup = pd.DataFrame({k: pd.Series(v, dtype=object) for k, v in table.items()})
    return Surrogates(values, lookup, n_shared)


# ------------------------------------------------------------------ date shifting


def _person_offsets(
    person: pd.Series, max_days: int, seed: int | None, key: SecretKey | bytes | None
) -> npt.NDArray[np.int64]:
    """Return one shift in days per row: the same for every row of a person, never 0."""
    codes, texts = distinct_text(person)
    n = len(texts)
    alone = np.flatnonzero(codes < 0)  # rows without a person id: each is its own person
    codes = codes.copy()
    codes[alone] = n + np.arange(len(alone))
    total = n + len(alone)
    if key is not None:
        mac = hmac.new(_key_bytes(key), digestmod=hashlib.sha256)
        labels = [b"person:" + t.encode("utf-8") for t in texts]
        labels += [b"row:" + str(int(i)).encode("ascii") for i in alone]
        draws = []
        for label in labels:
            h = mac.copy()
            h.update(label)
            draws.append(int.from_bytes(h.digest()[:8], "big") % (2 * max_days))
        u = np.asarray(draws, dtype=np.int64)
    else:
        u = np.random.default_rng(seed).integers(0, 2 * max_days, size=total, dtype=np.int64)
    offsets = np.where(u < max_days, u - max_days, u - max_days + 1)  # -N..-1, 1..N
    return np.asarray(offsets[codes], dtype=np.int64)


def shift_dates(
    data: pd.DataFrame,
    *,
    person: str,
    columns: Sequence[str],
    max_days: int,
    seed: int | None = None,
    key: SecretKey | bytes | None = None,
) -> pd.DataFrame:
    """Shift every date of a person by the same random number of days.

    Each distinct value of ``person`` gets one offset, uniform on
    -``max_days`` .. -1 and 1 .. ``max_days`` (never 0, which would leave the
    dates exact), and every date in ``columns`` of that person's rows moves
    by it: intervals between a person's dates (length of stay, age at an
    event) are unchanged; intervals between different people are not. With
    ``seed`` the offsets are drawn from ``numpy.random.default_rng(seed)``
    in order of first appearance; with ``key`` each is taken from
    HMAC-SHA256(key, person id), so a person gets the same shift in every
    release made with the key. A row without a person id is a person of its
    own.

    Parameters
    ----------
    data : pandas.DataFrame
    person : str
        Column identifying the person.
    columns : sequence of str
        Date columns: datetimes, or text that parses as dates.
    max_days : int
        Largest shift, >= 1.
    seed : int, optional
    key : SecretKey or bytes, optional
        Exactly one of ``seed`` and ``key``.

    Returns
    -------
    pandas.DataFrame
        A new table; datetime columns stay datetimes, text columns become
        ISO text (``YYYY-MM-DD``, with the time when a value has one).
        Missing dates stay missing.

    Raises
    ------
    RiskcoreError
        When a column is missing or holds text that is not a date.
    """
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"data must be a pandas DataFrame, got {type(data).__name__}")
    if isinstance(max_days, bool) or not isinstance(max_days, int) or max_days < 1:
        raise ValueError(f"max_days must be an integer >= 1, got {max_days!r}")
    if (seed is None) == (key is None):
        raise ValueError("give exactly one of seed and key")
    if isinstance(columns, str):
        raise TypeError("columns must be a sequence of column names, not a string")
    for col in (person, *columns):
        if col not in data.columns:
            raise RiskcoreError(f"column {col!r} is not in the table")
    shift = pd.to_timedelta(_person_offsets(data[person], max_days, seed, key), unit="D")
    out = data.copy()
    for col in columns:
        values = data[col]
        if pd.api.types.is_datetime64_any_dtype(values.dtype):
            out[col] = values + shift
            continue
        dates = pd.to_datetime(values, errors="coerce", format="mixed")
        bad = int((dates.isna() & values.notna()).sum())
        if bad:
            raise RiskcoreError(
                f"column {col!r} has {bad:,} values that are not dates; shift only date columns"
            )
        moved = dates + shift
        has_time = bool((moved.dropna() != moved.dropna().dt.normalize()).any())
        text = moved.dt.strftime("%Y-%m-%d %H:%M:%S" if has_time else "%Y-%m-%d")
        out[col] = pd.Series(
            np.where(moved.isna(), np.nan, text.to_numpy(dtype=object)),
            index=data.index,
            dtype=object,
        )
    return out


# ------------------------------------------------------------------ enumeration attack

#: Every 9-digit SSN and every day from 1900-01-01 to 2025-12-31.
SSN_SPACE = 10**9
_DATE_FIRST, _DATE_LAST = "1900-01-01", "2025-12-31"


@dataclass(frozen=True)
class EnumerationResult(Result):
    """What enumerating candidates recovered from plain SHA-256 hashes of a column.

    Attributes
    ----------
    kind : str
        ``"ssn"`` or ``"birth_date"``.
    n_values : int
        Non-missing values in the column.
    n_hashed : int
        Distinct values in the kind's form (9 digits; a date), hashed as a
        plain SHA-256 release would be.
    n_recovered : int
        Distinct hashes reversed by the enumeration (matched by hash, not by
        comparing values).
    rows_recovered : int
        Rows whose value was recovered.
    space_searched : int
        Candidates hashed (measured).
    full_space : int
        Size of the whole space: 10^9 SSNs, or every day of 1900-2025.
    seconds : float
        Wall time of the enumeration (measured, one CPU core, Python hashlib).
    hashes_per_second : float
        ``space_searched / seconds`` (measured).
    projected_seconds : float
        ``full_space / hashes_per_second``: the time for the whole space at the
        measured rate. Equal to ``seconds`` when the whole space was searched;
        for SSNs it is a projection, not a measurement.
    whole_space : bool
        True when every candidate of the full space was tried.
    assumption : str
        What the attacker is assumed to know.
    """

    kind: str
    n_values: int
    n_hashed: int
    n_recovered: int
    rows_recovered: int
    space_searched: int
    full_space: int
    seconds: float
    hashes_per_second: float
    projected_seconds: float
    whole_space: bool
    assumption: str


def _sha(text: str) -> bytes:
    return hashlib.sha256(text.encode("ascii")).digest()


def _ssn_forms(series: pd.Series) -> pd.Series:
    """Return each value's SSN as ``ddd-dd-dddd`` (missing where it is not 9 digits).

    Numbers (a column read as integers lost its leading zeros) are padded to 9 digits.
    """
    numeric = pd.api.types.is_numeric_dtype(series.dtype)

    def forms(texts: list[str]) -> list[object]:
        out: list[object] = []
        for t in texts:
            digits = "".join(ch for ch in t if ch.isdigit())
            if numeric and t.isdigit():
                digits = digits.zfill(9)
            ok = len(digits) == 9 and len(digits) >= sum(ch.isalnum() for ch in t)
            out.append(f"{digits[:3]}-{digits[3:5]}-{digits[5:]}" if ok else np.nan)
        return out

    return _per_value(series, forms)


def _date_forms(series: pd.Series) -> pd.Series:
    """Return each value's date as ``YYYY-MM-DD`` (missing where it is not a date)."""

    def parse(texts: list[str]) -> list[object]:
        parsed = pd.to_datetime(pd.Series(texts, dtype=object), errors="coerce", format="mixed")
        text = parsed.dt.strftime("%Y-%m-%d").to_numpy(dtype=object)
        return list(np.where(parsed.notna().to_numpy(), text, np.nan))

    return _per_value(series, parse)


def enumeration_attack(
    series: pd.Series,
    kind: Literal["ssn", "birth_date"],
    *,
    max_candidates: int = 2_000_000,
) -> EnumerationResult:
    """Reverse a plain SHA-256 "pseudonymisation" of the column by trying every candidate.

    Each distinct value is put in one form (SSNs as ``ddd-dd-dddd``, dates as
    ``YYYY-MM-DD``) and hashed with SHA-256 as a naive release would. The
    attacker then hashes candidates and looks each hash up among the released
    ones; a value counts as recovered only when its hash is matched.

    - ``birth_date``: every day from 1900-01-01 to 2025-12-31 (46,022
      candidates) is tried: the whole space, measured.
    - ``ssn``: the full space is 10^9. The attacker is assumed to know which
      area-group prefixes (first 5 digits) are in use (before 2011 the area
      followed the state of issue and groups were issued in a published
      order), and tries all 10,000 serials of each prefix, the prefixes
      holding most rows first, until ``max_candidates``. The time for the full
      space is **projected** from the measured rate, not measured. Values
      whose prefix was not tried are not recovered here, though the full
      enumeration would recover them all.

    Rates are of one CPU core in Python's ``hashlib``; dedicated software on a
    GPU is orders of magnitude faster, so the projection is an upper bound on
    an attacker's time. The attacker is also assumed to know the form that was
    hashed; trying a few other forms multiplies the time by their number.

    Parameters
    ----------
    series : pandas.Series
        The user's column of SSNs or birth dates.
    kind : {"ssn", "birth_date"}
    max_candidates : int, default 2,000,000
        Most SSN candidates to hash (a multiple of 10,000 is used).

    Returns
    -------
    EnumerationResult
        Recovered values and rows, the space searched, measured seconds and
        rate, and the projected seconds for the full space.
    """
    series = _check_series(series)
    if kind not in ("ssn", "birth_date"):
        raise ValueError(f"kind must be 'ssn' or 'birth_date', got {kind!r}")
    if isinstance(max_candidates, bool) or not isinstance(max_candidates, int):
        raise TypeError(f"max_candidates must be an integer, got {max_candidates!r}")
    if max_candidates < 10_000:
        raise ValueError(f"max_candidates must be at least 10,000, got {max_candidates!r}")
    forms = _ssn_forms(series) if kind == "ssn" else _date_forms(series)
    counts = forms.value_counts(dropna=True)
    released = {_sha(str(v)): int(c) for v, c in counts.items()}  # the naive release
    found: set[bytes] = set()
    start = time.perf_counter()
    if kind == "birth_date":
        days = pd.date_range(_DATE_FIRST, _DATE_LAST, freq="D").strftime("%Y-%m-%d")
        found = released.keys() & {_sha(d) for d in days}
        searched, full = len(days), len(days)
        assumption = (
            "the hash is of the date written YYYY-MM-DD; every day from 1900 to 2025 is tried"
        )
    else:
        by_prefix = (
            pd.Series(counts.to_numpy(), index=[str(v)[:7] for v in counts.index])
            .groupby(level=0, sort=False)
            .sum()
            .sort_values(ascending=False, kind="stable")
        )
        # with no SSN in the column, one block of serials still measures the rate
        prefixes = list(by_prefix.index[: max_candidates // 10_000]) or ["000-00-"]
        serials = [f"{s:04d}" for s in range(10_000)]
        for prefix in prefixes:
            found |= released.keys() & {_sha(prefix + s) for s in serials}
        searched, full = 10_000 * len(prefixes), SSN_SPACE
        assumption = (
            "the hash is of the SSN written ddd-dd-dddd, and the attacker knows the area-group "
            f"prefixes in use; {len(prefixes):,} of {len(by_prefix):,} prefixes tried, "
            "all 10,000 serials each"
        )
    seconds = time.perf_counter() - start
    rate = searched / seconds if seconds > 0 else math.inf
    return EnumerationResult(
        kind=kind,
        n_values=int(series.notna().sum()),
        n_hashed=len(released),
        n_recovered=len(found),
        rows_recovered=sum(released[h] for h in found),
        space_searched=searched,
        full_space=full,
        seconds=seconds,
        hashes_per_second=rate,
        projected_seconds=seconds if searched == full else full / rate,
        whole_space=searched == full,
        assumption=assumption,
    )
