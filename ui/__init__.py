"""The only non-page code that imports Streamlit: state keys, cached wrappers, renderers.

Every session-state and widget key is named in :mod:`ui.keys`; the session-scoped cached
wrappers are reached through :mod:`ui.cached` (which re-exports those of
:mod:`ui.cached_attacks`, :mod:`ui.cached_dp` and :mod:`ui.cached_remediation`).
Imports flow one way: ``pages -> ui -> riskcore``.
"""
