"""The one verdict: every target judged by its criterion, with ARX's suppression semantics.

:func:`evaluate` is the only place a release is passed or failed. Every
consumer calls it: the Anonymity page and the report on a table as it is,
the lattice search and the Remediate page on a generalization with the
suppression it needs, the records table for each record's failing targets,
the command line's ``--fail-on-targets``.

A table judged *as it is* passes when no class breaks any criterion and every
whole-release condition holds. A generalization judged *with suppression*
(ARX, Prasser et al. 2014) suppresses the records of every class that breaks
a criterion; it passes when those records are within the limit and the
release that remains meets every criterion, judged again on the release
itself (t-closeness measured against the release's own distribution, the
marketer's average over the release, and under the missing-value policy
"any" the compatible sets within the release): the verdict is on what is
released.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from riskcore._results import NOT_IN_JSON, Result
from riskcore.criteria.base import Check, Criterion
from riskcore.criteria.targets import Targets
from riskcore.metrics.evidence import Evidence

__all__ = ["Verdict", "class_failures", "evaluate", "with_suppressed"]


def _no_bools() -> np.ndarray:
    return np.zeros(0, dtype=bool)


@dataclass(frozen=True)
class Verdict(Result):
    """Whether a release meets its targets, with every check.

    Attributes
    ----------
    passed : bool
    checks : tuple of Check
        One per criterion and sensitive attribute, judged on the release
        (the table as it is, or what remains after suppression).
    n_records : int
        Records of the table judged (before any suppression).
    released : int
        Records released (n_records minus suppressed).
    suppressed : int
        Records of the classes suppressed to meet the targets (0 for a table
        judged as it is).
    suppressed_classes : int
    max_suppression : float
        The limit, as a share of n_records (0 for a table judged as it is).
    within_limit : bool
        Whether the records that break a target fit the limit.
    needed : int
        Records in classes that break a target before suppression.
    not_applicable : tuple of str
        Criteria that had nothing to judge (an l or t target with no
        sensitive attribute), by label.
    suppression : bool
        True for a generalization judged with suppression; False for a table
        judged as it is.
    failing : numpy.ndarray
        Per class of the evidence, whether it breaks a target (not in JSON).
    person : str or None
        The column linking the rows of one person: every count above is of
        people (None: of records, each taken to be a different person).
    """

    passed: bool
    checks: tuple[Check, ...]
    n_records: int
    released: int
    suppressed: int
    suppressed_classes: int
    max_suppression: float
    within_limit: bool
    needed: int
    not_applicable: tuple[str, ...] = ()
    suppression: bool = False
    failing: np.ndarray = field(
        default_factory=_no_bools, repr=False, compare=False, metadata=NOT_IN_JSON
    )
    person: str | None = None

    @property
    def failed(self) -> tuple[Check, ...]:
        """Return the checks that failed."""
        return tuple(c for c in self.checks if not c.passed)


def _criteria(targets: Targets | Iterable[Criterion]) -> tuple[tuple[Criterion, ...], float]:
    if isinstance(targets, Targets):
        return targets.criteria, targets.max_suppression
    return tuple(targets), 0.0


def class_failures(
    targets: Targets | Iterable[Criterion], evidence: Evidence
) -> list[tuple[Criterion, str | None, np.ndarray]]:
    """Return, per criterion and attribute judged, the classes that break it (bool masks).

    Parameters
    ----------
    targets : Targets or iterable of Criterion
        The criteria judged (their suppression limit plays no part here).
    evidence : Evidence
        The classes judged.

    Returns
    -------
    list of (Criterion, str or None, numpy.ndarray)
        In the order of the criteria, then of the sensitive attributes.
    """
    out = []
    for crit in _criteria(targets)[0]:
        for attribute in crit.attributes(evidence):
            out.append((crit, attribute, crit.breaks(evidence, attribute)))
    return out


def _checks(criteria: tuple[Criterion, ...], evidence: Evidence) -> tuple[Check, ...]:
    return tuple(c.check(evidence, a) for c in criteria for a in c.attributes(evidence))


def _enforce(crit: Criterion, evidence: Evidence, failing: np.ndarray, most: float) -> np.ndarray:
    """Return ``failing`` with the fewest smallest classes added that make ``crit`` hold.

    ARX 3.9.2's ``HashGroupifyDistribution.suppressWhileNotFulfilledBinary``:
    the classes still released, sorted by records (then by their order),
    are suppressed as a prefix whose length is found by binary search, the
    shortest for which the whole-release model holds on what remains, and
    never more records in all than ``most``. When no such prefix fits, the
    classes are left as they are (the release then fails the model).
    """
    attributes = crit.attributes(evidence)

    def holds(keep: np.ndarray) -> bool:
        released = evidence.restrict(keep)
        return all(crit.release_passes(released, a)[0] for a in attributes)

    stays = ~failing & evidence.present
    if holds(stays):
        return failing
    idx = np.flatnonzero(stays)
    order = idx[np.argsort(evidence.records[idx], kind="stable")]
    spent = float(evidence.records[failing].sum())
    room = int(np.searchsorted(np.cumsum(evidence.records[order]) + spent, most, side="right"))

    def with_prefix(m: int) -> np.ndarray:
        out = failing.copy()
        out[order[:m]] = True
        return out

    if room == 0 or not holds(stays & ~with_prefix(room)):
        return failing
    low, high = 1, room  # holds at high; find the least m that holds
    while low < high:
        mid = (low + high) // 2
        if holds(stays & ~with_prefix(mid)):
            high = mid
        else:
            low = mid + 1
    return with_prefix(low)


def evaluate(
    targets: Targets | Iterable[Criterion],
    evidence: Evidence,
    *,
    suppress: bool = False,
) -> Verdict:
    """Judge a release against its targets: the only pass / fail of riskcore.

    Parameters
    ----------
    targets : Targets or iterable of Criterion
        The criteria and, for Targets, the suppression limit (0 for bare criteria).
    evidence : Evidence
        The classes judged (:meth:`riskcore.metrics.Assessment.evidence`, a
        lattice node's, ...).
    suppress : bool, default False
        False: judge the table as it is (nothing suppressed). True: suppress
        the records of every class breaking a target, within the targets'
        ``max_suppression``, and judge the release that remains.

    Returns
    -------
    Verdict
    """
    criteria, limit = _criteria(targets)
    criteria = tuple(c.resolved(evidence) for c in criteria)
    n = evidence.n_records
    failing = np.zeros(evidence.n_classes, dtype=bool)
    not_applicable = []
    for crit in criteria:
        attributes = crit.attributes(evidence)
        if not attributes:
            not_applicable.append(crit.label)
        for attribute in attributes:
            failing |= crit.breaks(evidence, attribute)
    rule = targets if isinstance(targets, Targets) else Targets()
    if suppress:
        for crit in criteria:
            if crit.suppresses_smallest:
                failing = _enforce(crit, evidence, failing, rule.most_suppressed(n))
    needed = int(evidence.records[failing].sum())
    # a failing class with no record (a population class under delta-presence) has nothing
    # to suppress: it stays, and fails the release
    stays = ~failing | ~evidence.present
    if not suppress:
        checks = _checks(criteria, evidence)
        return Verdict(
            passed=all(c.passed for c in checks) and n > 0,
            checks=checks,
            n_records=n,
            released=n,
            suppressed=0,
            suppressed_classes=0,
            max_suppression=0.0,
            within_limit=needed == 0,
            needed=needed,
            not_applicable=tuple(not_applicable),
            suppression=False,
            failing=failing,
            person=evidence.person,
        )
    within = rule.within_limit(needed, n)
    if within and failing.any():
        released = evidence.restrict(stays)
        checks = _checks(criteria, released)
    else:  # nothing to suppress, or too much: the checks of the table as it is
        released = evidence
        checks = _checks(criteria, evidence)
    kept = n - needed if within else n
    return Verdict(
        passed=within and kept > 0 and all(c.passed for c in checks),
        checks=checks,
        n_records=n,
        released=kept,
        suppressed=needed if within else 0,
        suppressed_classes=int((failing & evidence.present).sum()) if within else 0,
        max_suppression=limit,
        within_limit=within,
        needed=needed,
        not_applicable=tuple(not_applicable),
        suppression=True,
        failing=failing,
        person=evidence.person,
    )


def with_suppressed(
    verdict: Verdict, targets: Targets, suppressed: int, units: int, released: int
) -> Verdict:
    """Return a release's verdict with every unit its remediation suppressed counted.

    The one rule for a release a recipe gives (the report's, the dashboard's "in use"
    table): it passes only when ``verdict`` passes and the units suppressed (records, or
    people with a person column: removed by the generalization plus those with a cell
    blanked by local suppression) fit the targets' limit (:meth:`Targets.within_limit`).

    Parameters
    ----------
    verdict : Verdict
        The release judged as it is, or the generalization's node verdict.
    targets : Targets
        The targets the release must meet.
    suppressed : int
        Units suppressed in all.
    units : int
        Units of the table before the remediation (what the limit is a share of).
    released : int
        Units of the release.

    Returns
    -------
    Verdict
        ``verdict`` with ``passed``, the counts and ``within_limit`` of the whole remediation.
    """
    import dataclasses

    within = targets.within_limit(suppressed, units)
    return dataclasses.replace(
        verdict,
        passed=verdict.passed and within,
        n_records=units,
        released=released,
        suppressed=suppressed,
        max_suppression=targets.max_suppression,
        within_limit=within,
        needed=suppressed,
        suppression=True,
    )
