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
``records``               individual risk, special uniques, one record explained
``longitudinal``          many rows per person: k^m-anonymity of the events, household risk
``presence``              k-map and delta-presence against a population table
``linkage``               the linkage attack and its curve
``attacks``               homogeneity, differencing, two releases, noise
``dp``                    noise vs utility, identifiability, GRR (composition: ``composition``)
``budget``                the persisted privacy budget: its ledger, near duplicates, changes
``release``               OpenDP releases, clipping, sample and aggregate
``ldp``                   local Laplace
``story``                 the guided demo's narrative
``remediation``           a generalization before / after (the search: ``search``)
``freetext``              identifiers written inside text: each text column's status
``saved``                 saved assessments, a reopened file's check, a comparison, the audit
                          log (imported from its module)
``signature``             a signed report's verification, a signature made, the Sign control
                          (imported from its module)
========================  ====================================================

Nothing here imports plotly (figures live in :mod:`riskcore.report.figures`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from riskcore._exports import lazy_exports

#: For the type checker only: each module's ``__all__`` (a test checks that every one of
#: them, and nothing else, is in ``_WHERE``).
if TYPE_CHECKING:
    from riskcore.report.readings._format import *  # noqa: F403
    from riskcore.report.readings.anonymity import *  # noqa: F403
    from riskcore.report.readings.attacks import *  # noqa: F403
    from riskcore.report.readings.budget import *  # noqa: F403
    from riskcore.report.readings.composition import *  # noqa: F403
    from riskcore.report.readings.data import *  # noqa: F403
    from riskcore.report.readings.diversity import *  # noqa: F403
    from riskcore.report.readings.dp import *  # noqa: F403
    from riskcore.report.readings.dp_unit import *  # noqa: F403
    from riskcore.report.readings.freetext import *  # noqa: F403
    from riskcore.report.readings.ldp import *  # noqa: F403
    from riskcore.report.readings.linkage import *  # noqa: F403
    from riskcore.report.readings.longitudinal import *  # noqa: F403
    from riskcore.report.readings.people import *  # noqa: F403
    from riskcore.report.readings.population import *  # noqa: F403
    from riskcore.report.readings.presence import *  # noqa: F403
    from riskcore.report.readings.records import *  # noqa: F403
    from riskcore.report.readings.release import *  # noqa: F403
    from riskcore.report.readings.remediation import *  # noqa: F403
    from riskcore.report.readings.search import *  # noqa: F403
    from riskcore.report.readings.story import *  # noqa: F403
    from riskcore.report.readings.uniqueness import *  # noqa: F403

#: Each public name and the module that defines it, the one list of this package's names.
#: The modules are imported when a name is first read (PEP 562), so ``riskcore assess``
#: loads only the readings it prints (not the DP, attack and role modules, nor pandas).
_WHERE: dict[str, str] = {
    "NOTHING_RELEASED": "_format",
    "format_number": "_format",
    "join_names": "_format",
    "short_share": "_format",
    "mechanism_label": "_format",
    "or_nothing_released": "_format",
    "plural": "_format",
    "MISSING_LABELS": "anonymity",
    "SIZE_BINS": "anonymity",
    "candidate_table": "anonymity",
    "candidates_reading": "anonymity",
    "histogram_reading": "anonymity",
    "missing_reading": "anonymity",
    "risk_reading": "anonymity",
    "risk_table": "anonymity",
    "size_histogram": "anonymity",
    "differencing_reading": "attacks",
    "estimate_reading": "attacks",
    "exposed_table": "attacks",
    "attacks_intro": "attacks",
    "homogeneity_reading": "attacks",
    "needs_qis_reading": "attacks",
    "noise_curve": "attacks",
    "noise_marker_label": "attacks",
    "noise_point": "attacks",
    "noise_reading": "attacks",
    "queries_list": "attacks",
    "two_release_table": "attacks",
    "people_note": "attacks",
    "recovered_metric": "attacks",
    "budget_change_reading": "budget",
    "budget_check_reading": "budget",
    "budget_history_table": "budget",
    "concurrent_refusal_reading": "budget",
    "ledger_provenance": "budget",
    "ledger_provenance_reading": "budget",
    "ledger_source_reading": "budget",
    "near_duplicate_note": "budget",
    "near_duplicate_reading": "budget",
    "people_match_reading": "budget",
    "pooled_reading": "budget",
    "split_reading": "budget",
    "people_phrase": "people",
    "suppressed_share": "people",
    "suppression_line": "people",
    "unit_reading": "people",
    "column_summary": "data",
    "encoding_reading": "data",
    "large_file_facts": "data",
    "large_file_intro": "data",
    "numeric_columns": "data",
    "person_reading": "data",
    "redundancy_reading": "data",
    "report_intro": "data",
    "report_verdict_reading": "data",
    "report_view_reading": "data",
    "roles_reading": "data",
    "roles_summary": "data",
    "decimal_reading": "data",
    "suggestion_reading": "data",
    "table_heading": "data",
    "upload_limit_note": "data",
    "READING_LABELS": "data",
    "DISTANCE_LABELS": "diversity",
    "MAX_HAND_ORDER": "diversity",
    "ORDER_HELP": "diversity",
    "diversity_distribution": "diversity",
    "diversity_reading": "diversity",
    "failing_reading": "diversity",
    "hierarchy_prompt": "diversity",
    "hierarchy_refusal": "diversity",
    "order_pending": "diversity",
    "order_prompt": "diversity",
    "order_refusal": "diversity",
    "t_rule_reading": "diversity",
    "ACCOUNTANTS": "composition",
    "accountant_crossings": "composition",
    "accountant_totals_reading": "composition",
    "coinciding_accountants": "composition",
    "composition_reading": "composition",
    "composition_window": "composition",
    "ledger_table": "composition",
    "queries_allowed": "composition",
    "EPSILON_STEPS": "dp",
    "candidates_description": "dp",
    "dp_intro": "dp",
    "categorical_columns": "dp",
    "error_reading": "dp",
    "error_table": "dp",
    "gaussian_reference_reading": "dp",
    "grr_reading": "dp",
    "grr_table": "dp",
    "identifiability_reading": "dp",
    "identifiability_worlds": "dp",
    "ldp_planning": "dp",
    "mechanisms_for": "dp",
    "planning_reading": "dp",
    "preferred_first": "dp",
    "survey_columns": "dp",
    "solver_table": "dp",
    "bound_tradeoff_reading": "dp_unit",
    "bounded_rows_reading": "dp_unit",
    "ledger_unit_reading": "dp_unit",
    "local_unit_reading": "dp_unit",
    "rows_per_person_reading": "dp_unit",
    "unit_phrase": "dp_unit",
    "release_unit_reading": "dp_unit",
    "free_text_reading": "freetext",
    "free_text_table": "freetext",
    "scan_all_label": "freetext",
    "text_status": "freetext",
    "ldp_intro": "ldp",
    "local_laplace_reading": "ldp",
    "attribute_table": "linkage",
    "curve_reading": "linkage",
    "guess_phrase": "linkage",
    "linkage_reading": "linkage",
    "random_pick_phrase": "linkage",
    "simulated_note": "linkage",
    "targets_label": "linkage",
    "RARE_COLUMNS": "longitudinal",
    "household_reading": "longitudinal",
    "km_reading": "longitudinal",
    "rare_itemset_table": "longitudinal",
    "event_cells": "longitudinal",
    "events_limitation": "longitudinal",
    "household_limitation": "longitudinal",
    "itemset_text": "longitudinal",
    "population_reading": "population",
    "cover_caption": "records",
    "cover_columns_help": "records",
    "cover_reading": "records",
    "cover_table": "records",
    "dis_text": "records",
    "explorer_intro": "records",
    "individual_risk_reading": "records",
    "msu_list": "records",
    "record_reading": "records",
    "record_subset_table": "records",
    "record_subsets_caption": "records",
    "record_values_table": "records",
    "records_intro": "records",
    "records_shown_caption": "records",
    "suda_contribution_reading": "records",
    "suda_contribution_table": "records",
    "suda_gap_reading": "records",
    "suda_reading": "records",
    "suppressed_row_reading": "records",
    "delta_reading": "presence",
    "delta_table": "presence",
    "population_failing_caption": "presence",
    "population_intro": "presence",
    "population_match_reading": "presence",
    "record_kmap_table": "presence",
    "clipping_reading": "release",
    "parallel_reading": "release",
    "posterior_reading": "release",
    "query_phrase": "release",
    "release_reading": "release",
    "released_values": "release",
    "rounding_note": "release",
    "sample_aggregate_reading": "release",
    "sample_aggregate_release_reading": "release",
    "sensitivity_reading": "release",
    "slope_unit": "release",
    "solver_caption": "release",
    "stale_release_reading": "release",
    "worlds_reading": "release",
    "GENERALIZED_PAGES": "remediation",
    "average_risk_text": "remediation",
    "enumeration_reading": "remediation",
    "generalized_banner": "remediation",
    "generalized_in_use": "remediation",
    "hierarchy_heading": "remediation",
    "level_label": "remediation",
    "node_reading": "remediation",
    "node_table": "remediation",
    "pii_reading": "remediation",
    "pii_table": "remediation",
    "raw_identifiers_note": "remediation",
    "recipe_table": "remediation",
    "remediation_intro": "remediation",
    "safe_harbor_table": "remediation",
    "safe_harbor_takeover": "remediation",
    "POPULATION_FIRST": "remediation",
    "removed_column_warnings": "search",
    "search_reading": "search",
    "visited_table": "search",
    "STORY_CAPTION": "story",
    "STORY_END": "story",
    "STORY_LABELS": "story",
    "STORY_TITLES": "story",
    "coarsening_caption": "story",
    "combos_caption": "story",
    "demo_data_note": "story",
    "differencing_caption": "story",
    "exposure_title": "story",
    "homogeneity_caption": "story",
    "linkage_caption": "story",
    "published_count_reading": "story",
    "story_intro": "story",
    "anyone_unique": "uniqueness",
    "classes_intro": "uniqueness",
    "contribution_matters": "uniqueness",
    "contribution_reading": "uniqueness",
    "contribution_table": "uniqueness",
    "subset_reading": "uniqueness",
    "subset_table": "uniqueness",
    "unique_missing_reading": "uniqueness",
}

__all__ = sorted(_WHERE)

__getattr__, __dir__ = lazy_exports(__name__, _WHERE)
