"""The command line's ``report`` command: the assessment as an HTML / JSON (/ PDF) document.

``python -m riskcore report DATA --profile PROFILE.json --out report.html
[--json report.json] [--pdf report.pdf] [--fail-on-targets]`` reviews DATA under the
assessment profile (:class:`riskcore.profile.Profile`; the target options replace its
targets, as for ``assess``) with :func:`riskcore.review.review` and writes the offline HTML
report, its JSON twin and the PDF/A-3b report (:mod:`riskcore.report.render`). With
``--fail-on-targets`` it exits 1 when the verdict fails, after writing them. Heavy imports
happen inside the handler.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from riskcore._cli_args import add_memory_engine, add_missing, add_targets
from riskcore.errors import RiskcoreError

__all__ = ["add_parser", "run_report"]


def add_parser(sub: Any) -> None:
    """Add the ``report`` sub-command to the parser's sub-parsers."""
    r = sub.add_parser("report", help="the assessment as an offline HTML report with its JSON twin")
    r.add_argument("data", help="CSV, Parquet or .xlsx file, or 'demo' / 'demo:N'")
    add_memory_engine(r, "report")
    add_targets(r)
    r.add_argument("--out", required=True, help="the HTML report")
    r.add_argument(
        "--fail-on-targets",
        action="store_true",
        help="exit 1 when a target fails (after writing the report), for pipelines",
    )
    r.add_argument("--built-by", default=None, metavar="NAME", help="who builds the report")
    r.add_argument(
        "--db",
        default=None,
        help="the database whose audit-log head the report records (default RISKCORE_DB or "
        "the user data directory; none recorded when it does not exist)",
    )
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
        help="missing-value policy instead of the profile's (default own): a "
        "missing QI value is a value of its own, or matches any value (sdcMicro's convention)",
    )
    r.set_defaults(qi=[], weights=None, sampling_fraction=None)


#: The options that change the profile's values, as ``(flag, attribute)``: repeated in the
#: report's reproducing command.
_PROFILE_OPTIONS = (
    ("--k", "k"),
    ("--l", "l"),
    ("--l-kind", "l_kind"),
    ("--c", "c"),
    ("--t", "t"),
    ("--threshold", "threshold"),
    ("--risk-model", "risk_model"),
    ("--max-suppression", "max_suppression"),
    ("--missing", "missing"),
)


def _profile_options(args: argparse.Namespace) -> list[str]:
    """Return the options given that replace the profile's values, as command-line words."""
    out: list[str] = []
    for col in args.sensitive or []:
        out += ["--sensitive", col]
    for flag, name in _PROFILE_OPTIONS:
        value = getattr(args, name, None)
        if value is not None:  # repr: a float reads back exactly (1/11 as 0.09090909090909091)
            out += [flag, repr(value) if isinstance(value, float) else str(value)]
    return out


def _audit_head(db: str | None) -> dict[str, Any] | None:
    """Return the audit log's head to record, read-only; None (and a warning) when unreadable."""
    from riskcore.store import default_path, read_head

    try:
        head = read_head(Path(db) if db else default_path())
    except RiskcoreError as exc:
        print(f"warning: no audit head recorded: {exc}", file=sys.stderr)
        return None
    return None if head is None else head.to_dict()


def run_report(args: argparse.Namespace, load: Any) -> int:
    """Run ``report``: assess, write the HTML (and JSON); return the exit code."""
    from riskcore._cli_args import profile_from_args
    from riskcore.report.readings.criteria import verdict_reading
    from riskcore.report.render import render_html, render_pdf
    from riskcore.review import review

    try:
        if not args.profile:
            raise RiskcoreError("give the assessment profile: --profile P.json")
        profile = profile_from_args(args)
        sha256 = None
        if args.data == "demo" or args.data.startswith("demo:"):
            df = load(args.data)
        else:
            from riskcore.io import load_table

            loaded = load_table(args.data)
            df, sha256 = loaded.data, loaded.info.fingerprint
        report = review(
            df,
            profile,
            name=args.data,
            sha256=sha256,
            profile_name=args.profile,
            options=_profile_options(args),
            built_by=args.built_by,
            audit_head=_audit_head(args.db),
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
    print(("PASS: " if v.passed else "FAIL: ") + verdict_reading(v, of=report.of))
    print(
        f"Wrote the report to {args.out}"
        + (f" and its JSON twin to {args.json}" if args.json else "")
    )
    return 1 if args.fail_on_targets and not v.passed else 0
