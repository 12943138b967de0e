"""The privacy-model base class, its check result and the registry of every model.

A :class:`Criterion` is a frozen, JSON-ready value (its parameters) that
decides on an :class:`~riskcore.criteria.evidence.Evidence`: which classes
break it (:meth:`Criterion.failing`), what the data achieve
(:meth:`Criterion.achieved`), and, for a model that is a property of the
whole release rather than of each class, whether the release as a whole
passes (:meth:`Criterion.release_passes`). ARX's ``PrivacyCriterion`` is the
model: one class per privacy model, deciding on a grouped class entry, never
on rows.

Every subclass registers itself under its ``kind`` (:data:`REGISTRY`), which
is how a criterion is read back from JSON (:func:`criterion_from_dict`) and
how the common test finds every model.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, ClassVar, Self

import numpy as np

from riskcore._results import Result
from riskcore.errors import RiskcoreError
from riskcore.metrics.anonymity import TOLERANCE, exceeds
from riskcore.metrics.evidence import Evidence

__all__ = ["REGISTRY", "TOLERANCE", "Check", "Criterion", "criterion_from_dict", "exceeds"]

#: Every privacy model, by its ``kind``.
REGISTRY: dict[str, type[Criterion]] = {}


@dataclass(frozen=True)
class Check(Result):
    """One criterion judged on one attribute (or on the quasi-identifiers).

    Attributes
    ----------
    kind : str
        The criterion's kind (:data:`REGISTRY`).
    label : str
        Its name in words, with its parameters ("recursive (2,l)-diversity").
    attribute : str or None
        The sensitive attribute judged (None: the quasi-identifiers).
    target : float
        The target (k, l, t, a threshold; delta's lower bound).
    achieved : float
        The value achieved by the classes judged (NaN when there are none).
    higher_is_safer : bool
        Which way is better: True for k, l and k-map; False for t and risks.
    passed : bool
    failing_classes : int
        Classes that break it.
    failing_records : int
        Records in those classes.
    target_high : float or None
        The upper end of a range target (delta-presence), else None.
    achieved_high : float or None
        The upper end achieved (delta-presence), else None.
    note : str
        Why it failed when no class fails (a whole-release condition), else "".
    """

    kind: str
    label: str
    attribute: str | None
    target: float
    achieved: float
    higher_is_safer: bool
    passed: bool
    failing_classes: int
    failing_records: int
    target_high: float | None = None
    achieved_high: float | None = None
    note: str = ""


@dataclass(frozen=True)
class Criterion(Result):
    """A privacy model: a target every class (or the release) must meet.

    Subclasses set ``kind`` (their registry name), ``higher_is_safer`` and,
    when the model reads a sensitive attribute, ``per_attribute = True`` and
    an ``attribute`` field (None: every sensitive attribute).
    """

    kind: ClassVar[str] = ""
    #: The achieved value is better when higher (k, l) or lower (t, risk).
    higher_is_safer: ClassVar[bool] = True
    #: Judged once per sensitive attribute.
    per_attribute: ClassVar[bool] = False
    #: Monotone under generalization with ARX's suppression: if a lattice node meets it
    #: within the suppression limit, every generalization of the node does too (and if a node
    #: fails, every specialization fails). True only when a class merging a passing class
    #: passes, whatever else it merges, and suppressing other classes never makes a class
    #: fail: then a generalization's failing classes are merges of failing classes (its
    #: suppressed records a subset of the node's) and every class it releases contains a
    #: class the node released. k-anonymity (sizes only grow), distinct l-diversity
    #: (distinct values only grow) and k-map against a population table (population counts
    #: only grow; ARX's ``KMap`` is monotone with suppression, its ``DPresence`` is not) have
    #: it under the missing-value policy "own" (under "any"
    #: a record with a missing value counts in several classes, and suppressing one class can
    #: shrink another's compatible set: the search tags only under "own" or when no QI value
    #: is missing). Entropy and recursive l-diversity and t-closeness do not (merging a
    #: passing class with a failing one can fail), nor do the risk targets as classes of the
    #: whole release (the average risk) or of a population model. The search's predictive
    #: tagging (Flash, Kohlmayer et al. 2012; OLA, El Emam et al. 2009) reads this flag, never
    #: a list of names.
    monotone_under_generalization: ClassVar[bool] = False
    #: Monotone under generalization when nothing may be suppressed (ARX's
    #: ``isMonotonicWithGeneralization``, which ARX 3.9.2's search reads when the suppression
    #: limit is 0, ``ARXConfiguration.getMonotonicityOfPrivacy``): every class of a passing
    #: node passes, so a generalization's classes are merges of passing classes. True when a
    #: merge of passing classes passes (beta-likeness: a merged class's share of a value is a
    #: weighted mean of its parts'), each record counted in one class (the search tags by it
    #: only without a person column, under the missing-value policy "own" or when no QI value
    #: is missing). Implied by :attr:`monotone_under_generalization`.
    monotone_without_suppression: ClassVar[bool] = False
    #: A whole-release model that suppression can meet, as ARX's ``RiskBasedCriterion.enforce``
    #: (3.9.2): in a release judged with suppression that does not meet it, the smallest classes
    #: still released are suppressed, fewest records first, until it does, within the limit
    #: (the average risk, sample and population uniqueness).
    suppresses_smallest: ClassVar[bool] = False
    #: Needs an identified population table's counts (k-map, delta-presence).
    needs_population_table: ClassVar[bool] = False
    #: Judges the classes with no record too (delta-presence: a population class nobody of
    #: which is released has delta 0). Every other model judges the classes with records.
    judges_empty_classes: ClassVar[bool] = False
    #: Reads each person's events (k^m-anonymity): needs a person column and event columns.
    needs_events: ClassVar[bool] = False
    #: The model's name, filled with its parameters by :meth:`str.format` (the default
    #: :attr:`label`: "recursive ({c:g},l)-diversity").
    title: ClassVar[str] = ""
    #: The mark of a class that breaks it, filled with the parameters and ``attribute`` (the
    #: default :meth:`code`: "l<{l} ({attribute})").
    mark: ClassVar[str] = ""
    #: The parameter that is the target (the default :attr:`target`: "k", "l", "threshold").
    target_name: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.kind:
            if cls.kind in REGISTRY:
                raise TypeError(f"two criteria are registered as {cls.kind!r}")
            REGISTRY[cls.kind] = cls

    # ------------------------------------------------------------------ words

    def _parameters(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @property
    def label(self) -> str:
        """Return the model's name with its parameters (:attr:`title` filled in)."""
        if not self.title:
            raise NotImplementedError
        return self.title.format(**self._parameters())

    @property
    def target(self) -> float:
        """Return the target value a class is compared with (the :attr:`target_name` parameter)."""
        if not self.target_name:
            raise NotImplementedError
        return float(getattr(self, self.target_name))

    @property
    def target_high(self) -> float | None:
        """Return the upper end of a range target (None for a single target)."""
        return None

    # ------------------------------------------------------------------ decisions

    def resolved(self, evidence: Evidence) -> Criterion:
        """Return the criterion with what it reads off the table judged fixed (itself by default).

        :func:`~riskcore.criteria.evaluate` resolves every criterion on the table
        before any suppression: a population size given as a sampling fraction
        stays the same population when the release suppresses records.

        Parameters
        ----------
        evidence : Evidence
            The table judged, before any suppression.

        Returns
        -------
        Criterion
        """
        return self

    def attributes(self, evidence: Evidence) -> tuple[str | None, ...]:
        """Return what it is judged on: each sensitive attribute, or (None,) for the QIs.

        Parameters
        ----------
        evidence : Evidence
            What the data give the criteria (classes, their sizes and the sensitive tabulations).

        Returns
        -------
        tuple of str | None
            The criterion's own ``attribute`` when it names one, else every sensitive
            attribute of ``evidence`` in order.

        Raises
        ------
        RiskcoreError
            When the criterion names an attribute that is not sensitive in ``evidence``.
        """
        if not self.per_attribute:
            return (None,)
        chosen = getattr(self, "attribute", None)
        if chosen is None:
            return evidence.attributes
        if chosen not in evidence.sensitive:
            raise RiskcoreError(
                f"{self.label} names {chosen!r}, which is not a sensitive attribute here"
            )
        return (chosen,)

    def class_figures(self, evidence: Evidence, attribute: str | None) -> np.ndarray:
        """Return, per class, the figure compared with :attr:`target` (k's sizes, t's distances).

        The default :meth:`failing` and :meth:`achieved` read it; a model whose
        rule is not "each class's figure against the target" overrides those
        two instead.

        Parameters
        ----------
        evidence : Evidence
            What the data give the criteria (classes, their sizes and the sensitive tabulations).
        attribute : str or None
            The sensitive attribute judged (None for a model on the classes alone).

        Returns
        -------
        numpy.ndarray
            One figure per class.
        """
        raise NotImplementedError

    def failing(self, evidence: Evidence, attribute: str | None) -> np.ndarray:
        """Return, per class, whether it breaks the criterion (bool).

        By default a class breaks it when its :meth:`class_figures` figure is
        below the target (``higher_is_safer``) or :func:`exceeds` it. Classes
        with no record are judged only by a model that
        ``judges_empty_classes``; :meth:`breaks` applies that rule.

        Parameters
        ----------
        evidence, attribute
            As :meth:`class_figures`: the classes and the sensitive attribute judged.

        Returns
        -------
        numpy.ndarray
        """
        figures = self.class_figures(evidence, attribute)
        if self.higher_is_safer:
            return np.asarray(figures < self.target, dtype=bool)
        return np.asarray(exceeds(figures, self.target), dtype=bool)

    def breaks(self, evidence: Evidence, attribute: str | None) -> np.ndarray:
        """Return, per class, whether it breaks the criterion, by the rule on empty classes.

        Parameters
        ----------
        evidence, attribute
            As :meth:`failing`; ``evidence.present`` tells the classes with a record.

        Returns
        -------
        numpy.ndarray
        """
        bad = np.asarray(self.failing(evidence, attribute), dtype=bool)
        if not self.judges_empty_classes:
            bad &= evidence.present
        return bad

    def achieved(self, evidence: Evidence, attribute: str | None) -> float:
        """Return the value the classes achieve (NaN without classes).

        By default the worst :meth:`class_figures` figure of the classes with
        a record: the smallest (``higher_is_safer``) or the largest.

        Parameters
        ----------
        evidence, attribute
            As :meth:`class_figures`; only the classes with a record count.

        Returns
        -------
        float
            Comparable with :attr:`target` (a k, an l, a t, a risk).
        """
        figures = self.class_figures(evidence, attribute)[evidence.present]
        return bound(figures, upper=not self.higher_is_safer)

    def code(self, attribute: str | None) -> str:
        """Return the short mark of a class that breaks it ("k<11", "l<2 (diagnosis)").

        Derived from the parameters: the records table's ``failing_targets``.

        Parameters
        ----------
        attribute : str or None
            The sensitive attribute judged (None for a model on the classes alone).

        Returns
        -------
        str
            The model's symbol, the failed comparison and the target, then the attribute
            in brackets when there is one (:attr:`mark` filled in).
        """
        if not self.mark:
            raise NotImplementedError
        return self.mark.format(**{**self._parameters(), "attribute": attribute})

    def achieved_high(self, evidence: Evidence, attribute: str | None) -> float | None:
        """Return the upper end achieved, for a range target (None otherwise).

        Parameters
        ----------
        evidence, attribute
            As :meth:`achieved`.

        Returns
        -------
        float or None
            Comparable with :attr:`target_high`.
        """
        return None

    def release_passes(self, evidence: Evidence, attribute: str | None) -> tuple[bool, str]:
        """Return whether the release meets the parts no suppression can fix, and why not.

        Most models are met once every failing class is suppressed: (True,
        ""). A whole-release model (an average risk) says False with the
        reason.

        Parameters
        ----------
        evidence, attribute
            The release judged as a whole, and the attribute (as :meth:`class_figures`).

        Returns
        -------
        tuple of (bool, str)
            ``(passed, reason)``; the reason is ``""`` when it passes.
        """
        return True, ""

    def check(self, evidence: Evidence, attribute: str | None) -> Check:
        """Return the criterion judged on ``evidence`` (every class as it is).

        Parameters
        ----------
        evidence, attribute
            As :meth:`class_figures`; every class is judged as it is (no suppression).

        Returns
        -------
        Check
            Passed when no class breaks it and :meth:`release_passes`; a class with no
            record that breaks it is named in the note (suppression cannot fix it).
        """
        bad = self.breaks(evidence, attribute)
        whole, why = self.release_passes(evidence, attribute)
        empty = int((bad & ~evidence.present).sum())
        if empty and not why:
            why = (
                f"{empty:,} class{'es' if empty != 1 else ''} with no released record "
                f"({'break' if empty != 1 else 'breaks'} it and cannot be suppressed)"
            )
        return Check(
            kind=self.kind,
            label=self.label,
            attribute=attribute,
            target=float(self.target),
            achieved=float(self.achieved(evidence, attribute)),
            higher_is_safer=self.higher_is_safer,
            passed=bool(not bad.any() and whole),
            failing_classes=int(bad.sum()),
            failing_records=int(evidence.records[bad].sum()),
            target_high=self.target_high,
            achieved_high=self.achieved_high(evidence, attribute),
            note=why,
        )

    # ------------------------------------------------------------------ JSON

    def to_dict(self) -> dict[str, Any]:
        """Return the criterion's parameters with its ``kind`` (JSON-ready).

        Returns
        -------
        dict of str to Any
            Without a ``schema_version``: the enclosing targets or profile carry it.
        """
        params = super().to_dict()
        params.pop("schema_version", None)  # the enclosing targets or profile carry the version
        return {"kind": self.kind, **params}

    @classmethod
    def from_dict(cls, data: Any) -> Self:
        """Rebuild the criterion from :meth:`to_dict` (the ``kind`` must be this class's).

        Parameters
        ----------
        data : Any
            This model's parameters with its ``kind``, as :meth:`to_dict` wrote them.

        Returns
        -------
        Self
        """
        if not isinstance(data, dict):
            raise RiskcoreError(f"a criterion is a JSON object, not {data!r}")
        rest = dict(data)
        kind = rest.pop("kind", cls.kind)
        if kind != cls.kind:
            raise RiskcoreError(f"{kind!r} is not {cls.kind!r}")
        try:
            return super().from_dict(rest)
        except (TypeError, ValueError, KeyError) as exc:
            raise RiskcoreError(f"the criterion {kind!r} is not valid: {exc}") from None


def criterion_from_dict(data: Any) -> Criterion:
    """Return the criterion a :meth:`Criterion.to_dict` wrote, by its ``kind``.

    Parameters
    ----------
    data : Any
        Any model's values, as its :meth:`~Criterion.to_dict` wrote them: the ``kind`` picks
        the class.

    Returns
    -------
    Criterion
        An instance of the class :data:`REGISTRY` holds for that kind.

    Raises
    ------
    RiskcoreError
        For an unknown kind or bad parameters, naming them.
    """
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise RiskcoreError(f"a criterion is an object with a 'kind', not {data!r}")
    kind = data["kind"]
    if kind not in REGISTRY:
        raise RiskcoreError(
            f"unknown privacy model {kind!r} (known: {', '.join(sorted(REGISTRY))})"
        )
    return REGISTRY[kind].from_dict(data)


def bound(values: np.ndarray, *, upper: bool) -> float:
    """Return the smallest of the per-class figures, or with ``upper`` the largest.

    Parameters
    ----------
    values : numpy.ndarray
        Per-class figures.
    upper : bool
        The largest (a risk's or a distance's worst) instead of the smallest (a k's).

    Returns
    -------
    float
        NaN for no values.
    """
    if not len(values):
        return math.nan
    return float(values.max() if upper else values.min())
