"""The command line's ``report`` command: the assessment as an HTML / JSON (/ PDF) document.

``python -m riskcore report DATA --profile PROFILE.json --out report.html
[--json report.json] [--pdf report.pdf] [--fail-on-targets | --fail-unless-ready]`` reviews
DATA under the
assessment profile (:class:`riskcore.profile.Profile`; the target options replace its
targets, as for ``assess``) with :func:`riskcore.review.review` and writes the offline HTML
report, its JSON twin and the PDF/A-3b report (:mod:`riskcore.report.render`). With
``--fail-on-targets`` it exits 1 when the verdict fails, after writing them; with
``--fail-unless-ready`` also when identifiers remain in released columns (the review's
:attr:`~riskcore.review.Review.readiness`, the banner's NOT READY). With ``--sign
KEY.p12`` it signs the PDF (PAdES) and the JSON twin (a detached CMS signature written beside
it as ``R.json.p7s``), the key's passphrase read from an environment variable
(:mod:`riskcore.report.sign`).

``python -m riskcore report verify R.pdf [--json R.json] [--trust CERT.pem]`` checks a
signed report (:func:`run_verify`): exit 0 valid, 1 invalid (whatever is wrong with the
files checked, a damaged one included), 2 a file cannot be read or a ``--trust`` certificate
is not one, each with one sentence. Heavy imports happen inside the handlers.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from riskcore.cli.args import DATA_HELP, add_memory_engine, add_missing, add_targets
from riskcore.errors import RiskcoreError

__all__ = ["PASSPHRASE_ENV", "add_parser", "run_report", "run_verify"]

#: The environment variable the key's passphrase is read from by default.
PASSPHRASE_ENV = "RISKCORE_SIGN_PASSPHRASE"  # noqa: S105 - a variable's name, not a secret


def add_parser(sub: Any) -> None:
    """Add the ``report`` sub-command to the parser's sub-parsers.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The sub-parsers of the ``riskcore`` parser (``add_subparsers``).
    """
    r = sub.add_parser(
        "report",
        help="the assessment as an offline HTML report with its JSON twin",
        epilog="riskcore report verify R.pdf [--json R.json] [--trust CERT.pem] checks a "
        "signed report (riskcore report verify --help)",
    )
    r.add_argument("data", help=DATA_HELP)
    add_memory_engine(r, "report")
    add_targets(r)
    r.add_argument("--out", required=True, help="the HTML report")
    r.add_argument(
        "--fail-on-targets",
        action="store_true",
        help="exit 1 when a target fails (after writing the report), for pipelines",
    )
    r.add_argument(
        "--fail-unless-ready",
        action="store_true",
        help="exit 1 unless the release is ready: every target met and no identifier left "
        "in a released column (the report's PASS; after writing it), for pipelines",
    )
    r.add_argument(
        "--built-by",
        default=None,
        metavar="NAME",
        help="who builds the report: recorded as 'unauthenticated: NAME' (no login checks it)",
    )
    r.add_argument(
        "--db",
        default=None,
        help="the database whose audit-log head the report records, and whose privacy ledger "
        "of the data the report states (default RISKCORE_DB or the user data directory; none "
        "recorded when it does not exist, and a profile's ledger then stated as not checked)",
    )
    r.add_argument("--json", default=None, help="the JSON twin")
    r.add_argument(
        "--pdf", default=None, help="the PDF/A-3b report, the JSON twin embedded (WeasyPrint)"
    )
    r.add_argument(
        "--no-figures", action="store_true", help="leave the figures (and plotly.js) out"
    )
    r.add_argument(
        "--sign",
        default=None,
        metavar="KEY.p12",
        help="sign the PDF (PAdES) and the JSON twin (a detached CMS signature written beside "
        "it as R.json.p7s) with this PKCS#12 key and certificate",
    )
    r.add_argument(
        "--sign-passphrase-env",
        default=PASSPHRASE_ENV,
        metavar="NAME",
        help=f"the environment variable holding the key's passphrase (default {PASSPHRASE_ENV}; "
        "unset for a key without one); never give it on the command line",
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
    ("--beta", "beta"),
    ("--beta-kind", "beta_kind"),
    ("--delta-disclosure", "delta_disclosure"),
    ("--likeness-reference", "likeness_reference"),
    ("--average-risk", "average_risk"),
    ("--sample-uniqueness", "sample_uniqueness"),
    ("--population-uniqueness", "population_uniqueness"),
    ("--population-model", "population_model"),
    ("--population-size", "population_size"),
    ("--threshold", "threshold"),
    ("--risk-model", "risk_model"),
    ("--max-suppression", "max_suppression"),
    ("--missing", "missing"),
    ("--person", "person"),
    ("--m", "m"),
    ("--household", "household"),
)


def _profile_options(args: argparse.Namespace) -> list[str]:
    """Return the options given that replace the profile's values, as command-line words."""
    out: list[str] = []
    for col in args.sensitive or []:
        out += ["--sensitive", col]
    for col in getattr(args, "event", None) or []:
        out += ["--event", col]
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


def _checked_ledger(profile: Any, data: Any, args: argparse.Namespace, sha256: str | None) -> Any:
    """Return the profile with its ledger read from the database, or marked as not checked.

    A profile's ``ledger`` is a claim (it may name a ledger the database never held, and
    say nothing was spent): the report states the database's ledger of this data (its
    file, its people, or the source name the profile names), with every other ledger of
    its people, and the claim only as "not checked" when the database holds none.
    """
    if profile.ledger is None:
        return profile
    from riskcore.dp import DataSource
    from riskcore.report.readings import ledger_provenance
    from riskcore.store import Store, default_path
    from riskcore.store.ledgers import BudgetStore, holds_ledgers

    path = Path(args.db) if args.db else default_path()
    claimed = dict(profile.ledger)
    named = claimed.get("charged_to")
    name = str(named.get("ledger", "")) if isinstance(named, dict) else ""
    source = DataSource(
        name or Path(str(args.data)).name,
        sha256 or str(args.data),
        tuple(str(c) for c in data.columns),
        len(data),
    )
    why = f"the database {path} holds no privacy ledger"
    try:
        if holds_ledgers(path):
            look = BudgetStore(Store(path)).lookup(source, data=data)
            if look.ledger is not None:
                return profile.with_(
                    ledger={
                        **look.budget.to_dict(),
                        "charged_to": ledger_provenance(look),
                        "checked": {"against": str(path), "found": True},
                    }
                )
            why = f"the database {path} holds no ledger of this data"
    except RiskcoreError as exc:
        why = str(exc)
    claimed["checked"] = {"against": str(path), "found": False, "why": why}
    return profile.with_(ledger=claimed)


def run_report(args: argparse.Namespace, load: Any) -> int:
    """Run ``report``: assess, write the HTML (and JSON); return the exit code.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of the command.
    load : callable
        Reads a table from a path or a demo name (:func:`riskcore.cli.common.load`).

    Returns
    -------
    int
        The exit code: 0 written, 1 not ready under ``--fail-unless-ready`` (written
        first), 2 bad input.
    """
    from riskcore.cli.args import profile_from_args
    from riskcore.report.readings.review import release_banner
    from riskcore.report.render import render_html, render_pdf
    from riskcore.review import review
    from riskcore.store.identity import Identity

    try:
        if not args.profile:
            raise RiskcoreError("give the assessment profile: --profile P.json")
        key = _signing_key(args)  # before the work: a wrong passphrase answers at once
        profile = profile_from_args(args)
        # no login on the command line: the name is marked as nobody's proof, in the twin too
        builder = Identity.unauthenticated(args.built_by)
        sha256 = None
        from riskcore.demo import is_demo

        if is_demo(args.data):
            df = load(args.data)
        else:
            from riskcore.io import load_table

            decimal = None if args.decimal == "auto" else args.decimal
            loaded = load_table(args.data, decimal=decimal)
            df, sha256 = loaded.data, loaded.info.fingerprint
        profile = _checked_ledger(profile, df, args, sha256)
        report = review(
            df,
            profile,
            name=args.data,
            sha256=sha256,
            profile_name=args.profile,
            options=_profile_options(args),
            built_by=builder.label,
            identity=builder.to_dict(),
            audit_head=_audit_head(args.db),
        )
        Path(args.out).write_text(render_html(report, figures=not args.no_figures), "utf-8")
        twin = (report.to_json() + "\n").encode("utf-8")
        pdf = render_pdf(report, figures=not args.no_figures) if args.pdf else None
        if key is not None:
            from riskcore.report.sign import TWIN_SIGNATURE_SUFFIX, sign_pdf, sign_twin

            pdf = None if pdf is None else sign_pdf(pdf, key)
            if args.json:
                Path(args.json + TWIN_SIGNATURE_SUFFIX).write_bytes(sign_twin(twin, key))
        if args.json:
            Path(args.json).write_bytes(twin)
        if args.pdf and pdf is not None:
            Path(args.pdf).write_bytes(pdf)
    except (RiskcoreError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    v = report.verdict
    banner = release_banner(report)  # PASS, NOT READY (identifiers left) or FAIL, as the report
    print(f"{banner.mark}: {banner.text}")
    print(
        f"Wrote the report to {args.out}"
        + (f" and its JSON twin to {args.json}" if args.json else "")
    )
    if key is not None:
        from riskcore.report.readings.signature import shown

        what = " and ".join(
            ([f"the PDF {args.pdf}"] if args.pdf else [])
            + ([f"the JSON twin (signature {args.json}.p7s)"] if args.json else [])
        )
        print(f"Signed {what} as {shown(key.subject)}.")
    if args.fail_unless_ready and not report.readiness.ready:
        return 1
    return 1 if args.fail_on_targets and not v.passed else 0


def _signing_key(args: argparse.Namespace) -> Any:
    """Return the :class:`~riskcore.report.sign.SigningKey` of ``--sign``, or None.

    The passphrase comes from the environment variable ``--sign-passphrase-env`` names;
    it is used to open the key and then dropped, and appears in no message.
    """
    if args.sign is None:
        return None
    if not (args.pdf or args.json):
        raise RiskcoreError("--sign signs the PDF and the JSON twin: give --pdf and/or --json")
    import os

    from riskcore._files import read_regular
    from riskcore.report.sign import MAX_KEY_FILE_BYTES, load_signing_key

    name = args.sign_passphrase_env
    p12 = read_regular(args.sign, what="the key file", limit=MAX_KEY_FILE_BYTES)
    try:
        return load_signing_key(p12, os.environ.get(name))
    except RiskcoreError as exc:
        unset = "" if name in os.environ else f" (the environment variable {name} is not set)"
        raise RiskcoreError(f"{exc}{unset}") from None


def _verify_parser() -> argparse.ArgumentParser:
    from riskcore.cli.common import Parser as _Parser

    p = _Parser(
        prog="riskcore report verify",
        description="Check a signed report: the PDF's signature (intact, covering the whole "
        "file), the JSON twin's signature and that the twin is the PDF's own. Exit 0 valid, "
        "1 invalid (a damaged file included), 2 a file cannot be read or a --trust "
        "certificate is not one.",
    )
    p.add_argument("pdf", help="the signed PDF report")
    p.add_argument("--json", default=None, metavar="R.json", help="the JSON twin to check too")
    p.add_argument(
        "--json-signature",
        default=None,
        metavar="R.json.p7s",
        help="the twin's detached signature (default: the twin's name with .p7s)",
    )
    p.add_argument(
        "--trust",
        action="append",
        default=[],
        metavar="CERT.pem",
        help="a certificate (PEM or DER) to trust as a root (repeat for each); without it "
        "the signer is named, not trusted",
    )
    return p


def run_verify(argv: list[str]) -> int:
    """Run ``report verify``: print one sentence; return 0 valid, 1 invalid, 2 cannot read.

    Whatever is wrong with the PDF, the twin or its signature (not a PDF, damaged, altered)
    is a sentence on stdout and 1; 2 is kept for a file that cannot be read (missing, not a
    regular file, over the size limit) and a ``--trust`` certificate that is not one.

    Parameters
    ----------
    argv : list of str
        The arguments after ``report verify``.

    Returns
    -------
    int
    """
    from riskcore._files import read_regular
    from riskcore.report.readings.signature import verification_reading
    from riskcore.report.sign import (
        MAX_KEY_FILE_BYTES,
        MAX_PDF_BYTES,
        TWIN_SIGNATURE_SUFFIX,
        verify_report,
    )

    args = _verify_parser().parse_args(argv)
    try:
        pdf = read_regular(args.pdf, what="the PDF", limit=MAX_PDF_BYTES)
        twin = sig = None
        if args.json is not None:
            twin = read_regular(args.json, what="the JSON twin", limit=MAX_PDF_BYTES)
            sig_path = args.json_signature or args.json + TWIN_SIGNATURE_SUFFIX
            sig = read_regular(sig_path, what="the twin's signature", limit=MAX_KEY_FILE_BYTES)
        trust = [
            read_regular(t, what="the certificate", limit=MAX_KEY_FILE_BYTES) for t in args.trust
        ]
        check = verify_report(pdf, twin=twin, twin_signature=sig, trust=trust)
    except RiskcoreError as exc:
        print(f"Cannot read: {exc}.", file=sys.stderr)
        return 2
    print(verification_reading(check))
    return 0 if check.valid else 1
