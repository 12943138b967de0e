"""Command-line options shared by several sub-commands (one definition each), and the profile
they make.

Every command that judges targets (``assess``, ``records``, ``anonymize``,
``report``) takes ``--profile P.json`` (the one :class:`riskcore.profile.Profile`)
and the target options ``--k --l --l-kind --c --t --threshold --risk-model
--max-suppression``, the release context ``--context FILE.json``
(:class:`riskcore.criteria.context.Context`, whose targets replace the k and risk
ones), with the many-rows-per-person options ``--person``,
``--event`` (repeatable), ``--m`` and ``--household``; :func:`profile_from_args`
builds the profile they describe: the file's (or a new one's), with every
option given replacing the same kind of target. Without a profile and
without a target option the targets are the k = 11 preset
(:data:`riskcore.profile.DEFAULT_TARGETS`). Event columns add the
k^m-anonymity target, judged with the k every class needs by the other
targets (k, and a prosecutor threshold 1/k; 11 when they set none).
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from riskcore._deprecation import renamed_arguments
from riskcore.cli.common import column_pairs
from riskcore.errors import RiskcoreError

__all__ = [
    "DATA_HELP",
    "add_decimal",
    "add_memory_engine",
    "add_missing",
    "add_targets",
    "anonymize_inputs",
    "distance_options",
    "parse_threshold",
    "profile_from_args",
]

#: The data argument of the per-record commands.
DATA_HELP = (
    "CSV, Parquet or .xlsx file, or demo data: 'demo' / 'demo:N' (people), 'claims' / "
    "'claims:N' (patients' visits, person column patient_id)"
)

MISSING_HELP = (
    "a missing QI value is a value of its own (default) or matches any value "
    "(sdcMicro's convention)"
)


def parse_threshold(text: str) -> float:
    """Return a record-risk threshold written as a number, a fraction or a k.

    ``0.05``, ``1/11`` and ``k=11`` (or ``k11``): the last two are the exact
    1/11, which a class of 11 records meets.

    Raises
    ------
    argparse.ArgumentTypeError
        When the text is none of these or the value is outside (0, 1].

    Parameters
    ----------
    text : str
        The option's text: ``0.05``, ``1/11``, ``k=11`` or ``k11``.

    Returns
    -------
    float
        The threshold in (0, 1]; ``1/k`` for a k.
    """
    t = text.strip().lower().replace(" ", "")
    m = re.fullmatch(r"k=?(\d+)", t)
    try:
        value = 1 / int(m.group(1)) if m else float(Fraction(t))
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(
            f"{text!r}: write a number (0.05), a fraction (1/11) or k=11"
        ) from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"{text!r}: a threshold lies in (0, 1]")
    return value


def add_targets(parser: Any, *, profile: bool = True) -> None:
    """Add ``--profile``, ``--sensitive`` and the target options.

    Every target option defaults to None ("not given"): the profile's, or the
    k = 11 preset, stands.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The sub-command's parser.
    profile : bool, optional
        Also add ``--profile`` (default True).
    """
    if profile:
        parser.add_argument(
            "--profile",
            default=None,
            metavar="P.json",
            help="an assessment profile (roles, targets, policy, recipe): the options given "
            "replace its values",
        )
    parser.add_argument("--sensitive", action="append", default=[], metavar="COL")
    parser.add_argument(
        "--person",
        default=None,
        metavar="COL",
        help="the column linking the rows of one person (a patient id on claims or visits): "
        "every class, k, risk and the suppression limit count people, not rows",
    )
    parser.add_argument(
        "--event",
        action="append",
        default=[],
        metavar="COL",
        help="an event column (repeat for each): a quasi-identifier that changes from visit "
        "to visit (visit date, diagnosis, provider); adds the k^m-anonymity target: every "
        "set of at most --m of a person's visits is held by at least k people (k of --k and "
        "--threshold; needs --person)",
    )
    parser.add_argument(
        "--m",
        type=int,
        default=None,
        metavar="M",
        help="the most visits the k^m-anonymity attacker knows (default 2; needs --event)",
    )
    parser.add_argument(
        "--household",
        default=None,
        metavar="COL",
        help="the household column: sdcMicro's household risk (1 - prod(1 - r_i) over a "
        "household's members) beside each record's individual risk",
    )
    parser.add_argument(
        "--k",
        type=int,
        default=None,
        help="k-anonymity: smallest class size (preset: 11; 1: no k-anonymity target, so a "
        "risk or attribute model is judged alone)",
    )
    parser.add_argument(
        "--l", type=float, default=None, help="l-diversity of each sensitive column"
    )
    parser.add_argument(
        "--l-kind", choices=("distinct", "entropy", "recursive"), default=None,
        help="the kind of l-diversity (default distinct)",
    )  # fmt: skip
    parser.add_argument("--c", type=float, default=None, help="c of recursive (c,l)-diversity")
    parser.add_argument(
        "--t", type=float, default=None, help="t-closeness of each sensitive column"
    )
    parser.add_argument(
        "--beta",
        type=float,
        default=None,
        metavar="B",
        help="beta-likeness of each sensitive column: no class raises the share of a value it "
        "holds by more than B relative to the table, (p - q) / q <= B (Cao and Karras 2012)",
    )
    parser.add_argument(
        "--beta-kind",
        choices=("basic", "enhanced"),
        default=None,
        help="basic, or enhanced beta-likeness: a common value may gain at most -ln q "
        "(default basic)",
    )
    parser.add_argument(
        "--delta-disclosure",
        type=float,
        default=None,
        metavar="D",
        help="delta-disclosure privacy of each sensitive column: |log2(p / q)| < D for every "
        "value a class holds (Brickell and Shmatikov 2008)",
    )
    parser.add_argument(
        "--likeness-reference",
        choices=("release", "input"),
        default=None,
        help="the distribution q that --beta and --delta-disclosure measure each class "
        "against: the release's, judged again after suppression (default), or the input's, as "
        "ARX 3.9.2 does",
    )
    parser.add_argument(
        "--average-risk",
        type=float,
        default=None,
        metavar="A",
        help="highest average re-identification risk (the marketer's: classes per record "
        "without a population model); a search suppresses the smallest classes to meet it, as "
        "ARX does",
    )
    parser.add_argument(
        "--sample-uniqueness",
        type=float,
        default=None,
        metavar="U",
        help="highest share of records unique on the QIs (ARX's SampleUniqueness)",
    )
    parser.add_argument(
        "--population-uniqueness",
        type=float,
        default=None,
        metavar="U",
        help="highest estimated share of the population unique on the QIs (ARX's "
        "PopulationUniqueness); needs --population-size or --sampling-fraction",
    )
    parser.add_argument(
        "--population-model",
        choices=("dankar", "pitman", "zayatz", "snb"),
        default=None,
        help="the estimator of --population-uniqueness (default dankar: Pitman when the "
        "sampling fraction is at most 0.1, else the smaller of Zayatz and SNB)",
    )
    parser.add_argument(
        "--population-size",
        type=float,
        default=None,
        metavar="N",
        help="the population the table was drawn from, for --population-uniqueness",
    )
    parser.add_argument(
        "--threshold",
        type=parse_threshold,
        default=None,
        metavar="TAU",
        help="highest record re-identification risk: a number, 1/11 or k=11 (exact: a class "
        "of 11 meets 1/11; preset 1/11)",
    )
    parser.add_argument(
        "--risk-model",
        choices=("prosecutor", "journalist"),
        default=None,
        help="attacker model of --threshold (default prosecutor)",
    )
    parser.add_argument(
        "--max-suppression",
        type=float,
        default=None,
        help="share of records a remediation may suppress (preset 0.02)",
    )
    parser.add_argument(
        "--context",
        default=None,
        metavar="FILE.json",
        help="the release context (public, semi-public or non-public, the invasion of privacy, "
        "the attacks' answers): its threshold / Pr(attack) replaces the k and risk targets "
        "(El Emam; IPC Ontario 2016) and the report shows the answers",
    )


def add_missing(parser: Any, *, default: str | None = None, help: str = MISSING_HELP) -> None:
    """Add ``--missing own|any``, the missing-value policy (default: the profile's, else own).

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The sub-command's parser.
    default : str, optional
        The policy when the option is not given (None: the profile's, else ``own``).
    help : str, optional
        The option's help text.
    """
    parser.add_argument("--missing", choices=("own", "any"), default=default, help=help)


def add_decimal(sub: Any) -> None:
    """Add ``--decimal auto|.|,`` to every sub-command of ``sub`` that reads a data file.

    The decimal mark of a CSV / TSV file's numbers, for every table the
    command loads (``data`` and ``--population``); ``auto`` finds a decimal
    comma in a file that is not comma-separated
    (:func:`riskcore.io.load_table`).

    Parameters
    ----------
    sub : argparse subparsers action
        The sub-commands; those with a ``data`` argument get the option.
    """
    for parser in sub.choices.values():
        if any(a.dest == "data" for a in parser._actions):
            parser.add_argument(
                "--decimal",
                choices=("auto", ".", ","),
                default="auto",
                help=(
                    "decimal mark of a CSV / TSV file's numbers: ',' reads 1.234,56 as "
                    "1234.56; auto (default) takes the comma when the file is not "
                    "comma-separated and a column is mostly such numbers"
                ),
            )


def add_memory_engine(parser: Any, command: str) -> None:
    """Add ``--engine``, which a per-record command accepts as ``auto`` or ``pandas`` only.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The sub-command's parser.
    command : str
        The command's name, for the option's help.
    """
    parser.add_argument(
        "--engine",
        choices=("auto", "pandas", "arrow", "duckdb", "spark"),
        default="auto",
        help=f"{command} needs each record: it runs on the pandas engine (in memory) only; "
        "the other engines are refused with a message (default auto: pandas)",
    )


def _given(args: argparse.Namespace, name: str) -> Any:
    return getattr(args, name, None)


@renamed_arguments(qis="quasi_identifiers")
def profile_from_args(
    args: argparse.Namespace, *, quasi_identifiers: list[str] | None = None
) -> Any:
    """Return the :class:`~riskcore.profile.Profile` the options describe.

    The profile of ``--profile`` (or a new one); ``--qi`` (``quasi_identifiers``),
    ``--sensitive``, ``--weights``, ``--person``, ``--sampling-fraction``,
    ``--missing``, ``--event``, ``--m`` and ``--household`` replace its roles,
    policy and attacker models; each target option given replaces the
    profile's target of the same kind (``--l`` with ``--l-kind`` and ``--c``
    the l-diversity one). A new profile given some target options has those
    targets only; given none, the k = 11 preset. With event columns the
    k^m-anonymity target is (re)made, k being :attr:`Targets.k_required` of
    the other targets (11 when they set none), whenever ``--event``, ``--m``, ``--k`` or
    ``--threshold`` is given or the profile has none; otherwise the
    profile's stands.

    Raises
    ------
    RiskcoreError
        When the profile cannot be read or an option is out of range.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of the command.
    quasi_identifiers : list of str, optional
        The ``--qi`` columns (None or empty: the profile's).

    Returns
    -------
    riskcore.profile.Profile
        A new profile; the ``--profile`` file is not changed.
    """
    import dataclasses

    from riskcore.criteria import Targets
    from riskcore.profile import DEFAULT_TARGETS, Profile
    from riskcore.roles import ColumnRoles

    path = _given(args, "profile")
    base = Profile.read(Path(path)) if path else Profile()
    roles = base.roles
    sens = list(_given(args, "sensitive") or [])
    weights = _given(args, "weights")
    person = _given(args, "person")
    if person is not None and (person in (quasi_identifiers or []) or person in sens):
        raise RiskcoreError(
            f"--person {person!r} links a person's rows: it cannot be a --qi or --sensitive too"
        )
    if quasi_identifiers or sens or weights or person:
        q = (
            list(quasi_identifiers)
            if quasi_identifiers
            else [c for c in roles.quasi_identifiers if c != person]
        )
        s = sens or [c for c in roles.sensitive if c not in q and c != person]
        w = [weights] if weights else [c for c in roles.weights if c not in q + s]
        p = [person] if person else [c for c in roles.persons if c not in q + s + w]
        taken = set(q) | set(s) | set(w) | set(p)
        roles = ColumnRoles(
            identifiers=tuple(c for c in roles.identifiers if c not in taken),
            quasi_identifiers=tuple(q),
            sensitive=tuple(s),
            other=tuple(c for c in roles.other if c not in taken),
            weights=tuple(w),
            persons=tuple(p),
        )
    k, l_, t, tau = (_given(args, n) for n in ("k", "l", "t", "threshold"))
    for name, value in (("--k", k), ("--l", l_)):
        if value is not None and value < 1:
            raise RiskcoreError(f"{name} must be at least 1")
    c = _given(args, "c")
    if c is not None and c <= 0:
        raise RiskcoreError("--c must be positive")
    beta, delta_d = _given(args, "beta"), _given(args, "delta_disclosure")
    for name, value in (("--beta", beta), ("--delta-disclosure", delta_d)):
        if value is not None and not (value > 0 and math.isfinite(value)):
            raise RiskcoreError(f"{name} must be a positive number")
    avg, su, pu = (_given(args, n) for n in ("average_risk", "sample_uniqueness",
                                             "population_uniqueness"))  # fmt: skip
    for name, value in (("--average-risk", avg), ("--sample-uniqueness", su),
                        ("--population-uniqueness", pu)):  # fmt: skip
        if value is not None and not 0 <= value <= 1:
            raise RiskcoreError(f"{name} must be a share in [0, 1]")
    big_n, sf_given = _given(args, "population_size"), _given(args, "sampling_fraction")
    pop_model = _given(args, "population_model")
    if pu is None and (big_n is not None or pop_model is not None):
        raise RiskcoreError(
            "--population-size and --population-model go with --population-uniqueness U"
        )
    if pu is not None and big_n is None and sf_given is None:
        raise RiskcoreError(
            "--population-uniqueness needs the population: give --population-size N or "
            "--sampling-fraction F"
        )
    if _given(args, "beta_kind") is not None and beta is None:
        raise RiskcoreError("--beta-kind is the kind of beta-likeness: give --beta B too")
    reference = _given(args, "likeness_reference")
    if reference is not None and beta is None and delta_d is None:
        raise RiskcoreError("--likeness-reference goes with --beta B or --delta-disclosure D")
    given = Targets.of(
        k=None if k == 1 else k,  # k = 1 holds for any table: no k-anonymity target
        l=l_,
        l_kind=_given(args, "l_kind") or "distinct",
        c=2.0 if c is None else c,
        t=t,
        threshold=tau,
        risk_model=_given(args, "risk_model") or "prosecutor",
        beta=beta,
        beta_kind=_given(args, "beta_kind") or "basic",
        delta_disclosure=delta_d,
        likeness_reference=reference or "release",
        average_risk=avg,
        sample_uniqueness=su,
        population_uniqueness=pu,
        population_model=pop_model or "dankar",
        population_size=big_n,
        sampling_fraction=sf_given,
    )
    chosen = bool(given.criteria) or k == 1  # a target option given (k = 1 among them)
    limit = _given(args, "max_suppression")
    if limit is not None and not 0 <= limit <= 1:
        raise RiskcoreError("--max-suppression must be a share in [0, 1] (0.02 for 2%)")
    sf = _given(args, "sampling_fraction")
    if sf is not None and not 0 < sf <= 1:
        raise RiskcoreError("--sampling-fraction must be in (0, 1]")
    if path:
        kinds = {x.kind for x in given.criteria} | ({"k-anonymity"} if k == 1 else set())
        if l_ is not None:  # one l-diversity target, of the kind given
            kinds |= {"distinct-l-diversity", "entropy-l-diversity", "recursive-cl-diversity"}
        kept = tuple(x for x in base.targets.criteria if x.kind not in kinds)
        if base.context is not None and tau is not None:  # --threshold drops the context
            kept = tuple(x for x in kept if x not in base.context.criteria())
        targets = Targets(
            criteria=kept + given.criteria, max_suppression=base.targets.max_suppression
        )
    elif chosen:
        targets = Targets(criteria=given.criteria, max_suppression=DEFAULT_TARGETS.max_suppression)
    else:
        targets = DEFAULT_TARGETS
    if limit is not None:
        targets = dataclasses.replace(targets, max_suppression=limit)
    context = _context_option(args, base)
    if context is not None:
        targets = context.apply(targets)
        if k is not None and k > 1:  # an explicit --k stands beside the context's targets
            targets = Targets(
                criteria=targets.criteria + Targets.of(k=k).criteria,
                max_suppression=targets.max_suppression,
            )
    events, m, household = _event_options(args, base, roles)
    targets = _with_km(targets, args, events, m)
    keep = set(roles.sensitive)
    return Profile(
        roles=roles,
        targets=targets,
        missing=_given(args, "missing") or base.missing,
        sampling_fraction=sf if sf is not None else None if weights else base.sampling_fraction,
        distances={c: d for c, d in base.distances.items() if c in keep},
        orders={c: o for c, o in base.orders.items() if c in keep},
        sensitive_hierarchies={c: h for c, h in base.sensitive_hierarchies.items() if c in keep},
        population=base.population,
        recipe=base.recipe,
        ledger=base.ledger,
        events=events,
        m=m,
        household=household,
        context=context,
    )


def _context_option(args: argparse.Namespace, base: Any) -> Any:
    """Return the context of ``--context`` (else the profile's, unless a risk option replaced
    its targets), refusing ``--threshold`` beside it."""
    from riskcore.criteria.context import Context

    path = _given(args, "context")
    if path is None:
        if base.context is not None and _given(args, "threshold") is None:
            return base.context
        return None
    if _given(args, "threshold") is not None:
        raise RiskcoreError(
            "give --context or --threshold, not both: the context chooses the threshold"
        )
    return Context.read(Path(path))


def _event_options(
    args: argparse.Namespace, base: Any, roles: Any
) -> tuple[tuple[str, ...], int, str | None]:
    """Return the event columns, m and the household of the options (else the profile's).

    Raises
    ------
    RiskcoreError
        For ``--m`` without event columns, event columns without a person
        column, or an m below 1.
    """
    given = tuple(_given(args, "event") or ())
    events = given or tuple(base.events)
    m = _given(args, "m")
    if m is not None and m < 1:
        raise RiskcoreError("--m must be at least 1")
    if m is not None and not events:
        raise RiskcoreError(
            "--m is the m of k^m-anonymity: give the event columns too (--event COL)"
        )
    if events and roles.person is None:
        raise RiskcoreError(
            "--event needs --person COL: k^m-anonymity counts each person's events (the "
            "visits an attacker knows are a person's)"
        )
    household = _given(args, "household") or base.household
    return events, base.m if m is None else int(m), household


def _with_km(targets: Any, args: argparse.Namespace, events: tuple[str, ...], m: int) -> Any:
    """Return ``targets`` with the k^m-anonymity target of the events (see the module)."""
    from riskcore.criteria import KmAnonymity, Targets
    from riskcore.profile import DEFAULT_TARGETS

    if not events:
        return targets
    old = targets.find("km-anonymity")
    changed = any(_given(args, n) not in (None, []) for n in ("event", "m", "k", "threshold"))
    if old is not None and not changed:
        return targets
    others = tuple(c for c in targets.criteria if c.kind != "km-anonymity")
    need = Targets(criteria=others).k_required
    if need == 1:  # no k and no prosecutor threshold: the k = 11 preset's
        need = DEFAULT_TARGETS.k_required
    return Targets(
        criteria=(*others, KmAnonymity(k=need, m=m, events=events)),
        max_suppression=targets.max_suppression,
    )


def anonymize_inputs(
    args: argparse.Namespace,
) -> tuple[Any, Any, tuple[str, ...], Any, dict[str, Any] | None]:
    """Return what ``anonymize`` works to, in memory or on an engine, checked.

    ``--max-risk`` is taken as ``--threshold`` (giving both is refused); the
    targets are the profile's with ``--k-map`` and ``--delta`` added; the
    ``--population`` table is checked against the profile's reference.

    Parameters
    ----------
    args : argparse.Namespace
        The ``anonymize`` options.

    Returns
    -------
    profile : riskcore.profile.Profile
        The profile the options describe (:func:`profile_from_args`).
    targets : riskcore.criteria.Targets
        Its targets with the population ones.
    sensitive : tuple of str
        The sensitive attributes.
    population : pandas.DataFrame or None
        The ``--population`` table.
    reference : dict or None
        That table's reference (name and SHA-256).

    Raises
    ------
    RiskcoreError
        For ``--threshold`` with ``--max-risk``, no quasi-identifier, l or t
        targets without a sensitive attribute, or a population table other
        than the profile's.
    """
    from riskcore.cli.release import population_reference, with_population_targets

    if args.max_risk is not None:
        if args.threshold is not None:
            raise RiskcoreError("give --threshold or --max-risk, not both")
        args.threshold = args.max_risk
    profile = profile_from_args(args, quasi_identifiers=args.qi)
    targets = with_population_targets(profile.targets, args)
    named = None if profile.population is None else profile.population.to_dict()
    population, reference = population_reference(args, named)
    sensitive = tuple(profile.roles.sensitive)
    if not profile.roles.quasi_identifiers:
        raise RiskcoreError("give the quasi-identifiers: --qi COL (or a --profile with them)")
    if targets.needs_sensitive and not sensitive:
        raise RiskcoreError("--l and --t need at least one --sensitive column")
    return profile, targets, sensitive, population, reference


def distance_options(args: argparse.Namespace, profile: Any, values: Callable[[str], Any]) -> Any:
    """Return the profile with ``--distance`` and the sensitive columns' ``--hierarchy``.

    ``--distance COL=ordered|equal|hierarchical`` sets a sensitive attribute's
    t-closeness ground distance; ``--hierarchy COL=SPEC`` of a sensitive
    attribute (an ARX CSV file or a builder string, as for a QI) is its
    hierarchy for the hierarchical distance, kept in the profile as rows.

    Parameters
    ----------
    args : argparse.Namespace
        The options (``distance`` and ``hierarchy`` lists; absent ones are empty).
    profile : riskcore.profile.Profile
        The profile the other options describe.
    values : callable
        Returns a sensitive column's values (a pandas Series named after it;
        its distinct values suffice) to build or check a hierarchy on.

    Returns
    -------
    riskcore.profile.Profile
        The profile with the distances and hierarchies (checked again).

    Raises
    ------
    RiskcoreError
        For a malformed item, a column that is not sensitive, or a hierarchy
        that cannot be read or fails its checks.
    """
    from riskcore.cli.release import hierarchy_option
    from riskcore.metrics.closeness import DISTANCES

    sens = set(profile.roles.sensitive)
    distance: dict[str, str] = dict(profile.distances)
    for item in getattr(args, "distance", None) or []:
        col, sep, kind = item.rpartition("=")
        if not sep or kind not in DISTANCES:
            raise RiskcoreError(
                f"--distance {item!r}: write COLUMN=ordered, COLUMN=equal or COLUMN=hierarchical"
            )
        distance[col] = kind
    unknown = set(distance) - sens
    if unknown:
        raise RiskcoreError(f"--distance names {sorted(unknown)[0]!r}, not a --sensitive column")
    specs = column_pairs(
        getattr(args, "hierarchy", None) or [], "--hierarchy", "COLUMN=SPEC (a file or a builder)"
    )
    rows = dict(profile.sensitive_hierarchies)
    for col, spec in specs.items():
        if col in sens:
            h = hierarchy_option(values(col), spec)
            rows[col] = tuple(zip(*h.levels, strict=True))
    return profile.with_(distances=distance, sensitive_hierarchies=rows)
