"""The served configuration: errors in the browser carry no details and no outside links."""

from __future__ import annotations

import pytest
from streamlit import config
from streamlit.proto.NewSession_pb2 import Config
from streamlit.runtime.app_session import _get_show_error_links

from tests.conftest import ROOT


@pytest.fixture
def app_config(monkeypatch):
    """Streamlit's options as ``streamlit run`` reads them from the project's folder."""
    monkeypatch.chdir(ROOT)
    config.get_config_options(force_reparse=True)
    yield config
    config.get_config_options(force_reparse=True)


def test_error_box_offers_no_ask_google_or_chatgpt_links(app_config):
    # "auto" (the default) shows links prefilled with the error to Google and ChatGPT
    # whenever the app is opened on localhost; a privacy tool must not invite that
    assert _get_show_error_links() == Config.ShowErrorLinks.SHOW_ERROR_LINKS_FALSE
    assert app_config.get_option("client.showErrorDetails") == "none"
