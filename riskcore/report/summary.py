"""The plain-text summary of an assessment (the command line's text output)."""

from __future__ import annotations

from riskcore.metrics import THRESHOLDS, Assessment
from riskcore.report.readings.anonymity import missing_reading
from riskcore.report.readings.population import population_reading

__all__ = ["assessment_text"]


def assessment_text(a: Assessment) -> str:
    """Return the plain-text summary of an assessment printed by the command line.

    Parameters
    ----------
    a : Assessment

    Returns
    -------
    str
        One line per figure: classes, k, prosecutor (journalist, marketer)
        risk against the threshold with its cited meaning, l and t per
        sensitive attribute, and the missing-value policy.
    """
    pr = a.prosecutor
    lines = [
        f"Records: {a.n_records:,}   equivalence classes: {a.n_classes:,}   "
        f"quasi-identifiers: {', '.join(a.quasi_identifiers)}",
        f"k-anonymity: k = {a.k}   records unique on the QIs: {a.unique_records:,} "
        f"({a.anonymity.unique_share:.1%})",
        f"Prosecutor risk: highest {pr.highest_risk:.3f}; records above the {pr.threshold:g} "
        f"threshold: {pr.records_at_risk:.1%}; expected share re-identified {pr.success_rate:.1%}",
    ]
    meaning = THRESHOLDS.get(round(pr.threshold, 2))
    if meaning:
        lines.append(f"  (threshold {pr.threshold:g}: {meaning})")
    for label, r in (("Journalist", a.journalist), ("Marketer", a.marketer)):
        if r is not None:
            lines.append(
                f"{label} risk: highest {r.highest_risk:.4f}; records at risk "
                f"{r.records_at_risk:.1%}; success rate {r.success_rate:.2%}"
            )
    if a.journalist is not None:
        lines.append(f"  (journalist and marketer: {a.population_note})")
    pu = a.population_uniqueness
    if pu is not None:  # the dashboard's sentence, so both say the same
        lines.append(population_reading(pu))
    for name, s in a.sensitive.items():
        lines.append(
            f"Sensitive {name!r} ({s.n_values} values): distinct l = {s.distinct_l}, "
            f"entropy l = {s.entropy_l:.3f}, recursive ({s.c:g},l) l = {s.recursive_l}, "
            f"t = {s.t_closeness:.3f} ({s.distance} distance); "
            f"{s.homogeneous_records:,} records in {s.homogeneous_classes:,} homogeneous classes"
        )
    lines.append(missing_reading(a.missing, a.missing_records))
    return "\n".join(lines)
