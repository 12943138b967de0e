"""Keys and keyed tokens: a :class:`SecretKey` that never shows its bytes, HMAC-SHA256
tokens and AES-SIV tokens that the key holder can decrypt.

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
from typing import TYPE_CHECKING, Literal

import pandas as pd

from riskcore.deidentify.masking.values import per_value
from riskcore.errors import RiskcoreError

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.ciphers.aead import AESSIV

__all__ = [
    "BITS_PER_CHAR",
    "MAX_TOKEN_LENGTH",
    "SecretKey",
    "hmac_tokens",
    "key_bytes",
    "reverse_tokens",
    "reversible_tokens",
    "token_collision_probability",
]


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

        Returns
        -------
        SecretKey
        """
        if isinstance(nbytes, bool) or not isinstance(nbytes, int) or nbytes < 16:
            raise ValueError(f"nbytes must be an integer >= 16, got {nbytes!r}")
        return cls(secrets.token_bytes(nbytes))

    @classmethod
    def from_hex(cls, text: str) -> SecretKey:
        """Read a key written by :meth:`reveal_hex`.

        Parameters
        ----------
        text : str
            The key in hex.

        Returns
        -------
        SecretKey

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
        """Return the key as hexadecimal text: show it to its owner once, store it apart.

        Returns
        -------
        str
        """
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


def key_bytes(key: SecretKey | bytes) -> bytes:
    """Return the bytes of a key (checked as :class:`SecretKey` checks them), for keyed code.

    Parameters
    ----------
    key : SecretKey or bytes
        A key, or its bytes.

    Returns
    -------
    bytes
    """
    return SecretKey(key)._key


#: Characters of each token encoding and the bits each carries.
BITS_PER_CHAR = {"hex": 4, "base32": 5}
MAX_TOKEN_LENGTH = {"hex": 64, "base32": 51}


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
        The column's values.
    key : SecretKey or bytes
        At least 16 bytes; :meth:`SecretKey.generate` makes one.
    length : int, default 16
        Characters kept (hex: 1-64, base32: 1-51).
    encoding : {"hex", "base32"}
        How the token's bits are written.

    Returns
    -------
    pandas.Series
        Tokens; missing stays missing.

    Raises
    ------
    RiskcoreError
        When two distinct values of the column get the same truncated token.
    """
    raw = key_bytes(key)
    if encoding not in BITS_PER_CHAR:
        raise ValueError(f"encoding must be 'hex' or 'base32', got {encoding!r}")
    if isinstance(length, bool) or not isinstance(length, int):
        raise TypeError(f"length must be an integer, got {length!r}")
    if not 1 <= length <= MAX_TOKEN_LENGTH[encoding]:
        raise ValueError(
            f"length must be from 1 to {MAX_TOKEN_LENGTH[encoding]} for {encoding}, got {length!r}"
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
            bits = BITS_PER_CHAR[encoding] * length
            raise RiskcoreError(
                f"{n_shared} distinct values share a {bits}-bit token with another value; "
                "use a longer token"
            )
        return out

    return per_value(series, tokens)


#: What a reversible token starts with instead of ``-`` (which formula-safety escapes).
_TILDE = "~"


def _aes_siv(key: SecretKey | bytes) -> AESSIV:
    raw = key_bytes(key)
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
    the ciphertext, except that a leading ``-`` is written ``~``: a token
    never starts with a character formula-safe exports escape
    (:data:`riskcore.io.export.FORMULA_PREFIXES`; ``-`` is the only one in
    the URL-safe alphabet, about 1 token in 64), so a token written to CSV
    or Excel comes back unchanged.

    **Reversibility is the point and the risk**: anyone who obtains the key
    recovers every value, so the released column is exactly as sensitive as
    the key's storage; and the token's length shows the value's length. Use
    it only where a named party must re-link; otherwise prefer
    :func:`hmac_tokens` or :func:`substitute`.

    Parameters
    ----------
    series : pandas.Series
        The column's values.
    key : SecretKey or bytes
        32, 48 or 64 bytes (AES-128/192/256-SIV); ``SecretKey.generate(64)``.

    Returns
    -------
    pandas.Series
        Tokens; missing stays missing.
    """
    siv = _aes_siv(key)

    def tokens(texts: list[str]) -> list[str]:
        out = [
            base64.urlsafe_b64encode(siv.encrypt(t.encode("utf-8"), None))
            .rstrip(b"=")
            .decode("ascii")
            for t in texts
        ]
        return [_TILDE + t[1:] if t.startswith("-") else t for t in out]

    return per_value(series, tokens)


def reverse_tokens(series: pd.Series, key: SecretKey | bytes) -> pd.Series:
    """Decrypt tokens made by :func:`reversible_tokens` with the same key.

    A token as a formula-safe export wrote it (``'`` before it) and a token of
    an older riskcore that starts with ``-`` both decrypt: the ``'`` is
    stripped (no token starts with one) and ``~`` read as ``-``.

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
            t = t.removeprefix("'").replace(_TILDE, "-")
            try:
                blob = base64.urlsafe_b64decode(t + "=" * (-len(t) % 4))
                out.append(siv.decrypt(blob, None).decode("utf-8"))
            except (InvalidTag, binascii.Error, ValueError):
                raise RiskcoreError(
                    f"distinct token {i + 1} of {len(texts)} does not decrypt with this key: "
                    "the key is wrong or the token was altered"
                ) from None
        return out

    return per_value(series, values)
