"""The review: everything a report states, computed once into one result (no rendering here).

:func:`review` assesses a table under a :class:`~riskcore.profile.Profile`:
the table as recorded and, when the profile holds a recipe, the table after
it; each judged by the profile's targets through
:func:`riskcore.criteria.evaluate` (the one verdict); the attacks that need
nothing but the profile (linkage by an attacker who knows every
quasi-identifier, homogeneity), before and after; special uniques; the
recipe with every step; the privacy budget; and the limitations
(:mod:`riskcore.review.limitations`).
"""

from __future__ import annotations

import dataclasses
import platform
import re
import shlex
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from riskcore.criteria import evaluate
from riskcore.deidentify.recipe.base import Recipe
from riskcore.deidentify.recipe.steps import recipe_steps
from riskcore.engine import EncodedTable
from riskcore.errors import RiskcoreError
from riskcore.metrics import Population, assess
from riskcore.profile import Profile

if TYPE_CHECKING:
    import pandas as pd

    from riskcore.roles import RoleSuggestions
else:
    from riskcore._lazy import pandas as pd
from riskcore.review.limitations import limitations, suda_plan, with_suppression
from riskcore.review.results import (
    ATTACK_P,
    AttackRun,
    Limitation,
    Remediation,
    Review,
    RoleReason,
    dataset_facts,
)
from riskcore.review.seeds import seeds_used

__all__ = ["REPORT_MAX_QIS", "review"]

#: Most quasi-identifiers a report assesses: 100 QIs x 2,000 rows take 6 s and 130 MB
#: (SUDA skipped above :data:`~riskcore.metrics.special_uniques.SUDA_MAX_QIS`, stated in the
#: report).
REPORT_MAX_QIS = 100


def _reasons(
    data: pd.DataFrame, profile: Profile, suggested: RoleSuggestions
) -> tuple[tuple[RoleReason, ...], dict[str, str]]:
    """Return why each column has its role, and the units of the numeric QIs (ages: year)."""
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
    person = roles.person  # targets and candidates are people: the column links their rows
    released = [c for c in data.columns if c not in roles.identifiers and c not in roles.persons]
    if person is not None:
        released.append(person)
    aux, truth = simulate_auxiliary(data, qis, person=person)
    link = linkage_attack(
        data[released],
        aux,
        qis,
        truth=truth,
        sensitive=roles.sensitive,
        p=ATTACK_P,
        person=person,
    )
    table = encoded if encoded is not None else EncodedTable(data)
    homo = tuple(homogeneity_attack(table, qis, s, p=1.0, person=person) for s in roles.sensitive)
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
        # which ledger and why (riskcore.report.readings.ledger_provenance), when the caller says
        "charged_to": (
            dict(ledger["charged_to"]) if isinstance(ledger.get("charged_to"), Mapping) else None
        ),
        # whether the figures were read from the database's ledger, or are the profile's claim
        "checked": dict(ledger["checked"]) if isinstance(ledger.get("checked"), Mapping) else None,
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
    population = Population.of(weights=roles.weight, sampling_fraction=profile.sampling_fraction)
    return {
        "quasi_identifiers": roles.quasi_identifiers,
        "sensitive": roles.sensitive,
        "c": float(getattr(recursive, "c", 2.0)),
        "threshold": profile.threshold,
        "distance": dict(profile.distances) or None,
        "order": {c: list(v) for c, v in profile.orders.items()} or None,
        "hierarchy": dict(profile.sensitive_hierarchies) or None,
        "population_model": population,
        "missing": profile.missing,
        "person": roles.person,
        "events": profile.events,
        "m": profile.m,
        "event_k": profile.event_k,
        "household": profile.household,
    }


def _utility(
    data: pd.DataFrame, released: pd.DataFrame, profile: Profile, recipe: Recipe
) -> dict[str, Any]:
    """Return the remediation's utility fields (:mod:`riskcore.utility.tables`).

    Per released QI and sensitive attribute its change and (the first
    :data:`~riskcore.review.utility.REPORT_MAX_VALUE_COLUMNS`) its values before and
    after, a generalized QI's recorded values counted in its released labels (as the
    Remediate page counts them); the first QI against the first sensitive attribute (or
    the second QI); and a naive Bayes predicting the first sensitive attribute from the
    QIs, before and after.
    """
    from riskcore.deidentify.recipe.base import generalize_known
    from riskcore.review.utility import (
        REPORT_MAX_VALUE_COLUMNS,
        REPORT_TOP_VALUES,
        TwoWayTable,
        ValueCounts,
    )
    from riskcore.utility.tables import (
        classification_utility,
        column_change,
        two_way,
        value_counts,
    )

    roles = profile.roles
    both = list(
        dict.fromkeys(c for c in (*roles.quasi_identifiers, *roles.sensitive)
                      if c in released.columns)
    )  # fmt: skip
    changes = tuple(column_change(data, released, c) for c in both)
    level = dict(zip(recipe.quasi_identifiers, recipe.levels, strict=True))
    charted = both[:REPORT_MAX_VALUE_COLUMNS]
    generalized = [c for c in charted if level.get(c, 0) > 0 and c in data.columns]
    try:
        labels = generalize_known(data[generalized], data, recipe) if generalized else None
    except (RiskcoreError, KeyError, ValueError):  # the labels are not rebuilt: counted apart
        labels = None
    counts = tuple(
        ValueCounts.of(c, value_counts(
            data[c], released[c], top=REPORT_TOP_VALUES, bins=REPORT_TOP_VALUES,
            released_as=labels[c] if labels is not None and c in generalized else None))
        for c in charted
    )  # fmt: skip
    features = [q for q in roles.quasi_identifiers if q in released.columns]
    sens = [s for s in roles.sensitive if s in released.columns and s not in features]
    pair = [*features[:1], *sens[:1]] if sens else features[:2]
    table = None
    if len(pair) == 2:
        try:
            table = TwoWayTable.of(two_way(data, released, pair[0], pair[1]))
        except RiskcoreError:  # the rows do not keep their index: no table
            table = None
    model = None
    if roles.sensitive and roles.sensitive[0] in released.columns and features:
        try:
            model = classification_utility(
                data, released, roles.sensitive[0], features, person=roles.person
            )
        except RiskcoreError:  # too few records to split: the report says nothing of a model
            model = None
    return {
        "column_changes": changes,
        "classification": model,
        "value_counts": counts,
        "two_way": table,
    }


def _remediate(
    data: pd.DataFrame, recipe: Recipe, units: Mapping[str, str], profile: Profile | None = None
) -> tuple[Remediation, pd.DataFrame]:
    from riskcore.attacks import people_count
    from riskcore.deidentify.recipe.apply import apply_recipe

    try:
        # the report holds no key: keyed steps (tokens, date shifts) are named, not redone
        applied = apply_recipe(data, recipe, skip_keyed=True)
    except (KeyError, TypeError, ValueError) as exc:
        raise RiskcoreError(f"the recipe in the profile is not valid: {exc}") from None
    loss: dict[str, float] | None = None
    node = applied.node
    if node is not None and not applied.n_unknown:  # the recipe's own node on this table
        loss = {
            "ncp": node.ncp,
            "precision": node.precision,
            "discernibility": node.discernibility,
            "avg_class_size": node.avg_class_size,
        }
    if len(applied.data) == 0:
        raise RiskcoreError("the recipe suppresses every record: nothing is left to assess")
    utility = _utility(data, applied.data, profile, recipe) if profile is not None else {}
    person = recipe.person
    people_before = people_after = None
    if person is not None:
        people_before = people_count(data, person)
        kept = data[person].to_numpy()[applied.data.index.to_numpy()]
        people_after = people_count(pd.DataFrame({person: kept}), person)
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
            numeric=applied.numeric,
            person=person,
            people_before=people_before,
            people_after=people_after,
            suppressed_rows=applied.suppressed_rows,
            blanked=applied.blanked,
            **utility,
        ),
        applied.data,
    )


def _with_links(released: pd.DataFrame, data: pd.DataFrame, *columns: str | None) -> pd.DataFrame:
    """Return the release with its person and household columns as recorded.

    The recipe may have masked or dropped them; the assessment of the release
    links a person's rows and a household's people as the table did. The
    release keeps the labels of the table's rows (positions, from
    :func:`review`), so each released row finds its values again.
    """
    rows = released.index.to_numpy()
    links = {c: data[c].to_numpy()[rows] for c in columns if c is not None}
    return released.assign(**links) if links else released


def _file_name(path: str) -> str:
    """Return the last part of a path (either separator): the report shows no directory."""
    return re.split(r"[\\/]", path.rstrip("/\\"))[-1] or path


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
    audit_head: Mapping[str, Any] | None = None,
    identity: Mapping[str, Any] | None = None,
) -> Review:
    """Compute everything a report states about a table under a profile.

    Parameters
    ----------
    data : pandas.DataFrame
        The table as loaded.
    profile : Profile
        The roles, targets, policy and, when remediating, the recipe to apply.
    name : str, default "data"
        The file's name (or ``demo``), shown and used in the command line;
        a path is shown by its last part only.
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
    audit_head : mapping, optional
        ``{"seq", "hash"}`` of the audit log's last entry now
        (:meth:`riskcore.store.AuditHead.to_dict`), recorded in the report.
    identity : mapping, optional
        Who builds it (:meth:`riskcore.store.identity.Identity.to_dict`),
        recorded in the report; ``built_by`` is then its label.

    Returns
    -------
    Review

    Raises
    ------
    RiskcoreError
        When the profile names a column the table does not hold, has no
        quasi-identifier or more than :data:`REPORT_MAX_QIS`, or its recipe
        is not valid.

    Examples
    --------
    Six records on (age, sex) with a target of k = 2: the (50, F) record is
    alone in its class, so k = 1 and the table as recorded fails; the profile
    holds no recipe, so there is no "after" and the release is not ready.

    >>> import pandas as pd
    >>> from riskcore.criteria import Targets
    >>> from riskcore.profile import Profile
    >>> from riskcore.roles import ColumnRoles
    >>> df = pd.DataFrame({"age": [30, 30, 30, 40, 40, 50], "sex": list("FFFMMF"),
    ...                    "diagnosis": ["flu", "flu", "cold", "flu", "flu", "cold"]})
    >>> roles = ColumnRoles(quasi_identifiers=("age", "sex"), sensitive=("diagnosis",))
    >>> r = review(df, Profile(roles=roles, targets=Targets.of(k=2)), name="visits.csv")
    >>> r.before.k, r.verdict_before.passed, r.after is None, r.readiness.targets_met
    (1, False, True, False)
    >>> print(r.command)
    python -m riskcore report visits.csv --profile profile.json --out report.html
        --json report.json --pdf report.pdf
    """
    # the report names files, never the analyst's directories
    name, profile_name = _file_name(name), _file_name(profile_name)
    profile.validate_against(list(data.columns))
    if not profile.roles.quasi_identifiers:
        raise RiskcoreError("the profile has no quasi-identifier: tag at least one")
    if len(profile.roles.quasi_identifiers) > REPORT_MAX_QIS:  # before any work
        raise RiskcoreError(
            f"a report on {len(profile.roles.quasi_identifiers):,} quasi-identifiers is "
            f"refused: the limit is {REPORT_MAX_QIS} (REPORT_MAX_QIS); tag as "
            "quasi-identifiers only the columns an attacker could know"
        )
    kw = _assess_kwargs(profile)
    data = data.reset_index(drop=True)  # positions: a release's rows are found by label
    encoded = EncodedTable(data)  # one coding of the table for assess, SUDA and homogeneity
    before = assess(encoded, **kw)
    if before.evidence is None:
        raise RiskcoreError("the assessment gave no evidence to judge the targets on")
    verdict_before = evaluate(profile.targets, before.evidence)
    special = None
    suda_size, suda_note = suda_plan(len(data), len(profile.roles.quasi_identifiers))
    if suda_size is not None:  # within SUDA's limits, checked before it starts
        from riskcore.metrics import suda

        people = 0 if before.classes is None else before.classes.several_tuples
        if people:  # SUDA is per person: a set of several tuples is not one record
            suda_note = Limitation("suda-people", {"people": people})
        else:
            su = suda(
                encoded,
                profile.roles.quasi_identifiers,
                max_size=suda_size,
                dis_fraction=profile.sampling_fraction or 0.01,
                person=profile.roles.person,
            )
            special = su.to_dict()
    attacks_before = _attacks(data, profile, of="the table as recorded", encoded=encoded)
    remediation = after = verdict_after = attacks_after = None
    released = data
    from riskcore.roles import suggest_roles

    suggested = suggest_roles(data)
    reasons, units = _reasons(data, profile, suggested)
    if profile.recipe is not None:
        remediation, released = _remediate(data, profile.recipe, units, profile)
        after = assess(_with_links(released, data, kw["person"], kw["household"]), **kw)
        if after.evidence is None:
            raise RiskcoreError("the assessment gave no evidence to judge the targets on")
        # the release judged by the targets read off the input (its distribution under
        # a likeness model's input reference, N of a sampling fraction)
        resolved = profile.targets.resolved(before.evidence)
        verdict_after = with_suppression(
            evaluate(resolved, after.evidence), remediation, profile.targets
        )
        attacks_after = _attacks(
            _with_links(released, data, kw["person"]), profile, of="the remediated table"
        )
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
        limitations=limitations(
            profile,
            data,
            final,
            suda=suda_note,
            remediation=remediation,
            released=released,
            persons=suggested.persons,
        ),
        parameters={
            **({"c": kw["c"]} if profile.targets.find("recursive-cl-diversity") else {}),
            "threshold": kw["threshold"],
            "sampling_fraction": profile.sampling_fraction,
            "weights": profile.roles.weight,
            "distance": {s: r.distance for s, r in before.sensitive.items()},
            "engine": before.engine,
            "missing": before.missing,
            "missing_policy": before.missing_policy,
            "seeds": seeds_used(remediation),
        },
        command=_command(name, profile_name, options),
        audit_head=None
        if audit_head is None
        else {"seq": int(audit_head["seq"]), "hash": str(audit_head["hash"])},
        identity=None if identity is None else dict(identity),
    )
