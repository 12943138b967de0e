"""Fixtures of the app tests: Streamlit's caches cleared around each test, the app's config."""

from __future__ import annotations

import pytest
import streamlit as st
from streamlit import config

from tests.conftest import ROOT


@pytest.fixture(autouse=True)
def clear_caches():
    """Clear ``st.cache_data`` and ``st.cache_resource`` before and after the test."""
    st.cache_data.clear()
    st.cache_resource.clear()
    yield
    st.cache_data.clear()
    st.cache_resource.clear()


@pytest.fixture
def app_config(monkeypatch):
    """Streamlit's options as ``streamlit run`` reads them from the project's folder."""
    monkeypatch.chdir(ROOT)
    config.get_config_options(force_reparse=True)
    yield config
    config.get_config_options(force_reparse=True)
