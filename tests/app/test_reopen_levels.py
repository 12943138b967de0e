"""Reopening a saved assessment shows its recipe on the Remediate page (issue 27).

Before: the sidebar said "generalized" and every page assessed the recipe's levels, while the
Remediate sliders stayed at 0 and "Download the generalized table" gave a header-only file
without a word. Now the sliders, the hierarchies and the masking choices show the recipe, and
a download of a table that is empty or breaks the targets says so on its button.
"""

from __future__ import annotations

import dataclasses
import io

from streamlit.testing.v1 import AppTest

from riskcore.deidentify.recipe.base import Recipe
from riskcore.demo import make_people
from tests.app.helpers import (
    APP,
    data_uploader,
    metrics,
    seen,
)

QIS = ("age", "sex", "race", "marital_status", "education")


def _csv(n: int = 600, seed: int = 2) -> bytes:
    buf = io.StringIO()
    make_people(n, seed=seed).to_csv(buf, index=False)
    return buf.getvalue().encode()


def _ok(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def _session(raw: bytes) -> AppTest:
    at = _ok(AppTest.from_file(APP, default_timeout=60))
    data_uploader(at).set_value(("people.csv", raw, "text/csv"))
    return _ok(at)


def _levels(at: AppTest) -> tuple[int, ...]:
    return tuple(int(at.select_slider(key=f"rc_rem_level_{q}").value) for q in QIS)


def _downloads(at: AppTest) -> dict[str, object]:
    return {seen(b.proto.label): b.proto.disabled for b in at.get("download_button")}


def test_reopening_restores_the_levels_and_masking_choices_of_the_recipe():
    raw = _csv()
    at = _session(raw)
    _ok(at.switch_page("pages/remediate.py"))
    at.selectbox(key="rc_rem_op_ssn").set_value("mask_digits")
    _ok(at)
    at.button(key="rc_rem_search").click()
    _ok(at)
    chosen = _levels(at)
    assert any(chosen), chosen  # the search generalized something
    at.button(key="rc_rem_use").click()
    _ok(at)
    _ok(at.switch_page("pages/report.py"))
    at.button(key="rc_report_build").click()
    _ok(at)
    at.button(key="rc_save").click()
    _ok(at)

    again = _session(raw)  # a new session: a reload, or another day
    _ok(again.switch_page("pages/remediate.py"))
    assert _levels(again) == (0,) * len(QIS)
    _ok(again.switch_page("pages/saved.py"))
    again.button(key="rc_saved_reopen").click()
    _ok(again)
    # the reopened profile's history: its own, or its recipe's steps; either way it folds
    # back into the recipe in use, so the next step builds on it (ui.widgets.remediate.history)
    history = again.session_state["rc_rem_history"]["history"]
    in_use = again.session_state["rc_remediation"]["recipe"]
    start = dataclasses.replace(
        Recipe.from_dict(in_use), quasi_identifiers=(), levels=(), hierarchies={}
    )
    folded = history.to_recipe(start)
    assert history.position and (list(folded.quasi_identifiers), list(folded.levels)) == (
        in_use["quasi_identifiers"],
        in_use["levels"],
    )
    _ok(again.switch_page("pages/remediate.py"))
    assert _levels(again) == chosen
    assert again.selectbox(key="rc_rem_op_ssn").value == "mask_digits"
    # the levels shown are the ones in use: no "differ from the ones in use"
    assert not any("differ from the ones in use" in i.value for i in again.info)
    labels = _downloads(again)
    assert labels["Download the generalized table (CSV)"] is False, labels
    assert labels["Download it as Excel (.xlsx)"] is False, labels


def test_a_download_of_an_empty_table_says_so_and_is_not_offered():
    raw = _csv()
    at = _session(raw)
    _ok(at.switch_page("pages/remediate.py"))
    # at level 0 every person of 600 is unique on the five QIs: every record is suppressed
    assert metrics(at)["Records suppressed"] == "600"
    labels = _downloads(at)
    assert labels["Download the generalized table (CSV): empty, every record is suppressed"]
    assert labels["Download it as Excel (.xlsx): empty, every record is suppressed"]  # disabled
    assert labels["Download the recipe (JSON)"] is False
