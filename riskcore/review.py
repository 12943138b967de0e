"""The review: everything a report states, computed once into one result (no rendering here).

:func:`review` assesses a table under a :class:`~riskcore.profile.Profile`:
the table as recorded and, when the profile holds a recipe, the table after
it; each judged by the profile's targets through
:func:`riskcore.criteria.evaluate` (the one verdict); the attacks that need
nothing but the profile (linkage by an attacker who knows every
quasi-identifier, homogeneity), before and after; special uniques; the
recipe with every step; the privacy budget; and the limitations: what was
assumed or not checked, as data. :mod:`riskcore.report` renders a
:class:`Review` (sentences, figures, HTML, PDF); :meth:`Review.to_dict` is
the report's JSON twin.
"""

from __future__ import annotations

import dataclasses
import platform
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, ClassVar, Self

from riskcore._results import Result, dumps
from riskcore.attacks.homogeneity import HomogeneityResult
from riskcore.attacks.linkage.results import LinkageResult
from riskcore.criteria import Targets, Verdict, evaluate
from riskcore.deidentify.recipe import Recipe
from riskcore.deidentify.steps import RecipeStep, recipe_steps
from riskcore.engine import EncodedTable
from riskcore.errors import RiskcoreError
from riskcore.metrics import Assessment, Population, assess
from riskcore.profile import Profile

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "ATTACK_P",
    "REPORT_SCHEMA",
    "SUDA_MAX_ROWS",
    "AttackRun",
    "Limitation",
    "Remediation",
    "Review",
    "RoleReason",
    "dataset_facts",
    "review",
]

#: Name and version of the report's JSON format (raise the version when a field changes meaning).
REPORT_SCHEMA = "riskcore-report/2"

#: Largest table whose special uniques (SUDA) the report computes (as the Records page).
SUDA_MAX_ROWS = 200_000

#: Confidence at which the report's linkage attack counts a sensitive value as learned (the
#: Attacks page's default).
ATTACK_P = 0.9


@dataclass(frozen=True)
class RoleReason(Result):
    """Why a column has its role: the suggestion, or the choice of the person building it.

    Attributes
    ----------
    column : str
    role : str
        The role it has.
    suggested : str or None
        The role riskcore suggested (None: no suggestion).
    reason : str
        The suggestion's reason (the rule that fired).
    chosen : bool
        True when the role differs from the suggestion (chosen in the session
        or the profile).
    """

    column: str
    role: str
    suggested: str | None
    reason: str
    chosen: bool


@dataclass(frozen=True)
class AttackRun(Result):
    """The attacks the profile alone allows, on one table.

    Attributes
    ----------
    of : str
        Which table: "the table as recorded" or "the remediated table".
    known : tuple of str
        The quasi-identifiers the attacker knows, of every record, without error.
    p : float
        Confidence at which a sensitive value counts as learned.
    linkage : LinkageResult
        The attacker's join on the known columns (rates with 95% Wilson intervals).
    homogeneity : tuple of HomogeneityResult
        Per sensitive attribute, the classes whose records share one value.
    not_run : tuple of str
        The attacks left to the Attacks page (differencing, two releases).
    """

    of: str
    known: tuple[str, ...]
    p: float
    linkage: LinkageResult
    homogeneity: tuple[HomogeneityResult, ...]
    not_run: tuple[str, ...] = ("differencing", "two releases")


@dataclass(frozen=True)
class Remediation(Result):
    """The recipe applied to the table, as the report states it.

    Attributes
    ----------
    recipe : Recipe
        Every step with its parameters and the key's check value (never the key).
    steps : tuple of RecipeStep
        Every step in words, in the order it applies
        (:func:`riskcore.deidentify.steps.recipe_steps`): "ssn: last 4 digits kept".
    records_before, records_after : int
    suppressed : int
        Records of classes breaking the recipe's targets, removed.
    within_limit : bool
        Whether they fit the recipe's suppression limit.
    n_unknown : dict of str to int
        Per QI, records holding a value the recipe's hierarchy does not know.
    information_loss : dict or None
        NCP, precision, discernibility and average class size of the levels.
    not_reapplied : tuple of str
        Keyed steps named but not redone (the report holds no key).
    """

    recipe: Recipe
    steps: tuple[RecipeStep, ...]
    records_before: int
    records_after: int
    suppressed: int
    within_limit: bool
    n_unknown: dict[str, int]
    information_loss: dict[str, float] | None
    not_reapplied: tuple[str, ...] = ()


@dataclass(frozen=True)
class Limitation(Result):
    """What the report assumed or did not check (phrased by :mod:`riskcore.report`).

    Attributes
    ----------
    kind : str
        ``attacker``, ``population``, ``missing``, ``not-applicable``,
        ``attacks-not-run``, ``keyed-steps``, ``suda-skipped``,
        ``free-text``, ``population-table`` or ``recipe-limit``.
    facts : dict
        What the sentence needs (column names, counts, models).
    """

    kind: str
    facts: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Review(Result):
    """Every number of one filed assessment, and what produced it.

    Attributes
    ----------
    built_at : str
        When it was built: ISO 8601, UTC.
    built_by : str or None
        The name given in the session (None when none was given).
    software : dict of str to str
        Versions of riskcore, Python, pandas and numpy.
    dataset : dict
        ``name``, ``sha256``, ``fingerprint_of``, ``rows``, ``columns``, ``missing``.
    profile : Profile
        Roles, targets, policy, population model and the full recipe.
    reasons : tuple of RoleReason
    before : Assessment
        The table as recorded.
    verdict_before : Verdict
        The targets judged on the table as recorded.
    after : Assessment or None
        The table after the recipe.
    verdict_after : Verdict or None
        The targets judged on the remediated table.
    remediation : Remediation or None
    attacks_before, attacks_after : AttackRun or None
    special_uniques : dict or None
        The SUDA summary of the table as recorded (up to :data:`SUDA_MAX_ROWS` rows).
    privacy_budget : dict or None
        The DP ledger's entries and the budget spent.
    limitations : tuple of Limitation
    parameters : dict
        Every parameter of the assessment (c, threshold, distances, engine, policy).
    command : str
        The command line that reproduces the numbers.
    """

    schema: ClassVar[str] = REPORT_SCHEMA

    built_at: str
    built_by: str | None
    software: dict[str, str]
    dataset: dict[str, Any]
    profile: Profile
    reasons: tuple[RoleReason, ...]
    before: Assessment
    verdict_before: Verdict
    parameters: dict[str, Any]
    command: str
    after: Assessment | None = None
    verdict_after: Verdict | None = None
    remediation: Remediation | None = None
    attacks_before: AttackRun | None = None
    attacks_after: AttackRun | None = None
    special_uniques: dict[str, Any] | None = None
    privacy_budget: dict[str, Any] | None = None
    limitations: tuple[Limitation, ...] = ()

    @property
    def verdict(self) -> Verdict:
        """Return the verdict the report gives: on the remediated table when there is one."""
        return self.verdict_after if self.verdict_after is not None else self.verdict_before

    @property
    def of(self) -> str:
        """Return which table the verdict is on."""
        return "the remediated table" if self.after is not None else "the table as recorded"

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON twin: every field, with ``schema``, ``schema_version``, the verdict.

        ``verdict`` repeats the verdict the report gives (with ``of``), so a
        reader need not choose between ``verdict_before`` and ``verdict_after``.
        """
        out = {"schema": self.schema, **super().to_dict()}
        out["verdict"] = {"of": self.of, **self.verdict.to_dict()}
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild a review from its JSON twin (without per-class arrays)."""
        if data.get("schema") != REPORT_SCHEMA:
            raise RiskcoreError(
                f"not a {REPORT_SCHEMA} document (schema {data.get('schema')!r})"
            )
        rest = {k: v for k, v in data.items() if k not in ("schema", "verdict")}
        return super().from_dict(rest)

    def to_json(self) -> str:
        """Return the JSON twin as strict JSON text (indented, keys in field order)."""
        return dumps(self.to_dict(), indent=2)


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
    if sha256 is not None:
        sha, of = sha256, "the file's bytes"
    else:
        from riskcore.io.fingerprint import fingerprint

        text = data.to_csv(index=False, lineterminator="\n").encode("utf-8")
        sha, of = fingerprint(text), "the table written as CSV (UTF-8, no index)"
    return {
        "name": name,
        "sha256": sha,
        "fingerprint_of": of,
        "rows": len(data),
        "columns": data.shape[1],
        "missing": int(data.isna().sum().sum()),
    }


def _reasons(
    data: pd.DataFrame, profile: Profile
) -> tuple[tuple[RoleReason, ...], dict[str, str]]:
    """Return why each column has its role, and the units of the numeric QIs (ages: year)."""
    from riskcore.roles import suggest_roles

    suggested = suggest_roles(data)
    units = {s.column: "year" for s in suggested.suggestions if s.kind == "age"}
    out = []
    for col, role in profile.roles.to_mapping().items():
        s = suggested.get(col)
        out.append(
            RoleReason(
                column=col,
                role=role,
                suggested=None if s is None else s.role,
                reason="" if s is None else s.reason,
                chosen=s is None or s.role != role,
            )
        )
    return tuple(out), units


def _attacks(
    data: pd.DataFrame, profile: Profile, *, of: str, encoded: EncodedTable | None = None
) -> AttackRun:
    """Return the attacks that need nothing but the profile.

    Linkage [Sweeney 2002]: the attacker's table is every record's
    quasi-identifiers, without error (:func:`~riskcore.attacks.linkage.simulate_auxiliary`
    with every target: no random draw), joined to the released columns (all
    but the direct identifiers). Homogeneity [Machanavajjhala 2007]: per
    sensitive attribute, the classes where everyone shares one value, an
    exact count.
    """
    from riskcore.attacks import homogeneity_attack
    from riskcore.attacks.linkage import linkage_attack, simulate_auxiliary

    roles = profile.roles
    qis = list(roles.quasi_identifiers)
    released = [c for c in data.columns if c not in roles.identifiers]
    aux, truth = simulate_auxiliary(data, qis)
    link = linkage_attack(
        data[released], aux, qis, truth=truth, sensitive=roles.sensitive, p=ATTACK_P
    )
    table = encoded if encoded is not None else EncodedTable(data)
    homo = tuple(homogeneity_attack(table, qis, s, p=1.0) for s in roles.sensitive)
    return AttackRun(of=of, known=tuple(qis), p=ATTACK_P, linkage=link, homogeneity=homo)


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


def _command(data_name: str, profile_name: str, options: Sequence[str] = ()) -> str:
    return " ".join(
        [
            "python -m riskcore report",
            shlex.quote(data_name),
            "--profile",
            shlex.quote(profile_name),
            *(shlex.quote(str(o)) for o in options),
            "--out report.html --json report.json --pdf report.pdf",
        ]
    )


def _assess_kwargs(profile: Profile) -> dict[str, Any]:
    roles = profile.roles
    recursive = profile.targets.find("recursive-cl-diversity")
    population = (
        Population(weights=roles.weight)
        if roles.weight is not None
        else None
        if profile.sampling_fraction is None
        else Population(sampling_fraction=profile.sampling_fraction)
    )
    return {
        "quasi_identifiers": roles.quasi_identifiers,
        "sensitive": roles.sensitive,
        "c": float(getattr(recursive, "c", 2.0)),
        "threshold": profile.threshold,
        "distance": dict(profile.distances) or None,
        "order": {c: list(v) for c, v in profile.orders.items()} or None,
        "population": population,
        "missing": profile.missing,
    }


def _remediate(
    data: pd.DataFrame, recipe: Recipe, units: Mapping[str, str]
) -> tuple[Remediation, pd.DataFrame]:
    from riskcore.deidentify.hierarchy import rebuild
    from riskcore.deidentify.lattice import Lattice
    from riskcore.deidentify.recipe import apply_recipe

    try:
        # the report holds no key: keyed steps (tokens, date shifts) are named, not redone
        applied = apply_recipe(data, recipe, skip_keyed=True)
        before = data  # what is generalized: the table after the steps before generalization
        if recipe.safe_harbor or recipe.date_shift is not None or recipe.masking:
            steps = dataclasses.replace(recipe, qis=(), levels=(), hierarchies={})
            before = apply_recipe(data, steps, skip_keyed=True).data
    except (KeyError, TypeError, ValueError) as exc:
        raise RiskcoreError(f"the recipe in the profile is not valid: {exc}") from None
    loss: dict[str, float] | None = None
    if not applied.n_unknown and recipe.qis:
        hier = {q: rebuild(before[q], recipe.hierarchies[q]) for q in recipe.qis}
        lattice = Lattice(
            before,
            hier,
            sensitive=recipe.sensitive,
            targets=Targets.from_dict(recipe.targets),
            distance=recipe.distances,  # type: ignore[arg-type]
            order=recipe.orders,
            missing=recipe.missing,
            sampling_fraction=recipe.sampling_fraction,
            weights=recipe.weights,
        )
        node = lattice.evaluate(recipe.levels)
        loss = {
            "ncp": node.ncp,
            "precision": node.precision,
            "discernibility": node.discernibility,
            "avg_class_size": node.avg_class_size,
        }
    if len(applied.data) == 0:
        raise RiskcoreError("the recipe suppresses every record: nothing is left to assess")
    return (
        Remediation(
            recipe=recipe,
            steps=recipe_steps(recipe, units=units),
            records_before=len(data),
            records_after=len(applied.data),
            suppressed=applied.suppressed,
            within_limit=applied.within_limit,
            n_unknown=dict(applied.n_unknown),
            information_loss=loss,
            not_reapplied=tuple(applied.skipped),
        ),
        applied.data,
    )


def _with_suppression(verdict: Verdict, remediation: Remediation, targets: Targets) -> Verdict:
    """Return the remediated table's verdict with the records the recipe suppressed.

    The release is judged as it is (:func:`riskcore.criteria.evaluate`), and
    it passes only when the records suppressed to make it fit the profile's
    suppression limit: the verdict a lattice node gets for the same levels
    (:meth:`riskcore.deidentify.lattice.Lattice.evaluate`).
    """
    n = remediation.records_before
    within = remediation.suppressed <= targets.max_suppression * n + 1e-9
    return dataclasses.replace(
        verdict,
        passed=verdict.passed and within,
        n_records=n,
        released=remediation.records_after,
        suppressed=remediation.suppressed,
        max_suppression=targets.max_suppression,
        within_limit=within,
        needed=remediation.suppressed,
        suppression=True,
    )


def _free_text(released: pd.DataFrame, profile: Profile) -> Limitation:
    """Return what the built-in patterns found in the released free text.

    The text columns released and not modelled as quasi-identifiers (all but
    the direct identifiers, the QIs and the weight, after the recipe when
    there is one; a column a keyed step of the recipe changes is left out, as
    the report cannot redo that step) are scanned within the scan's
    character limit (:func:`riskcore.freetext.scan_text`); a column read only
    in part is unchecked.
    """
    from riskcore.deidentify.recipe import masking_steps
    from riskcore.freetext import scan_text

    roles = profile.roles
    keyed: set[str] = set()
    if profile.recipe is not None:
        for step in masking_steps(profile.recipe):
            if step.operator.needs_key:
                keyed.update(step.columns)
    modelled = {*roles.identifiers, *roles.quasi_identifiers, *roles.weights, *keyed}
    cols = [c for c in released.columns if c not in modelled]
    scan = scan_text(released[cols])
    return Limitation(
        "free-text",
        {
            "scanned": [c.column for c in scan.columns if c.checked],
            "found": [
                {
                    "column": c.column,
                    "kinds": [f.label for f in c.identifiers],
                    "letters": sorted({f.letter for f in c.identifiers if f.letter}),
                    "cells": max((f.n_cells for f in c.identifiers), default=0),
                }
                for c in scan.columns
                if c.identifiers
            ],
            "unchecked": [{"column": c.column, "why": c.why} for c in scan.unchecked],
            "presidio": scan.presidio,
        },
    )


def _limitations(
    profile: Profile,
    data: pd.DataFrame,
    verdict: Verdict,
    *,
    suda_done: bool,
    remediation: Remediation | None,
    released: pd.DataFrame,
) -> tuple[Limitation, ...]:
    """Return what the report assumed or did not check, as data (phrased by the renderer).

    ``released`` is the table the verdict is on; every one of its columns but
    the quasi-identifiers and the direct identifiers (left out of the attacks' release)
    is assumed unknown to the attacker, whatever its role (tagged or not).
    """
    roles = profile.roles
    known = set(roles.quasi_identifiers) | set(roles.identifiers)
    out = [
        Limitation(
            "attacker",
            {
                "quasi_identifiers": list(roles.quasi_identifiers),
                "unknown_to_attacker": [str(c) for c in released.columns if c not in known],
            },
        )
    ]
    if roles.weight is not None:
        out.append(Limitation("population", {"model": "weights", "column": roles.weight}))
    elif profile.sampling_fraction is not None:
        out.append(
            Limitation(
                "population", {"model": "fraction", "sampling_fraction": profile.sampling_fraction}
            )
        )
    else:
        out.append(Limitation("population", {"model": "none"}))
    out.append(Limitation("missing", {"policy": profile.missing}))
    if verdict.not_applicable:
        out.append(Limitation("not-applicable", {"targets": list(verdict.not_applicable)}))
    out.append(Limitation("attacks-not-run", {"attacks": ["differencing", "two releases"]}))
    if remediation is not None and remediation.not_reapplied:
        out.append(Limitation("keyed-steps", {"steps": list(remediation.not_reapplied)}))
    if remediation is not None and not remediation.within_limit:
        out.append(Limitation("recipe-limit", {"suppressed": remediation.suppressed}))
    if not suda_done:
        out.append(Limitation("suda-skipped", {"rows": len(data), "limit": SUDA_MAX_ROWS}))
    if profile.population is None:
        out.append(Limitation("population-table", {}))
    out.append(_free_text(released, profile))
    return tuple(out)


def review(
    data: pd.DataFrame,
    profile: Profile,
    *,
    name: str = "data",
    sha256: str | None = None,
    built_by: str | None = None,
    profile_name: str = "profile.json",
    options: Sequence[str] = (),
    now: datetime | None = None,
) -> Review:
    """Compute everything a report states about a table under a profile.

    Parameters
    ----------
    data : pandas.DataFrame
        The table as loaded.
    profile : Profile
    name : str, default "data"
        The file's name (or ``demo``), shown and used in the command line.
    sha256 : str, optional
        SHA-256 of the file's bytes (:attr:`riskcore.io.LoadInfo.sha256`);
        without it, of the table written as CSV.
    built_by : str, optional
        The name of the person building the report (the session's).
    profile_name : str, default "profile.json"
        The profile's file name, for the reproducing command.
    options : sequence of str, default ()
        Command-line options that changed the profile's values (``--k 12``,
        ``--missing any``), appended to the reproducing command after
        ``--profile``.
    now : datetime, optional
        The build time (default now, UTC).

    Returns
    -------
    Review

    Raises
    ------
    RiskcoreError
        When the profile names a column the table does not hold, has no
        quasi-identifier, or its recipe is not valid.
    """
    profile.validate_against(list(data.columns))
    if not profile.roles.quasi_identifiers:
        raise RiskcoreError("the profile has no quasi-identifier: tag at least one")
    kw = _assess_kwargs(profile)
    encoded = EncodedTable(data)  # one coding of the table for assess, SUDA and homogeneity
    before = assess(encoded, **kw)
    if before.evidence is None:
        raise RiskcoreError("the assessment gave no evidence to judge the targets on")
    verdict_before = evaluate(profile.targets, before.evidence)
    special = None
    if len(data) <= SUDA_MAX_ROWS:
        from riskcore.metrics import suda

        su = suda(
            encoded, profile.roles.quasi_identifiers, dis_fraction=profile.sampling_fraction or 0.01
        )
        special = su.to_dict()
    attacks_before = _attacks(data, profile, of="the table as recorded", encoded=encoded)
    remediation = after = verdict_after = attacks_after = None
    released = data
    reasons, units = _reasons(data, profile)
    if profile.recipe is not None:
        remediation, released = _remediate(data, profile.recipe, units)
        after = assess(released, **kw)
        if after.evidence is None:
            raise RiskcoreError("the assessment gave no evidence to judge the targets on")
        verdict_after = _with_suppression(
            evaluate(profile.targets, after.evidence), remediation, profile.targets
        )
        attacks_after = _attacks(released, profile, of="the remediated table")
    final = verdict_after if verdict_after is not None else verdict_before
    when = (now or datetime.now(UTC)).astimezone(UTC)
    return Review(
        built_at=when.isoformat(timespec="seconds").replace("+00:00", "Z"),
        built_by=built_by or None,
        software=_versions(),
        dataset=dataset_facts(data, sha256=sha256, name=name),
        profile=profile,
        reasons=reasons,
        before=before,
        verdict_before=dataclasses.replace(verdict_before),
        after=after,
        verdict_after=verdict_after,
        remediation=remediation,
        attacks_before=attacks_before,
        attacks_after=attacks_after,
        special_uniques=special,
        privacy_budget=None if profile.ledger is None else _budget(profile.ledger),
        limitations=_limitations(
            profile,
            data,
            final,
            suda_done=special is not None,
            remediation=remediation,
            released=released,
        ),
        parameters={
            "c": kw["c"],
            "threshold": kw["threshold"],
            "sampling_fraction": profile.sampling_fraction,
            "weights": profile.roles.weight,
            "distance": {s: r.distance for s, r in before.sensitive.items()},
            "engine": before.engine,
            "missing": before.missing,
            "missing_policy": before.missing_policy,
            "seeds": None,
        },
        command=_command(name, profile_name, options),
    )
