"""The command line: ``riskcore COMMAND ...`` (also ``python -m riskcore``).

One module per command, each adding its own sub-parser and running it:
:mod:`~riskcore.cli.assess`, :mod:`~riskcore.cli.anonymize`, :mod:`~riskcore.cli.apply`,
:mod:`~riskcore.cli.records`, :mod:`~riskcore.cli.report` (with ``report verify``),
:mod:`~riskcore.cli.audit` and :mod:`~riskcore.cli.app`. The parser is assembled in
:mod:`~riskcore.cli.entry`; :mod:`~riskcore.cli.common` (the parser class, loading,
output escaping), :mod:`~riskcore.cli.args` (the options several commands take),
:mod:`~riskcore.cli.release` (what ``anonymize`` and ``apply`` share),
:mod:`~riskcore.cli.perturb` and :mod:`~riskcore.cli.engines` (remediation on the
streaming engines) serve the commands. No module of the package imports one above it.

Exit codes: 0 success, 1 a target failed under ``--fail-on-targets`` or the
release is not ready under ``report --fail-unless-ready``, 2 bad input or usage.
"""

from __future__ import annotations

from riskcore.cli.common import escape_controls
from riskcore.cli.entry import build_parser, main, run

__all__ = ["build_parser", "escape_controls", "main", "run"]
