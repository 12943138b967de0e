"""Test keys for signed reports: a self-signed certificate made with ``cryptography``."""

from __future__ import annotations

import datetime as dt

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ed25519, rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID

_ED = ed25519.Ed25519PrivateKey

#: A passphrase no output could hold by chance.
PASSPHRASE = "Qx7-tangerine-Walrus-9041"  # noqa: S105 - a test key's, made here


def make_cert(
    common_name: str,
    key=None,
    *,
    issuer: tuple[x509.Certificate, object] | None = None,
    valid: tuple[int, int] = (-10, 30),
    kind: str = "rsa",
):
    """Return (certificate, private key): self-signed, or issued by ``issuer`` = (its
    certificate, its key); valid from ``valid[0]`` to ``valid[1]`` days from now."""
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519

    if key is None:
        if kind == "ec":
            key = ec.generate_private_key(ec.SECP256R1())
        elif kind == "ed25519":
            key = ed25519.Ed25519PrivateKey.generate()
        else:
            key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    issuer_cert, issuer_key = issuer if issuer is not None else (None, key)
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(issuer_cert.subject if issuer_cert is not None else name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now + dt.timedelta(days=valid[0]))
        .not_valid_after(now + dt.timedelta(days=valid[1]))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=True,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .sign(issuer_key, None if isinstance(issuer_key, _ED) else hashes.SHA256())
    )
    return cert, key


def make_key(
    common_name: str = "Rita Reviewer",
    passphrase: str | None = PASSPHRASE,
    *,
    days: int = 30,
    kind: str = "rsa",
) -> tuple[bytes, bytes, rsa.RSAPrivateKey]:
    """Return (PKCS#12 bytes, the certificate as PEM, the private key) of a self-signed key
    (``kind`` rsa, ec or ed25519)."""
    cert, key = make_cert(common_name, valid=(-10, days), kind=kind)
    enc = (
        serialization.BestAvailableEncryption(passphrase.encode())
        if passphrase
        else serialization.NoEncryption()
    )
    p12 = pkcs12.serialize_key_and_certificates(b"reviewer", key, cert, None, enc)
    return p12, cert.public_bytes(serialization.Encoding.PEM), key


def pem(cert: x509.Certificate) -> bytes:
    """Return the certificate as PEM."""
    return cert.public_bytes(serialization.Encoding.PEM)


def unchecked_key(cert: x509.Certificate, key, chain=()):
    """Return a SigningKey of any certificate, expired or not yet valid included: what another
    tool signs with (riskcore's own load_signing_key refuses a certificate not valid now)."""
    from pyhanko.sign import signers

    from riskcore.report.sign import SigningKey

    p12 = pkcs12.serialize_key_and_certificates(
        b"k", key, cert, list(chain) or None, serialization.NoEncryption()
    )
    signer = signers.SimpleSigner.load_pkcs12_data(p12, [], passphrase=None)
    return SigningKey("unchecked", "", "", "sha256", _signer=signer)


def secret_forms(key: rsa.RSAPrivateKey, passphrase: str = PASSPHRASE) -> dict[str, bytes]:
    """Return the passphrase and the private key in the encodings a leak could take."""
    import base64

    der = key.private_bytes(
        serialization.Encoding.DER,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    d = key.private_numbers().d
    p = key.private_numbers().p
    pw = passphrase.encode()
    return {
        "passphrase": pw,
        "passphrase utf-16": passphrase.encode("utf-16-le"),
        "passphrase hex": pw.hex().encode(),
        "passphrase base64": base64.b64encode(pw),
        "key der": der[-64:],
        "key pem line": pem.splitlines()[5],
        "key d hex": format(d, "x")[:40].encode(),
        "key d decimal": str(d)[:40].encode(),
        "key p hex": format(p, "x")[:40].encode(),
    }
