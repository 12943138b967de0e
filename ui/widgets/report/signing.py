"""The Report page's Sign control: a reviewer signs the PDF and the JSON twin with a .p12.

The key file's bytes come from the uploader and the passphrase from a password box; both
stay in this session's memory (the uploader's file and the widget's value) and are never
written: the key is opened for each signing (:func:`riskcore.report.sign.load_signing_key`)
and dropped after. Only the signed PDF, the twin and its signature are kept, for download.
"""

from __future__ import annotations

import streamlit as st

from riskcore.errors import RiskcoreError
from riskcore.report.readings.identity import sign_refused_reading
from riskcore.report.readings.signature import SIGN_INTRO, signed_reading
from riskcore.report.render import render_pdf
from riskcore.report.sign import (
    TWIN_SIGNATURE_SUFFIX,
    load_signing_key,
    sign_pdf,
    sign_twin,
)
from riskcore.review import Review
from riskcore.store.identity import may_sign
from ui.core import identity, keys
from ui.core.downloads import Download, download_buttons
from ui.core.safe import md

__all__ = ["sign_control"]


def _sign(report: Review, profile_key: str, p12: bytes, passphrase: str) -> None:
    """Sign the report's PDF and twin; keep the signed files (or show why not)."""
    try:
        key = load_signing_key(p12, passphrase or None)
        twin = report.to_json().encode("utf-8")
        with st.spinner("Writing the PDF and signing ..."):
            pdf = sign_pdf(render_pdf(report), key)
            p7s = sign_twin(twin, key)
    except RiskcoreError as exc:
        st.error(md(exc))
        return
    st.session_state[keys.SIGNED] = {
        "built_at": report.built_at,
        "profile_key": profile_key,
        "pdf": pdf,
        "twin": twin,
        "p7s": p7s,
        "said": signed_reading(key),
    }


def sign_control(report: Review, profile_key: str, *, stale: bool, stem: str) -> None:
    """Draw the Sign control for the report built (disabled while it is stale).

    Parameters
    ----------
    report : Review
        The report built on the page.
    profile_key : str
        The :attr:`~riskcore.profile.Profile.cache_key` of the profile it was built from: a
        signature of a build from another profile is not offered.
    stale : bool
        The session's settings changed since the build: signing waits for a new one.
    stem : str
        The download files' stem.
    """
    with st.container(border=True):
        st.subheader("Sign (reviewer)")
        st.caption(md(SIGN_INTRO))
        c1, c2 = st.columns(2)
        upload = c1.file_uploader(
            "Key and certificate (.p12 / .pfx)", type=["p12", "pfx"], key=keys.SIGN_KEY_FILE
        )
        passphrase = c2.text_input(
            "Passphrase of the key file", type="password", key=keys.SIGN_PASSPHRASE
        )
        allowed = may_sign(identity.current(), login_required=identity.configured())
        if not allowed.allowed:
            st.info(md(sign_refused_reading(allowed.reason)))
            identity.log_in_again(allowed.reason)  # a login too old to trust its roles
        if (
            st.button(
                "Sign the PDF and the JSON twin",
                key=keys.SIGN,
                disabled=stale or upload is None or not allowed.allowed,
                help="Needs the key file; the report must be up to date.",
            )
            and upload is not None
            and allowed.allowed
        ):
            _sign(report, profile_key, upload.getvalue(), passphrase)
        done = st.session_state.get(keys.SIGNED)
        if (
            done is None
            or done["built_at"] != report.built_at
            or done["profile_key"] != profile_key
        ):
            return
        st.success(md(done["said"]))
        download_buttons(
            [
                Download("Download the signed PDF", done["pdf"],
                         f"{stem}_report_signed.pdf", keys.SIGNED_PDF),
                Download("Download the JSON twin (signed)", done["twin"],
                         f"{stem}_report.json", keys.SIGNED_TWIN),
                Download("Download the twin's signature (.p7s)", done["p7s"],
                         f"{stem}_report.json{TWIN_SIGNATURE_SUFFIX}", keys.SIGNED_P7S),
            ],
            disabled=stale,
        )  # fmt: skip
