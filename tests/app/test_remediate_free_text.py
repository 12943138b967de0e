"""AppTest: the Direct identifiers tab keeps a free-text note and removes the identifiers
found in it (issue 38, item 17).

Free text could only be dropped or redacted whole. A note column tagged as a direct
identifier, whose text holds phone numbers, is now offered ``redact_found`` (a column of
names is not); choosing it records the step, and the release keeps every note with its
phone numbers replaced by ``[PHONE]``.
"""

from __future__ import annotations

import io

import pandas as pd
from streamlit.testing.v1 import AppTest

from riskcore.deidentify.masking import choice_label
from riskcore.deidentify.recipe.apply import apply_recipe
from riskcore.deidentify.recipe.base import Recipe
from riskcore.freetext import scan_text
from tests.app.helpers import hospital_app, roles_of, set_roles
from tests.hospital import hospital_csv


def _ok(at: AppTest) -> None:
    at.run()
    assert not at.exception, at.exception


def test_the_note_column_is_offered_keep_the_text_and_the_release_keeps_it():
    at = hospital_app()
    set_roles(at, {**roles_of(at), "note": "identifier"})
    _ok(at.switch_page("pages/remediate.py"))
    note, name = at.selectbox(key="rc_rem_op_note"), at.selectbox(key="rc_rem_op_name")
    keep = {choice_label("redact_found"), choice_label("redact_found:removed")}
    assert keep <= set(note.options)
    assert choice_label("drop") in name.options and not keep & set(name.options)
    note.set_value("redact_found")
    _ok(at)
    rem = at.session_state["rc_remediation"]
    recipe = Recipe.from_dict(rem["recipe"])
    steps = {m.columns: m for m in recipe.masking}
    assert steps[("note",)].operation == "redact_found"
    raw = pd.read_csv(io.BytesIO(hospital_csv()), encoding="latin-1", dtype=str)
    released = apply_recipe(raw, recipe).data
    kept = raw["note"].notna()
    assert released["note"].notna().equals(kept)
    expected = raw["note"].str.replace(r"\(\d{3}\) \d{3}-\d{4}", "[PHONE]", regex=True)
    assert released["note"].tolist() == expected.tolist()
    assert "Call back on [PHONE]" in set(released["note"])
    assert scan_text(released[["note"]]).get("note").status == "clean"
    # the page shows what the notes become, never a phone number
    shown = next(d.value for d in at.dataframe if list(d.value.columns) == ["note"])
    assert shown["note"].tolist() == expected.head(5).tolist()
