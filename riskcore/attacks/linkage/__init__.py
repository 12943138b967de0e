"""Simulated linkage (re-identification) attack.

The attacker holds an auxiliary table (a voter roll: names plus some
quasi-identifiers) and joins it to the released table on the shared columns
(Sweeney 2002's linkage of the Massachusetts GIC release with the Cambridge
voter list). For each target in the auxiliary table the *candidate set* is
the set of released records that agree with what the attacker knows.

Everything is a vectorized join on encoded keys: each pair of columns is
normalised on its distinct values only, mapped into one code space, packed
into an int64 key, and every target's candidate set is a window
``[lo, hi)`` of the release sorted by key (``numpy.searchsorted``). No loop
runs over records; loops run over matched columns, patterns of unknown
values and sensitive values.

Matching rules, per column pair (auxiliary -> release):

* text: trimmed and case-folded; digit strings are left-padded with zeros
  to the release's width (ZIP ``2139`` matches ``"02139"``);
* numbers: compared as numbers (``30`` matches ``30.0``), optionally within a
  tolerance ``|a - r| <= tol`` (one column at most);
* dates: parsed and compared at a granularity (day, month or year);
* generalized release: a released band (``"30-39"``, ``"[30, 40)"``,
  ``"90+"``, ``"<18"``) matches the numbers inside it, and a masked value
  (``"021**"``) matches values with that prefix;
* a missing auxiliary value means the attacker does not know it: it matches
  every released value. A missing released value is its own value.

With a person column (``person=``) targets and candidates are people: a
target is linked to the released people whose signature (the set of their
rows' tuples) holds a match for what the attacker knows.

Modules: :mod:`~riskcore.attacks.linkage.matching` (column pairs into one
code space), :mod:`~riskcore.attacks.linkage.candidates` (candidate windows
and their majority values), :mod:`~riskcore.attacks.linkage.people` (the
join in people), :mod:`~riskcore.attacks.linkage.attack` (the attack and the
curve), :mod:`~riskcore.attacks.linkage.truth` (ground truth, in records or
people), :mod:`~riskcore.attacks.linkage.auxiliary` (simulated attacker
tables), :mod:`~riskcore.attacks.linkage.results` (result types).

References
----------
.. [S02] L. Sweeney, "k-anonymity: a model for protecting privacy",
   IJUFKS 10(5), 2002.
.. [W27] E. B. Wilson, "Probable inference, the law of succession, and
   statistical inference", JASA 22(158), 1927.
"""

from riskcore.attacks.linkage.attack import (
    linkage_attack,
    linkage_counts,
    linkage_curve,
    row_number_truth,
)
from riskcore.attacks.linkage.auxiliary import released_positions, simulate_auxiliary
from riskcore.attacks.linkage.matching import parse_interval
from riskcore.attacks.linkage.results import (
    AttributeDisclosure,
    LinkageCurve,
    LinkageResult,
    Rate,
    mean_interval,
    wilson_interval,
)

__all__ = [
    "AttributeDisclosure",
    "LinkageCurve",
    "LinkageResult",
    "Rate",
    "linkage_attack",
    "linkage_counts",
    "linkage_curve",
    "mean_interval",
    "parse_interval",
    "released_positions",
    "row_number_truth",
    "simulate_auxiliary",
    "wilson_interval",
]
