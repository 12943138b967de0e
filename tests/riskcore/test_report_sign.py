"""Signed reports: ``report --sign`` and ``report verify`` (riskcore.report.sign).

The keys are self-signed certificates made in the tests (tests/riskcore/signing.py). The
signatures are also checked without riskcore, by OpenSSL: the twin's detached CMS signature,
and the PDF's signature over its /ByteRange.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import re
import shutil
import subprocess

import pytest
from pypdf import PdfReader

from riskcore.cli import main
from riskcore.demo import make_people
from riskcore.errors import RiskcoreError
from riskcore.report.readings.signature import verification_reading
from riskcore.report.sign import (
    SignatureCheck,
    load_signing_key,
    review_hash,
    sign_pdf,
    sign_twin,
    verify_report,
)
from tests.riskcore.signing import (
    PASSPHRASE,
    make_cert,
    make_key,
    pem,
    secret_forms,
    unchecked_key,
)

PROFILE = {
    "identifiers": ["name", "ssn"],
    "quasi_identifiers": ["age", "sex", "zip"],
    "sensitive": ["income"],
    "targets": {"k": 3},
}
ENV = "RC_TEST_SIGN_PASS"


class Run:
    """One command-line run: exit code, stdout, stderr and every log record's text."""

    def __init__(self, argv: list[str], env: dict[str, str] | None = None) -> None:
        out, err, logs = io.StringIO(), io.StringIO(), io.StringIO()
        handler = logging.StreamHandler(logs)
        root = logging.getLogger()
        level = root.level
        root.addHandler(handler)
        root.setLevel(logging.DEBUG)
        try:
            with pytest.MonkeyPatch.context() as mp:
                mp.delenv(ENV, raising=False)
                for k, v in (env or {}).items():
                    mp.setenv(k, v)
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    self.code = main(argv)
        finally:
            root.removeHandler(handler)
            root.setLevel(level)
        self.out, self.err, self.logs = out.getvalue(), err.getvalue(), logs.getvalue()


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A report built and signed by the command line, and what it was made from."""
    d = tmp_path_factory.mktemp("signed")
    data = d / "people.csv"
    make_people(400).to_csv(data, index=False)
    other = d / "other.csv"
    make_people(401).to_csv(other, index=False)
    profile = d / "profile.json"
    profile.write_text(json.dumps(PROFILE))
    p12, cert_pem, key = make_key()
    (d / "key.p12").write_bytes(p12)
    (d / "cert.pem").write_bytes(cert_pem)
    base = ["report", str(data), "--profile", str(profile), "--no-figures"]
    sign = ["--sign", str(d / "key.p12"), "--sign-passphrase-env", ENV]
    run = Run(
        [
            *base,
            "--out",
            str(d / "r.html"),
            "--json",
            str(d / "r.json"),
            "--pdf",
            str(d / "r.pdf"),
            *sign,
        ],
        env={ENV: PASSPHRASE},
    )
    assert run.code == 0, run.err
    return {
        "dir": d,
        "run": run,
        "base": base,
        "sign": sign,
        "key": key,
        "other": other,
        "profile": profile,
        "data": data,
    }


def verify(d, *extra: str, pdf: str = "r.pdf") -> Run:
    return Run(["report", "verify", str(d / pdf), *extra])


def test_a_signed_report_verifies_and_says_who_signed_and_when(made):
    d = made["dir"]
    assert (d / "r.json.p7s").is_file()
    assert "Signed the PDF" in made["run"].out and "Rita Reviewer" in made["run"].out
    run = verify(d, "--json", str(d / "r.json"))
    assert run.code == 0, run.out + run.err
    (line,) = run.out.splitlines()
    assert line.startswith("Valid: ")
    assert "Common Name: Rita Reviewer" in line
    today = __import__("datetime").datetime.now(__import__("datetime").UTC)
    assert f"at {today:%Y-%m-%d} " in line
    assert "not checked against one you trust" in line
    # the signed PDF still carries the twin, equal to the file beside it
    (embedded,) = PdfReader(d / "r.pdf").attachments["report.json"]
    assert json.loads(embedded) == json.loads((d / "r.json").read_text())
    # and the certificate given as trusted is trusted
    run = verify(d, "--json", str(d / "r.json"), "--trust", str(d / "cert.pem"))
    assert run.code == 0 and "a certificate you trust" in run.out


def test_a_certificate_not_trusted_is_invalid_when_trust_is_asked(made, tmp_path):
    _, other_pem, _ = make_key("Someone Else")
    (tmp_path / "other.pem").write_bytes(other_pem)
    run = verify(made["dir"], "--trust", str(tmp_path / "other.pem"))
    assert run.code == 1
    assert run.out.startswith("Invalid: the certificate does not chain")


def _signed_range(pdf: bytes) -> tuple[bytes, bytes]:
    """Return (the bytes the /ByteRange names, the DER signature in /Contents)."""
    m = re.search(rb"/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]", pdf)
    a, b, c, n = map(int, m.groups())
    contents = pdf[a + b : c].strip(b"<>")
    return pdf[a : a + b] + pdf[c : c + n], bytes.fromhex(contents.decode()).rstrip(b"\0")


OPENSSL = shutil.which("openssl") or "openssl"


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl program")
def test_openssl_agrees_on_both_signatures(made, tmp_path):
    d = made["dir"]
    pdf = (d / "r.pdf").read_bytes()
    signed, der = _signed_range(pdf)
    # the signature covers every byte of the file but its own /Contents
    m = re.search(rb"/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]", pdf)
    a, _, c, n = map(int, m.groups())
    assert a == 0 and c + n == len(pdf)
    (tmp_path / "range.bin").write_bytes(signed)
    (tmp_path / "pdf.p7s").write_bytes(der)

    def openssl(sig, content):
        return subprocess.run(
            [
                OPENSSL,
                "cms",
                "-verify",
                "-binary",
                "-inform",
                "DER",
                "-in",
                str(sig),
                "-content",
                str(content),
                "-noverify",
                "-out",
                os.devnull,
            ],
            capture_output=True,
        ).returncode

    assert openssl(tmp_path / "pdf.p7s", tmp_path / "range.bin") == 0
    assert openssl(d / "r.json.p7s", d / "r.json") == 0
    (tmp_path / "changed.json").write_bytes((d / "r.json").read_bytes() + b" ")
    assert openssl(d / "r.json.p7s", tmp_path / "changed.json") != 0


@pytest.mark.parametrize("where", ["middle", "reason", "twin", "last"])
def test_one_changed_byte_in_the_pdf_fails(made, tmp_path, where):
    pdf = bytearray((made["dir"] / "r.pdf").read_bytes())
    if where == "middle":
        i = len(pdf) // 2
    elif where == "reason":  # the signature dictionary's /Reason names the review hash
        i = pdf.index(verify_report(bytes(pdf)).review_sha256.encode()) + 5
    elif where == "twin":  # inside the first object of the file (the signed revision)
        i = pdf.index(b"obj") + 10
    else:
        i = len(pdf) - 8  # the trailer's startxref of the signed revision
    pdf[i] = pdf[i] ^ 0x01 if chr(pdf[i]).isalnum() else ord("7")
    (tmp_path / "r.pdf").write_bytes(bytes(pdf))
    run = Run(["report", "verify", str(tmp_path / "r.pdf")])
    assert run.code == 1, run.out + run.err
    assert run.out.startswith("Invalid: the PDF's bytes are not the ones signed")


def test_bytes_added_after_the_signature_fail(made, tmp_path):
    """An incremental update after signing (here a second Info dictionary) is refused."""
    from pyhanko.pdf_utils import generic
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter

    src = (made["dir"] / "r.pdf").read_bytes()
    w = IncrementalPdfFileWriter(io.BytesIO(src), strict=False)
    info = generic.DictionaryObject({generic.NameObject("/Title"): generic.TextStringObject("x")})
    w.set_info(info)
    out = io.BytesIO()
    w.write(out)
    check = verify_report(out.getvalue())
    assert not check.valid and check.problem == "not-whole-file"
    assert verification_reading(check).startswith("Invalid: the signature does not cover")


def test_a_changed_twin_fails(made, tmp_path):
    d = made["dir"]
    twin = json.loads((d / "r.json").read_text())
    twin["dataset"]["rows"] += 1
    (tmp_path / "r.json").write_text(json.dumps(twin, indent=2) + "\n")
    shutil.copy(d / "r.json.p7s", tmp_path / "r.json.p7s")
    run = verify(d, "--json", str(tmp_path / "r.json"))
    assert run.code == 1
    assert run.out.startswith("Invalid: the JSON twin's bytes are not the ones signed")
    # one space more is a change too
    (tmp_path / "r.json").write_bytes((d / "r.json").read_bytes() + b" ")
    assert verify(d, "--json", str(tmp_path / "r.json")).code == 1


def test_a_twin_of_another_report_fails_even_signed_by_the_same_key(made, tmp_path):
    d = made["dir"]
    env = {ENV: PASSPHRASE}
    for name, data, extra, problem in [
        ("other data", made["other"], [], "describes other data"),
        ("same data", made["data"], ["--built-by", "someone"], "describes another review"),
    ]:
        out = tmp_path / name.replace(" ", "_")
        run = Run(
            [
                "report",
                str(data),
                "--profile",
                str(made["profile"]),
                "--no-figures",
                "--out",
                str(out) + ".html",
                "--json",
                str(out) + ".json",
                *made["sign"],
                *extra,
            ],
            env=env,
        )
        assert run.code == 0, run.err
        run = verify(d, "--json", str(out) + ".json")
        assert run.code == 1, (name, run.out)
        assert run.out.startswith(f"Invalid: the JSON twin {problem} than the PDF"), run.out


def test_a_twin_signed_with_another_key_fails(made, tmp_path):
    d = made["dir"]
    p12, _, _ = make_key("Mallory", passphrase=None)
    twin = (d / "r.json").read_bytes()
    (tmp_path / "r.json").write_bytes(twin)
    (tmp_path / "r.json.p7s").write_bytes(sign_twin(twin, load_signing_key(p12, None)))
    run = verify(d, "--json", str(tmp_path / "r.json"))
    assert run.code == 1
    assert run.out.startswith("Invalid: the JSON twin was signed with another certificate")


def test_a_wrong_or_missing_passphrase_is_a_clear_message(made, tmp_path):
    argv = [
        *made["base"],
        "--out",
        str(tmp_path / "r.html"),
        "--json",
        str(tmp_path / "r.json"),
        *made["sign"],
    ]
    run = Run(argv, env={ENV: "not-the-passphrase"})
    assert run.code == 2
    assert run.err == (
        "error: the key file could not be opened: the passphrase is wrong, or the file is not a "
        "PKCS#12 (.p12) key with its certificate\n"
    )
    assert "not-the-passphrase" not in run.err + run.out + run.logs
    run = Run(argv)  # the variable unset
    assert run.code == 2
    assert f"(the environment variable {ENV} is not set)" in run.err
    assert "Traceback" not in run.err
    assert not (tmp_path / "r.html").exists()  # refused before any work


def test_the_passphrase_and_the_key_appear_in_no_output_or_log(made):
    d = made["dir"]
    runs = [made["run"], verify(d, "--json", str(d / "r.json"))]
    texts = [r.out + r.err + r.logs for r in runs]
    assert texts[0].strip() and texts[1].strip()
    assert "Traceback" not in texts[1]  # pyHanko logs an untrusted certificate with one
    files = {p.name: p.read_bytes() for p in d.iterdir() if p.name != "key.p12"}
    assert {"r.pdf", "r.json", "r.json.p7s", "r.html"} <= set(files)
    for label, secret in secret_forms(made["key"]).items():
        for t in texts:
            assert secret.decode("latin-1") not in t, label
        for name, blob in files.items():
            assert secret not in blob, (label, name)
    key = load_signing_key((d / "key.p12").read_bytes(), PASSPHRASE)
    assert PASSPHRASE not in repr(key) + str(key)
    assert "_signer" not in repr(key)


def test_cannot_read_exits_2_with_one_sentence(made, tmp_path):
    (tmp_path / "x.pdf").write_text("not a pdf")
    run = Run(["report", "verify", str(tmp_path / "x.pdf")])  # what is checked: invalid
    assert (run.code, run.out, run.err) == (
        1,
        "Invalid: the file is not a PDF (it does not begin with %PDF-).\n",
        "",
    )
    (tmp_path / "x.pem").write_text("not a certificate")
    run = Run(["report", "verify", str(made["dir"] / "r.pdf"), "--trust", str(tmp_path / "x.pem")])
    assert (run.code, run.err) == (
        2,
        "Cannot read: a trusted certificate is not PEM or DER X.509.\n",
    )
    run = Run(["report", "verify", str(tmp_path / "absent.pdf")])
    assert run.code == 2 and run.err.startswith("Cannot read: the PDF 'absent.pdf' does not exist")
    os.mkfifo(tmp_path / "fifo.p12")  # a FIFO would block a plain read

    def sign_with(key: str) -> Run:
        out = ["--out", str(tmp_path / "r.html"), "--json", "r.json"]
        return Run([*made["base"], *out, "--sign", str(tmp_path / key)])

    run = sign_with("fifo.p12")
    assert run.code == 2 and "is not a regular file" in run.err
    from riskcore.report.sign import MAX_KEY_FILE_BYTES

    (tmp_path / "big.p12").write_bytes(b"\0" * (MAX_KEY_FILE_BYTES + 1))
    run = sign_with("big.p12")
    assert run.code == 2 and f"over the limit of {MAX_KEY_FILE_BYTES:,}" in run.err
    with pytest.raises(RiskcoreError, match="larger than"):
        load_signing_key(b"\0" * (MAX_KEY_FILE_BYTES + 1), None)
    d = made["dir"]
    run = Run(
        [
            "report",
            "verify",
            str(d / "r.pdf"),
            "--json",
            str(d / "r.json"),
            "--json-signature",
            str(tmp_path / "x.pdf"),
        ]
    )
    assert (run.code, run.err) == (1, "")
    assert run.out.startswith("Invalid: the JSON twin's signature is not a CMS signature")


def test_an_unsigned_pdf_is_invalid(made):
    from riskcore.report.render import render_pdf  # noqa: F401 - the unsigned PDF below is one

    pdf = (made["dir"] / "r.pdf").read_bytes()
    start = pdf.index(b"%%EOF") + len(b"%%EOF\n")  # the revision before the signature
    check = verify_report(pdf[:start])
    assert check == SignatureCheck(valid=False, problem="no-signature")
    assert verification_reading(check) == "Invalid: the PDF carries no signature."
    # sign it again here (as the app does): it verifies
    key = load_signing_key((made["dir"] / "key.p12").read_bytes(), PASSPHRASE)
    again = sign_pdf(pdf[:start], key)
    assert verify_report(again).valid
    with pytest.raises(RiskcoreError, match="already signed"):
        sign_pdf(again, key)


def test_a_hostile_subject_is_printed_escaped(made):
    pdf = (made["dir"] / "r.pdf").read_bytes()
    unsigned = pdf[: pdf.index(b"%%EOF") + len(b"%%EOF\n")]
    p12, _, _ = make_key("\x1b[32mPASS\x1b[0m \u202efdp.exe", passphrase=None)
    check = verify_report(sign_pdf(unsigned, load_signing_key(p12, None)))
    text = verification_reading(check)
    assert check.valid
    assert "\x1b" not in text and "\u202e" not in text
    assert "\\u001b[32mPASS" in text and "\\u202e" in text


def test_the_review_hash_reads_the_json_not_its_layout():
    a = review_hash('{"b": 1, "a": [1.5, "\u00e9"]}\n')
    assert a == review_hash(b'{"a":[1.5,"\\u00e9"],"b":1}')
    import hashlib

    assert a == hashlib.sha256('{"a":[1.5,"é"],"b":1}'.encode()).hexdigest()
    assert a != review_hash('{"b": 1, "a": [1.5, "e"]}')
    with pytest.raises(RiskcoreError, match="not valid JSON"):
        review_hash("{")


def test_an_expired_certificate_or_a_file_without_a_key_is_refused():
    p12, _, _ = make_key(passphrase=None, days=-2)
    with pytest.raises(RiskcoreError, match="not valid now"):
        load_signing_key(p12, None)
    with pytest.raises(RiskcoreError, match="could not be opened"):
        load_signing_key(b"not pkcs12", None)


def test_signing_and_verifying_work_inside_a_running_event_loop(made):
    """pyHanko's synchronous calls use asyncio.run; a notebook or Playwright runs a loop."""
    import asyncio

    pdf = (made["dir"] / "r.pdf").read_bytes()
    unsigned = pdf[: pdf.index(b"%%EOF") + len(b"%%EOF\n")]
    key = load_signing_key((made["dir"] / "key.p12").read_bytes(), PASSPHRASE)

    async def inside() -> tuple[SignatureCheck, bytes]:
        return verify_report(sign_pdf(unsigned, key)), sign_twin(b"{}", key)

    check, p7s = asyncio.run(inside())
    assert check.valid and p7s


@pytest.mark.parametrize("kind", ["ec", "ed25519"])
def test_ec_and_ed25519_keys_sign_both_files(made, kind):
    d = made["dir"]
    pdf = (d / "r.pdf").read_bytes()
    unsigned = pdf[: pdf.index(b"%%EOF") + len(b"%%EOF\n")]
    p12, _, _ = make_key(f"{kind} reviewer", passphrase=None, kind=kind)
    key = load_signing_key(p12, None)
    twin = (d / "r.json").read_bytes()
    check = verify_report(sign_pdf(unsigned, key), twin=twin, twin_signature=sign_twin(twin, key))
    assert check.valid and check.twin_checked and check.signer == f"Common Name: {kind} reviewer"


def test_every_problem_verify_can_give_has_its_own_sentence():
    import inspect

    from riskcore.report import sign
    from riskcore.report.readings import signature

    src = inspect.getsource(sign)
    codes = set(re.findall(r'(?:fail\(|problem=|return )"([a-z]+(?:-[a-z]+)*)"', src))
    assert {"pdf-altered", "not-whole-file", "twin-other-review", "untrusted"} <= codes
    for code in codes:
        text = verification_reading(SignatureCheck(valid=False, problem=code))
        assert text == f"Invalid: {signature._PROBLEMS[code]}.", code


# ---- tampering: every changed byte is a sentence and exit 1, never a traceback ----


def _flip(blob: bytes, i: int) -> bytes:
    out = bytearray(blob)
    out[i] = out[i] ^ 0x01 if chr(out[i]).isalnum() else ord("7")
    return bytes(out)


def _unsigned_value(pdf: bytes) -> range:
    """Return the positions of the signature value (/Contents): the one range not signed."""
    m = re.search(rb"/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]", pdf)
    _, b, c, _ = map(int, m.groups())
    return range(b, c)


def test_a_byte_flipped_in_the_embedded_twin_is_invalid_not_a_traceback(made, tmp_path):
    """Issue 38.11: a flipped byte inside the embedded JSON's compressed stream raised
    zlib.error out of ``report verify``."""
    pdf = (made["dir"] / "r.pdf").read_bytes()
    m = re.search(rb"/Type\s*/EmbeddedFile.*?/Length (\d+)>>\s*stream\r?\n", pdf, re.S)
    start, length = m.end(), int(m.group(1))
    for off in (0, 1, 2, 10, length // 2, length - 5):
        (tmp_path / "r.pdf").write_bytes(_flip(pdf, start + off))
        run = Run(["report", "verify", str(tmp_path / "r.pdf")])
        assert (run.code, run.err) == (1, ""), (off, run.out, run.err)
        assert run.out.startswith("Invalid: the PDF's bytes are not the ones signed"), run.out


def test_a_byte_flipped_anywhere_signed_is_one_sentence_and_exit_1(made, tmp_path):
    """Every signed byte of the file, sampled evenly (the PDF's header and its dictionaries
    included): one "Invalid:" line on stdout, nothing on stderr, exit 1."""
    pdf = (made["dir"] / "r.pdf").read_bytes()
    unsigned = _unsigned_value(pdf)
    step = max(1, len(pdf) // 120)
    positions = [i for i in range(0, len(pdf), step) if i not in unsigned]
    # and inside every compressed stream (the cross-reference and object streams, the
    # embedded twin): their first bytes, their middle, their end
    for m in re.finditer(rb"(?<!end)stream\r?\n", pdf):
        start = m.end()
        n = pdf.index(b"endstream", start) - start
        positions += [start + off for off in (0, 2, n // 2, n - 3) if 0 <= off < n]
    # and the signature's own update after /Contents (its dictionary's end, the last
    # cross-reference stream and its /Filter name, the trailer), every third byte
    positions += range(unsigned.stop, len(pdf), 3)
    seen_problems = set()
    for i in positions:
        (tmp_path / "r.pdf").write_bytes(_flip(pdf, i))
        run = Run(["report", "verify", str(tmp_path / "r.pdf")])
        assert (run.code, run.err) == (1, ""), (i, run.out, run.err)
        (line,) = run.out.splitlines()
        assert line.startswith("Invalid: "), (i, line)
        seen_problems.add(line)
    assert len(positions) > 200 and len(seen_problems) >= 3


def test_a_byte_flipped_in_the_twins_signature_is_never_a_traceback_or_cannot_read(made):
    """The .p7s is what is checked: damaged, it is invalid (exit 1), not "cannot read"."""
    d = made["dir"]
    pdf, twin, p7s = (
        (d / "r.pdf").read_bytes(),
        (d / "r.json").read_bytes(),
        (d / "r.json.p7s").read_bytes(),
    )
    outcomes = []
    for i in range(0, len(p7s), 13):
        check = verify_report(pdf, twin=twin, twin_signature=_flip(p7s, i))
        outcomes.append(check.problem)
    # the few bytes CMS leaves unsigned (the SignedData's digestAlgorithms set, the
    # encapsulated content type) change nothing signed; every other byte is found
    assert outcomes.count(None) < len(outcomes) // 20
    assert {"twin-altered", "twin-signature-unreadable"} <= set(outcomes)


# ---- the certificate's validity period against the signing time (issue 37.6) ----


def _unsigned(made) -> bytes:
    pdf = (made["dir"] / "r.pdf").read_bytes()
    return pdf[: pdf.index(b"%%EOF") + len(b"%%EOF\n")]


def test_a_signature_made_after_the_certificate_expired_is_invalid_trusted_or_not(made):
    """Another tool signs with a certificate that expired 10 days ago: not "Valid"."""
    cert, key = make_cert("Old Reviewer", valid=(-40, -10))
    signed = sign_pdf(_unsigned(made), unchecked_key(cert, key))
    for trust in ([], [pem(cert)]):  # trusting it does not make it valid then
        check = verify_report(signed, trust=trust)
        assert (check.valid, check.problem) == (False, "signed-after-expiry"), trust
        text = verification_reading(check)
        expired = cert.not_valid_after_utc.strftime("%Y-%m-%d")
        assert text.startswith("Invalid: the signature was made after the certificate expired")
        assert f"expired {expired}" in text and "Common Name: Old Reviewer" in text


def test_a_signature_made_before_the_certificate_was_valid_is_invalid(made):
    cert, key = make_cert("Early Reviewer", valid=(5, 60))
    check = verify_report(sign_pdf(_unsigned(made), unchecked_key(cert, key)))
    assert (check.valid, check.problem) == (False, "signed-before-validity")
    assert verification_reading(check).startswith(
        "Invalid: the signature was made before the certificate became valid"
    )


def test_an_expired_signer_under_a_trusted_ca_is_refused_as_expired_not_untrusted(made):
    ca = make_cert("Test CA", valid=(-400, 400))
    cert, key = make_cert("Late Reviewer", issuer=ca, valid=(-40, -10))
    signed = sign_pdf(_unsigned(made), unchecked_key(cert, key, [ca[0]]))
    check = verify_report(signed, trust=[pem(ca[0])])
    assert (check.valid, check.problem) == (False, "signed-after-expiry")
    # the same CA and a signer valid now: trusted (the chain itself holds)
    good, gkey = make_cert("Rita Reviewer", issuer=ca)
    check = verify_report(sign_pdf(_unsigned(made), unchecked_key(good, gkey, [ca[0]])),
                          trust=[pem(ca[0])])  # fmt: skip
    assert check.valid and check.trusted


def test_a_trust_anchor_expired_at_the_signing_time_is_refused_and_named(made):
    ca = make_cert("Old CA", valid=(-400, -5))
    cert, key = make_cert("Rita Reviewer", issuer=ca, valid=(-10, 30))
    check = verify_report(
        sign_pdf(_unsigned(made), unchecked_key(cert, key, [ca[0]])), trust=[pem(ca[0])]
    )
    assert (check.valid, check.problem) == (False, "anchor-outside-validity")
    text = verification_reading(check)
    assert "the certificate you trust (Common Name: Old CA) was not valid when it was signed" in (
        text
    )
    assert f"expired {ca[0].not_valid_after_utc:%Y-%m-%d}" in text


def test_a_certificate_expired_since_the_signing_stays_valid_and_says_so(made):
    """Signed within the validity period, verified after it ended (``now``): valid, and the
    sentence says the certificate has expired since and that the time is the signer's clock."""
    import datetime as dt

    cert, key = make_cert("Rita Reviewer", valid=(-10, 30))
    signed = sign_pdf(_unsigned(made), unchecked_key(cert, key))
    later = dt.datetime.now(dt.UTC) + dt.timedelta(days=90)
    for trust in ([], [pem(cert)]):
        check = verify_report(signed, trust=trust, now=later)
        assert check.valid, check.problem
        text = verification_reading(check)
        assert f"the certificate has expired since ({cert.not_valid_after_utc:%Y-%m-%d})" in text


def test_a_twin_signed_after_the_certificate_expired_is_invalid(made):
    """The PDF signed in time, the twin's .p7s made by the same key after expiry: refused."""
    import datetime as dt

    cert, key = make_cert("Rita Reviewer", valid=(-10, 30))
    k = unchecked_key(cert, key)
    pdf, twin = sign_pdf(_unsigned(made), k), (made["dir"] / "r.json").read_bytes()
    real = dt.datetime
    later = real.now(dt.UTC) + dt.timedelta(days=60)

    class Later(real):
        @classmethod
        def now(cls, tz=None):
            return later.astimezone(tz) if tz else later

    with pytest.MonkeyPatch.context() as mp:  # the twin's CMS signing time: 60 days on
        mp.setattr("riskcore.report.sign.datetime", Later)
        p7s = sign_twin(twin, k)
    check = verify_report(pdf, twin=twin, twin_signature=p7s)
    assert (check.valid, check.problem) == (False, "twin-signed-outside-validity")


def test_bytes_hidden_in_the_signature_padding_are_found(made):
    """The signature value (/Contents) is the one range the signature cannot cover; its
    padding after the CMS structure must be zeros, or a "valid" PDF could carry a payload."""
    pdf = (made["dir"] / "r.pdf").read_bytes()
    value = _unsigned_value(pdf)  # "<hex...>"
    hidden = b"c0ffee" * 4
    end = value.stop - 1  # the closing ">"
    assert set(pdf[end - len(hidden) : end]) == {ord("0")}  # the padding's end, zeros
    tampered = pdf[: end - len(hidden)] + hidden + pdf[end:]
    check = verify_report(tampered)
    assert (check.valid, check.problem) == (False, "signature-padding")
    assert verification_reading(check).startswith(
        "Invalid: the signature's value carries bytes after the signature itself"
    )
