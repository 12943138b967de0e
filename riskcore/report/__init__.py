"""Presentation: every plain-language reading, display table and plotly figure.

Nothing here computes a risk figure; it reads results of :mod:`riskcore.metrics`,
:mod:`riskcore.attacks` and :mod:`riskcore.dp`. Plotly is imported only by
:mod:`riskcore.report.figures`.
"""
