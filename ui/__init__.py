"""The only non-page code that imports Streamlit: state keys, cached wrappers, renderers.

Every session-state and widget key is named in :mod:`ui.core.keys`; the session-scoped cached
wrappers are reached through :mod:`ui.core.cached` (which re-exports those of
:mod:`ui.core.cached.attacks`, :mod:`ui.core.cached.dp` and :mod:`ui.core.cached.remediation`).
Imports flow one way: ``pages -> ui -> riskcore``.
"""
