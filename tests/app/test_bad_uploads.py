"""AppTest: a file the loader refuses never sticks the session (issue 17)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.helpers import APP, data_uploader, run
from ui.core.safe import md
from ui.core.state import ledger_key

BAD_CSVS = {
    # the first data row has two fields beyond the header
    "two_extra_fields": b"a,b\n1,2,3,4\n5,6\n",
    # a quoted header with a newline, then a row with more fields than the header
    "quoted_header_newline": b'"x\ny",sex\n1,2,3\n',
}


def run_unchecked() -> AppTest:
    return AppTest.from_file(APP, default_timeout=60).run()


def _reset_button(at):
    return next((b for b in at.sidebar.button if b.label == "Reset session"), None)


@pytest.mark.parametrize("raw", BAD_CSVS.values(), ids=BAD_CSVS.keys())
def test_a_refused_csv_keeps_the_sidebar_the_uploader_and_every_page(raw):
    at = run()
    data_uploader(at).set_value(("bad.csv", raw, "text/csv")).run()
    assert not at.exception, at.exception
    assert any("more fields than the header" in e.value for e in at.error)
    # the uploader still holds the file, and the demo is still in use
    assert data_uploader(at).value is not None
    assert "Demo people" in at.subheader[0].value
    # another page renders
    at.switch_page("pages/uniqueness.py").run()
    assert not at.exception, at.exception
    assert at.metric, "the Uniqueness page shows no figures"
    # back on the router's default page (where AppTest shows the sidebar): the uploader,
    # ready for another file, and the sidebar's reset button, which still works
    at.switch_page("app.py").run()
    assert not at.exception, at.exception
    assert data_uploader(at) is not None
    assert "Demo people" in at.subheader[0].value
    _reset_button(at).click().run()
    assert not at.exception, at.exception
    assert not at.error
    assert "Demo people" in at.subheader[0].value


def test_a_riskcore_error_no_page_caught_is_shown_as_its_message(monkeypatch):
    # every page runs inside the router (app.py), which shows such an error as its message
    # and still draws the sidebar; AppTest runs the router for its default page, the Data page
    import riskcore.report.readings
    from riskcore.errors import RiskcoreError

    def refuse(*args, **kwargs):
        raise RiskcoreError("this table cannot be summarised: a plain reason")

    monkeypatch.setattr(riskcore.report.readings, "column_summary", refuse)
    at = run_unchecked()
    assert not at.exception, at.exception
    assert any("a plain reason" in e.value for e in at.error)
    assert _reset_button(at) is not None
    assert data_uploader(at) is not None


def test_the_data_page_shows_the_encoding_and_reads_the_file_again_in_another():
    at = run()
    raw = "name,city,sex\nИван,Москва,M\nПётр,Тверь,M\nАнна,Тверь,F\n".encode("cp1251")
    data_uploader(at).set_value(("ru.csv", raw, "text/csv")).run()
    assert not at.exception, at.exception
    key = at.session_state["rc_dataset"]["key"]
    assert any(md("Windows-1252 (Western European), assumed") in c.value for c in at.caption)
    preview = at.dataframe[1].value  # the first 100 rows
    assert preview["name"].iloc[0] != "Иван"
    # the user says the file is Cyrillic: the same bytes are read again
    picker = at.selectbox(key=f"rc_encoding_{key}")
    picker.set_value("cp1251").run()
    assert not at.exception, at.exception
    assert at.dataframe[1].value["name"].tolist() == ["Иван", "Пётр", "Анна"]
    assert any(md("Windows-1251 (Cyrillic), as chosen") in c.value for c in at.caption)
    new_key = at.session_state["rc_dataset"]["key"]
    assert new_key.startswith(key) and new_key != key
    assert ledger_key(new_key) == key  # the same bytes keep the same privacy budget
    # ... and a wrong choice keeps the table in use, with the reason
    at.selectbox(key=f"rc_encoding_{new_key}").set_value("utf-8").run()
    assert not at.exception, at.exception
    assert any("not read again" in e.value and md("is not utf-8") in e.value for e in at.error)
    assert at.dataframe[1].value["name"].tolist() == ["Иван", "Пётр", "Анна"]


def test_a_utf8_upload_says_so_and_keeps_no_bytes():
    at = run()
    data_uploader(at).set_value(("u.csv", "name,sex\nZoë,F\nSão,M\n".encode(), "text/csv")).run()
    assert not at.exception, at.exception
    assert any(md("UTF-8 (Unicode); every byte") in c.value for c in at.caption)
    assert not [s for s in at.selectbox if s.label == "Text encoding of the file"]


def test_tables_offer_no_built_in_csv_download(app_config):
    # st.dataframe's "Download as CSV" wrote an uploaded "=HYPERLINK(...)" cell as a live
    # formula; the app's own downloads are formula-safe (the browser test hovers a table)
    assert app_config.get_option("client.disableDataExport") is True
