"""The only non-page code that imports Streamlit: state keys, cached wrappers, renderers.

Imports flow one way: ``pages -> ui -> riskcore``.
"""
