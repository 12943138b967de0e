"""Entry point of ``python -m riskcore``."""

from riskcore.cli import main

raise SystemExit(main())
