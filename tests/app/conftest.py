"""Fixtures of the app tests: Streamlit's caches cleared around each test."""

from __future__ import annotations

import pytest
import streamlit as st


@pytest.fixture(autouse=True)
def clear_caches():
    """Clear ``st.cache_data`` and ``st.cache_resource`` before and after the test."""
    st.cache_data.clear()
    st.cache_resource.clear()
    yield
    st.cache_data.clear()
    st.cache_resource.clear()
