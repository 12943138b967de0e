"""AppTest: the hostile-file table of issue 17 through the Data page's uploader.

Each file is refused with its message (``st.error``, no exception, the demo still in use)
or loads with its values shown as they are in the file (the preview, character by
character where the encoding matters) and with the figures worked out by hand on the
Uniqueness page for its quasi-identifiers. After either, the session is still usable: the
uploader is there, another page renders, and the sidebar's "Reset session" brings the demo
back. Each upload is bounded in time and in the test process's memory (RSS growth).
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from tests.app.helpers import data_uploader, metrics, run, seen, set_roles
from tests.hostile_files import CASES, Case, bounded
from ui.core.safe import md

# Generous bounds (figures measured are in the README); the app holds the table, its
# preview and the uniqueness figures of a million rows in this process.
SECONDS = 60
MEGABYTES = 1_000


def _reset_button(at):
    return next(b for b in at.sidebar.button if b.label == "Reset session")


def _errors(at) -> list[str]:
    return [seen(e.value) for e in at.error]


def upload(at, case: Case, raw: bytes) -> dict[str, float]:
    with bounded(SECONDS, MEGABYTES) as figures:
        data_uploader(at).set_value((case.file, raw, "application/octet-stream")).run()
    assert not at.exception, at.exception
    return figures


def check_refused(at, case: Case) -> None:
    errors = _errors(at)
    assert any(e.startswith(f"{case.file} could not be used: ") for e in errors), errors
    assert any(re.search(case.error or "", e) for e in errors), errors
    assert md("Demo people: 32,561 rows") in at.subheader[0].value  # still the demo


def check_loaded(at, case: Case) -> None:
    assert not at.error, _errors(at)
    rows, columns = case.shape or (0, 0)
    r, c = "row" if rows == 1 else "rows", "column" if columns == 1 else "columns"
    assert seen(at.subheader[0].value) == f"{case.file}: {rows:,} {r} x {columns} {c}"
    preview = at.dataframe[1].value  # the first 100 rows, as the Data page shows them
    assert len(preview) == min(rows, 100)
    assert case.check is not None
    case.check(preview)
    # the figures of its quasi-identifiers, on the Uniqueness page
    set_roles(at, {c: "quasi_identifier" if c in case.qi else "other" for c in preview.columns})
    at.session_state["rc_roles_for"] = at.session_state["rc_dataset"]["key"]
    at.switch_page("pages/uniqueness.py").run()
    assert not at.exception, at.exception
    shown = metrics(at)
    assert shown["Records"] == f"{case.cli['n_records']:,}"
    assert shown["k (smallest class)"] == f"{case.cli['k']:,}"
    if "n_classes" in case.cli:
        assert shown["Equivalence classes"] == f"{case.cli['n_classes']:,}"


def check_usable(at) -> None:
    """The uploader, another page, and a working "Reset session"."""
    at.switch_page("pages/anonymity.py").run()
    assert not at.exception, at.exception
    at.switch_page("app.py").run()  # the router's default page: AppTest shows the sidebar
    assert not at.exception, at.exception
    assert data_uploader(at) is not None
    _reset_button(at).click().run()
    assert not at.exception, at.exception
    assert not at.error, _errors(at)
    assert md("Demo people: 32,561 rows") in at.subheader[0].value
    assert at.session_state["rc_dataset"]["source"] == "demo"
    assert data_uploader(at).value is None  # a fresh uploader, ready for another file


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_hostile_upload_is_refused_or_loaded_and_the_session_goes_on(case):
    at = run()
    upload(at, case, case.make())
    if case.error is not None:
        check_refused(at, case)
    else:
        check_loaded(at, case)
    check_usable(at)


def test_the_checks_can_fail():
    """Negative controls: a refusal is not taken for a load, a load is not taken for a
    refusal, and one character read wrongly ("Muñoz" as "Muńoz", the old cp1250 guess)
    is seen."""
    latin = next(c for c in CASES if c.name == "latin-1 names")
    at = run()
    upload(at, CASES[0], CASES[0].make())  # the empty file, refused
    with pytest.raises(AssertionError):
        check_loaded(at, latin)
    text = latin.make().decode("latin-1")
    misread = replace(latin, make=lambda: text.replace("ñ", "ń").encode())
    at = run()
    upload(at, misread, misread.make())
    with pytest.raises(AssertionError):
        check_refused(at, misread)
    with pytest.raises(AssertionError, match="Muñoz"):
        check_loaded(at, misread)
