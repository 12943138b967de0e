"""The plain-text summary of an assessment (the command line's text output)."""

from __future__ import annotations

from riskcore.criteria import Targets, Verdict
from riskcore.metrics import Assessment
from riskcore.metrics.anonymity import threshold_meaning
from riskcore.report.readings.anonymity import missing_reading
from riskcore.report.readings.criteria import check_rows, targets_summary, verdict_reading
from riskcore.report.readings.population import population_reading

__all__ = ["assessment_text", "verdict_text"]

#: The rarest sets of visits the text summary lists at most.
TEXT_ITEMSETS = 5


def assessment_text(a: Assessment) -> str:
    """Return the plain-text summary of an assessment printed by the command line.

    Parameters
    ----------
    a : Assessment
        The assessment.

    Returns
    -------
    str
        One line per figure: classes, k, prosecutor (journalist, marketer)
        risk against the threshold with its cited meaning, l and t per
        sensitive attribute, the missing-value policy; with event columns
        k^m-anonymity and the rarest sets of visits (at most
        :data:`TEXT_ITEMSETS`), with a household column the household risk.
    """
    pr = a.prosecutor
    who = "records" if a.person is None else "people"
    size = (
        f"Records: {a.n_records:,}"
        if a.person is None
        else f"People: {a.n_people:,} in {a.n_records:,} rows (person column {a.person})"
    )
    lines = [
        f"{size}   equivalence classes: {a.n_classes:,}   "
        f"quasi-identifiers: {', '.join(a.quasi_identifiers)}",
        f"k-anonymity: k = {a.k}   {who} unique on the QIs: {a.unique_records:,} "
        f"({a.anonymity.unique_share:.1%})",
        f"Prosecutor risk: highest {pr.highest_risk:.4g}; {who} above the {pr.threshold:.4g} "
        f"threshold: {pr.records_at_risk:.1%}; expected share re-identified {pr.success_rate:.1%}",
    ]
    lines.append(f"  (threshold {pr.threshold:.4g}: {threshold_meaning(pr.threshold)})")
    for label, r in (("Journalist", a.journalist), ("Marketer", a.marketer)):
        if r is not None:
            lines.append(
                f"{label} risk: highest {r.highest_risk:.4f}; {who} at risk "
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
            f"{s.homogeneous_records:,} {who} in {s.homogeneous_classes:,} homogeneous classes"
        )
    lines.append(missing_reading(a.missing, a.missing_records, people=a.person is not None))
    km, hh = a.km_anonymity, a.household
    if km is not None or hh is not None:  # (pandas, loaded only for many rows per person)
        from riskcore.report.readings.longitudinal import (
            household_reading,
            itemset_text,
            km_reading,
        )
    if km is not None:
        lines.append(km_reading(km))
        for x in km.rarest[:TEXT_ITEMSETS]:  # the facts, not the display table's columns
            lines.append(
                f"  {itemset_text(x)}: held by {x.support:,}, the rarest set of {x.people:,} "
                f"{'person' if x.people == 1 else 'people'}"
            )
    if hh is not None:
        lines.append(household_reading(hh))
    return "\n".join(lines)


def verdict_text(verdict: Verdict, targets: Targets) -> str:
    """Return the verdict as the command line prints it: the targets, each check, the sentence.

    Parameters
    ----------
    verdict : Verdict
        :func:`riskcore.criteria.evaluate` of the targets.
    targets : Targets
        The targets the release must meet.

    Returns
    -------
    str
    """
    lines = [f"Targets: {targets_summary(targets, people=verdict.person is not None)}"]
    for row in check_rows(verdict):
        lines.append(
            f"  {str(row['result']).upper():4}  {row['target']}: {row['achieved']} (required "
            f"{row['required']}); failing {row['records failing']}"
            + (f"; {row['note']}" if row["note"] else "")
        )
    lines.append(("PASS: " if verdict.passed else "FAIL: ") + verdict_reading(verdict))
    return "\n".join(lines)
