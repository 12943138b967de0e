"""The command line's ``report`` command: the assessment as an HTML / JSON (/ PDF) document.

``python -m riskcore report DATA --profile PROFILE.json --out report.html
[--json report.json] [--pdf report.pdf]`` assesses DATA under the profile (the Data page's role
profile plus optional ``targets``, ``sampling_fraction``, ``c``, ``recipe`` and
``ledger``; see :func:`riskcore.report.document.load_profile`) and writes the
offline HTML report, its JSON twin and the PDF/A-3b report. Heavy imports happen inside the handler.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from riskcore._cli_args import add_memory_engine, add_missing
from riskcore.errors import RiskcoreError

__all__ = ["add_parser", "run_report"]


def add_parser(sub: Any) -> None:
    """Add the ``report`` sub-command to the parser's sub-parsers."""
    r = sub.add_parser("report", help="the assessment as an offline HTML report with its JSON twin")
    r.add_argument("data", help="CSV, Parquet or .xlsx file, or 'demo' / 'demo:N'")
    add_memory_engine(r, "report")
    r.add_argument(
        "--profile",
        required=True,
        help="role profile JSON (the Data page's), with optional targets, sampling_fraction, "
        "c, recipe and ledger",
    )
    r.add_argument("--out", required=True, help="the HTML report")
    r.add_argument("--json", default=None, help="the JSON twin")
    r.add_argument(
        "--pdf", default=None, help="the PDF/A-3b report, the JSON twin embedded (WeasyPrint)"
    )
    r.add_argument(
        "--no-figures", action="store_true", help="leave the figures (and plotly.js) out"
    )
    add_missing(
        r,
        default=None,
        help="missing-value policy instead of the profile's 'missing' (default own): a "
        "missing QI value is a value of its own, or matches any value (sdcMicro's convention)",
    )


def run_report(args: argparse.Namespace, load: Any) -> int:
    """Run ``report``: assess, write the HTML (and JSON); return the exit code."""
    from riskcore.report.document import build_report, render_html, render_pdf

    try:
        try:
            profile = Path(args.profile).read_bytes()
        except OSError as exc:
            raise RiskcoreError(f"cannot read the profile {args.profile!r}: {exc}") from None
        sha256 = None
        if args.data == "demo" or args.data.startswith("demo:"):
            df = load(args.data)
        else:
            from riskcore.io import load_table

            loaded = load_table(args.data)
            df, sha256 = loaded.data, loaded.info.fingerprint
        report = build_report(
            df,
            profile,
            name=args.data,
            sha256=sha256,
            profile_name=args.profile,
            missing=args.missing,
        )
        Path(args.out).write_text(render_html(report, figures=not args.no_figures), "utf-8")
        if args.json:
            Path(args.json).write_text(report.to_json() + "\n", "utf-8")
        if args.pdf:
            Path(args.pdf).write_bytes(render_pdf(report, figures=not args.no_figures))
    except (RiskcoreError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    v = report.verdict
    print(f"Residual risk of {v['of']}: {'PASS' if v['pass'] else 'FAIL'} ({v['reason']}).")
    print(
        f"Wrote the report to {args.out}"
        + (f" and its JSON twin to {args.json}" if args.json else "")
    )
    return 0
