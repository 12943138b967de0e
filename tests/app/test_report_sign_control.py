"""AppTest: the Report page's Sign control signs the PDF and the JSON twin with a .p12."""

from __future__ import annotations

from riskcore.report.sign import verify_report
from tests.app.helpers import run, seen
from tests.riskcore.signing import PASSPHRASE, make_key


def _texts(at) -> str:
    """Every text the page shows (messages, captions, markdown, labels)."""
    kinds = ("error", "warning", "success", "info")
    parts = [seen(e.value) for kind in kinds for e in at.get(kind)]
    parts += [seen(e.value) for e in at.caption] + [seen(e.value) for e in at.markdown]
    return "\n".join(parts)


def _sign_errors(at) -> list[str]:
    """The page's errors but the verdict banner's ("Does not pass: ...")."""
    said = [seen(e.value) for e in at.error]
    return [e for e in said if not e.startswith("Does not pass: ")]


def test_the_sign_control_signs_and_a_wrong_passphrase_is_a_message():
    at = run("pages/report.py")
    at.button(key="rc_report_build").click().run()
    assert not at.exception
    sign = at.button(key="rc_sign")
    assert sign.disabled  # no key file yet
    p12, _, _ = make_key("Rita Reviewer")
    at.file_uploader(key="rc_sign_key_file").set_value(
        ("reviewer.p12", p12, "application/x-pkcs12")
    ).run()
    at.text_input(key="rc_sign_passphrase").input("wrong-passphrase").run()
    at.button(key="rc_sign").click().run()
    assert not at.exception
    # the demo's default targets fail: the verdict banner is red (an error) too
    (err,) = _sign_errors(at)
    assert err.startswith("the key file could not be opened: the passphrase is wrong")
    assert "rc_signed" not in at.session_state
    assert "wrong-passphrase" not in _texts(at)

    at.text_input(key="rc_sign_passphrase").input(PASSPHRASE).run()
    at.button(key="rc_sign").click().run()
    assert not at.exception
    assert not _sign_errors(at)
    assert any(seen(s.value).startswith("Signed by Common Name: Rita Reviewer") for s in at.success)
    labels = [b.proto.label for b in at.get("download_button")]
    assert {
        "Download the signed PDF",
        "Download the JSON twin (signed)",
        "Download the twin's signature (.p7s)",
    } <= set(labels)
    signed = at.session_state["rc_signed"]
    report = at.session_state["rc_report"]["report"]
    assert signed["twin"] == report.to_json().encode()
    check = verify_report(signed["pdf"], twin=signed["twin"], twin_signature=signed["p7s"])
    assert check.valid and check.twin_checked, check
    assert check.signer == "Common Name: Rita Reviewer"
    # the key and the passphrase are not kept beside the signed files
    assert set(signed) == {"built_at", "profile_key", "pdf", "twin", "p7s", "said"}
    # tied to the build by its profile's cache key, not a copy of the profile's JSON
    assert signed["profile_key"] == at.session_state["rc_report"]["profile"].cache_key
    assert PASSPHRASE not in _texts(at)
    assert PASSPHRASE.encode() not in signed["pdf"] + signed["p7s"]
