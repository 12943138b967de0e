"""The seal of a recipe: an HMAC under the key when it has keyed steps, a SHA-256 otherwise.

A recipe is a file: anyone who can write it can delete its ``masking`` section, and
``apply`` would then write the raw identifiers. The seal is computed over the
recipe's canonical content (its JSON with sorted keys, no spaces, ASCII only, the
seal left out), so any change to a step, a level or a target breaks it:

- with keyed steps (tokens, date shifts), HMAC-SHA256 under a sub-key derived from
  the recipe's key (RFC 2104), which nobody without the key can recompute;
- otherwise SHA-256 of the content: it detects an accidental or careless edit, and
  records which recipe a report used, but whoever edits the file can recompute it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from typing import Any

from riskcore.deidentify.masking import SecretKey

__all__ = ["SEAL_HMAC", "SEAL_SHA256", "canonical", "seal_matches", "seal_of"]

#: The seal's ``kind`` with keyed steps, and without.
SEAL_HMAC = "hmac-sha256"
SEAL_SHA256 = "sha256"


def canonical(spec: Mapping[str, Any]) -> bytes:
    """Return the canonical bytes of a recipe's content (its ``seal`` left out).

    Parameters
    ----------
    spec : mapping
        The recipe as JSON values (:meth:`Recipe.to_dict`, or read from a file).

    Returns
    -------
    bytes
    """
    body = {k: v for k, v in spec.items() if k != "seal"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return text.encode("ascii")


def _mac_key(key: SecretKey | bytes) -> bytes:
    raw = bytes.fromhex(SecretKey(key).reveal_hex())
    return hmac.new(raw, b"riskcore recipe seal", hashlib.sha256).digest()


def seal_of(spec: Mapping[str, Any], key: SecretKey | bytes | None) -> dict[str, str]:
    """Return the seal of a recipe: ``{"kind", "value"}`` (hex digest).

    Parameters
    ----------
    spec : mapping
        The recipe as JSON values.
    key : SecretKey or bytes or None
        The key of its keyed steps (an HMAC); None for a recipe without one (SHA-256).

    Returns
    -------
    dict
    """
    body = canonical(spec)
    if key is None:
        return {"kind": SEAL_SHA256, "value": hashlib.sha256(body).hexdigest()}
    return {"kind": SEAL_HMAC, "value": hmac.new(_mac_key(key), body, hashlib.sha256).hexdigest()}


def seal_matches(spec: Mapping[str, Any], key: SecretKey | bytes | None) -> bool:
    """Return whether the recipe's recorded seal is the one of its content (and key).

    Parameters
    ----------
    spec : mapping
        The recipe as JSON values, its ``seal`` included.
    key : SecretKey or bytes or None
        The key for an HMAC seal; None for a SHA-256 seal.

    Returns
    -------
    bool
        False when the seal is missing, of another kind, or differs (compared
        in constant time).
    """
    seal = spec.get("seal")
    if not isinstance(seal, Mapping) or not isinstance(seal.get("value"), str):
        return False
    want = seal_of(spec, key)
    return seal.get("kind") == want["kind"] and hmac.compare_digest(
        str(seal["value"]), want["value"]
    )
