"""What a review assumed or did not check, as data (phrased by :mod:`riskcore.report`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from riskcore.criteria import Targets, Verdict, with_suppressed
from riskcore.profile import Profile
from riskcore.roles.persons import PersonCandidates, rows_not_people

if TYPE_CHECKING:
    import pandas as pd
from riskcore.review.results import SUDA_MAX_ROWS, Limitation, Remediation

__all__ = ["free_text_limitation", "limitations", "suda_plan", "with_suppression"]


def suda_plan(n_rows: int, n_qis: int) -> tuple[int | None, Limitation | None]:
    """Return the MSU size the report's SUDA searches (None: skipped) and why it is limited.

    The limits are checked before the work starts: more than
    :data:`~riskcore.review.results.SUDA_MAX_ROWS` rows or
    :data:`~riskcore.metrics.special_uniques.SUDA_MAX_QIS` QIs skip the section
    (``suda-skipped``); more than :data:`~riskcore.metrics.special_uniques.SUDA_MAX_COMBINATIONS`
    combinations search only the MSUs of at most
    :func:`~riskcore.metrics.special_uniques.largest_msu_size` values (``suda-capped``).

    Parameters
    ----------
    n_rows, n_qis : int
        The table's rows and its quasi-identifiers.

    Returns
    -------
    tuple of (int or None, Limitation or None)
    """
    from riskcore.metrics.special_uniques import (
        SUDA_MAX_COMBINATIONS,
        SUDA_MAX_QIS,
        largest_msu_size,
    )

    if n_rows > SUDA_MAX_ROWS:
        return None, Limitation("suda-skipped", {"rows": n_rows, "limit": SUDA_MAX_ROWS})
    if n_qis > SUDA_MAX_QIS:
        return None, Limitation(
            "suda-skipped", {"n_quasi_identifiers": n_qis, "limit": SUDA_MAX_QIS}
        )
    size = largest_msu_size(n_qis)
    if size < n_qis:
        facts = {"n_quasi_identifiers": n_qis, "max_size": size, "limit": SUDA_MAX_COMBINATIONS}
        return size, Limitation("suda-capped", facts)
    return size, None


def with_suppression(verdict: Verdict, remediation: Remediation, targets: Targets) -> Verdict:
    """Return the remediated table's verdict with the records the recipe suppressed.

    The release is judged as it is (:func:`riskcore.criteria.evaluate`), and
    it passes only when the records suppressed to make it fit the profile's
    suppression limit: the verdict a lattice node gets for the same levels
    (:meth:`riskcore.deidentify.search.lattice.Lattice.evaluate`).

    Parameters
    ----------
    verdict : Verdict
        The verdict on the targets.
    remediation : Remediation
        What the recipe did: the records it suppressed and blanked, in units (people
        with a person column, else records).
    targets : Targets
        The targets the release must meet.

    Returns
    -------
    Verdict
        ``verdict`` with the suppressed and blanked units counted against the
        suppression limit.
    """
    # removed by the generalization plus those with a cell blanked by local suppression
    return with_suppressed(
        verdict,
        targets,
        remediation.suppressed + remediation.blanked,
        remediation.units_before,  # people with a person column, else records
        remediation.units_after,
    )


def free_text_limitation(released: pd.DataFrame, profile: Profile) -> Limitation:
    """Return what the built-in patterns found in the released free text.

    The text columns released and not modelled as quasi-identifiers (all but
    the direct identifiers, the QIs and the weight, after the recipe when
    there is one; a column a keyed step of the recipe changes is left out, as
    the report cannot redo that step; a direct identifier whose text the recipe
    keeps, removing the identifiers found in it, ``redact_found``, is read again)
    are scanned within the scan's character limit
    (:func:`riskcore.freetext.scan_text`); a column read only in part is unchecked.

    Parameters
    ----------
    released : pandas.DataFrame
        The table released (after the recipe when there is one).
    profile : Profile
        The roles and the recipe.

    Returns
    -------
    Limitation
        Of kind ``free-text``: the columns scanned, those holding identifiers (with
        their kinds and cells), those unchecked and why, and whether Presidio ran.
    """
    from riskcore.deidentify.recipe.base import masking_steps
    from riskcore.freetext import scan_text

    roles = profile.roles
    keyed: set[str] = set()
    kept_text: set[str] = set()  # a direct identifier whose text the recipe keeps
    if profile.recipe is not None:
        for step in masking_steps(profile.recipe):
            if step.operator.needs_key:
                keyed.update(step.columns)
            if step.operator.treats is not None:
                kept_text.update(step.columns)
    modelled = {
        *roles.identifiers, *roles.persons, *roles.quasi_identifiers, *roles.weights, *keyed
    } - kept_text  # fmt: skip
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


def limitations(
    profile: Profile,
    data: pd.DataFrame,
    verdict: Verdict,
    *,
    suda: Limitation | None,
    remediation: Remediation | None,
    released: pd.DataFrame,
    persons: PersonCandidates | None = None,
) -> tuple[Limitation, ...]:
    """Return what the report assumed or did not check, as data (phrased by the renderer).

    ``released`` is the table the verdict is on; every one of its columns but
    the quasi-identifiers and the direct identifiers, the person column
    included (left out of the attacks' release), is assumed unknown to the
    attacker, whatever its role (tagged or not). When the table holds a
    person column (``persons``) and none is tagged as the person, the
    ``rows-not-people`` limitation holds its facts
    (:func:`riskcore.roles.persons.rows_not_people`).

    Parameters
    ----------
    profile : Profile
        The roles, targets, policy and recipe assessed.
    data : pandas.DataFrame
        The table.
    verdict : Verdict
        The verdict on the targets.
    suda : Limitation or None
        Why SUDA was skipped or capped (:func:`suda_plan`), or None.
    remediation : Remediation or None
        What the recipe did (None without one).
    released : pandas.DataFrame
        The table the verdict is on.
    persons : PersonCandidates, optional
        The table's person columns (:attr:`RoleSuggestions.persons
        <riskcore.roles.RoleSuggestions.persons>`); without them no
        ``rows-not-people`` limitation is made.

    Returns
    -------
    tuple of Limitation
        In a fixed order, the unit and the attacker first.
    """
    roles = profile.roles
    known = set(roles.quasi_identifiers) | set(roles.identifiers) | set(roles.persons)
    person = roles.person
    unit: dict[str, object] = {"person": person, "rows": len(data)}
    if person is not None and person in data.columns:
        from riskcore.attacks import people_count

        unit["people"] = people_count(data, person)
    out = [
        Limitation("unit", unit),
        Limitation(
            "attacker",
            {
                "quasi_identifiers": list(roles.quasi_identifiers),
                "unknown_to_attacker": [
                    str(c) for c in data.columns if c in released.columns and c not in known
                ],
            },
        ),
    ]
    caution = None if persons is None else rows_not_people(persons, roles)
    if caution is not None:  # every count is of rows, and rows are not people
        facts = caution.to_dict()
        del facts["schema_version"]
        out.append(Limitation("rows-not-people", facts))
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
    if profile.events:
        km = profile.targets.find("km-anonymity")
        out.append(
            Limitation(
                "events",
                {
                    "events": list(profile.events),
                    "m": profile.m,
                    "k": profile.event_k,
                    "judged": km is not None,
                },
            )
        )
    if profile.household is not None:
        out.append(Limitation("household", {"household": profile.household, "person": person}))
    if verdict.not_applicable:
        out.append(Limitation("not-applicable", {"targets": list(verdict.not_applicable)}))
    out.append(Limitation("attacks-not-run", {"attacks": ["differencing", "two releases"]}))
    if remediation is not None and remediation.not_reapplied:
        out.append(Limitation("keyed-steps", {"steps": list(remediation.not_reapplied)}))
    if profile.recipe is not None and profile.recipe.perturb:
        steps = [
            {"method": x.operation, "columns": list(x.columns)} for x in profile.recipe.perturb
        ]
        out.append(Limitation("perturbed", {"steps": steps}))
    if remediation is not None and not remediation.within_limit:
        out.append(Limitation("recipe-limit", {"suppressed": remediation.suppressed}))
    if suda is not None:  # skipped or capped (:func:`suda_plan`)
        out.append(suda)
    if profile.population is None:
        out.append(Limitation("population-table", {}))
    out.append(free_text_limitation(released, profile))
    return tuple(out)
