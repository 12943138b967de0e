"""Signed reports: the PDF signed with PAdES, the JSON twin with a detached CMS signature.

:func:`sign_pdf` adds one PAdES signature (ETSI EN 319 142-1, the
``ETSI.CAdES.detached`` sub-filter, SHA-256) to a report PDF with pyHanko,
as an incremental update, so the signed byte range is every byte of the
file but the signature itself. :func:`sign_twin` signs the JSON twin's
exact bytes with a detached CMS ``SignedData`` (RFC 5652, DER, written
beside the twin as ``.p7s``) by the same key and certificate: the format
PAdES itself embeds, so one certificate and one verifier serve both, and
anyone can check it without riskcore (``openssl cms -verify -binary -inform
DER -in r.json.p7s -content r.json -noverify``). A JWS would need a second
key format and carries no certificate by default.

:func:`verify_report` checks the PDF's signature (intact, the whole file
covered, one signature), the twin's signature (intact, the same
certificate) and that the twin is the PDF's own: the PDF carries the twin
as the embedded file :data:`~riskcore.report.render.ATTACHMENT_NAME`
(under the signature), and the two must have the same *review hash*
(:func:`review_hash`, the SHA-256 of the twin's canonical JSON) and the same
data fingerprint. The review hash and the data fingerprint are also written
into the signature's ``/Reason``, so a PDF reader shows them.

What a valid signature proves: that the holder of the certificate's key
signed these bytes, at the time the signer's clock stated. It says nothing
about whether the numbers are right, and without ``trust`` nothing about
who the certificate's holder is (a self-signed certificate names whoever
made it).

The key is read from a PKCS#12 file (:func:`load_signing_key`); the
passphrase is used to open it and kept nowhere (not in the key object, not
in any message or log).
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from riskcore._results import Result
from riskcore.errors import RiskcoreError
from riskcore.report._pyhanko import (
    anchor_certificate,
    embedded_twin,
    in_thread,
    loop_running,
    quiet,
    read_pdf,
    trust_roots,
    validation_context,
    zero_padded,
)
from riskcore.report.render import ATTACHMENT_NAME

__all__ = [
    "MAX_KEY_FILE_BYTES",
    "MAX_PDF_BYTES",
    "TWIN_SIGNATURE_SUFFIX",
    "SignatureCheck",
    "SigningKey",
    "load_signing_key",
    "review_hash",
    "sign_pdf",
    "sign_twin",
    "verify_report",
]

#: Suffix of the twin's detached signature, written beside it (``r.json`` -> ``r.json.p7s``).
TWIN_SIGNATURE_SUFFIX = ".p7s"
#: Largest PKCS#12 key file read (a key with a long chain is a few KiB).
MAX_KEY_FILE_BYTES = 1 << 20
#: Largest PDF (or twin, or signature) read for signing or verifying.
MAX_PDF_BYTES = 512 << 20
#: Name of the signature field added to the PDF.
FIELD_NAME = "riskcore-signature"


# ------------------------------------------------------------------ the key


@dataclass(frozen=True)
class SigningKey:
    """A private key and its certificate, opened from a PKCS#12 file.

    Attributes
    ----------
    subject : str
        The certificate's subject, as people read it (``Common Name: ...``).
    certificate_sha256 : str
        SHA-256 of the certificate (DER), hex: what identifies the signer.
    not_after : str
        End of the certificate's validity, ISO 8601 UTC.
    digest : str
        The digest signed: ``sha256``, or ``sha512`` for an Ed25519 key (RFC 8419).
    """

    subject: str
    certificate_sha256: str
    not_after: str
    digest: str
    _signer: Any = field(repr=False, compare=False)

    def __repr__(self) -> str:  # never the key material
        sha = self.certificate_sha256
        return f"SigningKey(subject={self.subject!r}, certificate_sha256={sha!r})"


def load_signing_key(p12: bytes, passphrase: str | bytes | None) -> SigningKey:
    """Open a PKCS#12 (``.p12`` / ``.pfx``) file's private key and certificate.

    Parameters
    ----------
    p12 : bytes
        The file's bytes.
    passphrase : str or bytes or None
        Its passphrase (None or empty for an unencrypted file); used here and
        kept nowhere.

    Returns
    -------
    SigningKey

    Raises
    ------
    RiskcoreError
        When the passphrase is wrong or the bytes are not PKCS#12 (or larger
        than :data:`MAX_KEY_FILE_BYTES`), the file holds no private key or no
        certificate, or the certificate is not valid now.
    """
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.serialization import pkcs12

    if len(p12) > MAX_KEY_FILE_BYTES:
        raise RiskcoreError(
            f"the key file is larger than {MAX_KEY_FILE_BYTES:,} bytes, the most read"
        )
    secret = passphrase.encode("utf-8") if isinstance(passphrase, str) else passphrase
    try:
        key, cert, _others = pkcs12.load_key_and_certificates(p12, secret or None)
    except (ValueError, TypeError):
        raise RiskcoreError(
            "the key file could not be opened: the passphrase is wrong, or the file is "
            "not a PKCS#12 (.p12) key with its certificate"
        ) from None
    if key is None or cert is None:
        raise RiskcoreError(
            "the key file holds no "
            + ("private key" if key is None else "certificate")
            + ": signing needs both (a .p12 exported with its private key)"
        )
    now = datetime.now(UTC)
    if cert.not_valid_after_utc < now or cert.not_valid_before_utc > now:
        raise RiskcoreError(
            "the key file's certificate is not valid now (valid "
            f"{cert.not_valid_before_utc:%Y-%m-%d} to {cert.not_valid_after_utc:%Y-%m-%d})"
        )
    from pyhanko.sign import signers

    with quiet():
        try:
            signer = signers.SimpleSigner.load_pkcs12_data(p12, [], passphrase=secret or None)
        except ValueError:
            raise RiskcoreError(
                "the key file's key cannot sign (an unsupported key type)"
            ) from None
    from cryptography.hazmat.primitives.asymmetric import ed25519

    der = cert.public_bytes(serialization.Encoding.DER)
    return SigningKey(
        digest="sha512" if isinstance(key, ed25519.Ed25519PrivateKey) else "sha256",
        subject=str(signer.signing_cert.subject.human_friendly),
        certificate_sha256=hashlib.sha256(der).hexdigest(),
        not_after=cert.not_valid_after_utc.strftime("%Y-%m-%dT%H:%M:%SZ"),
        _signer=signer,
    )


# ------------------------------------------------------------------ the review hash


def review_hash(twin: bytes | str) -> str:
    """Return the review hash: SHA-256 of the twin's canonical JSON.

    The canonical form is the JSON read back and written with sorted keys,
    no spaces and UTF-8 text (``json.dumps(..., sort_keys=True,
    separators=(",", ":"), ensure_ascii=False)``), so the file written by the
    command line (with a final newline) and the copy embedded in the PDF hash
    alike, and any change of a value changes it.

    Parameters
    ----------
    twin : bytes or str
        The JSON twin's text.

    Returns
    -------
    str
        64 hexadecimal digits.

    Raises
    ------
    RiskcoreError
        When the text is not JSON.
    """
    try:
        data = json.loads(twin)
        text = json.dumps(
            data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
        )
    except (ValueError, RecursionError):
        raise RiskcoreError("the JSON twin is not valid JSON") from None
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _data_sha256(twin: bytes | str) -> str | None:
    try:
        data = json.loads(twin)
        sha = data["dataset"]["sha256"]
    except (ValueError, RecursionError, KeyError, TypeError):
        return None
    return sha if isinstance(sha, str) else None


# ------------------------------------------------------------------ signing


def sign_pdf(pdf: bytes, key: SigningKey) -> bytes:
    """Return the report PDF with one PAdES signature added (an incremental update).

    The signature's ``/Reason`` names the review hash of the embedded twin
    and its data fingerprint.

    Parameters
    ----------
    pdf : bytes
        A report PDF (:func:`riskcore.report.render.render_pdf`), not yet signed.
    key : SigningKey
        The signing key and its certificate.

    Returns
    -------
    bytes

    Raises
    ------
    RiskcoreError
        When the bytes are not a readable PDF, carry no JSON twin or are
        already signed.
    """
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.pdf_utils.misc import PdfError
    from pyhanko.sign import fields, signers

    if loop_running():
        return in_thread(sign_pdf, pdf, key)
    reader = read_pdf(pdf)
    twin = embedded_twin(reader)
    if twin is None:
        raise RiskcoreError(f"the PDF is not a riskcore report (it carries no {ATTACHMENT_NAME})")
    if reader.embedded_signatures:
        raise RiskcoreError("the PDF is already signed")
    reason = f"riskcore report; review SHA-256 {review_hash(twin)}"
    sha = _data_sha256(twin)
    if sha is not None:
        reason += f"; data SHA-256 {sha}"
    meta = signers.PdfSignatureMetadata(
        field_name=FIELD_NAME,
        md_algorithm=key.digest,
        subfilter=fields.SigSeedSubFilter.PADES,
        reason=reason,
    )
    with quiet():
        try:
            writer = IncrementalPdfFileWriter(io.BytesIO(pdf), strict=False)
            out = signers.sign_pdf(writer, meta, signer=key._signer)
        except (PdfError, ValueError) as exc:
            raise RiskcoreError(f"the PDF could not be signed ({exc})") from None
    return bytes(out.getvalue())


def sign_twin(twin: bytes, key: SigningKey) -> bytes:
    """Return a detached CMS signature (DER) of the twin's exact bytes.

    Parameters
    ----------
    twin : bytes
        The JSON twin as written (these bytes, not a re-serialization).
    key : SigningKey
        The signing key and its certificate.

    Returns
    -------
    bytes
        A CMS ``ContentInfo`` of type ``signedData`` without the content,
        with the signing time and the certificate.
    """
    if loop_running():
        return in_thread(sign_twin, twin, key)
    from pyhanko.sign.signers.pdf_cms import PdfCMSSignedAttributes

    attrs = PdfCMSSignedAttributes(signing_time=datetime.now(UTC))
    with quiet():
        info = asyncio.run(
            key._signer.async_sign_general_data(
                twin, key.digest, detached=True, signed_attr_settings=attrs
            )
        )
    return bytes(info.dump())


# ------------------------------------------------------------------ verifying


@dataclass(frozen=True)
class SignatureCheck(Result):
    """What :func:`verify_report` found.

    Attributes
    ----------
    valid : bool
    problem : str or None
        Why it is not valid, as a code: ``"no-signature"``,
        ``"several-signatures"``, ``"pdf-altered"``, ``"not-whole-file"``,
        ``"not-a-report"``, ``"reason-differs"``, ``"untrusted"``,
        ``"twin-altered"``, ``"twin-signature-unreadable"``, ``"twin-other-signer"``,
        ``"twin-other-data"``, ``"twin-other-review"``, ``"not-a-pdf"``,
        ``"pdf-unreadable"``, ``"signed-after-expiry"``, ``"signed-before-validity"``,
        ``"anchor-outside-validity"``, ``"twin-signed-outside-validity"``,
        ``"signature-padding"`` (the readings say each in a sentence).
    signer : str or None
        The certificate's subject.
    certificate_sha256 : str or None
    signed_at : str or None
        The signing time the signer stated (ISO 8601 UTC; the signer's clock).
    trusted : bool or None
        Whether the certificate chains to one given as trusted (None when
        none was given).
    review_sha256 : str or None
        The review hash of the twin embedded in the PDF.
    data_sha256 : str or None
        The data fingerprint the embedded twin names.
    twin_checked : bool
        Whether a twin and its signature were checked too.
    valid_from, valid_until : str or None
        The signer's certificate's validity period (ISO 8601 UTC).
    verified_at : str or None
        When the verification ran (ISO 8601 UTC).
    anchor : str or None
        With ``trust``, the subject of the trusted certificate the chain ends at.
    anchor_valid_from, anchor_valid_until : str or None
        That certificate's validity period.
    """

    valid: bool
    problem: str | None = None
    signer: str | None = None
    certificate_sha256: str | None = None
    signed_at: str | None = None
    trusted: bool | None = None
    review_sha256: str | None = None
    data_sha256: str | None = None
    twin_checked: bool = False
    valid_from: str | None = None
    valid_until: str | None = None
    verified_at: str | None = None
    anchor: str | None = None
    anchor_valid_from: str | None = None
    anchor_valid_until: str | None = None


def _outside(cert: Any, at: datetime) -> str | None:
    """Return ``"signed-before-validity"`` / ``"signed-after-expiry"`` when ``at`` is outside
    the certificate's validity period (RFC 5280 section 4.1.2.5: notBefore and notAfter, both
    inclusive), else None."""
    if at < cert.not_valid_before:
        return "signed-before-validity"
    if at > cert.not_valid_after:
        return "signed-after-expiry"
    return None


def _aware(dt: datetime | None) -> datetime | None:
    return dt if dt is None or dt.tzinfo is not None else dt.replace(tzinfo=UTC)


def _when(dt: datetime | None) -> str | None:
    return None if dt is None else dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _cert_sha(cert: Any) -> str:
    return hashlib.sha256(cert.dump()).hexdigest()


def verify_report(
    pdf: bytes,
    *,
    twin: bytes | None = None,
    twin_signature: bytes | None = None,
    trust: Sequence[bytes] = (),
    now: datetime | None = None,
) -> SignatureCheck:
    """Check a signed report PDF and, when given, its JSON twin and the twin's signature.

    Valid when the PDF has exactly one signature, intact, covering the whole
    file; it carries the twin (:data:`~riskcore.report.render.ATTACHMENT_NAME`)
    whose review hash is the one the signature's ``/Reason`` names; it was
    made within the certificate's validity period (the signing time the
    signer states, or ``now`` when it states none); with ``trust``, the
    certificate chains to one of them, judged at the signing time, and that
    trusted certificate was valid then too; and, with ``twin``, the twin's
    detached signature is intact, by the same certificate, made within its
    validity period, and the twin has the embedded twin's data fingerprint
    and review hash.

    A certificate that has expired since the signing leaves the signature
    valid (:attr:`SignatureCheck.valid_until` says when; the reading says
    it): the signing time is the signer's clock, which no timestamp
    authority vouches for.

    Parameters
    ----------
    pdf : bytes
        The signed report PDF's bytes.
    twin : bytes, optional
        The JSON twin file's bytes.
    twin_signature : bytes, optional
        Its detached CMS signature (DER, or PEM); needed with ``twin``.
    trust : sequence of bytes, default ()
        Certificates (PEM or DER) to trust as roots; without them the
        certificate is named, not trusted.
    now : datetime, optional
        The time of the verification (default now, UTC).

    Returns
    -------
    SignatureCheck

    Raises
    ------
    RiskcoreError
        When a twin is given without its signature, or a trusted certificate
        cannot be read: what the caller supplies. Whatever is wrong with what
        is checked (the PDF not a PDF or damaged, the twin's signature not
        CMS) is an invalid :class:`SignatureCheck`, never an exception.
    """
    from pyhanko.sign.validation import validate_pdf_signature
    from pyhanko.sign.validation.status import SignatureCoverageLevel

    if loop_running():
        return in_thread(
            verify_report, pdf, twin=twin, twin_signature=twin_signature, trust=trust, now=now
        )
    if twin is not None and twin_signature is None:
        raise RiskcoreError("the twin's signature is needed to check the twin")
    roots = trust_roots(trust)
    now = (now or datetime.now(UTC)).astimezone(UTC)
    if not pdf.startswith(b"%PDF-"):
        return SignatureCheck(valid=False, problem="not-a-pdf")
    try:
        reader = read_pdf(pdf)
    except RiskcoreError:  # a damaged file: its structure cannot be parsed
        return SignatureCheck(valid=False, problem="pdf-unreadable")
    with quiet():
        try:
            sigs = list(reader.embedded_signatures)
        except Exception:  # a damaged signature dictionary: pyHanko's own error types
            return SignatureCheck(valid=False, problem="pdf-altered")
    if not sigs:
        return SignatureCheck(valid=False, problem="no-signature")
    if len(sigs) > 1:
        return SignatureCheck(valid=False, problem="several-signatures")
    with quiet():
        try:  # the chain is judged at the signing time the signer states (else now)
            at = _aware(sigs[0].self_reported_timestamp) or now
            context = validation_context(roots, at)
            status = validate_pdf_signature(sigs[0], context)
        except Exception:  # damaged input: pyHanko's, asn1crypto's and zlib's own error types
            return SignatureCheck(valid=False, problem="pdf-altered")
    cert = status.signing_cert
    found = SignatureCheck(
        valid=False,
        signer=str(cert.subject.human_friendly),
        certificate_sha256=_cert_sha(cert),
        signed_at=_when(status.signer_reported_dt),
        trusted=bool(status.trusted) if trust else None,
        twin_checked=twin is not None,
        valid_from=_when(cert.not_valid_before),
        valid_until=_when(cert.not_valid_after),
        verified_at=_when(now),
    )

    def fail(problem: str) -> SignatureCheck:
        return dataclasses.replace(found, problem=problem)

    if not (status.intact and status.valid):  # before anything in the PDF is read
        return fail("pdf-altered")
    if status.coverage != SignatureCoverageLevel.ENTIRE_FILE:
        return fail("not-whole-file")
    if not zero_padded(sigs[0]):
        return fail("signature-padding")
    embedded = embedded_twin(reader)
    try:
        review = None if embedded is None else review_hash(embedded)
    except RiskcoreError:  # signed as it is, but not JSON
        review = None
    if embedded is None or review is None:
        return fail("not-a-report")
    found = dataclasses.replace(found, review_sha256=review, data_sha256=_data_sha256(embedded))
    reason = str(sigs[0].sig_object.get("/Reason", ""))
    if f"review SHA-256 {found.review_sha256}" not in reason:
        return fail("reason-differs")
    side = _outside(cert, at)  # before the chain: an expired signer is expired, not untrusted
    if side is not None:
        return fail(side)
    if trust and not status.trusted:
        return fail("untrusted")
    anchor = anchor_certificate(status) if trust else None
    if anchor is not None:  # a trust anchor's validity is not path validation's concern
        found = dataclasses.replace(
            found,
            anchor=str(anchor.subject.human_friendly),
            anchor_valid_from=_when(anchor.not_valid_before),
            anchor_valid_until=_when(anchor.not_valid_after),
        )
        if _outside(anchor, at) is not None:
            return fail("anchor-outside-validity")
    if twin is not None and twin_signature is not None:
        problem = _check_twin(twin, twin_signature, context, embedded, cert, now)
        if problem is not None:
            return fail(problem)
    return dataclasses.replace(found, valid=True)


def _check_twin(
    twin: bytes, signature: bytes, context: Any, embedded: bytes, pdf_cert: Any, now: datetime
) -> str | None:
    """Return the problem with the twin and its signature, or None when they hold."""
    from asn1crypto import cms, pem
    from pyhanko.sign.validation.generic_cms import async_validate_detached_cms

    try:
        if pem.detect(signature):
            _, _, signature = pem.unarmor(signature)
        info = cms.ContentInfo.load(signature)
        signed = info["content"]
        if info["content_type"].native != "signed_data":
            raise ValueError("not signed data")
    except (ValueError, TypeError, KeyError):
        return "twin-signature-unreadable"
    with quiet():
        try:
            status = asyncio.run(async_validate_detached_cms(twin, signed, context))
        except Exception:  # pyHanko's and asn1crypto's own error types on a damaged signature
            return "twin-altered"
    if not (status.intact and status.valid):
        return "twin-altered"
    if _cert_sha(status.signing_cert) != _cert_sha(pdf_cert):
        return "twin-other-signer"
    if _outside(pdf_cert, _aware(status.signer_reported_dt) or now) is not None:
        return "twin-signed-outside-validity"
    try:
        mine = review_hash(twin)
    except RiskcoreError:
        return "twin-altered"
    if _data_sha256(twin) != _data_sha256(embedded):
        return "twin-other-data"
    if mine != review_hash(embedded):
        return "twin-other-review"
    return None
