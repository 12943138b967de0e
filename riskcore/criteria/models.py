"""The privacy models, one class each, deciding per equivalence class.

Notation: classes j over the quasi-identifiers, f_j the size a class is
judged by (f_k, the compatible records, under the missing-value policy
"any"), r_j its records, F_j its population size, tau a risk threshold.
Every comparison follows one rule (:func:`~riskcore.criteria.base.exceeds`):
a figure passes when it is at most its limit (a risk of exactly 1/11 meets
the threshold 1/11).

- :class:`KAnonymity` (Sweeney 2002): class j passes iff f_j >= k.
- :class:`DistinctLDiversity`, :class:`EntropyLDiversity`,
  :class:`RecursiveCLDiversity` (Machanavajjhala et al. 2007), per sensitive
  attribute: distinct values >= l; entropy H_j = -sum_s p(s) ln p(s) >= ln l;
  counts sorted r_1 >= ... >= r_m satisfy r_1 < c (r_l + ... + r_m).
- :class:`TCloseness` (Li, Li and Venkatasubramanian 2007): the earth mover's
  distance of the class's distribution from the release's, equal or ordered
  ground distance, <= t.
- :class:`BetaLikeness` (Cao and Karras 2012; ARX's ``BasicBLikeness`` and
  ``EnhancedBLikeness``), per sensitive attribute: every value s present in
  class j gains at most beta relative to the release, (p_j(s) - q(s)) / q(s)
  <= beta (enhanced: <= min(beta, -ln q(s))).
- :class:`DeltaDisclosure` (Brickell and Shmatikov 2008; ARX's
  ``DDisclosurePrivacy``), per sensitive attribute: |log2(p_j(s) / q(s))| <
  delta for every value present in class j (strict). For both, q is the
  release's distribution (``reference="release"``) or, as ARX, the input's
  (``reference="input"``: fixed before any class is suppressed).
- :class:`RecordRisk` (El Emam 2013; ARX's risk models): the record
  re-identification risk of the class's records <= tau: 1/f_j for the
  prosecutor; for the journalist 1/F_j from a population table or
  E[1/F_j | f_j] with a sampling fraction or weights (Benedetti and Franconi
  1998).
- :class:`AverageRisk` (El Emam's marketer risk; ARX's
  ``AverageReidentificationRisk``): the release's expected share of records
  re-identified, (1/n) sum_j r_j risk_j, <= tau. A property of the whole
  release, not of a class.
- :class:`KMap` (Sweeney 2002; ARX's ``KMap`` with a population table): every
  released class matches at least k population members, F_j >= k.
- :class:`DeltaPresence` (Nergiz, Atzori and Clifton 2007; ARX's
  ``DPresence``): delta_j = r_j / F_j within [delta_min, delta_max] for every
  population class, those with no released record having delta_j = 0; such
  a class cannot be suppressed, so with delta_min > 0 it fails the release
  (ARX's ``HashGroupify.analyzeAll``).
- :class:`KmAnonymity` (Terrovitis, Mamoulis and Kalnis 2008; El Emam's
  longitudinal attacker who knows m of a person's visits): with a person
  column and event columns, class j passes iff every person of it holds only
  itemsets of at most m visits that at least k people hold.

References
----------
.. [S02] L. Sweeney, "k-anonymity: a model for protecting privacy", IJUFKS 10(5), 2002.
.. [M07] A. Machanavajjhala, D. Kifer, J. Gehrke, M. Venkitasubramaniam, "l-diversity:
   privacy beyond k-anonymity", ACM TKDD 1(1), 2007.
.. [L07] N. Li, T. Li, S. Venkatasubramanian, "t-closeness: privacy beyond k-anonymity and
   l-diversity", ICDE 2007.
.. [E13] K. El Emam, Guide to the De-Identification of Personal Health Information, 2013.
.. [BF98] R. Benedetti, L. Franconi, "Statistical and technological solutions for controlled
   data dissemination", NTTS 1998.
.. [N07] M. E. Nergiz, M. Atzori, C. Clifton, "Hiding the presence of individuals from shared
   databases", SIGMOD 2007.
.. [TMK08] M. Terrovitis, N. Mamoulis, P. Kalnis, "Privacy-preserving anonymization of
   set-valued data", PVLDB 1(1), 115-125, 2008.
.. [CK12] J. Cao, P. Karras, "Publishing microdata with a robust privacy guarantee",
   PVLDB 5(11), 1388-1399, 2012.
.. [BS08] J. Brickell, V. Shmatikov, "The cost of privacy: destruction of data-mining utility
   in anonymized data publishing", KDD 2008, 70-78.
.. [EAK12] K. El Emam, L. Arbuckle, G. Koru et al., "De-identification methods for open health
   data: the case of the Heritage Health Prize claims dataset", JMIR 14(1), e33, 2012.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import ClassVar, Literal, Self

import numpy as np

from riskcore._results import NOT_IN_JSON
from riskcore.criteria.base import TOLERANCE, Check, Criterion, bound, exceeds
from riskcore.engine import Contingency
from riskcore.errors import RiskcoreError
from riskcore.metrics.evidence import Evidence
from riskcore.metrics.likeness import (
    delta_disclosure_per_class,
    enhanced_likeness_per_class,
    likeness_per_class,
)
from riskcore.metrics.population import pitman_uniques, snb_uniques, zayatz_uniques
from riskcore.roles.assignment import event_names

__all__ = [
    "AverageRisk",
    "BetaLikeness",
    "DeltaDisclosure",
    "DeltaPresence",
    "DistinctLDiversity",
    "EntropyLDiversity",
    "KAnonymity",
    "KMap",
    "KmAnonymity",
    "PopulationUniqueness",
    "RecordRisk",
    "RecursiveCLDiversity",
    "SampleUniqueness",
    "TCloseness",
]


def _whole(name: str, value: object, low: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise RiskcoreError(f"{name} must be a whole number of at least {low}, not {value!r}")
    return int(value)


def _share(name: str, value: object, *, open_low: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
        raise RiskcoreError(f"{name} must be a number, not {value!r}")
    v = float(value)
    if not (0 < v <= 1 if open_low else 0 <= v <= 1):
        raise RiskcoreError(f"{name} must lie in {'(0, 1]' if open_low else '[0, 1]'}, not {v!r}")
    return v


def _distance(evidence: Evidence, attribute: str, chosen: str | None) -> str:
    return chosen or evidence.sensitive[attribute].distance


def _no_class(evidence: Evidence) -> np.ndarray:
    return np.zeros(evidence.n_classes, dtype=bool)


@dataclass(frozen=True)
class KAnonymity(Criterion):
    """k-anonymity [S02]_: every class of at least k records.

    Attributes
    ----------
    k : int
        Smallest class size allowed (at least 1).
    """

    kind: ClassVar[str] = "k-anonymity"
    title: ClassVar[str] = "k-anonymity"
    mark: ClassVar[str] = "k<{k}"
    target_name: ClassVar[str] = "k"
    monotone_under_generalization: ClassVar[bool] = True
    k: int = 2

    def __post_init__(self) -> None:
        _whole("k", self.k)

    def class_figures(self, evidence: Evidence, attribute: str | None) -> np.ndarray:
        return evidence.sizes


@dataclass(frozen=True)
class DistinctLDiversity(Criterion):
    """Distinct l-diversity [M07]_: at least l distinct sensitive values in every class.

    Attributes
    ----------
    l : int
    attribute : str or None
        The sensitive attribute (None: every sensitive attribute).
    """

    kind: ClassVar[str] = "distinct-l-diversity"
    title: ClassVar[str] = "distinct l-diversity"
    mark: ClassVar[str] = "l<{l} ({attribute})"
    target_name: ClassVar[str] = "l"
    per_attribute: ClassVar[bool] = True
    monotone_under_generalization: ClassVar[bool] = True
    l: int = 2  # noqa: E741 - the paper's name
    attribute: str | None = None

    def __post_init__(self) -> None:
        _whole("l", self.l)

    def class_figures(self, evidence: Evidence, attribute: str | None) -> np.ndarray:
        assert attribute is not None  # noqa: S101 - per attribute
        return evidence.distinct(attribute)


@dataclass(frozen=True)
class EntropyLDiversity(Criterion):
    """Entropy l-diversity [M07]_: H_j = -sum_s p(s) ln p(s) >= ln l in every class.

    A class of m equally frequent values has entropy l = m exactly.

    Attributes
    ----------
    l : float
        At least 1.
    attribute : str or None
    """

    kind: ClassVar[str] = "entropy-l-diversity"
    title: ClassVar[str] = "entropy l-diversity"
    mark: ClassVar[str] = "entropy l<{l:g} ({attribute})"
    target_name: ClassVar[str] = "l"
    per_attribute: ClassVar[bool] = True
    l: float = 2.0  # noqa: E741
    attribute: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.l, bool) or not isinstance(self.l, (int, float)) or self.l < 1:
            raise RiskcoreError(f"l must be a number of at least 1, not {self.l!r}")

    def failing(self, evidence: Evidence, attribute: str | None) -> np.ndarray:
        assert attribute is not None  # noqa: S101
        result: np.ndarray = evidence.entropy(attribute) < math.log(self.l) - TOLERANCE
        return result

    def achieved(self, evidence: Evidence, attribute: str | None) -> float:
        assert attribute is not None  # noqa: S101
        h = evidence.entropy(attribute)[evidence.present]
        return math.exp(float(h.min())) if len(h) else math.nan


@dataclass(frozen=True)
class RecursiveCLDiversity(Criterion):
    """Recursive (c,l)-diversity [M07]_: r_1 < c (r_l + r_{l+1} + ... + r_m) in every class.

    With a class's counts sorted r_1 >= r_2 >= ... >= r_m. The achieved value
    is the largest l every class satisfies for this c. Hand check: counts
    (5, 1, 1) satisfy (c, 3) only for c > 5.

    Attributes
    ----------
    c : float
        Positive.
    l : int
    attribute : str or None
    """

    kind: ClassVar[str] = "recursive-cl-diversity"
    title: ClassVar[str] = "recursive ({c:g},l)-diversity"
    mark: ClassVar[str] = "recursive ({c:g},l)<{l} ({attribute})"
    target_name: ClassVar[str] = "l"
    per_attribute: ClassVar[bool] = True
    c: float = 2.0
    l: int = 2  # noqa: E741
    attribute: str | None = None

    def __post_init__(self) -> None:
        _whole("l", self.l)
        if isinstance(self.c, bool) or not isinstance(self.c, (int, float)) or not self.c > 0:
            raise RiskcoreError(f"c must be a positive number, not {self.c!r}")

    def class_figures(self, evidence: Evidence, attribute: str | None) -> np.ndarray:
        assert attribute is not None  # noqa: S101
        return evidence.recursive(attribute, float(self.c))


@dataclass(frozen=True)
class TCloseness(Criterion):
    """t-closeness [L07]_: every class's distribution within t of the release's.

    D[P_j, Q], the earth mover's distance with the equal ground distance
    (categories: half the L1 distance), the ordered one (over the ranked
    values: (1/(m-1)) sum_i |sum_{k<=i} (p_k - q_k)|) or the hierarchical one
    (Li, Li and Venkatasubramanian 2007, section 4.3; ARX 3.9.2
    ``HierarchicalDistanceTCloseness``: two values are level(LCA)/H apart
    in the attribute's hierarchy of height H, and
    D = sum over the inner nodes N of level(N)/H min(pos_extra(N),
    neg_extra(N)), computed as the mean over the levels 0..H-1 of the equal
    distance of the values generalized to that level,
    :func:`riskcore.metrics.closeness.t_closeness_per_class`). Q is the
    distribution of the records judged together (the release, once classes
    are suppressed). Not monotone under generalization with suppression
    (:attr:`Criterion.monotone_under_generalization` False: removing a class
    moves Q; ARX's ``TCloseness`` is ``monotonicWithSuppression = false``).

    Attributes
    ----------
    t : float
        In [0, 1].
    attribute : str or None
    distance : {"equal", "ordered", "hierarchical"} or None
        None: the attribute's distance in the assessment (ordered for
        numbers and ordered values, equal for categories). "hierarchical"
        needs the attribute's hierarchy in the evidence
        (``assess(..., hierarchy=)``, ``--hierarchy COL=FILE``).
    """

    kind: ClassVar[str] = "t-closeness"
    mark: ClassVar[str] = "t>{t:g} ({attribute})"
    target_name: ClassVar[str] = "t"
    higher_is_safer: ClassVar[bool] = False
    per_attribute: ClassVar[bool] = True
    t: float = 0.2
    attribute: str | None = None
    distance: Literal["equal", "ordered", "hierarchical"] | None = None

    def __post_init__(self) -> None:
        _share("t", self.t)
        if self.distance not in (None, "equal", "ordered", "hierarchical"):
            raise RiskcoreError(
                f"the distance is 'equal', 'ordered' or 'hierarchical', not {self.distance!r}"
            )

    @property
    def label(self) -> str:
        return "t-closeness" + (f" ({self.distance} distance)" if self.distance else "")

    def class_figures(self, evidence: Evidence, attribute: str | None) -> np.ndarray:
        assert attribute is not None  # noqa: S101
        return evidence.t(attribute, _distance(evidence, attribute, self.distance))

    def check(self, evidence: Evidence, attribute: str | None) -> Check:
        out = super().check(evidence, attribute)
        assert attribute is not None  # noqa: S101
        d = _distance(evidence, attribute, self.distance)
        return Check(**{**out.__dict__, "label": f"t-closeness ({d} distance)"})


def _positive(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
        raise RiskcoreError(f"{name} must be a number, not {value!r}")
    v = float(value)
    if not (v > 0 and math.isfinite(v)):
        raise RiskcoreError(f"{name} must be a positive number, not {v!r}")
    return v


BetaKind = Literal["basic", "enhanced"]
#: What a likeness model measures each class against: the release's own distribution of the
#: sensitive attribute (after suppression) or the input's (ARX 3.9.2).
LikenessReference = Literal["release", "input"]
#: Q of each sensitive attribute, fixed by :meth:`BetaLikeness.resolved`: (attribute, ((value,
#: share), ...)) pairs, hashable, so a figure cached on an evidence is keyed by it.
InputShares = tuple[tuple[str, tuple[tuple[object, float], ...]], ...]


def _check_reference(reference: object) -> None:
    if reference not in ("release", "input"):
        raise RiskcoreError(
            f"a likeness model is judged against the 'release' or the 'input', not {reference!r}"
        )


def _values(table: Contingency) -> list[object]:
    """Return the value of each code of ``table`` (its code where the table has no label)."""
    labels = table.labels.tolist()
    return [labels[i] if i < len(labels) else i for i in range(len(table.value_totals))]


def _input_shares(evidence: Evidence, attributes: tuple[str | None, ...]) -> InputShares:
    """Return Q of each attribute judged, read off ``evidence`` (the table before suppression)."""
    out = []
    for attribute in attributes:
        assert attribute is not None  # noqa: S101 - per attribute
        table = evidence.table(attribute)
        total = max(float(table.value_totals.sum()), 1.0)
        pairs = zip(_values(table), table.value_totals.tolist(), strict=True)
        out.append((attribute, tuple((v, n / total) for v, n in pairs if n > 0)))
    return tuple(out)


def _shares(
    reference: LikenessReference, fixed: InputShares, evidence: Evidence, attribute: str
) -> np.ndarray | None:
    """Return Q per value code of ``attribute`` in ``evidence`` (None: the table's own).

    Under the input reference, the shares fixed before suppression; a value the input did
    not hold (a release whose sensitive values were recoded) takes its share in the table.
    """
    if reference == "release":
        return None
    found = dict(fixed).get(attribute)
    if found is None:  # not resolved: the table judged is its own input
        return None
    table = evidence.table(attribute)
    own = table.value_totals / max(float(table.value_totals.sum()), 1.0)
    known = dict(found)
    return np.asarray(
        [known.get(v, own[i]) for i, v in enumerate(_values(table))], dtype=np.float64
    )


class _AgainstReference(Criterion):
    """A likeness model's q: the release's, or the input's fixed by :meth:`resolved`."""

    reference: LikenessReference
    input_shares: InputShares

    def resolved(self, evidence: Evidence) -> Self:
        """Return the model with q fixed from ``evidence`` under the input reference.

        Parameters
        ----------
        evidence : Evidence
            The table judged, before any suppression (in the search: a node's classes,
            whose sensitive values are the input's).

        Returns
        -------
        Self
            Itself under the release reference or once fixed.
        """
        if self.reference == "release" or self.input_shares:
            return self
        fixed = {"input_shares": _input_shares(evidence, self.attributes(evidence))}
        return dataclasses.replace(self, **fixed)

    def _q(self, evidence: Evidence, attribute: str) -> np.ndarray | None:
        return _shares(self.reference, self.input_shares, evidence, attribute)


@dataclass(frozen=True)
class BetaLikeness(_AgainstReference):
    """beta-likeness [CK12]_: no class raises the belief in a sensitive value by more than beta.

    With q(s) the share of value s in the release and p_j(s) in class j, the
    relative gain of a value present in the class is
    g_j(s) = (p_j(s) - q(s)) / q(s). Basic: g_j(s) <= beta for every present
    value; enhanced: g_j(s) <= min(beta, -ln q(s)), so a common value (q(s)
    above e^-beta) may gain less. ARX 3.9.2's ``BasicBLikeness`` and
    ``EnhancedBLikeness`` (values present in the class). The achieved
    figure is the largest relative gain (basic) or the largest gain measured
    against its own limit on beta's scale (enhanced: beta x max_s g_j(s) /
    min(beta, -ln q(s))), so a class passes when its figure is at most beta.

    Which q: ``reference="release"`` (the default) measures the classes
    against the distribution of what is released, judged again once the
    failing classes are suppressed; ``reference="input"`` measures them
    against the input's, as ARX (``BasicBLikeness.initialize`` reads
    ``manager.getDistribution(attribute)``, the whole input's), so the
    suppressed classes are the failing ones and the release is not judged
    again (the classes left pass against the same q).

    Monotone without suppression (:attr:`monotone_without_suppression`, ARX's
    ``monotonicWithGeneralization = true``): with nothing suppressed the
    release is the input, and q is the same at every node. A class merging
    classes j_1..j_r has p(s) = sum_i f_i p_i(s) / sum_i f_i (p_i(s) = 0
    where part i lacks s), at most the largest p_i(s) of the parts holding s;
    the gain (p - q) / q grows with p and the limit (beta, or min(beta,
    -ln q(s))) depends on s alone, so a merge of passing classes passes.
    Not monotone with suppression (ARX's ``monotonicWithSuppression =
    false``): a merge of a passing class with a failing one can fail.

    Attributes
    ----------
    beta : float
        The largest relative gain allowed (positive).
    variant : {"basic", "enhanced"}
    attribute : str or None
        The sensitive attribute (None: every sensitive attribute).
    reference : {"release", "input"}, default "release"
        What q is: the release's own distribution, judged again after the
        failing classes are suppressed (a class left may then fail, and the
        node with it), or the input's, as ARX 3.9.2 (``DataManager.getDistribution``:
        fixed before suppression, so the classes left always pass).
    input_shares : tuple
        Q fixed by :meth:`resolved` under the input reference (not in JSON).
    """

    kind: ClassVar[str] = "beta-likeness"
    title: ClassVar[str] = "{variant} beta-likeness"
    mark: ClassVar[str] = "{variant} beta>{beta:g} ({attribute})"
    target_name: ClassVar[str] = "beta"
    higher_is_safer: ClassVar[bool] = False
    per_attribute: ClassVar[bool] = True
    monotone_without_suppression: ClassVar[bool] = True
    beta: float = 1.0
    variant: BetaKind = "basic"
    attribute: str | None = None
    reference: LikenessReference = "release"
    input_shares: InputShares = dataclasses.field(default=(), repr=False, metadata=NOT_IN_JSON)

    def __post_init__(self) -> None:
        _positive("beta", self.beta)
        if self.variant not in ("basic", "enhanced"):
            raise RiskcoreError(f"beta-likeness is 'basic' or 'enhanced', not {self.variant!r}")
        _check_reference(self.reference)

    def class_figures(self, evidence: Evidence, attribute: str | None) -> np.ndarray:
        assert attribute is not None  # noqa: S101 - per attribute
        table = evidence.table(attribute)
        shares = self._q(evidence, attribute)
        if self.variant == "enhanced":
            return enhanced_likeness_per_class(table, float(self.beta), shares)
        return likeness_per_class(table, shares)


@dataclass(frozen=True)
class DeltaDisclosure(_AgainstReference):
    """delta-disclosure privacy [BS08]_: |log2(p_j(s) / q(s))| < delta for every class.

    Over the values s present in class j, with q(s) the share of s in the
    release: no class moves the belief in a value it holds by a factor of
    2^delta or more, up or down. Strict, as the paper and ARX 3.9.2's
    ``DDisclosurePrivacy`` (base-2 logarithm; values present in the class):
    a class at exactly delta fails. q is the release's distribution (judged
    again after suppression) or, with ``reference="input"``, the input's, as
    ARX (:class:`BetaLikeness` says how the two differ). Monotone neither
    under generalization nor suppression (ARX's ``DDisclosurePrivacy(attribute,
    false, false)``): a merge lowers p(s) of a value one part holds often, and
    |log2(p / q)| then grows where p falls below q / 2^delta.

    Attributes
    ----------
    delta : float
        Positive.
    attribute : str or None
        The sensitive attribute (None: every sensitive attribute).
    reference : {"release", "input"}, default "release"
        q as :class:`BetaLikeness`'s.
    input_shares : tuple
        The input's q, fixed by :meth:`resolved` (not in JSON).
    """

    kind: ClassVar[str] = "delta-disclosure"
    title: ClassVar[str] = "delta-disclosure privacy"
    mark: ClassVar[str] = "delta>={delta:g} ({attribute})"
    target_name: ClassVar[str] = "delta"
    higher_is_safer: ClassVar[bool] = False
    per_attribute: ClassVar[bool] = True
    delta: float = 1.0
    attribute: str | None = None
    reference: LikenessReference = "release"
    input_shares: InputShares = dataclasses.field(default=(), repr=False, metadata=NOT_IN_JSON)

    def __post_init__(self) -> None:
        _positive("delta", self.delta)
        _check_reference(self.reference)

    def class_figures(self, evidence: Evidence, attribute: str | None) -> np.ndarray:
        assert attribute is not None  # noqa: S101 - per attribute
        table = evidence.table(attribute)
        shares = self._q(evidence, attribute)
        key = ("delta-disclosure", attribute, self.reference, self.input_shares)
        result: np.ndarray = evidence.cached(key, lambda: delta_disclosure_per_class(table, shares))
        return result

    def failing(self, evidence: Evidence, attribute: str | None) -> np.ndarray:
        result: np.ndarray = self.class_figures(evidence, attribute) >= self.delta - TOLERANCE
        return result


RiskModel = Literal["prosecutor", "journalist"]


@dataclass(frozen=True)
class RecordRisk(Criterion):
    """Highest record re-identification risk [E13]_: every record's risk at most tau.

    Prosecutor: 1/f_j. Journalist: 1/F_j from a population table, or
    E[1/F_j | f_j] of the individual-risk model from a sampling fraction or
    sampling weights [BF98]_ (without a population model the journalist's risk
    is the prosecutor's). The prosecutor's threshold 1/k accepts exactly the
    classes of k records or more.

    Attributes
    ----------
    threshold : float
        tau in (0, 1].
    model : {"prosecutor", "journalist"}
    """

    kind: ClassVar[str] = "record-risk"
    title: ClassVar[str] = "highest record risk ({model})"
    mark: ClassVar[str] = "{model} risk>{threshold:.4g}"
    target_name: ClassVar[str] = "threshold"
    higher_is_safer: ClassVar[bool] = False
    threshold: float = 1 / 11
    model: RiskModel = "prosecutor"

    def __post_init__(self) -> None:
        _share("threshold", self.threshold, open_low=True)
        if self.model not in ("prosecutor", "journalist"):
            raise RiskcoreError(
                f"the attacker model is 'prosecutor' or 'journalist', not {self.model!r} "
                "(the marketer's is an average: AverageRisk)"
            )

    def class_figures(self, evidence: Evidence, attribute: str | None) -> np.ndarray:
        return evidence.record_risk(self.model)


@dataclass(frozen=True)
class _ReleaseShare(Criterion):
    """A share of the whole release at most a threshold, met ARX's way (a ``RiskBasedCriterion``).

    No class breaks it alone; judged with suppression, the smallest classes
    are suppressed until it holds, within the limit
    (:attr:`~riskcore.criteria.base.Criterion.suppresses_smallest`).
    Subclasses give :meth:`achieved` and the words of a failure.
    """

    higher_is_safer: ClassVar[bool] = False
    suppresses_smallest: ClassVar[bool] = True
    target_name: ClassVar[str] = "threshold"
    threshold: float = 0.05
    #: The release's figure in words ("the release's average risk").
    what: ClassVar[str] = ""

    def failing(self, evidence: Evidence, attribute: str | None) -> np.ndarray:
        return _no_class(evidence)

    def release_passes(self, evidence: Evidence, attribute: str | None) -> tuple[bool, str]:
        value = self.achieved(evidence, attribute)
        if not math.isnan(value) and exceeds(value, self.threshold):
            return False, f"{self.what} {value:.4g} is above {self.threshold:.4g}"
        return True, ""


@dataclass(frozen=True)
class AverageRisk(_ReleaseShare):
    """The marketer's risk [E13]_: the expected share of records re-identified, at most tau.

    (1/n) sum_j r_j risk_j with the journalist's record risk (1/f_j without a
    population model: then J/n, the classes per record). A property of the
    whole release: no class breaks it alone. Judged with suppression, the
    smallest classes are suppressed until it holds, within the limit (ARX
    3.9.2's ``AverageReidentificationRisk``, a ``RiskBasedCriterion``).

    Attributes
    ----------
    threshold : float
        tau in (0, 1].
    """

    kind: ClassVar[str] = "average-risk"
    title: ClassVar[str] = "average record risk (marketer)"
    mark: ClassVar[str] = "average risk>{threshold:.4g}"
    what: ClassVar[str] = "the release's average risk"
    threshold: float = 0.05

    def __post_init__(self) -> None:
        _share("threshold", self.threshold, open_low=True)

    def achieved(self, evidence: Evidence, attribute: str | None) -> float:
        n = evidence.n_records
        if n == 0:
            return math.nan
        risk = evidence.record_risk("journalist")
        return float((evidence.records * risk).sum() / n)


@dataclass(frozen=True)
class SampleUniqueness(_ReleaseShare):
    """Sample uniqueness: the share of records unique on the quasi-identifiers, at most tau.

    (records in classes of size 1) / n, ARX 3.9.2's ``SampleUniqueness``
    (``getFractionOfRecordsInClassesOfSize(1) <= threshold``); with a person
    column, people in classes of one person over the people. A property of
    the whole release; judged with suppression, the smallest classes are
    suppressed until it holds, within the limit (ARX's ``RiskBasedCriterion``).

    Attributes
    ----------
    threshold : float
        tau in [0, 1].
    """

    kind: ClassVar[str] = "sample-uniqueness"
    title: ClassVar[str] = "sample uniqueness"
    mark: ClassVar[str] = "sample uniques>{threshold:.4g}"
    what: ClassVar[str] = "the share of the release unique on the QIs"
    threshold: float = 0.0

    def __post_init__(self) -> None:
        _share("threshold", self.threshold)

    def achieved(self, evidence: Evidence, attribute: str | None) -> float:
        n = evidence.n_records
        if n == 0:
            return math.nan
        return float(evidence.records[evidence.sizes == 1].sum() / n)


PopulationModelName = Literal["dankar", "pitman", "zayatz", "snb"]


@dataclass(frozen=True)
class PopulationUniqueness(_ReleaseShare):
    """Population uniqueness: the estimated share of the population that is unique, at most tau.

    The population uniques U estimated from the release's class-size
    histogram by the chosen model (Pitman, Zayatz, SNB; Dankar et al.'s
    rule: Pitman when pi <= 0.1, else the smaller of Zayatz and SNB), with
    pi = n / N, over the population size N; ARX 3.9.2's
    ``PopulationUniqueness`` decision: passes when 0 < U / N <= tau, or when
    U = 0 and no record is a sample unique (a model that finds no valid
    estimate, or an estimate of 0 with sample uniques, fails; the Dankar rule
    does not fall back on Zayatz). N is fixed (the population does not shrink
    when the release suppresses records). A property of the whole release;
    judged with suppression, the smallest classes are suppressed until it
    holds, within the limit (ARX's ``RiskBasedCriterion``).

    Attributes
    ----------
    threshold : float
        tau in [0, 1].
    population_size : float or None
        N, at least the records (people) of the release.
    model : {"dankar", "pitman", "zayatz", "snb"}
    sampling_fraction : float or None
        pi of the table judged, instead of N: N = n / pi, n the records (people)
        of the table before any suppression (:meth:`resolved`).
    """

    kind: ClassVar[str] = "population-uniqueness"
    title: ClassVar[str] = "population uniqueness ({model})"
    mark: ClassVar[str] = "population uniques>{threshold:.4g}"
    threshold: float = 0.01
    population_size: float | None = None
    model: PopulationModelName = "dankar"
    sampling_fraction: float | None = None

    def __post_init__(self) -> None:
        _share("threshold", self.threshold)
        if (self.population_size is None) == (self.sampling_fraction is None):
            raise RiskcoreError(
                "population uniqueness needs the population size or the sampling fraction "
                "(one of them)"
            )
        if self.population_size is not None:
            _positive("population_size", self.population_size)
        if self.sampling_fraction is not None:
            _share("sampling_fraction", self.sampling_fraction, open_low=True)
        if self.model not in ("dankar", "pitman", "zayatz", "snb"):
            raise RiskcoreError(
                f"the population model is dankar, pitman, zayatz or snb, not {self.model!r}"
            )

    def resolved(self, evidence: Evidence) -> PopulationUniqueness:
        """Return the model with N fixed: n / pi of ``evidence`` when a sampling fraction is given.

        Parameters
        ----------
        evidence : Evidence
            The table judged, before any suppression: its records (people) are n.

        Returns
        -------
        PopulationUniqueness
        """
        if self.sampling_fraction is None:
            return self
        big_n = evidence.n_records / self.sampling_fraction
        return dataclasses.replace(self, population_size=max(big_n, 1.0), sampling_fraction=None)

    def _size(self) -> float:
        if self.population_size is None:
            raise RiskcoreError("the population size is fixed by resolved() before judging")
        return float(self.population_size)

    def uniques(self, evidence: Evidence) -> float:
        """Return the estimated population uniques U (0 when the model has no valid estimate).

        Parameters
        ----------
        evidence : Evidence
            The release's classes.

        Returns
        -------
        float
        """
        key = ("population-uniques", self.model, self._size())  # read by the check twice
        result: float = evidence.cached(key, lambda: self._estimate(evidence))
        return result

    def _estimate(self, evidence: Evidence) -> float:
        sizes = evidence.sizes[evidence.present]
        n = float(sizes.sum())
        if n == 0 or not np.any(sizes == 1):
            return 0.0
        big_n = self._size()
        if n > big_n:
            raise RiskcoreError(
                f"the population size {big_n:,.0f} is below the release's {n:,.0f} records"
            )
        pi = n / big_n
        estimators = {"zayatz": zayatz_uniques, "pitman": pitman_uniques, "snb": snb_uniques}

        def estimate(name: str) -> float:
            return float(estimators[name](sizes, pi))

        if self.model == "dankar":
            if pi <= 0.1:
                value = estimate("pitman")
            else:
                zv, sv = estimate("zayatz"), estimate("snb")
                value = zv if not _valid(sv) or zv < sv else sv
        else:
            value = estimate(self.model)
        return value if _valid(value) else 0.0

    def achieved(self, evidence: Evidence, attribute: str | None) -> float:
        if evidence.n_records == 0:
            return math.nan
        return self.uniques(evidence) / self._size()

    def release_passes(self, evidence: Evidence, attribute: str | None) -> tuple[bool, str]:
        if evidence.n_records == 0:
            return True, ""
        share = self.achieved(evidence, attribute)
        if share > 0 and not exceeds(share, self.threshold):
            return True, ""
        if share == 0 and not np.any(evidence.sizes[evidence.present] == 1):
            return True, ""
        if share == 0:
            return False, f"the {self.model} model gives no estimate of the population uniques"
        return False, (
            f"an estimated {share:.4g} of the population is unique on the QIs, above "
            f"{self.threshold:.4g}"
        )


def _valid(value: float) -> bool:
    """Return ARX's ``isValid``: a number, and not 0."""
    return not math.isnan(value) and value != 0.0


def _counts(evidence: Evidence, label: str) -> np.ndarray:
    if evidence.population_counts is None:
        raise RiskcoreError(f"{label} needs an identified population table over the same QIs")
    return evidence.population_counts


@dataclass(frozen=True)
class KMap(Criterion):
    """k-map [S02]_: every released class matches at least k members of the population table.

    ARX's ``KMap`` with an explicit population: F_j >= k for every class with
    a released record. Monotone under generalization with suppression (F_j
    only grows when classes merge, and suppression leaves the population
    alone; ARX constructs ``KMap`` ``monotonicWithSuppression = true``).

    Attributes
    ----------
    k : int
    """

    kind: ClassVar[str] = "k-map"
    title: ClassVar[str] = "k-map"
    mark: ClassVar[str] = "k-map<{k}"
    target_name: ClassVar[str] = "k"
    needs_population_table: ClassVar[bool] = True
    monotone_under_generalization: ClassVar[bool] = True
    k: int = 2

    def __post_init__(self) -> None:
        _whole("k", self.k)

    def class_figures(self, evidence: Evidence, attribute: str | None) -> np.ndarray:
        return _counts(evidence, "k-map")


@dataclass(frozen=True)
class DeltaPresence(Criterion):
    """delta-presence [N07]_: delta_j = r_j / F_j within [delta_min, delta_max] in every class.

    Over every class of the population table: a class with no released
    record has delta_j = 0 and, with delta_min > 0, fails; it has no record to
    suppress, so it fails the release (ARX's ``HashGroupify.analyzeAll``).
    Not monotone under generalization (a merged class's delta lies between
    its parts'; ARX's ``DPresence`` is ``monotonicWithSuppression = false``).

    Attributes
    ----------
    delta_min, delta_max : float
        0 <= delta_min <= delta_max <= 1.
    """

    kind: ClassVar[str] = "delta-presence"
    title: ClassVar[str] = "delta-presence"
    mark: ClassVar[str] = "delta outside [{delta_min:g}, {delta_max:g}]"
    target_name: ClassVar[str] = "delta_min"
    higher_is_safer: ClassVar[bool] = False
    needs_population_table: ClassVar[bool] = True
    judges_empty_classes: ClassVar[bool] = True
    delta_min: float = 0.0
    delta_max: float = 0.5

    def __post_init__(self) -> None:
        _share("delta_min", self.delta_min)
        _share("delta_max", self.delta_max)
        if self.delta_min > self.delta_max:
            raise RiskcoreError("delta_min cannot be above delta_max")

    @property
    def target_high(self) -> float | None:
        return float(self.delta_max)

    def _delta(self, evidence: Evidence) -> np.ndarray:
        big_f = _counts(evidence, "delta-presence").astype(np.float64)
        return evidence.records / np.maximum(big_f, 1.0)

    def failing(self, evidence: Evidence, attribute: str | None) -> np.ndarray:
        d = self._delta(evidence)
        return np.asarray(exceeds(d, self.delta_max) | (d < self.delta_min - TOLERANCE))

    def achieved(self, evidence: Evidence, attribute: str | None) -> float:
        return bound(self._delta(evidence), upper=False)

    def achieved_high(self, evidence: Evidence, attribute: str | None) -> float | None:
        return bound(self._delta(evidence), upper=True)


@dataclass(frozen=True)
class KmAnonymity(Criterion):
    """k^m-anonymity [TMK08]_ of a person's events: El Emam's attacker who knows m visits [EAK12]_.

    Each person p holds the set S_p of their visits (the tuple of the event
    columns' values on one row, a missing value a value of its own);
    support(I) = |{p : I subset of S_p}|. The data are k^m-anonymous iff
    support(I) >= k for every itemset I of 1 <= |I| <= m visits held by
    someone. The verdict is class-based: a class of people (those sharing one
    QI signature) fails when it holds a person whose least support,
    min over I subset of S_p, |I| <= m, of support(I), is below k
    (:meth:`riskcore.metrics.evidence.Evidence.event_support`); suppression
    removes whole classes, and the release is judged again with the supports
    counted over the people left (removing people can only lower a support,
    so a release can fail where the table's other people passed).

    Monotonicity (for the search): generalizing an event column never lowers
    a person's least support (a coarser itemset of no more items is held by
    everyone who held a finer one), so with the QIs fixed a node that passes
    keeps passing as its events are coarsened; generalizing a QI merges a
    class that passes with one holding a person at risk into a class that
    fails, and the suppression that follows lowers supports, so the model is
    not monotone under generalization with suppression and the search judges
    it node by node.

    Attributes
    ----------
    k : int
        The fewest people an itemset of at most m visits may be held by.
    m : int
        The most visits an attacker knows (at least 1).
    events : tuple of str
        The event columns judged; empty: those of the evidence. When given,
        they must be the evidence's.
    """

    kind: ClassVar[str] = "km-anonymity"
    title: ClassVar[str] = "k^m-anonymity (m = {m})"
    mark: ClassVar[str] = "k^{m}<{k}"
    target_name: ClassVar[str] = "k"
    needs_events: ClassVar[bool] = True
    k: int = 2
    m: int = 2
    events: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _whole("k", self.k)
        _whole("m", self.m)
        object.__setattr__(self, "events", event_names(self.events))

    def class_figures(self, evidence: Evidence, attribute: str | None) -> np.ndarray:
        events = evidence.events
        if self.events and events is not None and set(self.events) != set(events.columns):
            raise RiskcoreError(
                f"{self.label} names the event columns {', '.join(self.events)}; the "
                f"assessment counted {', '.join(events.columns)}"
            )
        return evidence.event_support(self.m)
