"""The keys of the Report, Saved assessments and Guided demo pages (part of :mod:`ui.core.keys`).

:mod:`ui.core.keys` re-exports every name here: pages write ``keys.<NAME>``, never this module's
name. The split only keeps each file short; the rules of :mod:`ui.core.keys` hold here too.
"""

from __future__ import annotations

# ------------------------------------------------------------------ Report page

#: The report built last: {"profile": the :class:`riskcore.profile.Profile` it was built from
#: (staleness is judged by its ``cache_key``; its JSON is written for the download and the save
#: only), "report": Review}.
REPORT = "rc_report"
#: The "Build the report" button.
REPORT_BUILD = "rc_report_build"
#: The download of the report (HTML).
REPORT_HTML = "rc_report_html"
#: The download of the JSON twin.
REPORT_JSON = "rc_report_json"
#: The download of the PDF.
REPORT_PDF = "rc_report_pdf"
#: The download of the profile.
REPORT_PROFILE = "rc_report_profile"
#: The signed report of this session: {"built_at": the review's built_at, "profile_key": the
#: ``cache_key`` of the profile the report was built from, "pdf": the signed PDF, "twin": the
#: JSON twin's bytes, "p7s": the twin's detached signature, "said": the sentence shown}. Never
#: the key or the passphrase.
SIGNED = "rc_signed"
#: The Sign control's uploader of the reviewer's .p12 (its bytes stay in memory only).
SIGN_KEY_FILE = "rc_sign_key_file"
#: The Sign control's passphrase box (a password field; the value lives in this session only).
SIGN_PASSPHRASE = "rc_sign_passphrase"  # noqa: S105 - a key name, not a secret
#: The "Sign the PDF and the JSON twin" button.
SIGN = "rc_sign"
#: The downloads of the signed PDF, of the twin and of the twin's signature.
SIGNED_PDF = "rc_signed_pdf"
SIGNED_TWIN = "rc_signed_twin"
SIGNED_P7S = "rc_signed_p7s"
#: The name the assessment is saved under.
SAVE_NAME = "rc_save_name"
#: Whether the raw data is saved too.
SAVE_RAW = "rc_save_raw"
#: The "Save this assessment" button.
SAVE = "rc_save"

# ------------------------------------------------------------------ Saved assessments page

#: The last comparison: {"ids": (a, b), "comparison": Comparison}.
SAVED_COMPARED = "rc_saved_compared"
#: The message after a deletion (shown once, after the rerun).
SAVED_DELETED = "rc_saved_deleted"
#: The outcome of "Verify the chain": (ok, text, audit entries then).
SAVED_VERIFIED = "rc_saved_verified"
#: Outcome of the last reopening: {"id", "name", "check": DatasetCheck, "profile"}
#: (:mod:`ui.core.saved`).
SAVED_REOPENED = "rc_saved_reopened"
#: The assessment to reopen.
SAVED_PICK = "rc_saved_pick"
#: What it is reopened with: the data loaded now or an upload.
SAVED_SOURCE = "rc_saved_source"


def saved_upload(n: int) -> str:
    """Return the key of the uploader of the file to reopen with, after ``n`` uploads read."""
    return f"rc_saved_upload_{n}"


#: The "Reopen" button.
SAVED_REOPEN = "rc_saved_reopen"
#: The download of the saved report (HTML).
SAVED_REPORT = "rc_saved_report"
#: Assessment A of a comparison.
SAVED_A = "rc_saved_a"
#: Assessment B of a comparison.
SAVED_B = "rc_saved_b"
#: The "Compare" button.
SAVED_COMPARE = "rc_saved_compare"
#: The assessment to delete.
SAVED_VICTIM = "rc_saved_victim"
#: The deletion's confirmation box.
SAVED_SURE = "rc_saved_sure"
#: The "Delete" button.
SAVED_DELETE = "rc_saved_delete"
#: The "Verify the chain" button.
SAVED_VERIFY = "rc_saved_verify"
#: The assessment to approve.
SAVED_APPROVE_PICK = "rc_saved_approve_pick"
#: The "Approve" button.
SAVED_APPROVE = "rc_saved_approve"
#: Outcome of the last approval: {"id", "ok": bool, "text"}.
SAVED_APPROVED = "rc_saved_approved"

# ------------------------------------------------------------------ Guided demo page

#: The step shown (0 to 5).
STORY_STEP = "rc_story_step"


def story_chart(step: int) -> str:
    """Return the key of the chart of ``step``."""
    return f"rc_story_{step}"


#: The epsilon slider of the last step.
STORY_EPS = "rc_story_eps"
#: The "Back" button.
STORY_BACK = "rc_story_back"
#: The "Next" button.
STORY_NEXT = "rc_story_next"

# ------------------------------------------------------------------ Report and Saved pages

#: "Log in again", shown where approving or signing needs a fresher login (:mod:`ui.core.identity`).
LOGIN_AGAIN = "rc_login_again"
