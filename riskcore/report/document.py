"""The assessment as a document: a :class:`Report` (every number), its JSON twin and offline HTML.

:func:`build_report` runs :func:`riskcore.metrics.assess` on a table under a
*profile* (the Data page's role profile, plus optional ``targets``,
``sampling_fraction``, ``recipe`` and DP ``ledger``) and gathers every number
a reviewer files: the dataset fingerprint (SHA-256), roles with the reason for
each, targets with their cited meaning, uniqueness, k / l / t, the three
attacker models, population estimates, a remediation recipe's before / after,
the attacks that need nothing but the profile (a linkage attack by an attacker
who knows every quasi-identifier of everyone, with 95% intervals; the
homogeneity attack on each sensitive attribute), the residual-risk verdict,
method notes with citations, software versions and the command that
reproduces the numbers. :meth:`Report.to_dict` is the
schema-versioned JSON twin.

:func:`render_html` writes one standalone HTML file: CSS inline, plotly.js
embedded once, no address of any other host, every string that comes from the
user (column names, file name, recipe) escaped with :func:`html.escape`. Data
values never appear: only aggregates, and never a direct identifier's values.
"""

from __future__ import annotations

import dataclasses
import html
import json
import platform
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from riskcore._results import Result, dumps, plain
from riskcore.engine import EncodedTable
from riskcore.errors import RiskcoreError, RolesError
from riskcore.metrics import THRESHOLDS, Assessment, Population, assess
from riskcore.roles import ColumnRoles

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "ATTACHMENT_NAME",
    "ATTACK_P",
    "METHOD_NOTES",
    "REPORT_SCHEMA",
    "SUDA_MAX_ROWS",
    "Report",
    "build_report",
    "dataset_facts",
    "figure_svgs",
    "load_profile",
    "render_html",
    "render_pdf",
]

#: Name and version of the report's JSON format (raise the version when a field changes meaning).
REPORT_SCHEMA = "riskcore-report/1"

#: Largest table whose special uniques (SUDA) the report computes (as the Records page).
SUDA_MAX_ROWS = 200_000

#: Confidence at which the report's linkage attack counts a sensitive value as learned (the
#: Attacks page's default).
ATTACK_P = 0.9

#: Method notes printed in every report: (topic, how it is computed, citation).
METHOD_NOTES: tuple[tuple[str, str, str], ...] = (
    (
        "k-anonymity",
        "k = min_j f_j, the size of the smallest equivalence class on the quasi-identifiers",
        "Sweeney L. k-anonymity: a model for protecting privacy. IJUFKS 10(5), 2002",
    ),
    (
        "prosecutor / journalist / marketer risk",
        "record risk 1/f_j (prosecutor), 1/F_j (journalist, highest), J / sum F_j (marketer); "
        "records at risk = share with risk above the threshold",
        "El Emam K. Guide to the De-Identification of Personal Health Information, 2013; "
        "Dankar F, El Emam K. Estimating the re-identification risk of clinical data sets, 2012",
    ),
    (
        "l-diversity",
        "distinct l = fewest distinct sensitive values in a class; entropy l = exp(min_j H_j); "
        "recursive (c,l): r_1 < c (r_l + ... + r_m)",
        "Machanavajjhala A et al. l-diversity: privacy beyond k-anonymity. ACM TKDD 1(1), 2007",
    ),
    (
        "t-closeness",
        "t = max_j EMD(P_j, Q), earth mover's distance of each class's sensitive distribution "
        "from the whole table's (ordered or equal ground distance)",
        "Li N, Li T, Venkatasubramanian S. t-closeness: privacy beyond k-anonymity and "
        "l-diversity. ICDE 2007",
    ),
    (
        "missing values",
        "policy 'own': a missing quasi-identifier value is one more value; policy 'any': it "
        "matches any value, f_k(r) = number of records agreeing with r wherever both are "
        "known, k = min f_k, risk 1/f_k, l and t over each record's compatible records",
        "Templ M, Kowarik A, Meindl B. Statistical disclosure control for micro-data using the "
        "R package sdcMicro. J Stat Softw 67(4), 2015 (freqCalc)",
    ),
    (
        "special uniques (SUDA)",
        "minimal sample uniques found by SUDA2; SUDA scores and DIS-SUDA as in sdcMicro",
        "Elliot M, Manning A, Ford R. A computational algorithm for handling the special "
        "uniques problem. IJUFKS 10(5), 2002; Manning A, Haglin D, Keane J. SUDA2, 2008",
    ),
    (
        "population estimates",
        "record risk E[1/F_j | f_j] with sampling weights (a weight column, or 1/pi for a "
        "sampling fraction pi); population uniques by the "
        "Pitman, Zayatz, SNB and Dankar models",
        "Benedetti R, Franconi L 1998; Dankar F et al. Estimating the re-identification risk "
        "of clinical data sets. BMC Med Inform Decis Mak 12:66, 2012",
    ),
    (
        "attacks",
        "linkage: the attacker knows every quasi-identifier of everyone (no error) and joins "
        "on them; unique = exactly one matching record, correct = it is the target's own, "
        "with 95% Wilson intervals; expected correct under a random pick among the matches, "
        "with a normal interval. Homogeneity: classes where every record shares one "
        "sensitive value (an exact count of every record, so no interval)",
        "Sweeney L. k-anonymity, IJUFKS 10(5), 2002; Wilson EB, JASA 22(158), 1927; "
        "Machanavajjhala A et al., ACM TKDD 1(1), 2007",
    ),
    (
        "remediation",
        "generalization along hierarchies, suppression of classes breaking the targets; "
        "information loss as the normalized certainty penalty",
        "Samarati P. Protecting respondents' identities in microdata release. IEEE TKDE 2001; "
        "Xu J et al. Utility-based anonymization using local recoding. KDD 2006",
    ),
    (
        "differential privacy budget",
        "epsilons and deltas of the releases charged to the ledger, added up under basic "
        "sequential composition (or zCDP when the ledger says so)",
        "Dwork C, Roth A. The algorithmic foundations of differential privacy, 2014, Thm 3.16; "
        "Bun M, Steinke T. Concentrated differential privacy, TCC 2016",
    ),
)

_TARGET_MEANING = {
    "k": "smallest equivalence class allowed (Sweeney 2002)",
    "l": "well-represented sensitive values per class (Machanavajjhala et al. 2007)",
    "t": "largest distance of a class's sensitive distribution from the table's (Li et al. 2007)",
}

_PROFILE_KEYS = frozenset(
    {
        "riskcore_roles",
        "schema_version",
        "identifiers",
        "quasi_identifiers",
        "sensitive",
        "weights",
        "other",
        "targets",
        "sampling_fraction",
        "c",
        "recipe",
        "ledger",
        "missing",
    }
)


@dataclass(frozen=True)
class Report(Result):
    """Every number of one filed assessment, and what produced it.

    Attributes
    ----------
    dataset : dict
        ``name``, ``sha256`` (of the file's bytes, or of the table written as
        CSV when no file was given; ``fingerprint_of`` says which), ``rows``,
        ``columns``, ``missing`` (missing cells).
    roles : dict of str to list of str
        The role profile (``identifiers``, ``quasi_identifiers``, ...).
    reasons : dict of str to str
        Per column, why it has its role.
    targets : dict
        ``k``, ``l``, ``t``, ``threshold`` as given (None when not set) and
        ``meanings``: each target's cited meaning.
    assessment : Assessment
        :func:`riskcore.metrics.assess` of the table under the profile.
    checks : list of dict
        Each target with the value achieved and pass / fail (before remediation).
    readings : list of str
        The plain-language sentences of the dashboard for these numbers.
    remediation : dict or None
        The recipe, records suppressed, information loss and the checks after it.
    after : Assessment or None
        The assessment of the remediated table.
    verdict : dict
        ``pass`` (bool), ``threshold``, ``highest_risk``, ``records_at_risk``
        and ``reason``: the residual risk of the release (after remediation
        when a recipe is given) against the threshold and the targets.
    privacy_budget : dict or None
        The DP ledger's entries and the budget spent.
    attacks : dict or None
        The attacks computed from the profile alone (:func:`_attacks`): the
        table attacked, the linkage attack's settings and result (rates with
        ``ci95``), the homogeneity attack per sensitive attribute, their
        readings, and the attacks not run with the reason; ``attacks_after``
        the same on the remediated table.
    special_uniques : dict or None
        The SUDA summary (:class:`~riskcore.metrics.SudaResult` as JSON:
        counts of minimal sample uniques, special uniques, DIS, each QI's
        share; no per-record score), for tables up to :data:`SUDA_MAX_ROWS`.
    methods : list of dict
        Method notes with citations.
    software : dict of str to str
        Versions of riskcore, Python, pandas and numpy.
    parameters : dict
        Every parameter of the assessment (c, threshold, sampling fraction,
        distances) and the seeds used (none: every number here is exact).
    command : str
        The command line that reproduces the numbers.
    view : str
        Which table the report describes, in words: the table as recorded, or
        the table as recorded and after the recipe (before / after, with the
        information loss).
    """

    schema: ClassVar[str] = REPORT_SCHEMA

    dataset: dict[str, Any]
    roles: dict[str, list[str]]
    reasons: dict[str, str]
    targets: dict[str, Any]
    assessment: Assessment
    checks: list[dict[str, Any]]
    readings: list[str]
    verdict: dict[str, Any]
    methods: list[dict[str, str]]
    software: dict[str, str]
    parameters: dict[str, Any]
    command: str
    remediation: dict[str, Any] | None = None
    after: Assessment | None = None
    privacy_budget: dict[str, Any] | None = None
    checks_after: list[dict[str, Any]] = field(default_factory=list)
    special_uniques: dict[str, Any] | None = None
    attacks: dict[str, Any] | None = None
    attacks_after: dict[str, Any] | None = None
    view: str = "the table as recorded"

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON twin: every field, with ``schema`` and ``schema_version``.

        Returns
        -------
        dict
        """
        return {"schema": self.schema, **super().to_dict()}

    def to_json(self) -> str:
        """Return the JSON twin as strict JSON text (indented, keys in field order)."""
        return dumps(self.to_dict(), indent=2)


def load_profile(obj: Mapping[str, Any] | str | bytes) -> dict[str, Any]:
    """Read and check a report profile (a role profile plus optional report keys).

    Parameters
    ----------
    obj : mapping, str or bytes
        The profile, or its JSON text. Keys: those of the Data page's role
        profile (``identifiers``, ``quasi_identifiers``, ``sensitive``,
        ``weights``, ``other``) and optionally ``targets`` (``k``, ``l``,
        ``t``, ``threshold``), ``sampling_fraction``, ``c``, ``recipe`` (as
        written by ``riskcore anonymize``), ``ledger`` (a
        :class:`~riskcore.dp.PrivacyLedger` as JSON) and ``missing`` (the
        missing-value policy, ``"own"`` by default or ``"any"``; see
        :mod:`riskcore.metrics.missing`).

    Returns
    -------
    dict
        The profile with ``roles`` (a :class:`~riskcore.roles.ColumnRoles`)
        and ``targets`` filled with defaults.

    Raises
    ------
    RiskcoreError
        When the profile is not valid, naming what is wrong.
    """
    if isinstance(obj, (str, bytes)):
        try:
            obj = json.loads(obj)
        except (ValueError, UnicodeDecodeError) as exc:
            raise RiskcoreError(f"the profile is not valid JSON ({exc})") from None
    if not isinstance(obj, Mapping):
        raise RiskcoreError("the profile must be a JSON object")
    unknown = sorted(set(map(str, obj)) - _PROFILE_KEYS)
    if unknown:
        raise RiskcoreError(
            f"the profile has an unknown key {unknown[0]!r} "
            f"(known: {', '.join(sorted(_PROFILE_KEYS))})"
        )
    roles = ColumnRoles.from_dict(obj)
    targets = obj.get("targets") or {}
    if not isinstance(targets, Mapping):
        raise RiskcoreError("'targets' in the profile must be an object")
    bad = sorted(set(targets) - {"k", "l", "t", "threshold"})
    if bad:
        raise RiskcoreError(f"unknown target {bad[0]!r} (use k, l, t, threshold)")
    t: dict[str, Any] = {"k": None, "l": None, "t": None, "threshold": 0.09, **targets}
    for name, kind in (("k", int), ("l", int), ("t", float), ("threshold", float)):
        v = t[name]
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
            raise RiskcoreError(f"target {name} must be a number, got {v!r}")
        if v is not None and kind is int and v != int(v):
            raise RiskcoreError(f"target {name} must be a whole number, got {v!r}")
        t[name] = None if v is None else kind(v)
    if t["k"] is not None and t["k"] < 1:
        raise RiskcoreError(f"target k must be at least 1, got {t['k']!r}")
    if t["l"] is not None and t["l"] < 1:
        raise RiskcoreError(f"target l must be at least 1, got {t['l']!r}")
    for name in ("t", "threshold"):
        if t[name] is not None and not 0 <= t[name] <= 1:
            raise RiskcoreError(f"target {name} must lie in [0, 1], got {t[name]!r}")
    sf = obj.get("sampling_fraction")
    if sf is not None and (
        isinstance(sf, bool) or not isinstance(sf, (int, float)) or not 0 < sf <= 1
    ):
        raise RiskcoreError(f"sampling_fraction must be in (0, 1], got {sf!r}")
    c = obj.get("c", 2.0)
    if isinstance(c, bool) or not isinstance(c, (int, float)) or c <= 0:
        raise RiskcoreError(f"c must be a positive number, got {c!r}")
    for key in ("recipe", "ledger"):
        if obj.get(key) is not None and not isinstance(obj[key], Mapping):
            raise RiskcoreError(f"'{key}' in the profile must be an object")
    missing = obj.get("missing", "own")
    if missing not in ("own", "any"):
        raise RiskcoreError(f"missing in the profile must be 'own' or 'any', got {missing!r}")
    return {
        "missing": missing,
        "roles": roles,
        "targets": t,
        "sampling_fraction": None if sf is None else float(sf),
        "c": float(c),
        "recipe": obj.get("recipe"),
        "ledger": obj.get("ledger"),
    }


def _checks(a: Assessment, targets: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Return the targets that are set, each with the value achieved and pass / fail."""
    from riskcore.report.readings import target_checks

    k, l_, t = targets["k"], targets["l"], targets["t"]
    table = target_checks(a, k=k or 1, l=l_ or 1, t=1.0 if t is None else t)
    crit = table["criterion"]
    keep = (crit.str.startswith("k-") & (k is not None)) | (
        crit.str.contains("l-diversity") & (l_ is not None)
    )
    keep |= crit.str.startswith("t-") & (t is not None)
    rows = table[keep].to_dict("records")
    out = [{str(key): plain(v) for key, v in r.items()} for r in rows]
    out.append(
        {
            "criterion": "prosecutor record risk",
            "attribute": "(all QIs)",
            "achieved": a.prosecutor.highest_risk,
            "target": float(targets["threshold"]),
            "pass": a.prosecutor.records_at_risk == 0,
        }
    )
    return out


def _readings(a: Assessment) -> list[str]:
    from riskcore.report.readings import (
        candidates_reading,
        diversity_reading,
        histogram_reading,
        missing_reading,
        risk_reading,
    )
    from riskcore.report.readings.population import population_reading

    out = [
        missing_reading(a.missing, a.missing_records),
        histogram_reading(a),
        candidates_reading(a),
        risk_reading(a),
    ]
    if a.population_uniqueness is not None:
        out.append(population_reading(a.population_uniqueness))
    out += [diversity_reading(a, s) for s in a.sensitive]
    return out


def _fingerprint(data: pd.DataFrame, sha256: str | None) -> tuple[str, str]:
    if sha256 is not None:
        return sha256, "the file's bytes"
    from riskcore.io.fingerprint import fingerprint

    text = data.to_csv(index=False, lineterminator="\n").encode("utf-8")
    return fingerprint(text), "the table written as CSV (UTF-8, no index)"


def dataset_facts(
    data: pd.DataFrame, *, sha256: str | None = None, name: str = "data"
) -> dict[str, Any]:
    """Return the dataset's fingerprint as a report files it.

    Parameters
    ----------
    data : pandas.DataFrame
    sha256 : str, optional
        SHA-256 of the file's bytes; without it, of the table written as CSV
        (UTF-8, no index).
    name : str, default "data"

    Returns
    -------
    dict
        ``name``, ``sha256``, ``fingerprint_of`` (which bytes were hashed),
        ``rows``, ``columns``, ``missing`` (missing cells).
    """
    sha, of = _fingerprint(data, sha256)
    return {
        "name": name,
        "sha256": sha,
        "fingerprint_of": of,
        "rows": len(data),
        "columns": data.shape[1],
        "missing": int(data.isna().sum().sum()),
    }


def _reasons(data: pd.DataFrame, roles: ColumnRoles) -> dict[str, str]:
    """Return why each column has its role: the suggestion's reason, or 'set by the profile'."""
    from riskcore.roles import suggest_roles

    suggested = suggest_roles(data)
    out: dict[str, str] = {}
    for col, role in roles.to_mapping().items():
        s = suggested.get(col)
        if s is not None and s.role == role:
            out[col] = s.reason
        else:
            label = role.replace("_", "-")
            out[col] = f"set as {label} by the reviewer's profile" + (
                f" (suggested: {s.role.replace('_', '-')}, {s.reason})" if s is not None else ""
            )
    return out


def _remediation(
    data: pd.DataFrame, recipe: Mapping[str, Any], assess_kw: dict[str, Any]
) -> tuple[dict[str, Any], Assessment, pd.DataFrame]:
    from riskcore.criteria import Targets
    from riskcore.deidentify.hierarchy import _rebuild
    from riskcore.deidentify.lattice import Lattice
    from riskcore.deidentify.recipe import Recipe, apply_recipe

    try:
        rec = Recipe.from_dict(recipe)
        # the report holds no key: keyed steps (tokens of direct identifiers, date shifts) are
        # named, not redone
        applied = apply_recipe(data, rec, skip_keyed=True)
        before = data  # what is generalized: the table after the steps before generalization
        if rec.safe_harbor or rec.date_shift is not None or rec.masking:
            steps = dataclasses.replace(rec, qis=(), levels=(), hierarchies={})
            before = apply_recipe(data, steps, skip_keyed=True).data
    except (KeyError, TypeError, ValueError) as exc:
        raise RiskcoreError(f"the recipe in the profile is not valid: {exc}") from None
    loss: dict[str, Any] | None = None
    if not applied.n_unknown and rec.qis:
        hier = {q: _rebuild(before[q], rec.hierarchies[q]) for q in rec.qis}
        lattice = Lattice(
            before, hier, sensitive=rec.sensitive, targets=Targets.from_dict(rec.targets)
        )
        node = lattice.evaluate(rec.levels)
        loss = {
            "ncp": node.ncp,
            "precision": node.precision,
            "discernibility": node.discernibility,
            "avg_class_size": node.avg_class_size,
        }
    if len(applied.data) == 0:
        raise RiskcoreError("the recipe suppresses every record: nothing is left to assess")
    after = assess(applied.data, **assess_kw)
    info = {
        "recipe": rec.to_dict(),
        "levels": dict(zip(rec.qis, rec.levels, strict=True)),
        "records_before": len(data),
        "records_after": len(applied.data),
        "suppressed": applied.suppressed,
        "within_limit": applied.within_limit,
        "n_unknown": applied.n_unknown,
        "information_loss": loss,
        "not_reapplied": list(applied.skipped),
    }
    return info, after, applied.data


#: Attacks the report leaves to the Attacks page, and why.
_NOT_RUN = (
    {
        "attack": "differencing",
        "why": "needs a target person and a query, chosen on the Attacks page",
    },
    {"attack": "two releases", "why": "needs the two released tables"},
)


def _attacks(
    data: pd.DataFrame, roles: ColumnRoles, *, of: str, encoded: EncodedTable | None = None
) -> dict[str, Any]:
    """Return the attacks that need nothing but the profile, with their readings.

    Linkage [Sweeney 2002]: the attacker's table is every record's
    quasi-identifiers, without error (:func:`~riskcore.attacks.linkage.simulate_auxiliary`
    with every target: no random draw), joined to the released columns (all
    but the direct identifiers); rates with 95% Wilson intervals, attribute
    disclosure at confidence :data:`ATTACK_P`. Homogeneity [Machanavajjhala
    2007]: per sensitive attribute, the classes where everyone shares one
    value (p = 1), an exact count.
    """
    from riskcore.attacks import homogeneity_attack
    from riskcore.attacks.linkage import linkage_attack, simulate_auxiliary
    from riskcore.report.readings import homogeneity_reading, linkage_reading

    qis = list(roles.quasi_identifiers)
    released = [c for c in data.columns if c not in roles.identifiers]
    aux, truth = simulate_auxiliary(data, qis)
    link = linkage_attack(
        data[released], aux, qis, truth=truth, sensitive=roles.sensitive, p=ATTACK_P
    )
    table = encoded if encoded is not None else EncodedTable(data)  # coded once for all
    homo = [homogeneity_attack(table, qis, s, p=1.0) for s in roles.sensitive]
    return {
        "of": of,
        "linkage": {
            "settings": {
                "known": qis,
                "targets": "every record",
                "error_rate": 0.0,
                "missing_rate": 0.0,
                "p": ATTACK_P,
                "seed": None,
            },
            "result": link.to_dict(),
        },
        "homogeneity": [h.to_dict() for h in homo],
        "readings": [linkage_reading(link)] + [homogeneity_reading(h, qis) for h in homo],
        "not_run": [dict(x) for x in _NOT_RUN],
    }


def _budget(ledger: Mapping[str, Any]) -> dict[str, Any]:
    from riskcore.dp import PrivacyLedger

    try:
        led = PrivacyLedger.from_dict(ledger)
    except (KeyError, TypeError, ValueError) as exc:
        raise RiskcoreError(f"the ledger in the profile is not valid: {exc}") from None
    eps, delta = led.spent()
    return {
        "accounting": led.accounting,
        "epsilon_budget": led.epsilon_budget,
        "delta_budget": led.delta_budget,
        "epsilon_spent": eps,
        "delta_spent": delta,
        "epsilon_remaining": led.remaining(),
        "entries": [e.to_dict() for e in led.entries],
    }


def _versions() -> dict[str, str]:
    import numpy as np
    import pandas as pd

    import riskcore

    return {
        "riskcore": riskcore.__version__,
        "python": platform.python_version(),
        "pandas": pd.__version__,
        "numpy": np.__version__,
    }


def _command(data_name: str, profile_name: str, missing: str | None = None) -> str:
    return " ".join(
        [
            "python -m riskcore report",
            shlex.quote(data_name),
            "--profile",
            shlex.quote(profile_name),
            *([] if missing is None else ["--missing", missing]),
            "--out report.html --json report.json --pdf report.pdf",
        ]
    )


def build_report(
    data: pd.DataFrame,
    profile: Mapping[str, Any] | str | bytes,
    *,
    name: str = "data",
    sha256: str | None = None,
    profile_name: str = "profile.json",
    missing: str | None = None,
) -> Report:
    """Assess a table under a profile and gather every number of the report.

    Parameters
    ----------
    data : pandas.DataFrame
        The table as loaded.
    profile : mapping, str or bytes
        See :func:`load_profile`.
    name : str, default "data"
        The file's name (or ``demo``), shown and used in the command line.
    sha256 : str, optional
        SHA-256 of the file's bytes (:attr:`riskcore.io.LoadInfo.sha256`);
        without it, the SHA-256 of the table written as CSV.
    profile_name : str, default "profile.json"
        The profile's file name, for the reproducing command.
    missing : {"own", "any"}, optional
        The missing-value policy, instead of the profile's (``missing``,
        default "own"); the reproducing command then says ``--missing``.

    Returns
    -------
    Report

    Raises
    ------
    RiskcoreError
        When the profile is invalid or names a column the table does not hold.
    """
    p = load_profile(profile)
    roles: ColumnRoles = p["roles"]
    try:
        roles.validate_against(list(data.columns))
    except RolesError as exc:
        raise RiskcoreError(str(exc)) from None
    targets = p["targets"]
    sf = p["sampling_fraction"]
    if missing is not None and missing not in ("own", "any"):
        raise RiskcoreError(f"the missing-value policy must be 'own' or 'any', got {missing!r}")
    assess_kw: dict[str, Any] = {
        "missing": missing or p["missing"],
        "quasi_identifiers": roles.quasi_identifiers,
        "sensitive": roles.sensitive,
        "c": p["c"],
        "threshold": targets["threshold"],
        "population": Population(weights=roles.weight)
        if roles.weight is not None
        else None
        if sf is None
        else Population(sampling_fraction=sf),
    }
    encoded = EncodedTable(data)  # one coding of the table for assess, SUDA and homogeneity
    a = assess(encoded, **assess_kw)
    checks = _checks(a, targets)
    readings = _readings(a)
    special = None
    if len(data) <= SUDA_MAX_ROWS:
        from riskcore.metrics import suda
        from riskcore.report.readings.records import suda_reading

        su = suda(encoded, roles.quasi_identifiers, dis_fraction=sf or 0.01)
        special = su.to_dict()
        readings.append(suda_reading(su))
    attacks = _attacks(data, roles, of="the table as given", encoded=encoded)
    remediation = after = attacks_after = None
    checks_after: list[dict[str, Any]] = []
    if p["recipe"] is not None:
        remediation, after, released = _remediation(data, p["recipe"], assess_kw)
        checks_after = _checks(after, targets)
        attacks_after = _attacks(released, roles, of="the remediated table")
    final = after if after is not None else a
    final_checks = checks_after or checks
    failed = [c for c in final_checks if not c["pass"]]
    pr = final.prosecutor
    verdict = {
        "pass": not failed,
        "threshold": targets["threshold"],
        "highest_risk": pr.highest_risk,
        "records_at_risk": pr.records_at_risk,
        "of": "the remediated table" if after is not None else "the table as given",
        "reason": (
            "every target is met and no record's risk exceeds the threshold"
            if not failed
            else "not met: " + "; ".join(f"{c['criterion']} on {c['attribute']}" for c in failed)
        ),
    }
    thr = targets["threshold"]
    meanings = dict(_TARGET_MEANING)
    meanings["threshold"] = (
        "highest acceptable record re-identification risk: "
        + THRESHOLDS.get(round(thr, 2), "a custom threshold")
        + " (El Emam 2013)"
    )
    return Report(
        dataset=dataset_facts(data, sha256=sha256, name=name),
        roles={k: list(v) for k, v in roles.to_dict().items() if k != "schema_version"},
        reasons=_reasons(data, roles),
        targets={**targets, "meanings": meanings},
        assessment=a,
        checks=checks,
        readings=readings,
        verdict=verdict,
        methods=[{"topic": t, "method": m, "citation": c} for t, m, c in METHOD_NOTES],
        software=_versions(),
        parameters={
            "c": p["c"],
            "threshold": thr,
            "sampling_fraction": sf,
            "weights": roles.weight,
            "distance": {s: r.distance for s, r in a.sensitive.items()},
            "engine": a.engine,
            "missing": a.missing,
            "missing_policy": a.missing_policy,
            "seeds": None,
        },
        command=_command(name, profile_name, missing),
        remediation=remediation,
        after=after,
        privacy_budget=None if p["ledger"] is None else _budget(p["ledger"]),
        checks_after=checks_after,
        special_uniques=special,
        attacks=attacks,
        attacks_after=attacks_after,
        view=(
            "the table as recorded (before) and after the remediation recipe (after), with "
            "the information loss; the verdict is on the remediated table"
            if after is not None
            else "the table as recorded (no remediation recipe applied)"
        ),
    )


# ------------------------------------------------------------------ HTML

_CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:62rem;margin:2rem auto;
padding:0 1rem;color:#1b1b1b;line-height:1.45}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.2rem;border-bottom:1px solid #ccc;
margin-top:2rem}table{border-collapse:collapse;margin:.6rem 0;font-size:.9rem}
td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f2f2f2}.num{text-align:right;font-variant-numeric:tabular-nums}
.pass{color:#1a7f37;font-weight:600}.fail{color:#b42318;font-weight:600}
.verdict{padding:.6rem 1rem;border:2px solid;border-radius:.4rem;margin:1rem 0}
code,.mono{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85rem;word-break:break-all}
.field{border-bottom:1px solid #888;min-height:1.6rem;margin:.4rem 0 1rem}
.small{color:#555;font-size:.85rem}
@media print{.plot{page-break-inside:avoid}}
"""


_ROLE_LABEL = {
    "identifiers": "direct identifier",
    "quasi_identifiers": "quasi-identifier",
    "sensitive": "sensitive",
    "weights": "sampling weight",
    "other": "other",
}


def _e(value: object) -> str:
    """Return ``value`` as HTML-escaped text (quotes too)."""
    return html.escape(str(value), quote=True)


def _num(v: Any) -> str:
    if v is None:
        return "&ndash;"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float):
        return f"{v:,.0f}" if v.is_integer() and abs(v) >= 1 else f"{v:.4g}"
    return _e(v)


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in headers)
    body = []
    for row in rows:
        cells = []
        for v in row:
            if isinstance(v, (int, float)) or v is None:
                cells.append(f'<td class="num">{_num(v)}</td>')
            else:
                cells.append(f"<td>{_e(v)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _checks_table(checks: Sequence[Mapping[str, Any]]) -> str:
    rows = []
    for c in checks:
        mark = '<span class="pass">pass</span>' if c["pass"] else '<span class="fail">fail</span>'
        rows.append(
            f"<tr><td>{_e(c['criterion'])}</td><td>{_e(c['attribute'])}</td>"
            f'<td class="num">{_num(c["achieved"])}</td><td class="num">{_num(c["target"])}</td>'
            f"<td>{mark}</td></tr>"
        )
    return (
        "<table><thead><tr><th>criterion</th><th>attribute</th><th>achieved</th>"
        f"<th>target</th><th>result</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _risk_rows(a: Assessment) -> list[list[Any]]:
    return [
        [r.model, r.highest_risk, r.records_at_risk, r.success_rate]
        for r in (a.prosecutor, a.journalist, a.marketer)
        if r is not None
    ]


def _metrics_section(a: Assessment) -> str:
    parts = [
        _table(
            ["records", "equivalence classes", "k", "unique records", "unique share"],
            [[a.n_records, a.n_classes, a.k, a.unique_records, a.anonymity.unique_share]],
        ),
        _table(
            ["attacker model", "highest record risk", "records at risk", "expected re-identified"],
            _risk_rows(a),
        ),
    ]
    if a.sensitive:
        parts.append(
            _table(
                [
                    "sensitive attribute",
                    "values",
                    "distinct l",
                    "entropy l",
                    "recursive (c,l) l",
                    "t",
                    "distance",
                ],
                [
                    [
                        n,
                        s.n_values,
                        s.distinct_l,
                        s.entropy_l,
                        s.recursive_l,
                        s.t_closeness,
                        s.distance,
                    ]
                    for n, s in a.sensitive.items()
                ],
            )
        )
    return "".join(parts)


def _pct(x: float | None) -> str:
    return "&ndash;" if x is None else f"{100 * x:.2f}%"


def _rate_row(label: str, rate: Mapping[str, Any] | None) -> list[Any] | None:
    """Return a table row: label, count of n, rate, its 95% interval, baseline."""
    if rate is None:
        return None
    low, high = rate["ci95"]
    return [
        label,
        f"{rate['successes']:,} of {rate['n']:,}",
        _pct(rate["rate"]),
        f"{_pct(low)} to {_pct(high)}",
        _pct(rate["baseline"]),
    ]


def _attacks_section(att: Mapping[str, Any], heading: str) -> str:
    """Return the attacks of the report (linkage with intervals, homogeneity) as HTML."""
    link = att["linkage"]["result"]
    rows = [
        _rate_row("re-identified uniquely (one matching record)", link["unique"]),
        _rate_row("re-identified correctly (that record is the target's own)", link["correct"]),
    ]
    ci = link.get("expected_correct_ci")
    if link.get("expected_correct") is not None and ci is not None:
        rows.append(
            [
                "expected correct, picking one matching record at random",
                f"{link['n_targets']:,} targets",
                _pct(link["expected_correct"]),
                f"{_pct(ci[0])} to {_pct(ci[1])}",
                _pct(1 / max(int(link["n_release"]), 1)),
            ]
        )
    for a in link["attributes"]:
        rows.append(_rate_row(f"{a['attribute']}: learned with confidence >= p", a["confident"]))
        rows.append(_rate_row(f"{a['attribute']}: learned and correct", a["correct"]))
    s = [
        f"<{heading}>Attacks on {_e(att['of'])}</{heading}>",
        "<p>Linkage: the attacker knows "
        + _e(", ".join(att["linkage"]["settings"]["known"]))
        + f" of all {link['n_targets']:,} people, without error, and joins them to the "
        f"released columns (p = {_num(att['linkage']['settings']['p'])}). "
        "Intervals are 95%: Wilson for the rates, normal for the expected share.</p>",
        _table(
            ["linkage", "targets", "rate", "95% interval", "baseline"],
            [r for r in rows if r is not None],
        ),
    ]
    homo = att["homogeneity"]
    if homo:
        s.append(
            _table(
                ["homogeneity: sensitive attribute", "exposed classes", "exposed people", "share"],
                [
                    [
                        h["attribute"],
                        f"{h['exposed_classes']:,} of {h['n_classes']:,}",
                        h["exposed_records"],
                        _pct(h["exposed_records"] / max(int(h["n_records"]), 1)),
                    ]
                    for h in homo
                ],
            )
            + "<p class='small'>Homogeneity counts every record exactly: it has no interval.</p>"
        )
    s += [f"<p>{_e(x)}</p>" for x in att["readings"]]
    s.append(
        "<p class='small'>Not run here: "
        + _e("; ".join(f"{x['attack']} ({x['why']})" for x in att["not_run"]))
        + ".</p>"
    )
    return "".join(s)


def _figure_objects(report: Report) -> list[Any]:
    """Return the report's plotly figures: class sizes and candidates, before (and after)."""
    from riskcore.report.figures import candidates_curve, class_size_histogram
    from riskcore.report.readings import candidate_table, join_names, size_histogram

    out = []
    shown = [("", report.assessment)]
    if report.after is not None:
        shown.append((" (after remediation)", report.after))
    for suffix, a in shown:
        dist = a.anonymity.distribution
        figs = [
            class_size_histogram(size_histogram(dist), join_names(a.quasi_identifiers)),
            candidates_curve(candidate_table(dist)),
        ]
        for fig in figs:
            if suffix:
                fig.update_layout(title_text=f"{fig.layout.title.text}{suffix}")
            out.append(fig)
    return out


def _figures(report: Report) -> list[str]:
    """Return each figure as a <div> (plotly.js not included)."""
    config = {"displaylogo": False, "responsive": True}
    return [
        '<div class="plot">'
        + fig.to_html(full_html=False, include_plotlyjs=False, config=config)
        + "</div>"
        for fig in _figure_objects(report)
    ]


def render_html(report: Report, *, figures: bool = True) -> str:
    """Return the report as one standalone HTML document that opens offline.

    CSS is inline, plotly.js is embedded once in one ``<script>``, each figure
    follows as a ``<div>`` with its own small script; no address of another
    host appears in any ``src``, ``href`` or CSS ``url(``. Every string that
    comes from the user (file and column names, the recipe, the reasons) is
    escaped with :func:`html.escape`.

    Parameters
    ----------
    report : Report
    figures : bool, default True
        Include the plotly figures (and plotly.js, about 4.8 MB).

    Returns
    -------
    str
    """
    head: list[str] = []
    if figures:
        import plotly.offline

        head.append(f'<script type="text/javascript">{plotly.offline.get_plotlyjs()}</script>')
    return _document(report, head=head, figures=_figures(report) if figures else [])


def _document(report: Report, *, head: Sequence[str], figures: Sequence[str]) -> str:
    """Return the report's HTML with ``head`` added to <head> and the ``figures`` blocks."""
    r = report
    d = r.dataset
    a = r.assessment
    v = r.verdict
    ok = bool(v["pass"])
    s: list[str] = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "script-src 'unsafe-inline' 'unsafe-eval'; style-src 'unsafe-inline'; "
        'img-src data:; font-src data:">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Re-identification risk report: {_e(d['name'])}</title>",
        f"<style>{_CSS}</style>",
    ]
    s += head
    s.append("</head><body>")
    s.append(f"<h1>Re-identification risk report</h1><p class='small'>{_e(r.schema)}</p>")
    s.append(
        f'<div class="verdict {"pass" if ok else "fail"}">Residual risk of {_e(v["of"])}: '
        f"<strong>{'PASS' if ok else 'FAIL'}</strong> against the threshold "
        f"{_num(v['threshold'])} (highest record risk {_num(v['highest_risk'])}, records "
        f"at risk {_num(v['records_at_risk'])}): {_e(v['reason'])}.</div>"
    )
    s.append(f"<p>This report describes {_e(r.view)}.</p>")
    s.append("<h2>Dataset</h2>")
    s.append(
        _table(
            ["file", "rows", "columns", "missing cells"],
            [[d["name"], d["rows"], d["columns"], d["missing"]]],
        )
    )
    s.append(
        f"<p>SHA-256 of {_e(d['fingerprint_of'])}: <code>{_e(d['sha256'])}</code></p>"
        "<p class='small'>Only aggregates of the data appear in this report: no record and "
        "no value of a direct identifier.</p>"
    )
    s.append("<h2>Roles</h2>")
    role_rows = [
        [col, _ROLE_LABEL.get(role, role), r.reasons.get(col, "")]
        for role, cols in r.roles.items()
        for col in cols
    ]
    s.append(_table(["column", "role", "reason"], role_rows))
    s.append("<h2>Targets</h2>")
    t = r.targets
    s.append(
        _table(
            ["target", "value", "meaning"],
            [
                [name, t[name], t["meanings"][name]]
                for name in ("k", "l", "t", "threshold")
                if t[name] is not None
            ],
        )
    )
    s.append("<h2>Uniqueness, k-anonymity and risk</h2>")
    s.append(_metrics_section(a))
    s += [f"<p>{_e(x)}</p>" for x in r.readings]
    su = r.special_uniques
    if su is not None:
        s.append("<h3>Special uniques (SUDA)</h3>")
        s.append(
            _table(
                ["minimal sample uniques", "special uniques", "sample uniques", "DIS"],
                [[su["n_msus"], su["special_uniques"], su["sample_uniques"], su["dis"]]],
            )
            + _table(
                ["quasi-identifier", "share of the SUDA scores"],
                [list(x) for x in zip(su["quasi_identifiers"], su["qi_contribution"], strict=True)],
            )
        )
    s.append("<h3>Targets met</h3>")
    s.append(_checks_table(r.checks))
    if figures:
        s += figures
        s.append(f"<p class='small'>{_e(r.readings[0])}</p>")  # the missing-values line
    if r.attacks is not None:
        s.append(_attacks_section(r.attacks, "h2"))
    if r.remediation is not None and r.after is not None:
        m = r.remediation
        s.append("<h2>Remediation</h2>")
        s.append(
            _table(
                ["quasi-identifier", "level", "hierarchy"],
                [
                    [q, lv, m["recipe"]["hierarchies"][q].get("kind", "")]
                    for q, lv in m["levels"].items()
                ],
            )
        )
        loss = m["information_loss"] or {}
        s.append(
            _table(
                ["", "records", "k", "highest risk", "suppressed", "NCP", "precision loss"],
                [
                    ["before", m["records_before"], a.k, a.prosecutor.highest_risk, 0, 0.0, 0.0],
                    [
                        "after",
                        m["records_after"],
                        r.after.k,
                        r.after.prosecutor.highest_risk,
                        m["suppressed"],
                        loss.get("ncp"),
                        loss.get("precision"),
                    ],
                ],
            )
        )
        if m.get("not_reapplied"):
            s.append(
                "<p class='small'>Keyed steps of the recipe, not redone here (the report holds "
                "no key; they change direct identifiers or shift dates): "
                + _e("; ".join(m["not_reapplied"]))
                + ".</p>"
            )
        s.append(_metrics_section(r.after))
        s.append(_checks_table(r.checks_after))
        if r.attacks_after is not None:
            s.append(_attacks_section(r.attacks_after, "h3"))
        s.append(
            "<details><summary>The recipe (JSON)</summary><pre class='mono'>"
            + _e(json.dumps(m["recipe"], indent=2, allow_nan=False))
            + "</pre></details>"
        )
    if r.privacy_budget is not None:
        b = r.privacy_budget
        s.append("<h2>Differential privacy budget</h2>")
        s.append(
            f"<p>Accounting {_e(b['accounting'])}: epsilon spent {_num(b['epsilon_spent'])} of "
            f"{_num(b['epsilon_budget'])} (remaining {_num(b['epsilon_remaining'])}); delta "
            f"spent {_num(b['delta_spent'])} of {_num(b['delta_budget'])}.</p>"
        )
        s.append(
            _table(
                ["query", "mechanism", "epsilon", "delta"],
                [[e["query"], e["mechanism"], e["epsilon"], e["delta"]] for e in b["entries"]],
            )
        )
    s.append("<h2>Methods</h2>")
    s.append(
        _table(
            ["topic", "computed as", "citation"],
            [[x["topic"], x["method"], x["citation"]] for x in r.methods],
        )
    )
    s.append(f"<p>{_e(a.missing_policy)}.</p>")
    s.append("<h2>Reproduce</h2>")
    s.append(
        _table(["software", "version"], [[k, val] for k, val in r.software.items()])
        + _table(
            ["parameter", "value"],
            [[k, json.dumps(plain(val), allow_nan=False)] for k, val in r.parameters.items()],
        )
        + f"<p>Every number above is reproduced by:</p><pre class='mono'>{_e(r.command)}</pre>"
        "<p class='small'>No random numbers are drawn: no seed is needed.</p>"
    )
    s.append("<h2>Review</h2>")
    for label in ("Reviewer's name", "Date", "Conclusion"):
        s.append(f"<p>{label}:</p><div class='field'></div>")
    s.append("</body></html>")
    return "\n".join(s)


# ------------------------------------------------------------------ PDF

#: Name of the JSON twin embedded in the PDF.
ATTACHMENT_NAME = "report.json"

_PRINT_CSS = """
@page{{size:A4;margin:20mm 14mm 18mm;
@top-left{{content:"Re-identification risk report";font-size:7.5pt;color:#555}}
@top-right{{content:"SHA-256 {sha}";font-size:6.5pt;color:#555;font-family:monospace}}
@bottom-center{{content:"page " counter(page) " of " counter(pages);font-size:8pt;color:#555}}}}
body{{max-width:none;margin:0;padding:0;font-size:9.5pt}}
table{{font-size:8pt}}.plot img{{width:100%}}details{{display:block}}
h2{{page-break-after:avoid}}table,.plot{{page-break-inside:avoid}}
"""


def figure_svgs(report: Report) -> list[bytes]:
    """Return the report's figures as static SVG, drawn by kaleido in the system Chromium.

    plotly.js comes from the installed plotly package (a ``file:`` URL) and
    MathJax is switched off, so the drawing fetches nothing from the network.

    Raises
    ------
    RiskcoreError
        When kaleido is not installed or cannot start Chromium.
    """
    import asyncio

    figs = _figure_objects(report)
    try:
        import kaleido
    except ImportError:
        raise RiskcoreError(
            "static figures need kaleido (pip install kaleido) and Chromium; "
            "or leave the figures out"
        ) from None

    async def draw() -> list[bytes]:
        async with kaleido.Kaleido(n=1, mathjax=False) as k:
            opts = {"format": "svg", "width": 900, "height": 420}
            return [bytes(await k.calc_fig(fig, opts=opts)) for fig in figs]

    try:
        return asyncio.run(draw())
    except Exception as exc:  # kaleido / choreographer raise their own error types
        raise RiskcoreError(
            f"kaleido could not draw the figures ({type(exc).__name__}: {exc}); "
            "install Chromium, or leave the figures out"
        ) from None


def render_pdf(report: Report, *, figures: bool = True) -> bytes:
    """Return the report as a PDF/A-3b document with the JSON twin attached.

    Rendered locally by WeasyPrint from the same HTML as :func:`render_html`
    (without scripts), figures as static SVG (:func:`figure_svgs`) in
    ``data:`` URLs. The URL fetcher allows only ``data:`` URLs: nothing is
    read from the network or the disk. Every page carries its number and the
    dataset's SHA-256 (CSS ``@page``). The JSON twin
    (:meth:`Report.to_json`) is embedded as the file :data:`ATTACHMENT_NAME`
    (PDF/A-3 associated file, relationship ``Data``).

    Parameters
    ----------
    report : Report
    figures : bool, default True
        Draw the figures (needs kaleido and Chromium).

    Returns
    -------
    bytes

    Raises
    ------
    RiskcoreError
        When WeasyPrint is not installed, figures are asked for and cannot be
        drawn, or the document refers to anything but a ``data:`` URL.
    """
    import base64

    try:
        import weasyprint
        from weasyprint.urls import FatalURLFetchingError, URLFetcher
    except (ImportError, OSError) as exc:  # OSError: the Pango libraries are missing
        raise RiskcoreError(
            f"the PDF needs WeasyPrint and Pango ({exc}): pip install weasyprint; "
            "apt-get install libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0"
        ) from None
    blocks = []
    if figures:
        for svg in figure_svgs(report):
            b64 = base64.b64encode(svg).decode("ascii")
            blocks.append(f'<div class="plot"><img src="data:image/svg+xml;base64,{b64}"></div>')
    sha = report.dataset["sha256"]
    if not all(ch in "0123456789abcdef" for ch in sha):
        raise RiskcoreError("the fingerprint must be a hex SHA-256")
    css = f"<style>{_PRINT_CSS.format(sha=sha)}</style>"
    text = _document(report, head=[css], figures=blocks)
    fetcher = URLFetcher(allowed_protocols=("data",), fail_on_errors=True)
    twin = weasyprint.Attachment(
        string=report.to_json().encode("utf-8"),
        name=ATTACHMENT_NAME,
        description="The report's numbers as JSON (riskcore report twin)",
        relationship="Data",
        url_fetcher=fetcher,
    )
    doc = weasyprint.HTML(string=text, url_fetcher=fetcher, base_url=None)
    try:
        pdf = doc.write_pdf(pdf_variant="pdf/a-3b", attachments=[twin])
    except FatalURLFetchingError as exc:
        raise RiskcoreError(f"the PDF may use data: URLs only, refused: {exc}") from None
    if not isinstance(pdf, bytes):  # write_pdf() without a target returns the bytes
        raise RiskcoreError("WeasyPrint returned no PDF")
    return pdf
