"""Entry point of ``python -m riskcore``."""

from riskcore.cli import run

run()
