"""Tables and plain-language sentences that the dashboard shows.

Pure functions over riskcore results: the binned class-size histogram, the
"candidates per record" distribution, the column summary of a table, and the
one-line readings printed under each plot. Kept here (not in the app) so they
are tested like every other number.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from riskcore.attacks import DifferencingResult, HomogeneityResult, TwoReleaseResult
from riskcore.attacks.linkage import LinkageCurve, LinkageResult
from riskcore.engine import EncodedTable
from riskcore.metrics import Assessment, ClassSizeDistribution
from riskcore.metrics.uniqueness import UniquenessResult
from riskcore.roles import RoleSuggestion

__all__ = [
    "SIZE_BINS",
    "candidate_table",
    "candidates_reading",
    "column_summary",
    "contribution_reading",
    "histogram_reading",
    "join_names",
    "size_histogram",
]

#: Class-size bins of the histogram: (label, lowest size, highest size).
SIZE_BINS: tuple[tuple[str, int, float], ...] = (
    ("1 (unique)", 1, 1),
    ("2", 2, 2),
    ("3-4", 3, 4),
    ("5-10", 5, 10),
    ("11-19", 11, 19),
    ("20-49", 20, 49),
    ("50-99", 50, 99),
    ("100+", 100, np.inf),
)


def join_names(names: list[str] | tuple[str, ...]) -> str:
    """Return column names joined with ' + ' (as written in the readings)."""
    return " + ".join(names)


def size_histogram(dist: ClassSizeDistribution) -> pd.DataFrame:
    """Bin records by the size of their equivalence class.

    Returns
    -------
    pandas.DataFrame
        Columns ``class size`` (bin label), ``records``, ``classes``,
        ``share`` (of records); one row per bin of :data:`SIZE_BINS`,
        empty bins included so the axis is stable.
    """
    size = np.asarray(dist.size, dtype=np.int64)
    recs = np.asarray(dist.n_records, dtype=np.int64)
    cls = np.asarray(dist.n_classes, dtype=np.int64)
    total = recs.sum()
    rows = []
    for label, lo, hi in SIZE_BINS:
        m = (size >= lo) & (size <= hi)
        r = int(recs[m].sum())
        rows.append(
            {
                "class size": label,
                "records": r,
                "classes": int(cls[m].sum()),
                "share": r / total if total else 0.0,
            }
        )
    return pd.DataFrame(rows)


def candidate_table(dist: ClassSizeDistribution) -> pd.DataFrame:
    """Cumulative share of records by how many candidates share their QI values.

    A record in a class of size f has f candidates (itself included): an
    attacker who knows its QI values must pick among f people.

    Returns
    -------
    pandas.DataFrame
        Columns ``candidates`` (class size), ``records``, ``cumulative share``
        (share of records with at most that many candidates).
    """
    size = np.asarray(dist.size, dtype=np.int64)
    recs = np.asarray(dist.n_records, dtype=np.int64)
    total = recs.sum()
    cum = np.cumsum(recs) / total if total else np.zeros(len(recs))
    return pd.DataFrame({"candidates": size, "records": recs, "cumulative share": cum})


def histogram_reading(assessment: Assessment) -> str:
    """Return the one-line reading under the class-size histogram."""
    n = assessment.n_records
    u = assessment.unique_records
    qis = join_names(assessment.quasi_identifiers)
    below = int(
        sum(
            r
            for s, r in zip(
                assessment.anonymity.distribution.size,
                assessment.anonymity.distribution.n_records,
                strict=True,
            )
            if s < 11
        )
    )
    return (
        f"{u:,} people ({u / n:.1%}) are unique on {qis}; {below:,} ({below / n:.1%}) share "
        f"their values with fewer than 10 others (class size under 11, the US public-release "
        f"cell-size rule). k = {assessment.k}."
    )


def candidates_reading(assessment: Assessment) -> str:
    """Return the reading under the candidates-per-record curve."""
    dist = assessment.anonymity.distribution
    n = assessment.n_records
    below = sum(r for s, r in zip(dist.size, dist.n_records, strict=True) if s < 11)
    return (
        f"An attacker who knows someone's {join_names(assessment.quasi_identifiers)} is left "
        f"with fewer than 11 candidates for {below / n if n else 0.0:.1%} of people, and with "
        f"exactly one for {assessment.anonymity.unique_share:.1%}."
    )


def _share(x: float) -> str:
    """Format a share so that small non-zero values do not read as 0%."""
    if x == 0 or x >= 0.1:
        return f"{x:.0%}"
    return f"{x:.1%}" if x >= 0.001 else f"{x:.2%}"


def contribution_reading(result: UniquenessResult) -> str:
    """Return the reading under the per-QI contribution chart."""
    u = result.all_qis.unique_records
    if u == 0:
        return "Nobody is unique on these quasi-identifiers, so no column drives uniqueness."
    top = result.contributions[0]
    qis = join_names(result.all_qis.columns)
    return (
        f"{u:,} people ({result.all_qis.unique_share:.1%}) are unique on {qis}; removing "
        f"{top.column} would make {_share(top.drop_share)} of them non-unique "
        f"({top.drop:,} people), more than any other column."
    )


def column_summary(df: pd.DataFrame, suggestions: dict[str, RoleSuggestion]) -> pd.DataFrame:
    """Summarise each column: type, missing values, distinct values and suggested role.

    Returns
    -------
    pandas.DataFrame
        One row per column.
    """
    n = len(df)
    rows = []
    for i, col in enumerate(df.columns):
        s = df.iloc[:, i]
        sug = suggestions.get(str(col))
        missing = int(s.isna().sum())
        rows.append(
            {
                "column": str(col),
                "type": str(s.dtype),
                "missing": missing,
                "missing %": missing / n if n else 0.0,
                "distinct": int(s.nunique(dropna=True)),
                "suggested role": sug.role if sug else "other",
                "reason": sug.reason if sug else "",
            }
        )
    return pd.DataFrame(rows)


def subset_table(result: UniquenessResult, *, top: int = 25) -> pd.DataFrame:
    """Return the QI subsets with the highest uniqueness, for a bar chart.

    Columns: ``columns`` (joined names), ``size`` (number of QIs),
    ``unique records``, ``unique %``, ``k``.
    """
    rows = [
        {
            "columns": join_names(s.columns),
            "size": len(s.columns),
            "unique records": s.unique_records,
            "unique %": 100.0 * s.unique_share,
            "k": s.k,
        }
        for s in result.subsets
    ]
    df = pd.DataFrame(rows, columns=["columns", "size", "unique records", "unique %", "k"])
    return (
        df.sort_values(["unique %", "size"], ascending=[False, True])
        .head(top)
        .reset_index(drop=True)
    )


def contribution_table(result: UniquenessResult) -> pd.DataFrame:
    """Return each QI's contribution to uniqueness (largest first).

    Columns: ``column``, ``drop`` (people who stop being unique when it is
    removed), ``drop %`` (of the unique people), ``unique without``.
    """
    return pd.DataFrame(
        [
            {
                "column": c.column,
                "drop": c.drop,
                "drop %": 100.0 * c.drop_share,
                "unique without": c.unique_without,
            }
            for c in result.contributions
        ],
        columns=["column", "drop", "drop %", "unique without"],
    )


def diversity_distribution(assessment: Assessment, attribute: str) -> pd.DataFrame:
    """Return records by the number of distinct sensitive values in their class.

    Columns: ``distinct values``, ``classes``, ``records``.
    """
    r = assessment.sensitive[attribute]
    if r.per_class is None or assessment.classes is None:
        raise ValueError("this assessment has no per-class figures (read back from JSON)")
    distinct = r.per_class["distinct"]
    sizes = assessment.classes.sizes
    values, inverse = np.unique(distinct, return_inverse=True)
    return pd.DataFrame(
        {
            "distinct values": values,
            "classes": np.bincount(inverse, minlength=len(values)),
            "records": np.bincount(inverse, weights=sizes, minlength=len(values)).astype(np.int64),
        }
    )


def risk_table(assessment: Assessment) -> pd.DataFrame:
    """Return prosecutor / journalist / marketer risk as one table (rows = models)."""
    rows = []
    for r in (assessment.prosecutor, assessment.journalist, assessment.marketer):
        if r is None:
            continue
        rows.append(
            {
                "attacker model": r.model,
                "highest record risk": r.highest_risk,
                f"records with risk > {r.threshold:g}": r.records_at_risk,
                "expected share re-identified": r.success_rate,
                "mean class risk": r.mean_class_risk,
            }
        )
    return pd.DataFrame(rows)


def target_checks(
    assessment: Assessment,
    *,
    k: int,
    l: int,  # noqa: E741 - the name used by the papers
    t: float,
) -> pd.DataFrame:
    """Return each target with the achieved value and pass / fail.

    Columns: ``criterion``, ``attribute``, ``achieved``, ``target``, ``pass``.
    For l the target applies to distinct, entropy and recursive (c,l); for t
    the achieved value must not exceed the target.
    """
    rows = [
        {
            "criterion": "k-anonymity",
            "attribute": "(all QIs)",
            "achieved": float(assessment.k),
            "target": float(k),
            "pass": assessment.k >= k,
        }
    ]
    for name, r in assessment.sensitive.items():
        rows += [
            {
                "criterion": "distinct l-diversity",
                "attribute": name,
                "achieved": float(r.distinct_l),
                "target": float(l),
                "pass": r.distinct_l >= l,
            },
            {
                "criterion": "entropy l-diversity",
                "attribute": name,
                "achieved": r.entropy_l,
                "target": float(l),
                "pass": r.entropy_l >= l - 1e-9,
            },
            {
                "criterion": f"recursive ({r.c:g},l)-diversity",
                "attribute": name,
                "achieved": float(r.recursive_l),
                "target": float(l),
                "pass": r.recursive_l >= l,
            },
            {
                "criterion": f"t-closeness ({r.distance} distance)",
                "attribute": name,
                "achieved": r.t_closeness,
                "target": t,
                "pass": r.t_closeness <= t + 1e-12,
            },
        ]
    return pd.DataFrame(rows)


__all__ += [
    "contribution_table",
    "diversity_distribution",
    "risk_table",
    "subset_table",
    "target_checks",
]


# ------------------------------------------------------------------ attacks


def linkage_reading(result: LinkageResult) -> str:
    """Return the one-line reading under the candidate-set chart."""
    u = result.unique
    text = (
        f"{u.successes:,} of {result.n_targets:,} targets ({u.rate:.1%}, 95% CI "
        f"{u.low:.1%}-{u.high:.1%}) match exactly one released record"
    )
    if result.correct is not None:
        c = result.correct
        text += f"; {c.successes:,} ({c.rate:.1%}) are re-identified correctly"
    text += (
        f". A random guess would be right for 1 in {result.n_release:,} "
        f"({u.baseline:.4%}); {result.no_match:,} targets match nobody."
    )
    return text


def attribute_table(result: LinkageResult) -> pd.DataFrame:
    """Return one row per sensitive attribute: what the attacker learns through the join."""
    rows = []
    for a in result.attributes:
        rows.append(
            {
                "attribute": a.attribute,
                "learned with confidence >= p": a.confident.rate,
                "95% CI": f"{a.confident.low:.1%} - {a.confident.high:.1%}",
                "learned and correct": None if a.correct is None else a.correct.rate,
                "base rate (always guess the commonest)": a.base_rate,
                "commonest value": a.base_value,
            }
        )
    return pd.DataFrame(rows)


def curve_reading(curve: LinkageCurve) -> str:
    """Return the reading under the re-identification curve."""
    rates = [r.rate for r in curve.unique]
    if not rates:
        return ""
    steps = np.diff([0.0, *rates])
    i = int(np.argmax(steps))
    return (
        f"Knowing all {len(rates)} columns re-identifies {rates[-1]:.1%} of targets; the "
        f"biggest jump comes from adding {curve.columns[i]} (+{steps[i]:.1%})."
    )


def homogeneity_reading(h: HomogeneityResult, qis: tuple[str, ...] | list[str]) -> str:
    """Return the reading under the homogeneity results."""
    if not len(h.exposed):
        return (
            f"No class reveals {h.attribute} with confidence {h.p:.0%} or more: knowing "
            f"someone's {join_names(qis)} does not pin down their {h.attribute}."
        )
    share = h.exposed_records / max(h.n_records, 1)
    return (
        f"{h.exposed_records:,} people ({share:.1%}) sit in {len(h.exposed):,} classes where "
        f"at least {h.p:.0%} share one {h.attribute}: anyone who knows their "
        f"{join_names(qis)} learns it."
    )


def exposed_table(
    df: pd.DataFrame,
    enc: EncodedTable,
    qis: list[str] | tuple[str, ...],
    h: HomogeneityResult,
    limit: int = 200,
) -> pd.DataFrame:
    """Return the exposed classes (largest first) with their QI values and leaked value."""
    ids = h.exposed[:limit]
    rows = enc.classes(list(qis)).values(ids)
    rows.insert(0, "class", ids)
    rows["people"] = h.sizes[:limit]
    rows[f"leaked {h.attribute}"] = h.top_value[:limit]
    rows["confidence"] = h.top_share[:limit]
    return rows


def differencing_reading(r: DifferencingResult) -> str:
    """Return the reading under the two queries."""
    if r.exact:
        what = (
            ("has" if r.recovered == 1 else "does not have")
            + f" {' and '.join(f'{c} = {v}' for c, v in r.condition)}"
            if r.aggregate == "count"
            else f"has {r.column} = {r.recovered:,.6g}"
        )
        rule = (
            f" Both answers come from at least {r.min_cell} people, so a minimum-cell-size "
            "rule would publish them."
            if r.passes_cell_rule
            else f" (A cell-size rule of {r.min_cell} would suppress at least one answer here; "
            "with larger groups it would not.)"
        )
        return (
            f"The difference {r.q_all:,.6g} - {r.q_rest:,.6g} tells the attacker the target "
            f"{what}: {r.group_size} person shares the known values, so the difference is theirs."
            + rule
        )
    return (
        f"{r.group_size:,} people share the target's known values, so the difference "
        f"({r.recovered:,.6g}) is a total over those {r.group_size:,} people, not the "
        "target's own value."
    )


def noise_reading(epsilon: float, sensitivity: float, within: float) -> str:
    """Return the reading under the noise plot at the chosen epsilon."""
    from riskcore.attacks import difference_within_probability

    p = float(difference_within_probability(within, epsilon, sensitivity))
    b = sensitivity / epsilon
    return (
        f"At epsilon = {epsilon:g} per query, each answer is off by up to +/- "
        f"{b * np.log(20):,.1f} (95%), and the attacker's difference lands within "
        f"+/- {within:g} of the truth {p:.1%} of the time (it was 100% without noise)."
    )


def numeric_columns(df: pd.DataFrame, columns: list[str] | tuple[str, ...]) -> list[str]:
    """Return the numeric (not boolean) columns among ``columns``."""
    return [
        c
        for c in columns
        if pd.api.types.is_numeric_dtype(df[c].dtype) and not pd.api.types.is_bool_dtype(df[c])
    ]


def noise_curve(within: float, sensitivity: float = 1.0) -> pd.DataFrame:
    """Attacker's success and the answer's 95% error over epsilon = 0.01 .. 10 (log grid).

    ``p within`` is :func:`riskcore.attacks.difference_within_probability`;
    ``error95`` = b ln 20 with b = sensitivity / epsilon, since
    P(|Laplace(b)| > x) = e^{-x/b}.
    """
    from riskcore.attacks import difference_within_probability

    eps = np.logspace(-2, 1, 61)
    return pd.DataFrame(
        {
            "epsilon": eps,
            "p within": difference_within_probability(within, eps, sensitivity),
            "error95": sensitivity * np.log(20) / eps,
        }
    )


def two_release_table(
    df: pd.DataFrame, columns: list[str], limit: int = 5_000
) -> tuple[TwoReleaseResult, pd.DataFrame]:
    """Combine released columns (first ``limit`` rows) and tabulate, exact recoveries first."""
    from riskcore.attacks import two_release_attack

    part = df[list(columns)].head(limit)
    res = two_release_attack(part)
    table = part.assign(inferred=res.inferred, exact=res.exact).sort_values(
        "exact", ascending=False, kind="stable"
    )
    return res, table
