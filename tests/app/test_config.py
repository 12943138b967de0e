"""The served configuration: errors in the browser carry no details and no outside links."""

from __future__ import annotations

import pytest
from streamlit import config
from streamlit.proto.NewSession_pb2 import Config
from streamlit.runtime.app_session import _get_show_error_links


def test_error_box_offers_no_ask_google_or_chatgpt_links(app_config):
    # "auto" (the default) shows links prefilled with the error to Google and ChatGPT
    # whenever the app is opened on localhost; a privacy tool must not invite that
    assert _get_show_error_links() == Config.ShowErrorLinks.SHOW_ERROR_LINKS_FALSE
    assert app_config.get_option("client.showErrorDetails") == "none"


#: The security settings of .streamlit/config.toml (issue 17) and why each matters.
SECURE = {
    "server.address": "127.0.0.1",  # listens on the loopback only
    "server.enableXsrfProtection": True,  # an upload needs the session's XSRF token
    "server.enableCORS": True,  # no other origin may call the server
    "server.maxUploadSize": 500,  # an explicit limit in MB (the loader has its own caps)
    "server.fileWatcherType": "none",  # nothing polls the disk
    "server.runOnSave": False,
    "server.headless": True,
    "browser.gatherUsageStats": False,  # no telemetry leaves the machine
    "browser.serverAddress": "localhost",
    "client.toolbarMode": "minimal",  # no developer menu
    "client.disableDataExport": True,  # no formula-unsafe CSV download of a table
    "client.showErrorDetails": "none",  # no traceback (and data in it) in the browser
    "client.showErrorLinks": False,
    "runner.magicEnabled": False,  # a bare expression in a page never writes data out
}


@pytest.mark.parametrize("option", SECURE)
def test_the_security_settings_are_in_force(app_config, option):
    assert app_config.get_option(option) == SECURE[option]


def test_the_settings_check_reads_the_project_file(monkeypatch, tmp_path):
    """Negative control: outside the project folder Streamlit's defaults differ from the
    settings above, so the test above reads the project's file."""
    with monkeypatch.context() as m:
        m.chdir(tmp_path)
        m.setenv("HOME", str(tmp_path))  # no user-level ~/.streamlit/config.toml
        config.get_config_options(force_reparse=True)
        differ = [o for o, v in SECURE.items() if config.get_option(o) != v]
    config.get_config_options(force_reparse=True)  # back in the folder the tests run from
    assert {"server.address", "browser.gatherUsageStats", "client.showErrorDetails"} <= set(
        differ
    ), differ
