"""Readings of the one verdict: the targets, each check, and the sentence a reviewer reads.

Every sentence is derived from a :class:`riskcore.criteria.Verdict` (and its
:class:`~riskcore.criteria.Check` results); nothing here decides a pass or a
fail. Shares are printed as percentages with their counts ("12 records,
0.24%"), record-risk thresholds with their preset ("1/11 (k = 11, US public
release ...)").
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore.criteria import RISK_PRESETS, Check, Targets, Verdict, threshold_meaning
from riskcore.report.readings._format import plural
from riskcore.roles.persons import RowsNotPeople, person_facts

__all__ = [
    "MODEL_GUIDE",
    "check_rows",
    "check_table",
    "format_achieved",
    "format_target",
    "limit_text",
    "model_guide_table",
    "preset_target_text",
    "records_share",
    "rows_not_people_reading",
    "share_text",
    "target_label",
    "targets_summary",
    "verdict_reading",
]

#: Every privacy model as the app names it: (name, ARX 3.9.2's class, what it protects
#: against, in one line). One entry per kind of :data:`riskcore.criteria.REGISTRY` (a test
#: holds them equal).
MODEL_GUIDE: dict[str, tuple[str, str, str]] = {
    "k-anonymity": (
        "k-anonymity", "KAnonymity",
        "identity disclosure: every record hides among at least k with the same "
        "quasi-identifiers",
    ),
    "record-risk": (
        "highest re-identification risk", "KAnonymity (prosecutor, k = 1/risk)",
        "identity disclosure: no record's risk, 1 / its class's size (or the population's), "
        "above the threshold",
    ),
    "average-risk": (
        "average re-identification risk", "AverageReidentificationRisk",
        "a marketer matching every record: the expected share re-identified stays below the "
        "threshold",
    ),
    "sample-uniqueness": (
        "sample uniqueness", "SampleUniqueness",
        "records unique in the data, the easiest to single out: their share below the "
        "threshold",
    ),
    "population-uniqueness": (
        "population uniqueness", "PopulationUniqueness",
        "people unique in the whole population (found by anyone with a register): their "
        "estimated share below the threshold",
    ),
    "distinct-l-diversity": (
        "distinct l-diversity", "DistinctLDiversity",
        "attribute disclosure: at least l different sensitive values in every class",
    ),
    "entropy-l-diversity": (
        "entropy l-diversity", "EntropyLDiversity",
        "attribute disclosure: every class's sensitive values as spread as l equally common "
        "ones",
    ),
    "recursive-cl-diversity": (
        "recursive (c,l)-diversity", "RecursiveCLDiversity",
        "attribute disclosure: a class's most common value below c times its rarer ones",
    ),
    "t-closeness": (
        "t-closeness", "EqualDistanceTCloseness, OrderedDistanceTCloseness",
        "skewness: every class's sensitive distribution within t of the whole table's",
    ),
    "beta-likeness": (
        "beta-likeness", "BasicBLikeness, EnhancedBLikeness",
        "attribute disclosure: no class raises a sensitive value's share by more than beta "
        "relative to the table",
    ),
    "delta-disclosure": (
        "delta-disclosure privacy", "DDisclosurePrivacy",
        "attribute disclosure: no class moves the belief in a value it holds by a factor of "
        "2^delta",
    ),
    "k-map": (
        "k-map", "KMap",
        "identity disclosure against a population table: every record matches at least k "
        "of its people",
    ),
    "delta-presence": (
        "delta-presence", "DPresence",
        "membership disclosure: the chance a person of the population is in the release "
        "stays in range",
    ),
    "km-anonymity": (
        "k^m-anonymity", "(none: Terrovitis et al. 2008)",
        "an attacker who knows m of a person's visits: each such set held by at least k "
        "people",
    ),
}  # fmt: skip


def model_guide_table(targets: Targets) -> pd.DataFrame:
    """Return every privacy model with ARX's class, what it protects against and its target.

    Parameters
    ----------
    targets : Targets
        The session's targets: a model among them shows its target in words.

    Returns
    -------
    pandas.DataFrame
        One row per model; columns ``model``, ``ARX class``, ``protects against``, ``target``.
    """
    summary = {c.kind: f"{c.label} {c.target:.4g}" for c in targets.criteria}
    rows = [
        {"model": name, "ARX class": arx, "protects against": what, "target": summary.get(k, "")}
        for k, (name, arx, what) in MODEL_GUIDE.items()
    ]
    return pd.DataFrame(rows)


#: Kinds whose target and achieved value are counts (printed as whole numbers).
_WHOLE = frozenset(
    {"k-anonymity", "distinct-l-diversity", "recursive-cl-diversity", "k-map", "km-anonymity"}
)
#: Kinds whose values are shares or probabilities (printed to 4 significant digits).
_RISK = frozenset({"record-risk", "average-risk"})
#: Kinds whose achieved values are small shares (printed to 4 significant digits too).
_SHARES = _RISK | {"sample-uniqueness", "population-uniqueness"}


def share_text(share: float) -> str:
    """Return a share as a percentage that never rounds onto a limit: 1.96%, 24.7%, 0.04%.

    Parameters
    ----------
    share : float
        A share in [0, 1].

    Returns
    -------
    str
    """
    if share == 0 or share >= 0.1:
        return f"{share:.1%}"
    return f"{share:.2%}"


def limit_text(limit: float) -> str:
    """Return a suppression limit as typed: 0.02 -> "2%", 0.025 -> "2.5%".

    Parameters
    ----------
    limit : float
        The suppression limit, a share (0.02 for 2%).

    Returns
    -------
    str
    """
    return f"{100 * limit:.4g}%"


def records_share(count: int, total: int, *, people: bool = False) -> str:
    """Return "1,234 records (24.7%)": a count with its share of ``total``.

    Parameters
    ----------
    count : int
        The records (or people) counted.
    total : int
        All of them (0: a share of 0).
    people : bool, default False
        The count is of people (a person column is set): "1,234 people (24.7%)".

    Returns
    -------
    str
    """
    share = count / total if total else 0.0
    noun = plural(count, "person", "people") if people else plural(count, "record", "records")
    return f"{count:,} {noun} ({share_text(share)})"


def _threshold(value: float) -> str:
    for k in RISK_PRESETS:
        if math.isclose(value, 1 / k, rel_tol=0, abs_tol=1e-12):
            return f"1/{k} ({value:.4g})"
    frac = Fraction(value).limit_denominator(1000)
    if frac.numerator == 1 and math.isclose(float(frac), value, abs_tol=1e-12):
        return f"1/{frac.denominator} ({value:.4g})"
    return f"{value:.4g}"


def format_target(check: Check) -> str:
    """Return the target as shown: a count, a threshold with its fraction, or a range.

    Parameters
    ----------
    check : Check
        The criterion judged: its kind and its target (or range).

    Returns
    -------
    str
    """
    if check.target_high is not None:
        return f"[{check.target:g}, {check.target_high:g}]"
    if check.kind in _WHOLE:
        return f"{check.target:,.0f}"
    if check.kind in _RISK:
        return _threshold(check.target)
    return f"{check.target:g}"


def format_achieved(check: Check) -> str:
    """Return the value achieved as shown ("n/a: nothing judged" when there is none).

    Parameters
    ----------
    check : Check
        The criterion judged: its kind and what its classes achieved.

    Returns
    -------
    str
    """
    if math.isnan(check.achieved):
        return "n/a: nothing judged"
    if math.isinf(check.achieved):  # k^m with no event held by anyone judged
        return "n/a: no event held"
    if check.achieved_high is not None and not math.isnan(check.achieved_high):
        return f"[{check.achieved:.3g}, {check.achieved_high:.3g}]"
    if check.kind in _WHOLE:
        return f"{check.achieved:,.0f}"
    if check.kind in _SHARES:
        return f"{check.achieved:.4g}"
    return f"{check.achieved:.3f}"


def target_label(check: Check) -> str:
    """Return "k-anonymity", "t-closeness (equal distance) of diagnosis" and the like.

    Parameters
    ----------
    check : Check
        The criterion judged, on a sensitive attribute or on the quasi-identifiers.

    Returns
    -------
    str
    """
    return check.label + (f" of {check.attribute}" if check.attribute else "")


def targets_summary(targets: Targets, *, people: bool = False) -> str:
    """Return the targets in one line: "k-anonymity 11; highest record risk (prosecutor) 1/11 ...".

    The suppression limit is added when it is above 0.

    Parameters
    ----------
    targets : Targets
        The targets the release must meet.
    people : bool, default False
        The suppression limit counts people (a person column is set).

    Returns
    -------
    str
    """
    parts = []
    for c in targets.criteria:
        value = (
            f"[{c.target:g}, {c.target_high:g}]"
            if c.target_high is not None
            else _threshold(c.target)
            if c.kind in _RISK
            else f"{c.target:g}"
        )
        against = getattr(c, "reference", None)  # beta-likeness and delta-disclosure
        if against == "input":
            value += " (each class against the input's distribution, as ARX)"
        parts.append(f"{c.label} {value}")
    text = "; ".join(parts) if parts else "no target"
    if targets.max_suppression > 0:
        text += (
            f"; a remediation may suppress up to {limit_text(targets.max_suppression)} of the "
            + ("people (all of a person's rows)" if people else "records")
        )
    return text


def check_rows(verdict: Verdict) -> list[dict[str, str | None]]:
    """Return one row per check as a plain dict: what :func:`check_table` shows, without pandas.

    The command line prints these rows (``riskcore assess`` never imports pandas).

    Parameters
    ----------
    verdict : Verdict
        :func:`riskcore.criteria.evaluate` of the targets.

    Returns
    -------
    list of dict
        Keys ``target``, ``required``, ``achieved``, ``result`` ("pass" /
        "fail"), ``records failing`` (count and share of the records judged),
        ``note`` (None when there is none).
    """
    return [
        {
            "target": target_label(c),
            "required": format_target(c),
            "achieved": format_achieved(c),
            "result": "pass" if c.passed else "fail",
            "records failing": records_share(
                c.failing_records, verdict.released, people=verdict.person is not None
            ),
            "note": c.note,
        }
        for c in verdict.checks
    ]


def check_table(verdict: Verdict) -> pd.DataFrame:
    """Return one row per check, as shown on the pages and in the report.

    Columns: ``target`` (the model and attribute), ``required``, ``achieved``,
    ``result`` ("pass" / "fail"), ``records failing`` (count and share of the
    records judged), ``note``: the rows of :func:`check_rows`.

    Parameters
    ----------
    verdict : Verdict
        The verdict on the targets.

    Returns
    -------
    pandas.DataFrame
    """
    table = pd.DataFrame(
        check_rows(verdict),
        columns=["target", "required", "achieved", "result", "records failing", "note"],
    )
    if verdict.person is not None:  # every count is of people
        table = table.rename(columns={"records failing": "people failing"})
    return table


def verdict_reading(verdict: Verdict, *, of: str = "the table") -> str:
    """Return the verdict in one or two sentences, derived from the checks.

    Parameters
    ----------
    verdict : Verdict
        The verdict on the targets.
    of : str, default "the table"
        What was judged ("the table as recorded", "these levels", ...).

    Returns
    -------
    str
    """
    n = verdict.n_records
    if n == 0:
        return f"{of[0].upper()}{of[1:]} holds no record: nothing to judge (n/a)."
    people = verdict.person is not None

    def share(count: int, total: int) -> str:
        return records_share(count, total, people=people)

    failed = verdict.failed
    head = f"{of[0].upper()}{of[1:]}"
    parts = []
    if verdict.suppression:
        if not verdict.within_limit:
            return (
                f"{head} does not meet the targets: they would need "
                f"{share(verdict.needed, n)} suppressed, above the limit of "
                f"{limit_text(verdict.max_suppression)}."
            )
        if verdict.suppressed:
            parts.append(
                f"after suppressing {share(verdict.suppressed, n)}, within the "
                f"{limit_text(verdict.max_suppression)} limit"
            )
    if not verdict.checks:
        parts.append("no target is set")
    if failed:
        what = "; ".join(
            f"{target_label(c)} {format_achieved(c)} against {format_target(c)}"
            + (
                f", failing {share(c.failing_records, verdict.released)}"
                if c.failing_records
                else f": {c.note}"
                if c.note
                else ""
            )
            for c in failed
        )
        text = f"{head} does not meet {len(failed)} of {len(verdict.checks)} targets: {what}"
    else:
        n_checks = len(verdict.checks)
        every = (
            "its one target"
            if n_checks == 1
            else "both targets"
            if n_checks == 2
            else (f"all {n_checks} targets")
        )
        text = f"{head} meets {every}" if verdict.checks else head
    if parts:
        text += " (" + "; ".join(parts) + ")"
    if verdict.not_applicable:
        text += ". Not judged, as no column is tagged sensitive: " + ", ".join(
            verdict.not_applicable
        )
    return text + "."


def rows_not_people_reading(caution: RowsNotPeople) -> str:
    """Return the caution beside the verdict of a table whose person column is not tagged.

    "patient_id repeats (2,500 people in 8,177 rows, 1-10 rows each) but no
    column is tagged as the person: ..." Derived from the caution's facts.

    Parameters
    ----------
    caution : RowsNotPeople
        The caution (:func:`riskcore.roles.persons.rows_not_people`).

    Returns
    -------
    str
    """
    col = caution.column
    facts = person_facts(caution.n_people, caution.n_rows, caution.min_rows, caution.max_rows)
    return (
        f"{col} repeats ({facts}) but no column is tagged as the person: every count here is "
        "of rows, and a class of k rows can hold fewer than k people, so k overstates how many "
        f"people share a class and the risks understate theirs. Tag {col} as the person on the "
        "Data page."
    )


def threshold_text(value: float) -> str:
    """Return a record-risk threshold in words: "1/11 (0.0909; k = 11, US public release ...)".

    Parameters
    ----------
    value : float
        A record-risk threshold in (0, 1].

    Returns
    -------
    str
    """
    return f"{_threshold(value)}; {threshold_meaning(value)}"


def preset_target_text(k: int, *, people: bool = False) -> str:
    """Return a k preset's one idea: k and the highest record risk 1/k, said together.

    Parameters
    ----------
    k : int
        The preset's k.
    people : bool, default False
        The classes count people (a person column is set).

    Returns
    -------
    str
    """
    return (
        f"k = {k:,} and highest record risk 1/{k:,} ({1 / k:.4g}): one target, met by a "
        f"class of {k:,} {'people' if people else 'records'} or more."
    )
