"""Readings of signed reports: a verification's verdict, a signature made, the Sign control."""

from __future__ import annotations

import unicodedata

from riskcore.report.sign import SignatureCheck, SigningKey

__all__ = [
    "SIGN_INTRO",
    "SIGN_PROVES",
    "shown",
    "signed_reading",
    "verification_reading",
]

#: What a signature proves, and what it does not (the README and the Sign control say it).
SIGN_PROVES = (
    "A valid signature proves that the holder of the certificate's key signed these exact "
    "bytes, at the time the signer's clock stated; it does not prove that the numbers are "
    "right, and a self-signed certificate names whoever made it."
)

#: The Sign control's introduction on the Report page.
SIGN_INTRO = (
    "A reviewer signs the PDF (PAdES) and the JSON twin (a detached CMS signature, .p7s) "
    "with their key and certificate (a .p12 file). The key file and its passphrase stay in "
    "this session's memory and are never written. " + SIGN_PROVES
)

_PROBLEMS = {
    "not-a-pdf": "the file is not a PDF (it does not begin with %PDF-)",
    "pdf-unreadable": (
        "the PDF is damaged: its structure cannot be read, so no signature in it can be checked"
    ),
    "no-signature": "the PDF carries no signature",
    "several-signatures": (
        "the PDF carries more than one signature, so none of them is known to cover the "
        "file as it is"
    ),
    "pdf-altered": "the PDF's bytes are not the ones signed (its signature does not match them)",
    "signature-padding": (
        "the signature's value carries bytes after the signature itself (its padding is not "
        "zeros): the file was changed where no signature can cover it"
    ),
    "not-whole-file": (
        "the signature does not cover the whole file: bytes were added after it was signed"
    ),
    "not-a-report": (
        "the signed PDF carries no readable JSON twin (report.json): it is not a riskcore report"
    ),
    "reason-differs": (
        "the review hash named in the signature is not that of the JSON twin the PDF carries"
    ),
    "untrusted": "the certificate does not chain to a certificate you trust",
    "signed-after-expiry": "the signature was made after the certificate expired",
    "signed-before-validity": "the signature was made before the certificate became valid",
    "anchor-outside-validity": "the certificate you trust was not valid when it was signed",
    "twin-signed-outside-validity": (
        "the JSON twin's signature was made outside its certificate's validity period"
    ),
    "twin-altered": (
        "the JSON twin's bytes are not the ones signed (its signature does not match them)"
    ),
    "twin-signature-unreadable": (
        "the JSON twin's signature is not a CMS signature (.p7s): it is damaged or another file"
    ),
    "twin-other-signer": "the JSON twin was signed with another certificate than the PDF",
    "twin-other-data": (
        "the JSON twin describes other data than the PDF (their data fingerprints differ)"
    ),
    "twin-other-review": (
        "the JSON twin describes another review than the PDF (their review hashes differ)"
    ),
}


def shown(text: str) -> str:
    """Return ``text`` with control, format and separator characters written as escapes.

    A certificate's subject is chosen by whoever made it: a terminal escape
    or a right-to-left override in it would otherwise change what the line
    printed around it says.

    Parameters
    ----------
    text : str
        Text from a certificate or a file.

    Returns
    -------
    str
    """
    return "".join(
        f"\\u{ord(ch):04x}" if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") else ch
        for ch in text
    )


def _when(iso: str | None) -> str:
    if iso is None:
        return "at a time it does not state"
    return "at " + iso.replace("T", " ").replace("Z", " UTC") + " (the signer's clock)"


def _day(iso: str | None) -> str:
    return (iso or "")[:10]


def _validity_detail(check: SignatureCheck) -> str:
    """Return " (signed ...; the certificate expired ...)" for a validity problem, else ""."""
    if check.problem not in ("signed-after-expiry", "signed-before-validity"):
        if check.problem != "anchor-outside-validity" or check.anchor_valid_until is None:
            return ""
    at = check.signed_at or check.verified_at
    if at is None or check.valid_until is None:
        return ""
    when = (
        f"signed {at.replace('T', ' ').replace('Z', ' UTC')} by the signer's clock"
        if check.signed_at
        else f"no signing time stated, checked at {_day(at)}"
    )
    if check.problem == "anchor-outside-validity":
        start, end, whose = check.anchor_valid_from, check.anchor_valid_until, "it"
    else:
        start, end, whose = check.valid_from, check.valid_until, "the certificate"
    side = f"expired {_day(end)}" if at > (end or "") else f"became valid {_day(start)}"
    return f" ({when}; {whose} {side})"


def verification_reading(check: SignatureCheck) -> str:
    """Return one sentence: whether the signed report holds, who signed it and when.

    A signature made outside its certificate's validity period (or its trusted
    certificate's) says which end it missed and the dates; a valid one whose
    certificate has expired since says so.

    Parameters
    ----------
    check : SignatureCheck
        The signature check.

    Returns
    -------
    str
    """
    who = shown(check.signer) if check.signer is not None else None
    if not check.valid:
        problem = _PROBLEMS.get(check.problem or "", "the signature does not hold")
        if check.problem == "anchor-outside-validity" and check.anchor is not None:
            problem = (
                f"the certificate you trust ({shown(check.anchor)}) was not valid when it was "
                "signed"
            )
        signer = f" (the signature names {who})" if who is not None else ""
        return f"Invalid: {problem}{_validity_detail(check)}{signer}."
    twin = (
        ", and the JSON twin's signature holds and the twin is the PDF's own (same data "
        "fingerprint and review hash)"
        if check.twin_checked
        else " (no JSON twin was checked: --json R.json)"
    )
    sha = (check.certificate_sha256 or "")[:16]
    trust = (
        "a certificate you trust"
        if check.trusted
        else f"certificate SHA-256 {sha}..., not checked against one you trust (--trust CERT.pem)"
    )
    valid = ""
    if check.valid_from is not None and check.valid_until is not None:
        valid = f", the certificate valid {_day(check.valid_from)} to {_day(check.valid_until)}"
        if check.verified_at is not None and check.verified_at > check.valid_until:
            valid += (
                f" (the certificate has expired since ({_day(check.valid_until)}): only the "
                "signer's clock says the signature was made before)"
            )
    review = (check.review_sha256 or "")[:16]
    return (
        f"Valid: the PDF's signature is intact and covers the whole file{twin}; "
        f"review SHA-256 {review}...; signed by {who} {_when(check.signed_at)}{valid}, {trust}."
    )


def signed_reading(key: SigningKey) -> str:
    """Return the sentence shown once the PDF and the twin are signed.

    Parameters
    ----------
    key : SigningKey
        The signing key and its certificate.

    Returns
    -------
    str
    """
    return (
        f"Signed by {shown(key.subject)} (certificate SHA-256 {key.certificate_sha256[:16]}..., "
        f"valid until {key.not_after[:10]}): download the signed PDF and the JSON twin with "
        "its signature, and check them with riskcore report verify."
    )
