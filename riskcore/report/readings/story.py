"""The guided demo's narrative: step titles, introductions and the reading of each step.

The numbers come from :class:`riskcore.demo.story.Story` (the demo layer sits
above this one, so these functions take the story's parts, not the story).
``escape`` arguments let a caller escape an untrusted value for markdown
while leaving the sentence itself as written.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from riskcore.attacks import DifferencingResult
from riskcore.attacks.linkage import LinkageResult
from riskcore.criteria import Targets
from riskcore.metrics import Assessment
from riskcore.report.readings._format import join_names
from riskcore.report.readings.linkage import guess_phrase, random_pick_phrase

__all__ = [
    "STORY_CAPTION",
    "STORY_END",
    "STORY_LABELS",
    "STORY_TITLES",
    "coarsening_caption",
    "combos_caption",
    "demo_data_note",
    "differencing_caption",
    "exposure_title",
    "homogeneity_caption",
    "linkage_caption",
    "published_count_reading",
    "story_intro",
]

#: Caption under the page title.
#: Readers' names of the demo's columns, for sentences built from column names.
STORY_LABELS: dict[str, str] = {
    "date_of_birth": "date of birth",
    "zip": "ZIP code",
    "marital_status": "marital status",
    "hours_per_week": "hours per week",
}

STORY_CAPTION = (
    "Built-in demo data: 32,561 made-up people of one region. No upload needed; every number "
    "is computed live by riskcore."
)

#: One title per step.
STORY_TITLES: tuple[str, ...] = (
    "1. Names and SSNs are removed",
    "2. A voter roll re-identifies almost everyone",
    "3. Coarsen to age band + ZIP3: k rises",
    "4. Classes where one diagnosis dominates still leak it",
    "5. Published counts leak through differencing",
    "6. Differential privacy noise stops it, at a cost",
)

_INTROS: tuple[str, ...] = (
    "The hospital drops names and Social Security numbers and publishes the rest: date of "
    "birth, ZIP code, sex, diagnosis. Is that anonymous? Count how many people are the "
    "only one with their combination of ordinary facts.",
    "An attacker buys the voter roll (name, date of birth, ZIP) and joins it to the "
    "release. Every person whose date of birth and ZIP match exactly one record is "
    "re-identified, with their diagnosis.",
    "Generalize: ages in 10-year bands instead of dates of birth, the first three ZIP "
    "digits, and withhold the {suppressed:,} people ({share:.1%}) still in "
    "classes smaller than {k} (k = {k}, the target every other page uses){limit}.",
    "k-anonymity hides *who* a record is, not *what* it says. In a class where most "
    "people share one diagnosis, an attacker who knows someone's age band, ZIP3 and sex "
    "learns that diagnosis with the class's confidence (the homogeneity attack).",
    "No table at all, only two statistics a dashboard might publish. Both counts are "
    "large, so a minimum-cell-size rule of 11 publishes them.",
    "Differential privacy adds calibrated Laplace noise to every answer. The attacker's "
    "difference drowns in the noise, while a count of thousands barely moves.",
)


def story_intro(
    step: int, *, suppressed: int, n: int, k: int = 11, max_suppression: float = 0.02
) -> str:
    """Return the introduction of step ``step`` (0-5).

    ``suppressed`` of ``n`` people are withheld in step 3 (index 2), those in classes
    smaller than ``k``.

    Parameters
    ----------
    step : int
        The step, 0 to 5.
    suppressed : int
        The people withheld in step 3.
    n : int
        All people.
    k : int, optional
        Classes smaller than it are withheld.
    max_suppression : float, default 0.02
        The share of records a remediation may suppress on the other pages (the default
        targets'): a step that withholds more says so.

    Returns
    -------
    str
    """
    if not 0 <= step < len(_INTROS):
        raise ValueError(f"step must be 0 to {len(_INTROS) - 1}, got {step!r}")
    share = suppressed / n if n else 0.0
    limit = (
        f"; more than the {max_suppression:.0%} a remediation may suppress on the other pages, "
        "where the search would generalize further"
        if not Targets(max_suppression=max_suppression).within_limit(suppressed, n)
        else ""
    )
    return _INTROS[step].format(suppressed=suppressed, share=share, k=k, limit=limit)


#: The guided demo's last word: the reader's own table next.
STORY_END = (
    "That is the story on made-up people. Now try your own table: upload it on the Data "
    "page, check the roles of its columns, and every page assesses it the same way."
)


def exposure_title(k: int) -> str:
    """Return the title of step 4's chart (the release of step 3, at its k).

    Parameters
    ----------
    k : int
        The release's k.

    Returns
    -------
    str
    """
    return f"People whose diagnosis is exposed at confidence p (k = {k} release)"


def demo_data_note(uploaded: str | None) -> str:
    """Return the sidebar's dataset line while the guided demo runs on its own data.

    Parameters
    ----------
    uploaded : str or None
        The name of the file the user loaded (None: none).

    Returns
    -------
    str
    """
    own = "Demo people (32,561 rows), the guided demo's own data"
    if uploaded is None:
        return own
    return f"{own}; {uploaded} stays loaded for the other pages"


def combos_caption(combos: pd.DataFrame) -> str:
    """Return step 1's reading: the share unique on date of birth + ZIP.

    ``combos`` has columns ``columns`` (joined names) and ``unique share``.

    Parameters
    ----------
    combos : pandas.DataFrame
        Columns ``columns`` (joined names) and ``unique share``.

    Returns
    -------
    str
    """
    unique = combos.set_index("columns")["unique share"]
    return (
        f"Sex alone singles out nobody; date of birth + ZIP singles out "
        f"{unique['date_of_birth + zip']:.1%} of people."
    )


def linkage_caption(r: LinkageResult) -> str:
    """Return step 2's reading: voters re-identified correctly by the join.

    Parameters
    ----------
    r : LinkageResult
        The linkage attack's result.

    Returns
    -------
    str
    """
    if r.correct is None:
        raise ValueError("the story's linkage attack has a ground truth")
    return (
        f"{r.correct.rate:.1%} of the {r.n_targets:,} voters match exactly one record and it is "
        f"theirs (95% CI {r.correct.low:.1%}-{r.correct.high:.1%}); {random_pick_phrase(r)}; "
        f"{guess_phrase(r)}."
    )


def coarsening_caption(
    before: Assessment,
    after: Assessment,
    linkage_after: LinkageResult,
    *,
    earlier: tuple[str, float] | None = None,
) -> str:
    """Return step 3's reading: k and the unique people before and after coarsening.

    ``earlier`` is (the combination steps 1 and 2 used, its unique share): when it is not
    this step's combination, the reading says the quasi-identifiers changed, so that the
    two shares do not read as one figure that moved.

    Parameters
    ----------
    before : Assessment
        The assessment of step 2's release.
    after : Assessment
        The assessment after coarsening.
    linkage_after : LinkageResult
        The linkage attack on the coarsened release.
    earlier : tuple of (str, float), optional
        The combination steps 1 and 2 used, and its unique share.

    Returns
    -------
    str
    """
    if linkage_after.correct is None:
        raise ValueError("the story's linkage attack has a ground truth")
    names = join_names([STORY_LABELS.get(q, q) for q in before.quasi_identifiers])
    share = before.unique_records / max(before.n_records, 1)
    head = ""
    if earlier is not None:
        cols, was = earlier
        said = join_names([STORY_LABELS.get(c, c) for c in cols.split(" + ")])
        if said != names:
            head = (
                f"Steps 1 and 2 used {said} ({was:.1%} unique); this step counts {names}, as "
                f"the release publishes them: {share:.1%} are unique on those. "
            )
    return head + (
        f"k rises from {before.k} to {after.k}: people unique on {names} fall from "
        f"{before.unique_records:,} ({share:.1%}) to {after.unique_records:,} on their "
        f"generalized values, and the voter-roll join now re-identifies "
        f"{linkage_after.correct.rate:.1%} of voters."
    )


def homogeneity_caption(k: int, exposure: pd.DataFrame) -> str:
    """Return step 4's reading: people exposed at confidence 60% and 80%.

    ``exposure`` has columns ``p``, ``classes`` and ``records`` (rows for 0.6 and 0.8).

    Parameters
    ----------
    k : int
        The release's k.
    exposure : pandas.DataFrame
        Columns ``p``, ``classes`` and ``records`` (rows for 0.6 and 0.8).

    Returns
    -------
    str
    """
    records = exposure.set_index("p")["records"]
    return (
        f"At k = {k}, {records.loc[0.6]:,} people sit in classes where at least "
        f"60% share one diagnosis and {records.loc[0.8]:,} where at least 80% do; "
        "l-diversity and t-closeness (Anonymity page) limit this."
    )


def differencing_caption(d: DifferencingResult, *, escape: Callable[[object], str] = str) -> str:
    """Return step 5's reading: the difference is the target's diagnosis.

    Parameters
    ----------
    d : DifferencingResult
        The differencing attack's result.
    escape : callable, optional
        Escapes user-supplied text (column names, values) for where it is shown.

    Returns
    -------
    str
    """
    return (
        f"The difference is {d.recovered:.0f}: the target (row {d.target}, the only person "
        f"with their date of birth, ZIP and sex) has {escape(d.condition[0][1])}."
    )


def published_count_reading(count: float, relative_error: float) -> str:
    """Return step 6's second sentence: how little the noise moves a large count.

    Parameters
    ----------
    count : float
        The count published.
    relative_error : float
        Its 95% error as a share of it.

    Returns
    -------
    str
    """
    return f" The published count of {count:,.0f} stays within {relative_error:.2%} of the truth."
