"""Every session-state and widget key of the app: one name each, grouped by page.

Pages and ``ui`` modules refer to a key by its name here, never by its string
(``tests/app/test_state_keys.py`` fails on an ``"rc_..."`` literal anywhere
else). A key built from a pattern (a widget per column, per quasi-identifier,
per page) is a small function. The strings are the ones the app has always
used, so a key names the same state across versions and tests can set
``at.session_state["rc_..."]`` or find a widget by ``key="rc_..."``.

A session key holds state kept across reruns and pages; a widget key names a
widget (Streamlit keeps its value under it while the widget is drawn). Keys
of charts and download buttons only give the element a stable identity.
:func:`ui.core.state.reset` forgets every one of them.
"""

from __future__ import annotations

# ------------------------------------------------------------------ the session (ui.core.state)

#: The dataset of this session: {"source": "demo"|"upload", "name", "key", "file_id"}; an
#: upload's parsed table lives in the session's cache (``ui.core.state._tables``), its bytes
#: nowhere.
DATASET = "rc_dataset"
#: Uploads this session has read: the uploader's key, renewed after each read (frees the bytes).
UPLOADS = "rc_uploads"
#: Name of an upload released when the tab disconnected (said once on the next page).
RELEASED = "rc_released"
#: Roles of the current dataset: a frozen riskcore.roles.ColumnRoles, replaced (never changed)
#: through :func:`ui.core.profile.set_roles`.
ROLES = "rc_roles"
#: The dataset key the roles belong to.
ROLES_FOR = "rc_roles_for"
#: The reading the role suggestions follow ("safe_harbor" / "expert"); its radio
#: (ui.widgets.data.reading).
READING = "rc_reading"
READING_CHOICE = "rc_reading_choice"
#: The session's profile settings: one frozen :class:`ui.core.profile.SessionSettings` (the
#: targets, missing-value policy, sampling fraction, the t-closeness distances, value orders and
#: hierarchies per dataset key + ":" + attribute, the release context, the widget token),
#: replaced (never changed) through :func:`ui.core.profile.update`.
TARGETS = "rc_targets"
#: The session's one :class:`riskcore.profile.Profile` (frozen): the table in use's roles, the
#: settings above, its recipe and history (:func:`ui.core.profile.current`), replaced by a new one
#: when a widget changes what it is made of.
PROFILE = "rc_session_profile"
#: The profiles :func:`ui.core.profile.current` made, {dataset key: (what each was made of, the
#: Profile, the Profile without its recipe)}: the same objects again while nothing changed.
PROFILES_MADE = "rc_profiles_made"
#: The profiles a page derives from the session's (:func:`ui.core.profile.derived`), {what for:
#: (what each was made of, the Profile)}: the same objects again while nothing changed.
PROFILES_DERIVED = "rc_profiles_derived"
#: Last failed upload: {"file_id", "name", "message"}, shown while that file is in the uploader.
LOAD_ERROR = "rc_load_error"
#: Why the last re-read of the upload in another text encoding failed: {"key", "message"}.
ENCODING_ERROR = "rc_encoding_error"
#: {"for": dataset key, "recipe": Recipe.to_dict()}: the Remediate page's generalization.
REMEDIATION = "rc_remediation"
#: The sidebar's switch (app.py): True when every page assesses the generalized table.
VIEW_AFTER = "rc_view_after"
#: The name the user typed for the audit log, kept across pages and through "Reset session"
#: (:mod:`ui.core.saved`): asked once per session, in the sidebar.
USER = "rc_user"
#: The sidebar's "Your name (for the audit log)" box (its value is kept under :data:`USER`).
USER_BOX = "rc_user_box"
#: The "Log in" button shown instead of any page when a login is configured
#: (:mod:`ui.core.identity`).
LOGIN = "rc_login"
#: The sidebar's "Log out" button (:mod:`ui.core.identity`).
LOGOUT = "rc_logout"


def work(name: str) -> str:
    """Return the key of the work kept for a reload (:mod:`ui.core.work`): "session" (a random id),
    "base" / "kept" ({"for": dataset key, "json"}: the profile at the file's first look / last
    kept), "choices" (the Direct identifiers tab's last choices), "offer", "restore" (button)."""
    return f"rc_work_{name}"


#: Set once the session is marked to end when its tab disconnects (:mod:`ui.core.memory`).
SESSION_ENDS_WITH_TAB = "rc_session_ends_with_tab"


def uploader(n: int) -> str:
    """Return the Data page uploader's key after ``n`` successful reads (a new widget each)."""
    return "rc_upload" if n == 0 else f"rc_upload_{n}"


def gate_button(key: str) -> str:
    """Return the Run button's key of the gate (:func:`ui.core.context.run_gate`) of ``key``."""
    return f"{key}_button"


# ------------------------------------------------------------------ Data page


def roles_editor(dataset_key: str) -> str:
    """Return the key of the roles table of a dataset (a new table for each dataset)."""
    return f"rc_roles_editor_{dataset_key[:16]}"


#: The uploader of a role profile (JSON).
ROLE_PROFILE_UPLOAD = "rc_profile"
#: The buttons opening the built-in demos: the people, the claims (many rows per person).
DEMO_PEOPLE = "rc_demo_people"
DEMO_CLAIMS = "rc_demo_claims"


def encoding(dataset_key: str, what: str = "encoding") -> str:
    """Return the key of an upload's encoding (or "decimal" mark) choice (its widget: data)."""
    return f"rc_{what}_{dataset_key}"


# the large-file panel (ui.widgets.data.large): a file on the server assessed by path
#: The file, directory or glob typed.
LARGE_PATH = "rc_large_path"
#: The engine chosen ("auto", "arrow", "duckdb").
LARGE_ENGINE = "rc_large_engine"
#: Its quasi-identifiers.
LARGE_QIS = "rc_large_qis"
#: Its sensitive attributes.
LARGE_SENS = "rc_large_sens"
#: The "Assess the file" button.
LARGE_GO = "rc_large_go"

# ------------------------------------------------------------------ Uniqueness page

#: Settings of the last run of the per-combination uniques (run_gate; its button adds _button).
SUBSETS_RUN = "rc_subsets_run"
#: Settings of the last run of the record explorer (run_gate).
EXPLORE_RUN = "rc_explore_run"
#: How the record is picked: "Riskiest first" or "By row number".
EXPLORE_HOW = "rc_explore_how"
#: The record's rank, riskiest first.
EXPLORE_RANK = "rc_explore_rank"
#: The record's row number (1 = the first data row).
EXPLORE_ROW = "rc_explore_row"
#: The table of the record's values.
EXPLORE_VALUES = "rc_explore_values"
#: The table of the records sharing each combination of its values.
EXPLORE_SUBSETS = "rc_explore_subsets"
#: The table of the generalization covering the record.
EXPLORE_COVER = "rc_explore_cover"

# ------------------------------------------------------------------ Anonymity page
# (the page appends a token of the session's settings to the first four, so a reset
# starts the widgets again)

#: The sampling fraction n/N.
TARGET_SAMPLING_FRACTION = "rc_target_sampling_fraction"
#: The missing-value policy ("own" or "any").
TARGET_MISSING = "rc_target_missing"


def t_distance(column: str) -> str:
    """Return the key of the t-closeness distance of ``column`` ("dataset key:attribute")."""
    return f"rc_t_distance:{column}"


def t_hierarchy(column: str) -> str:
    """Return the key of the uploader of the hierarchy of ``column`` ("dataset key:attribute")."""
    return f"rc_t_hierarchy:{column}"


def t_order(column: str) -> str:
    """Return the key of the value order of ``column`` ("dataset key:attribute")."""
    return f"rc_t_order:{column}"


def failing_classes(target: str) -> str:
    """Return the key of the table of the classes failing one target."""
    return f"failing-{target}"


# ------------------------------------------------------------------ the targets editor
# (ui.widgets.targets, drawn on the Anonymity and Remediate pages)


def target_widget(page: str, name: str, token: str) -> str:
    """Return the key of one targets-editor widget (``name``: "preset", "k", "l", ...) on
    ``page``, for the session's settings ``token`` (a new token starts the widgets again)."""
    return f"rc_tg_{page}_{name}:{token}"


# ------------------------------------------------------------------ Records page

#: The largest combination SUDA searches.
REC_MAX_SIZE = "rc_rec_max_size"
#: Settings of the last run of the special uniques (run_gate).
REC_RUN = "rc_rec_run"
#: The chart of each quasi-identifier's share of the SUDA scores.
REC_CONTRIB = "rc_rec_contrib"
#: The download of every record's risk (CSV).
REC_CSV = "rc_rec_csv"
#: The row whose risk is explained.
REC_ROW = "rc_rec_row"
#: The uploader of the population table.
POP_UPLOAD = "rc_pop_upload"
#: The population table last matched on the Records page ({"for": dataset key, "key": its
#: cache key, "table": the QIs under their own names}): the Remediate page's search judges
#: k-map and delta-presence targets against it.
POP_MATCHED = "rc_pop_matched"


def pop_map(qi: str) -> str:
    """Return the key of the population table's column chosen for quasi-identifier ``qi``."""
    return f"rc_pop_map_{qi}"


#: The k-map target.
POP_K = "rc_pop_k"
#: The lowest delta allowed.
POP_DMIN = "rc_pop_dmin"
#: The highest delta allowed.
POP_DMAX = "rc_pop_dmax"
#: Settings of the last population match (run_gate).
POP_RUN = "rc_pop_run"
#: The chart of delta per population class.
POP_DELTA = "rc_pop_delta"
#: The download of the failing population classes (CSV).
POP_FAILING_CSV = "rc_pop_failing_csv"
#: The download of every record's k-map (CSV).
POP_KMAP_CSV = "rc_pop_kmap_csv"

# ------------------------------------------------------------------ Attacks page

#: Where the attacker's table comes from: simulated from this table or uploaded.
LINK_SOURCE = "rc_link_source"
#: The columns the simulated attacker knows.
LINK_KNOWN = "rc_link_known"
#: Settings of the last linkage attack (run_gate; simulated and uploaded alike).
LINK_RUN = "rc_link_run"
#: The uploader of the attacker's auxiliary table.
AUX_UPLOAD = "rc_aux_upload"


def aux_map(qi: str) -> str:
    """Return the key of the auxiliary column mapped onto quasi-identifier ``qi``."""
    return f"rc_map_{qi}"


#: The chart of possible identities per target.
LINK_HIST = "rc_link_hist"
#: The chart of re-identification against the number of known columns.
LINK_CURVE = "rc_link_curve"
#: The linkage curves of the last few settings, {(dataset key, order, targets, seed):
#: LinkageCurve} (:func:`ui.core.cached.attacks.linkage_curve_simulated`).
LINKAGE_CURVES = "rc_linkage_curves"
#: The chart of the two differencing queries.
DIFF_BARS = "rc_diff_bars"
#: The epsilon per query of the noisy differencing attack.
DIFF_EPS = "rc_diff_eps"
#: The chart of the attacker's noisy estimates.
DIFF_HIST = "rc_diff_hist"
#: The chart of the attack's success against epsilon.
DIFF_CURVE = "rc_diff_curve"
#: The homogeneity attacker's confidence p.
HOMO_P = "rc_homo_p"
#: The chart of the exposed people per criterion.
HOMO_LINES = "rc_homo_lines"
#: The columns holding two releases of one value.
TWO_COLS = "rc_two_cols"

# ------------------------------------------------------------------ Remediate page

#: What the page's widgets chose, kept across pages (widgets forget): {"for": dataset key,
#: "level_<qi>": level, "hier": {qi: Hierarchy.recipe()}, "hier_ver": int}.
REM_STORE = "rc_rem_store"


def rem_widget(name: str) -> str:
    """Return the key of a Remediate widget seeded from :data:`REM_STORE` under ``name``."""
    return f"rc_rem_{name}"


def rem_level(qi: str) -> str:
    """Return the key of the level slider of quasi-identifier ``qi``."""
    return rem_widget(f"level_{qi}")


#: The session's key for tokens and date shifts (a SecretKey, in memory only:
#: :mod:`ui.core.keyfile`).
REM_SECRET = "rc_rem_secret"  # noqa: S105 - a session-state key name, not a secret
#: Set while a key made here is offered as a file (until downloaded or confirmed saved).
REM_SECRET_SHOW = "rc_rem_secret_show"  # noqa: S105 - a key name
#: Where the key came from: "made" (in this session) or "uploaded" (the user's key file).
REM_SECRET_ORIGIN = "rc_rem_secret_origin"  # noqa: S105 - a key name
#: True once the key file is confirmed saved (or uploaded): keyed tables can be downloaded.
REM_SECRET_SAVED = "rc_rem_secret_saved"  # noqa: S105 - a key name


def rem_key(name: str) -> str:
    """Return the key of the key panel's ``name`` (:mod:`ui.core.keyfile`): "confirm" (the "I have
    saved the key file" box), "download", "new" (button), "uploads" (files read), "error"
    (why the last was refused), "upload_<n>" (the uploader after n files read)."""
    return f"rc_rem_key_{name}"


#: The dataset whose free text Presidio scanned.
REM_PII_FOR = "rc_rem_pii_for"
#: The least-loss searches of the last two lattices, {lattice key: SearchResult}
#: (:func:`ui.core.cached.remediation.lattice_search`).
REM_SEARCHES = "rc_rem_searches"
#: The "Find the least-loss generalization" button.
REM_SEARCH = "rc_rem_search"
#: The risk-loss chart (a click picks its levels).
REM_PARETO = "rc_rem_pareto"
#: The search's objective selector (:mod:`ui.widgets.remediate.steering`).
REM_OBJECTIVE = "rc_rem_objective"


def rem_steer(qi: str, what: str) -> str:
    """Return the key of ``qi``'s steering input, ``what`` "weight" or "bounds" (its levels)."""
    return f"rc_rem_steer_{what}_{qi}"


#: The Perturb tab's chosen method (:mod:`ui.widgets.remediate.perturb`).
REM_PERTURB_METHOD = "rc_rem_perturb_method"
#: The Perturb tab's last run: (its settings, its result, extras to show).
REM_PERTURB_RESULT = "rc_rem_perturb_result"


def rem_perturb(name: str) -> str:
    """Return the key of the Perturb tab's widget ``name``."""
    return f"rc_rem_perturb_{name}"


#: The "Apply these levels (a step in the history)" button.
REM_USE = "rc_rem_use"
#: The "Go back to the table as recorded" button.
REM_CLEAR = "rc_rem_clear"


def rem_download(ext: str) -> str:
    """Return the key of the download of the generalized table or recipe ("csv", "xlsx",
    "json")."""
    return f"rc_rem_{ext}"


# the hierarchy editor (its versioned keys start again when a hierarchy is put in use)
#: The quasi-identifier whose hierarchy is shown.
REM_HIERARCHY_QI = "rc_rem_hq"


def rem_band_width(qi: str, version: int) -> str:
    """Return the key of the band width of ``qi``'s banded hierarchy."""
    return f"rc_rem_hw_{qi}_{version}"


def rem_bottom(qi: str, version: int) -> str:
    """Return the key of the bottom-coding limit of ``qi``'s banded hierarchy."""
    return f"rc_rem_hlo_{qi}_{version}"


def rem_top(qi: str, version: int) -> str:
    """Return the key of the top-coding limit of ``qi``'s banded hierarchy."""
    return f"rc_rem_hhi_{qi}_{version}"


def rem_use_bands(qi: str) -> str:
    """Return the key of the "Use these bands" button of ``qi``."""
    return f"rc_rem_hband_{qi}"


def rem_hierarchy_upload(qi: str, version: int) -> str:
    """Return the key of the uploader of ``qi``'s hierarchy (ARX CSV)."""
    return f"rc_rem_hup_{qi}_{version}"


def rem_hierarchy_edit(qi: str, version: int) -> str:
    """Return the key of the table editing ``qi``'s hierarchy."""
    return f"rc_rem_hedit_{qi}_{version}"


def rem_use_edited(qi: str) -> str:
    """Return the key of the "Use the edited hierarchy" button of ``qi``."""
    return f"rc_rem_huse_{qi}"


def rem_hierarchy_download(qi: str) -> str:
    """Return the key of the download of ``qi``'s hierarchy (ARX CSV)."""
    return f"rc_rem_h_{qi}"


def rem_builder(qi: str, what: str, version: int) -> str:
    """Return the key of one input of ``qi``'s hierarchy builder ("kind", "widths", ...)."""
    return f"rc_rem_hb_{what}_{qi}_{version}"


def rem_hierarchy_reset(qi: str) -> str:
    """Return the key of the "Go back to the default hierarchy" button of ``qi``."""
    return f"rc_rem_hreset_{qi}"


# the HIPAA Safe Harbor tab
#: Settings of the last run of the Safe Harbor transforms (run_gate).
REM_SH_RUN = "rc_rem_sh_run"
#: The download of the transformed table (CSV).
REM_SH_CSV = "rc_rem_sh_csv"
#: {dataset key: characters of distinct values the Safe Harbor free-text scan reads per
#: column} (:mod:`ui.widgets.remediate.free_text`).
REM_SH_LIMIT = "rc_rem_sh_limit"
#: The button reading every text column whole.
REM_SH_SCAN_ALL = "rc_rem_sh_scan_all"

# the Direct identifiers tab
#: The date columns shifted per person.
REM_SHIFT_COLS = "rc_rem_shift_cols"
#: The identifier naming the person (one shift each).
REM_SHIFT_PERSON = "rc_rem_shift_person"
#: The largest shift, in days.
REM_SHIFT_DAYS = "rc_rem_shift_days"


def rem_operator(column: str) -> str:
    """Return the key of the masking operator chosen for identifier ``column``."""
    return f"rc_rem_op_{column}"


#: The download of the table with its identifiers masked (CSV).
REM_ID_CSV = "rc_rem_id_csv"
#: The download of the surrogates' lookup table.
REM_ID_LOOKUP = "rc_rem_id_lookup"
#: The "Scan the free-text columns (Presidio)" button.
REM_PII = "rc_rem_pii"
#: The column whose plain SHA-256 is reversed.
REM_ENUM_COL = "rc_rem_enum_col"
#: The "Reverse a SHA-256" button.
REM_ENUM = "rc_rem_enum"

# ------------------------------------------------------------------ Differential privacy page

#: Data-source names typed on the Budget tab, {fingerprint: name}; the ledgers themselves
#: live in the database (ui.core.budget), never in the session.
DP_SOURCES = "rc_dp_sources"
#: Outcome of the last release attempt, with the settings it was made for:
#: {"settings": {dataset, query, epsilon, mechanism, neighbouring, delta}, "release",
#: "leaks"} or {"settings", "refusal": text, "budget": ledger state when refused}.
LAST_RELEASE = "rc_dp_last_release"
#: Epsilon of the query.
DP_EPSILON = "rc_dp_epsilon"
#: The bound c on rows per person (with a person column).
DP_MAX_ROWS = "rc_dp_max_rows"
#: The histogram of rows per person (read from the data).
DP_ROWS_CHART = "rc_dp_rows_chart"
#: The chart of what the bound on rows per person costs.
DP_BOUND_CHART = "rc_dp_bound_chart"
#: What neighbouring datasets differ by (its label).
DP_NEIGHBOURING = "rc_dp_neighbouring"
#: The query ("count", "histogram", "sum", "mean").
DP_KIND = "rc_dp_kind"
#: The numeric column of a sum or mean.
DP_NUM_COL = "rc_dp_num_col"
#: Bounds read from the data, waiting to be put in the bound inputs: (lo, hi, leak messages).
DP_BOUNDS_FROM_DATA = "rc_dp_bounds_from_data"
#: The lower clipping bound L.
DP_LO = "rc_dp_lo"
#: The upper clipping bound U.
DP_HI = "rc_dp_hi"
#: The bounds read from the data and their leak messages, warned while they are in use.
DP_BOUNDS_LEAK = "rc_dp_bounds_leak"
#: The column whose data bounds are the sum / mean bounds' defaults.
DP_BOUNDS_FOR = "rc_dp_bounds_for"
#: The categorical column of a histogram.
DP_CAT_COL = "rc_dp_cat_col"
#: Whether the histogram's categories are public.
DP_PUBLIC_CATS = "rc_dp_public_cats"
#: The column filtering the rows ("(no filter)").
DP_FCOL = "rc_dp_fcol"
#: Whether the error is shown relative to the true answer.
DP_RELATIVE = "rc_dp_relative"
#: The chart of error against epsilon.
DP_ERROR_CHART = "rc_dp_error_chart"
#: The query (kind, column, bounds) the solver's target accuracy belongs to.
DP_TARGET_FOR = "rc_dp_target_for"
#: The solver's target accuracy.
DP_TARGET = "rc_dp_target"
#: The mechanism of the OpenDP release.
DP_RELEASE_MECH = "rc_dp_release_mech"
#: The release button.
DP_RELEASE = "rc_dp_release"
#: The clipped mean's numeric column.
DP_CLIP_COL = "rc_dp_clip_col"
#: The clipped mean's lower bound L.
DP_CLIP_LO = "rc_dp_clip_lo"
#: The largest upper bound U tried.
DP_CLIP_TOP = "rc_dp_clip_top"
#: The clipping trade-off chart.
DP_CLIP_CHART = "rc_dp_clip_chart"
#: The number of queries plotted on the Budget tab.
DP_KMAX = "rc_dp_kmax"
#: The composition chart.
DP_COMP_CHART = "rc_dp_comp_chart"
#: The acceptable re-identification probability rho (%).
DP_RHO = "rc_dp_rho"
#: Where the m candidates come from ("sample" or "class").
DP_MSRC = "rc_dp_msrc"
#: The column the identifiability query sums.
DP_DI_COL = "rc_dp_di_col"
#: The number of candidates m.
DP_M = "rc_dp_m"
#: The posterior chart.
DP_POST_CHART = "rc_dp_post_chart"
#: The sample-and-aggregate statistic ("median" or "slope").
DP_SA_STAT = "rc_dp_sa_stat"
#: The column of a median.
DP_SA_Y = "rc_dp_sa_y"
#: The predictor x of a slope.
DP_SA_X = "rc_dp_sa_x"
#: The outcome y of a slope.
DP_SA_Y_SLOPE = "rc_dp_sa_y_slope"
#: The number of blocks k.
DP_SA_K = "rc_dp_sa_k"


def dp_sa_low(statistic: str) -> str:
    """Return the key of the low clamp of ``statistic`` (each statistic its own default)."""
    return f"rc_dp_sa_lo_{statistic}"


def dp_sa_for(statistic: str) -> str:
    """Return the key of the column whose data bounds are a statistic's clamps' defaults."""
    return f"rc_dp_sa_for_{statistic}"


def dp_sa_leak(statistic: str) -> str:
    """Return the key of those clamps and their leak messages."""
    return f"rc_dp_sa_leak_{statistic}"


def dp_sa_high(statistic: str) -> str:
    """Return the key of the high clamp of ``statistic``."""
    return f"rc_dp_sa_hi_{statistic}"


#: The sample-and-aggregate blocks chart.
DP_SA_CHART = "rc_dp_sa_chart"
#: The "Release this estimate through OpenDP" button.
DP_SA_RELEASE = "rc_dp_sa_release"

# the Budget tab (ui.core.budget)


def dp_source_name(fingerprint: str) -> str:
    """Return the key of the data-source name typed for a file no ledger holds yet."""
    return f"rc_dp_source_{fingerprint[:16]}"


def dp_continue(ledger_id: int) -> str:
    """Return the key of the button continuing the ledger of a near-duplicate file."""
    return f"rc_dp_continue_{ledger_id}"


#: The ledger settings the budget widgets were last started from: (fingerprint, settings).
DP_BUDGET_SEED = "rc_dp_budget_seed"
#: The total epsilon budget.
DP_BUDGET = "rc_dp_budget"
#: The delta budget.
DP_DBUDGET = "rc_dp_dbudget"
#: The accounting ("basic" or "zcdp").
DP_ACCOUNTING = "rc_dp_accounting"


def dp_budget_reason(settings: int) -> str:
    """Return the key of the reason typed for a budget change (a new box per settings made)."""
    return f"rc_dp_budget_reason_{settings}"


#: The "Apply the new budget" button.
DP_BUDGET_APPLY = "rc_dp_budget_apply"


def dp_new_ledger(fingerprint: str, part: str) -> str:
    """Return the key of a widget starting a new ledger for a file holding a ledger's people.

    ``part`` is "name" (the new ledger's name), "reason" (the reason, required) or
    "start" (the button).
    """
    return f"rc_dp_new_ledger_{part}_{fingerprint[:16]}"


# ------------------------------------------------------------------ Local DP page

#: Epsilon per respondent.
LDP_EPSILON = "rc_ldp_epsilon"
#: The simulation seed.
LDP_SEED = "rc_ldp_seed"
#: The most reports one person sends, c (with a person column).
LDP_MAX_ROWS = "rc_ldp_max_rows"
#: The column each person answers (randomized response).
LDP_COL = "rc_ldp_col"
#: The randomized-response chart.
LDP_GRR_CHART = "rc_ldp_grr_chart"
#: The numeric column (local Laplace).
LDP_NUM_COL = "rc_ldp_num_col"
#: Its lower bound L.
LDP_LO = "rc_ldp_lo"
#: Its upper bound U.
LDP_HI = "rc_ldp_hi"
#: The local-Laplace chart.
LDP_NUM_CHART = "rc_ldp_num_chart"
#: The number of categories k (planning).
LDP_PLAN_K = "rc_ldp_plan_k"
#: The column whose number of categories is the planning's default k.
LDP_PLAN_FOR = "rc_ldp_plan_for"
#: The column whose data bounds are the local-Laplace bounds' defaults.
LDP_BOUNDS_FOR = "rc_ldp_bounds_for"
#: Those bounds and their leak messages, warned while they are in use.
LDP_BOUNDS_LEAK = "rc_ldp_bounds_leak"
#: The margin chart (planning).
LDP_MARGIN = "rc_ldp_margin"
#: The target margin on a share (planning).
LDP_MARGIN_IN = "rc_ldp_margin_in"

# ------------------------------------------------------------------ Report, Saved, Guided demo
# (in ui/core/keys/report.py, one namespace with this module)
from ui.core.keys.report import *  # noqa: E402, F403

# ------------------------------------------------------------------ Remediate: candidates, utility
# (in ui/core/keys/workbench.py, one namespace with this module)
from ui.core.keys.workbench import *  # noqa: E402, F403
