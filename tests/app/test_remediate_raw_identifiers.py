"""AppTest: a Remediate download that carries raw direct identifiers says so (issue 37).

The hospital table's roles leave admission_date "other" and the free-text note unmasked;
its date of birth and 5-digit ZIP code are quasi-identifiers at level 0 until generalized.
Once a step is applied, the table downloads (and the history's command script) would carry
them as they are: the page names each one above the downloads, and stops naming a column
once a step generalizes it.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.helpers import hospital_app, seen

HEAD = "This download carries"


def _ok(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def _named(at: AppTest) -> list[str]:
    """Return the columns the raw-identifier warnings name (each warning names them alike)."""
    notes = {seen(w.value) for w in at.warning if seen(w.value).startswith(HEAD)}
    if not notes:
        return []
    (note,) = notes
    listed = note.split("as they are: ", 1)[1].split(". No step", 1)[0]
    return [part.split(" (", 1)[0] for part in listed.split("; ")]


def test_the_downloads_name_the_raw_identifiers_until_a_step_treats_them():
    at = hospital_app()
    _ok(at.switch_page("pages/remediate.py"))
    assert _named(at) == []  # nothing applied: no table to download yet
    at.selectbox(key="rc_rem_op_ssn").set_value("mask_digits")
    _ok(at)
    assert _named(at) == ["date_of_birth", "zip", "admission_date", "note"]
    for q in ("date_of_birth", "zip"):  # generalized above level 0: no longer raw
        slider = at.select_slider(key=f"rc_rem_level_{q}")
        slider.set_value(len(slider.options) - 1)
        _ok(at)
    at.button(key="rc_rem_use").click()
    _ok(at)
    assert _named(at) == ["admission_date", "note"]
