"""Differential privacy: noise and error, budgets, identifiability, releases and local DP.

Modules
-------
:mod:`~riskcore.dp.mechanisms`
    :class:`Mechanism` and each mechanism's scale and error formulas.
:mod:`~riskcore.dp.gaussian`
    The Gaussian's calibration: as OpenDP certifies it (zCDP) and the analytic
    reference.
:mod:`~riskcore.dp.global_sensitivity`
    Global sensitivity of counts, sums, means and histograms (:func:`sensitivity`).
:mod:`~riskcore.dp.contributions`
    The person as the unit of privacy: the privacy unit, the seeded per-person
    sample keeping at most c rows, its effect on sensitivity and its cost.
:mod:`~riskcore.dp.accuracy`
    Error of a noisy answer over epsilons, the epsilon/accuracy solvers and
    the clipped-mean trade-off.
:mod:`~riskcore.dp.accounting`
    Composition theorems and the privacy ledger.
:mod:`~riskcore.dp.people`
    Keyed sketches of a table's people and whether a table holds a ledger's people.
:mod:`~riskcore.dp.sources`
    Data sources and the persisted ledgers charged for them (stored by
    :mod:`riskcore.store.ledgers`).
:mod:`~riskcore.dp.reidentification_bound`
    Differential identifiability: epsilon from a bound on re-identification
    (Lee & Clifton 2012; :func:`identifiability`).
:mod:`~riskcore.dp.sample_aggregate`
    Sample and aggregate (Nissim, Raskhodnikova & Smith 2007).
:mod:`~riskcore.dp.release`
    Releases drawn by OpenDP (imported only when used).
:mod:`~riskcore.dp.local`
    Local DP (randomized response, local Laplace).

Closed forms and seeded numpy *simulations* (for plots) live in the first
seven; values offered as releases go through OpenDP. scipy and opendp are
imported inside the functions that use them, so ``import riskcore.dp`` loads
neither. Every public name of these modules except those of ``release`` and
``local`` is importable from :mod:`riskcore.dp` itself.
"""

from riskcore.dp.accounting import (
    Accounting,
    BudgetChangeRefusedError,
    BudgetExceededError,
    Charger,
    CompositionCurves,
    LedgerEntry,
    LedgerTotals,
    PrivacyLedger,
    advanced_composition,
    change_needs_reason,
    composition_curves,
    zcdp_of_gaussian,
    zcdp_of_pure,
    zcdp_to_approx,
)
from riskcore.dp.accuracy import (
    EPSILON_GRID_RANGE,
    ClippingTradeoff,
    ErrorCurve,
    NoiseError,
    accuracy_for_epsilon,
    clipping_tradeoff,
    column_clipping_tradeoff,
    epsilon_for_accuracy,
    epsilon_grid,
    error_curve,
    noise_error,
    noise_scale,
    simulate_noise,
)
from riskcore.dp.contributions import (
    MAX_ROWS_PER_PERSON,
    ONE_ROW,
    BoundedRows,
    BoundTradeoff,
    PrivacyUnit,
    RowsPerPerson,
    bound_rows,
    bound_tradeoff,
    bounded_answer,
    bounded_sensitivity,
    person_mean_variance,
    person_ranks,
    rows_per_person,
)
from riskcore.dp.gaussian import (
    gaussian_delta,
    gaussian_epsilon,
    gaussian_sigma_analytic,
    gaussian_sigma_classic,
    opendp_gaussian_epsilon,
    opendp_gaussian_sigma,
    opendp_gaussian_sigmas,
)
from riskcore.dp.global_sensitivity import (
    NEIGHBOURING_LABELS,
    Neighbouring,
    QueryKind,
    Sensitivity,
    data_bounds,
    sensitivity,
)
from riskcore.dp.local import grr_estimate
from riskcore.dp.mechanisms import (
    ANALYSED_MECHANISMS,
    LAPLACE_95,
    MECHANISM_LABELS,
    Mechanism,
    as_mechanism,
    discrete_gaussian_tail,
    laplace_half_width,
)
from riskcore.dp.people import (
    ColumnPair,
    ColumnSketch,
    PeopleMatch,
    PeopleSketch,
    TableProbe,
    match_people,
    normalize_cells,
    pair_columns,
    probe_table,
)
from riskcore.dp.reidentification_bound import (
    CandidateWorlds,
    IdentifiabilityResult,
    candidate_worlds,
    identifiability,
    identifiability_epsilon,
    identifiability_risk,
    identifiability_scale,
    most_exposed_world,
    posterior_curve,
    tight_identifiability_epsilon,
    worst_case_identifiability_risk,
)
from riskcore.dp.sample_aggregate import SampleAggregate, Statistic, sample_and_aggregate
from riskcore.dp.sources import (
    DEFAULT_DELTA_BUDGET,
    DEFAULT_EPSILON_BUDGET,
    BudgetSetting,
    DataSource,
    LedgerLookup,
    LedgerSplit,
    StoredLedger,
    shape_of,
)

__all__ = [
    "ANALYSED_MECHANISMS",
    "DEFAULT_DELTA_BUDGET",
    "DEFAULT_EPSILON_BUDGET",
    "EPSILON_GRID_RANGE",
    "LAPLACE_95",
    "MAX_ROWS_PER_PERSON",
    "MECHANISM_LABELS",
    "NEIGHBOURING_LABELS",
    "ONE_ROW",
    "Accounting",
    "BoundTradeoff",
    "BoundedRows",
    "BudgetChangeRefusedError",
    "BudgetExceededError",
    "BudgetSetting",
    "CandidateWorlds",
    "Charger",
    "ClippingTradeoff",
    "ColumnPair",
    "ColumnSketch",
    "CompositionCurves",
    "DataSource",
    "ErrorCurve",
    "IdentifiabilityResult",
    "LedgerEntry",
    "LedgerLookup",
    "LedgerSplit",
    "LedgerTotals",
    "Mechanism",
    "Neighbouring",
    "NoiseError",
    "PeopleMatch",
    "PeopleSketch",
    "PrivacyLedger",
    "PrivacyUnit",
    "QueryKind",
    "RowsPerPerson",
    "SampleAggregate",
    "Sensitivity",
    "Statistic",
    "StoredLedger",
    "TableProbe",
    "accuracy_for_epsilon",
    "advanced_composition",
    "as_mechanism",
    "bound_rows",
    "bound_tradeoff",
    "bounded_answer",
    "bounded_sensitivity",
    "candidate_worlds",
    "change_needs_reason",
    "clipping_tradeoff",
    "column_clipping_tradeoff",
    "composition_curves",
    "data_bounds",
    "discrete_gaussian_tail",
    "epsilon_for_accuracy",
    "epsilon_grid",
    "error_curve",
    "gaussian_delta",
    "gaussian_epsilon",
    "gaussian_sigma_analytic",
    "gaussian_sigma_classic",
    "grr_estimate",
    "identifiability",
    "identifiability_epsilon",
    "identifiability_risk",
    "identifiability_scale",
    "laplace_half_width",
    "match_people",
    "most_exposed_world",
    "noise_error",
    "noise_scale",
    "normalize_cells",
    "opendp_gaussian_epsilon",
    "opendp_gaussian_sigma",
    "opendp_gaussian_sigmas",
    "pair_columns",
    "person_mean_variance",
    "person_ranks",
    "posterior_curve",
    "probe_table",
    "rows_per_person",
    "sample_and_aggregate",
    "sensitivity",
    "shape_of",
    "simulate_noise",
    "tight_identifiability_epsilon",
    "worst_case_identifiability_risk",
    "zcdp_of_gaussian",
    "zcdp_of_pure",
    "zcdp_to_approx",
]
