"""Plain-language readings and display tables: every sentence the dashboard shows.

Pure functions from riskcore results to sentences (str) and DataFrames, so
the pages only render and every sentence is unit-tested. One module per
concern:

========================  ====================================================
``data``                  column summary, numeric columns, roles tagged
``anonymity``             class sizes, candidates, k, risk table, targets
``population``            population uniqueness estimates
``diversity``             l-diversity and t-closeness of a sensitive attribute
``uniqueness``            uniqueness per QI subset, each QI's contribution
``records``               individual risk, k-map / delta-presence, one record explained
``linkage``               the linkage attack and its curve
``attacks``               homogeneity, differencing, two releases, noise
``dp``                    noise vs utility, composition, identifiability, GRR
``release``               OpenDP releases, clipping, sample and aggregate
``ldp``                   local Laplace
``story``                 the guided demo's narrative
``remediation``           a generalization before / after, the least-loss search
========================  ====================================================

Nothing here imports plotly (figures live in :mod:`riskcore.report.figures`).
"""

from __future__ import annotations

from riskcore.report.readings._format import (
    format_number,
    join_names,
    short_share,
)
from riskcore.report.readings.anonymity import (
    SIZE_BINS,
    candidate_table,
    candidates_reading,
    histogram_reading,
    risk_reading,
    risk_table,
    size_histogram,
    target_checks,
    target_table,
    targets_reading,
)
from riskcore.report.readings.attacks import (
    differencing_reading,
    estimate_reading,
    exposed_table,
    homogeneity_reading,
    needs_qis_reading,
    noise_curve,
    noise_marker_label,
    noise_point,
    noise_reading,
    queries_list,
    two_release_table,
)
from riskcore.report.readings.data import (
    column_summary,
    encoding_reading,
    large_file_facts,
    large_file_intro,
    numeric_columns,
    redundancy_reading,
    report_intro,
    report_verdict_reading,
    roles_reading,
    table_heading,
    upload_limit_note,
)
from riskcore.report.readings.diversity import (
    DISTANCE_LABELS,
    MAX_HAND_ORDER,
    ORDER_HELP,
    diversity_distribution,
    diversity_reading,
    failing_reading,
    order_pending,
    order_prompt,
    order_refusal,
    t_rule_reading,
)
from riskcore.report.readings.dp import (
    ACCOUNTANTS,
    EPSILON_STEPS,
    categorical_columns,
    coinciding_accountants,
    composition_reading,
    composition_window,
    error_reading,
    error_table,
    gaussian_reference_reading,
    grr_reading,
    grr_table,
    identifiability_reading,
    identifiability_worlds,
    ldp_planning,
    ledger_resets_reading,
    ledger_table,
    mechanisms_for,
    planning_reading,
    preferred_first,
    queries_allowed,
    solver_table,
)
from riskcore.report.readings.ldp import (
    local_laplace_reading,
)
from riskcore.report.readings.linkage import (
    attribute_table,
    curve_reading,
    guess_phrase,
    linkage_reading,
    random_pick_phrase,
)
from riskcore.report.readings.population import (
    population_reading,
)
from riskcore.report.readings.records import (
    individual_risk_reading,
    population_match_reading,
    record_reading,
    records_intro,
    suda_contribution_reading,
    suda_contribution_table,
    suda_reading,
)
from riskcore.report.readings.release import (
    clipping_reading,
    parallel_reading,
    posterior_reading,
    query_phrase,
    release_reading,
    released_values,
    rounding_note,
    sample_aggregate_reading,
    sample_aggregate_release_reading,
    sensitivity_reading,
    slope_unit,
    solver_caption,
    stale_release_reading,
    worlds_reading,
)
from riskcore.report.readings.remediation import (
    enumeration_reading,
    level_label,
    node_reading,
    node_table,
    remediation_intro,
    safe_harbor_table,
    search_reading,
    visited_table,
)
from riskcore.report.readings.story import (
    STORY_CAPTION,
    STORY_LABELS,
    STORY_TITLES,
    coarsening_caption,
    combos_caption,
    differencing_caption,
    homogeneity_caption,
    linkage_caption,
    published_count_reading,
    story_intro,
)
from riskcore.report.readings.uniqueness import (
    classes_intro,
    contribution_matters,
    contribution_reading,
    contribution_table,
    subset_reading,
    subset_table,
)

__all__ = [
    "ACCOUNTANTS",
    "DISTANCE_LABELS",
    "EPSILON_STEPS",
    "MAX_HAND_ORDER",
    "ORDER_HELP",
    "SIZE_BINS",
    "STORY_CAPTION",
    "STORY_LABELS",
    "STORY_TITLES",
    "attribute_table",
    "candidate_table",
    "candidates_reading",
    "categorical_columns",
    "classes_intro",
    "clipping_reading",
    "coarsening_caption",
    "coinciding_accountants",
    "column_summary",
    "combos_caption",
    "composition_reading",
    "composition_window",
    "contribution_matters",
    "contribution_reading",
    "contribution_table",
    "curve_reading",
    "differencing_caption",
    "differencing_reading",
    "diversity_distribution",
    "diversity_reading",
    "encoding_reading",
    "enumeration_reading",
    "error_reading",
    "error_table",
    "estimate_reading",
    "exposed_table",
    "failing_reading",
    "format_number",
    "gaussian_reference_reading",
    "grr_reading",
    "grr_table",
    "guess_phrase",
    "histogram_reading",
    "homogeneity_caption",
    "homogeneity_reading",
    "identifiability_reading",
    "identifiability_worlds",
    "individual_risk_reading",
    "join_names",
    "large_file_facts",
    "large_file_intro",
    "ldp_planning",
    "ledger_resets_reading",
    "ledger_table",
    "level_label",
    "linkage_caption",
    "linkage_reading",
    "local_laplace_reading",
    "mechanisms_for",
    "needs_qis_reading",
    "node_reading",
    "node_table",
    "noise_curve",
    "noise_marker_label",
    "noise_point",
    "noise_reading",
    "numeric_columns",
    "order_pending",
    "order_prompt",
    "order_refusal",
    "parallel_reading",
    "planning_reading",
    "population_match_reading",
    "population_reading",
    "posterior_reading",
    "preferred_first",
    "published_count_reading",
    "queries_allowed",
    "queries_list",
    "query_phrase",
    "random_pick_phrase",
    "record_reading",
    "records_intro",
    "redundancy_reading",
    "release_reading",
    "released_values",
    "remediation_intro",
    "report_intro",
    "report_verdict_reading",
    "risk_reading",
    "risk_table",
    "roles_reading",
    "rounding_note",
    "safe_harbor_table",
    "sample_aggregate_reading",
    "sample_aggregate_release_reading",
    "search_reading",
    "sensitivity_reading",
    "short_share",
    "size_histogram",
    "slope_unit",
    "solver_caption",
    "solver_table",
    "stale_release_reading",
    "story_intro",
    "subset_reading",
    "subset_table",
    "suda_contribution_reading",
    "suda_contribution_table",
    "suda_reading",
    "t_rule_reading",
    "table_heading",
    "target_checks",
    "target_table",
    "targets_reading",
    "two_release_table",
    "upload_limit_note",
    "visited_table",
    "worlds_reading",
]
