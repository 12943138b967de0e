"""Targets: the privacy models a release must meet, with the suppression allowed.

:class:`Targets` is a tuple of criteria and a suppression limit, validated
once and written to JSON with each criterion's ``kind``. Older forms load:
the lattice's ``{"k", "l", "l_kind", "c", "t", "max_risk",
"max_suppression"}`` and the report profile's ``{"k", "l", "t",
"threshold"}`` (their ``l`` is distinct l, and the preset thresholds 0.33 and
0.09, which stood for k = 3 and k = 11, become the exact 1/3 and 1/11).

The record-risk presets are exact fractions (:data:`RISK_PRESETS`): the
threshold of "k = 11" is 1/11, which a class of 11 records meets.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Self

from riskcore._results import Result
from riskcore.criteria.base import Criterion, criterion_from_dict
from riskcore.criteria.models import (
    AverageRisk,
    BetaKind,
    BetaLikeness,
    DeltaDisclosure,
    DeltaPresence,
    DistinctLDiversity,
    EntropyLDiversity,
    KAnonymity,
    KmAnonymity,
    KMap,
    LikenessReference,
    PopulationModelName,
    PopulationUniqueness,
    RecordRisk,
    RecursiveCLDiversity,
    SampleUniqueness,
    TCloseness,
)
from riskcore.errors import RiskcoreError
from riskcore.metrics.anonymity import THRESHOLDS, threshold_meaning
from riskcore.metrics.evidence import Evidence

__all__ = [
    "LEGACY_THRESHOLDS",
    "L_KINDS",
    "RISK_PRESETS",
    "Targets",
    "threshold_meaning",
]

LKind = Literal["distinct", "entropy", "recursive"]
#: The kinds of l-diversity, as the options name them.
L_KINDS: tuple[str, ...] = ("distinct", "entropy", "recursive")

#: The k of each record-risk preset, with what it stands for (its threshold is exactly 1/k).
RISK_PRESETS: dict[int, str] = {round(1 / tau): words for tau, words in THRESHOLDS.items()}

#: Thresholds older profiles wrote for the presets, rounded: read as the exact 1/k.
LEGACY_THRESHOLDS: dict[float, int] = {0.33: 3, 0.2: 5, 0.09: 11, 0.05: 20}


def _suppression(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RiskcoreError(f"the suppression limit must be a number, not {value!r}")
    if not 0 <= value <= 1:
        raise RiskcoreError(f"the suppression limit must lie in [0, 1], not {value!r}")
    return float(value)


@dataclass(frozen=True)
class Targets(Result):
    """The privacy models every released class must meet, and the suppression allowed.

    Attributes
    ----------
    criteria : tuple of Criterion
        Judged together; a class breaking any of them is suppressed by a
        remediation (never more records than the limit).
    max_suppression : float
        Share of the records a remediation may suppress, in [0, 1]. A table
        judged as it is suppresses nothing.
    """

    criteria: tuple[Criterion, ...] = ()
    max_suppression: float = 0.0

    def __post_init__(self) -> None:
        crit = tuple(self.criteria)
        for c in crit:
            if not isinstance(c, Criterion):
                raise RiskcoreError(f"a target must be a privacy model, not {c!r}")
        if len(set(crit)) != len(crit):
            raise RiskcoreError("a privacy model is listed twice")
        object.__setattr__(self, "criteria", crit)
        object.__setattr__(self, "max_suppression", _suppression(self.max_suppression))

    def within_limit(self, suppressed: int, units: int) -> bool:
        """Return whether suppressing ``suppressed`` of ``units`` stays within the limit.

        The one rule every consumer applies (the verdict, the lattice's nodes,
        a recipe's release in the report): suppressed <= max_suppression x
        units, ARX's ``suppressionLimit`` read as a share of the records (of
        the people, with a person column), with 1e-9 of slack for the
        share's floating point.

        Parameters
        ----------
        suppressed : int
            Records (or people) suppressed.
        units : int
            Records (or people) of the table before suppression.

        Returns
        -------
        bool
        """
        return suppressed <= self.most_suppressed(units)

    def most_suppressed(self, units: int) -> float:
        """Return the most records (or people) of ``units`` a remediation may suppress.

        max_suppression x units, with 1e-9 of slack for the share's floating
        point: :meth:`within_limit`'s bound.

        Parameters
        ----------
        units : int
            Records (or people) of the table before suppression.

        Returns
        -------
        float
        """
        return self.max_suppression * units + 1e-9

    @classmethod
    def of(
        cls,
        *,
        k: int | None = None,
        l: float | None = None,  # noqa: E741 - the papers' name
        l_kind: LKind = "distinct",
        c: float = 2.0,
        t: float | None = None,
        distance: Literal["equal", "ordered"] | None = None,
        threshold: float | None = None,
        risk_model: Literal["prosecutor", "journalist"] = "prosecutor",
        average_risk: float | None = None,
        k_map: int | None = None,
        delta: tuple[float, float] | None = None,
        km: int | None = None,
        m: int = 2,
        events: Sequence[str] = (),
        beta: float | None = None,
        beta_kind: BetaKind = "basic",
        delta_disclosure: float | None = None,
        likeness_reference: LikenessReference = "release",
        sample_uniqueness: float | None = None,
        population_uniqueness: float | None = None,
        population_model: PopulationModelName = "dankar",
        population_size: float | None = None,
        sampling_fraction: float | None = None,
        max_suppression: float = 0.0,
    ) -> Targets:
        """Return the targets of the usual options (each left None is not a target).

        Parameters
        ----------
        k : int, optional
            k-anonymity.
        l : number, optional
            l-diversity of every sensitive attribute, of the kind ``l_kind``.
        l_kind : {"distinct", "entropy", "recursive"}, default "distinct"
            The kind of l-diversity of ``l``.
        c : float, default 2
            c of recursive (c,l)-diversity.
        t : float, optional
            t-closeness of every sensitive attribute.
        distance : {"equal", "ordered"}, optional
            The ground distance of t (default: each attribute's).
        threshold : float, optional
            Highest record risk under ``risk_model``.
        risk_model : {"prosecutor", "journalist"}, default "prosecutor"
            The attacker model of ``threshold``.
        average_risk : float, optional
            Highest average (marketer) risk of the release.
        k_map : int, optional
            k-map against a population table.
        delta : (float, float), optional
            delta-presence range against a population table.
        km : int, optional
            k of k^m-anonymity of each person's events (with a person column).
        m : int, default 2
            m of k^m-anonymity: the most events an attacker knows.
        events : sequence of str, default ()
            The event columns of k^m-anonymity (empty: the assessment's).
        beta : float, optional
            beta-likeness of every sensitive attribute, of the kind ``beta_kind``.
        beta_kind : {"basic", "enhanced"}, default "basic"
            The kind of beta-likeness of ``beta``.
        delta_disclosure : float, optional
            delta-disclosure privacy of every sensitive attribute.
        likeness_reference : {"release", "input"}, default "release"
            The distribution beta-likeness and delta-disclosure measure each class
            against: the release's (judged again after suppression) or the input's (ARX).
        sample_uniqueness : float, optional
            Highest share of records unique on the QIs.
        population_uniqueness : float, optional
            Highest estimated share of the population unique on the QIs.
        population_model : {"dankar", "pitman", "zayatz", "snb"}, default "dankar"
            The estimator of ``population_uniqueness``.
        population_size : float, optional
            N of ``population_uniqueness`` (else ``sampling_fraction``).
        sampling_fraction : float, optional
            pi of ``population_uniqueness`` when N is not given.
        max_suppression : float, default 0
            Share of records a remediation may suppress.

        Returns
        -------
        Targets
        """
        crit: list[Criterion] = []
        if k is not None:
            crit.append(KAnonymity(k=k))
        if l is not None:
            if l_kind == "distinct":
                crit.append(DistinctLDiversity(l=_int_l(l)))
            elif l_kind == "entropy":
                crit.append(EntropyLDiversity(l=float(l)))
            elif l_kind == "recursive":
                crit.append(RecursiveCLDiversity(c=float(c), l=_int_l(l)))
            else:
                raise RiskcoreError(f"the kind of l-diversity is one of {L_KINDS}, not {l_kind!r}")
        if t is not None:
            crit.append(TCloseness(t=float(t), distance=distance))
        if beta is not None:
            crit.append(
                BetaLikeness(beta=float(beta), variant=beta_kind, reference=likeness_reference)
            )
        if delta_disclosure is not None:
            crit.append(
                DeltaDisclosure(delta=float(delta_disclosure), reference=likeness_reference)
            )
        if sample_uniqueness is not None:
            crit.append(SampleUniqueness(threshold=float(sample_uniqueness)))
        if population_uniqueness is not None:
            crit.append(
                PopulationUniqueness(
                    threshold=float(population_uniqueness),
                    population_size=population_size,
                    model=population_model,
                    sampling_fraction=None if population_size is not None else sampling_fraction,
                )
            )
        if threshold is not None:
            crit.append(RecordRisk(threshold=float(threshold), model=risk_model))
        if average_risk is not None:
            crit.append(AverageRisk(threshold=float(average_risk)))
        if k_map is not None:
            crit.append(KMap(k=k_map))
        if delta is not None:
            crit.append(DeltaPresence(delta_min=float(delta[0]), delta_max=float(delta[1])))
        if km is not None:
            crit.append(KmAnonymity(k=km, m=m, events=tuple(events)))
        return cls(criteria=tuple(crit), max_suppression=max_suppression)

    def resolved(self, evidence: Evidence) -> Targets:
        """Return the targets with what each reads off the input fixed (:meth:`Criterion.resolved`).

        A release judged as it is after a remediation is judged by the targets resolved
        on the input: the population size of a sampling fraction, and the input's
        distribution of a likeness model with ``reference="input"``.

        Parameters
        ----------
        evidence : Evidence
            The input's classes, before any remediation.

        Returns
        -------
        Targets
        """
        crit = tuple(c.resolved(evidence) for c in self.criteria)
        return dataclasses.replace(self, criteria=crit)

    # ------------------------------------------------------------------ reading

    def find(self, kind: str) -> Criterion | None:
        """Return the first criterion of ``kind`` (None when there is none).

        Parameters
        ----------
        kind : str
            A criterion's ``kind`` (``"k-anonymity"``, a key of :data:`REGISTRY`).

        Returns
        -------
        Criterion or None
        """
        return next((c for c in self.criteria if c.kind == kind), None)

    @property
    def needs_sensitive(self) -> bool:
        """Return True when a criterion reads a sensitive attribute."""
        return any(c.per_attribute for c in self.criteria)

    @property
    def needs_population_table(self) -> bool:
        """Return True when a criterion needs an identified population table."""
        return any(c.needs_population_table for c in self.criteria)

    @property
    def k_required(self) -> int:
        """Return the class size every class needs by its size alone (at least 1).

        The largest of k and ceil(1/tau) of a prosecutor record-risk threshold
        tau (the records of a class of f have risk 1/f): the divisor of
        LeFevre's average class size C_avg.
        """
        need = 1
        for c in self.criteria:
            if isinstance(c, KAnonymity):
                need = max(need, c.k)
            elif isinstance(c, RecordRisk) and c.model == "prosecutor":
                need = max(need, math.ceil(1.0 / c.threshold - 1e-9))
        return need

    # ------------------------------------------------------------------ JSON

    def to_dict(self) -> dict[str, Any]:
        """Return ``{"schema_version", "criteria": [...], "max_suppression"}``.

        Returns
        -------
        dict of str to Any
            JSON-ready; each criterion as :meth:`Criterion.to_dict` writes it.
        """
        return {
            "schema_version": self.schema_version,
            "criteria": [c.to_dict() for c in self.criteria],
            "max_suppression": self.max_suppression,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Read targets written by :meth:`to_dict`, or by older riskcore (see the module).

        Parameters
        ----------
        data : mapping of str to Any
            Targets as :meth:`to_dict` wrote them, or as older riskcore did.

        Returns
        -------
        Self

        Raises
        ------
        RiskcoreError
            When the targets are not valid, naming what is wrong.
        """
        if not isinstance(data, Mapping):
            raise RiskcoreError(f"the targets must be an object, not {data!r}")
        if "criteria" in data:
            crit = data["criteria"]
            if not isinstance(crit, Sequence) or isinstance(crit, (str, bytes)):
                raise RiskcoreError("'criteria' must be a list of privacy models")
            return cls(
                criteria=tuple(criterion_from_dict(dict(c)) for c in crit),
                max_suppression=data.get("max_suppression", 0.0),
            )
        return cls._legacy(data)

    @classmethod
    def _legacy(cls, data: Mapping[str, Any]) -> Self:
        known = {"schema_version", "k", "l", "l_kind", "c", "t", "max_risk", "threshold",
                 "max_suppression"}  # fmt: skip
        bad = sorted(set(map(str, data)) - known)
        if bad:
            raise RiskcoreError(
                f"unknown target {bad[0]!r} (use k, l, l_kind, c, t, threshold, max_suppression)"
            )
        values: dict[str, Any] = {}
        for name in ("k", "l", "c", "t", "max_risk", "threshold", "max_suppression"):
            v = data.get(name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
                raise RiskcoreError(f"target {name} must be a number, got {v!r}")
            values[name] = v
        for name in ("k", "l"):
            v = values[name]
            if v is not None and v != int(v):
                raise RiskcoreError(f"target {name} must be a whole number, got {v!r}")
        threshold = values["threshold"] if values["threshold"] is not None else values["max_risk"]
        if threshold is not None and threshold in LEGACY_THRESHOLDS:
            threshold = 1 / LEGACY_THRESHOLDS[threshold]
        kind = data.get("l_kind", "distinct")
        if kind not in L_KINDS:
            raise RiskcoreError(f"unknown l-diversity kind {kind!r}")
        return cls(
            criteria=Targets.of(
                k=None if values["k"] is None else int(values["k"]),
                l=None if values["l"] is None else int(values["l"]),
                l_kind=kind,
                c=2.0 if values["c"] is None else float(values["c"]),
                t=values["t"],
                threshold=threshold,
            ).criteria,
            max_suppression=values["max_suppression"] or 0.0,
        )


def _int_l(l: float) -> int:  # noqa: E741
    if isinstance(l, bool) or l != int(l):
        raise RiskcoreError(f"l must be a whole number for this kind, not {l!r}")
    return int(l)
