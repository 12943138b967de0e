"""Presentation: every plain-language reading, display table and plotly figure.

Nothing here computes a risk figure; it reads results of :mod:`riskcore.metrics`,
:mod:`riskcore.attacks` and :mod:`riskcore.dp`.

* :mod:`riskcore.report.readings` -- sentences (str) and display tables
  (DataFrames), one module per concern; never imports plotly.
* :mod:`riskcore.report.figures` -- plotly builders, one module per concern,
  sharing :mod:`riskcore.report.figures._style`; the only plotly importer.
* :mod:`riskcore.report.summary` -- the command line's plain-text summary.

This package's ``__init__`` imports neither, so ``import riskcore.report.summary``
stays light.
"""
