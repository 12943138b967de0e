"""The guided demo: every number of the six-step story, computed from the demo data.

Steps: (1) names and SSNs removed, (2) a linkage attack on date of birth +
ZIP still re-identifies almost everyone, (3) coarsening to age band + ZIP3
raises k, (4) near-homogeneous classes still leak the diagnosis, (5) aggregates
leak through differencing, (6) Laplace noise stops it at a cost in accuracy.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from riskcore._results import Result
from riskcore.attacks import (
    DifferencingResult,
    HomogeneityResult,
    difference_within_probability,
    differencing_attack,
    homogeneity_attack,
)
from riskcore.attacks.linkage import LinkageResult, linkage_attack, simulate_auxiliary
from riskcore.deidentify.generalize import band_numeric, mask_trailing, suppress_small_classes
from riskcore.demo import make_people
from riskcore.dp import LAPLACE_95, epsilon_grid
from riskcore.engine import EncodedTable
from riskcore.metrics import Assessment, assess
from riskcore.report.readings import (
    coarsening_caption,
    combos_caption,
    differencing_caption,
    homogeneity_caption,
    join_names,
    linkage_caption,
    noise_reading,
    published_count_reading,
    story_intro,
)

__all__ = ["Story", "guided_story"]

RAW_QIS = ("date_of_birth", "zip", "sex")
COARSE_QIS = ("age", "zip", "sex")
#: Classes smaller than this are withheld in step 3: the k = 11 target every other page uses.
SUPPRESS_BELOW = 11
COMBOS = (("sex",), ("age", "sex"), ("zip",), ("age", "zip", "sex"), ("date_of_birth", "zip"))


@dataclass(frozen=True, eq=False)
class Story(Result):
    """Everything the guided demo shows.

    Attributes
    ----------
    n : int
        People in the demo.
    combo_columns, combo_unique_shares : tuple
        Share of people unique on a few combinations of columns (step 1);
        :attr:`combos` gives them as a table.
    linkage : LinkageResult
        Voter roll (name, date of birth, ZIP) joined to the release (step 2).
    before, after : Assessment
        Date of birth + ZIP + sex, then age band + ZIP3 + sex with the records
        of classes under 11 (:data:`SUPPRESS_BELOW`) suppressed (step 3).
    suppressed : int
        Records suppressed in step 3.
    linkage_after : LinkageResult
        The same voter roll against the coarsened release.
    homogeneity : HomogeneityResult
        Diagnosis on the coarsened release, every class whose most common
        diagnosis covers at least half of it (step 4).
    exposure_p, exposure_classes, exposure_records : tuple
        Classes and records exposed at each confidence p from 0.5 to 1;
        :attr:`exposure` gives them as a table.
    differencing : DifferencingResult
        Two counts that reveal one person's diagnosis (step 5).
    epsilons : numpy.ndarray
        Grid for step 6.
    p_exact : numpy.ndarray
        Probability the attacker's rounded difference is right, per epsilon.
    count_error : numpy.ndarray
        95% half-width of one noisy count, b ln 20, per epsilon.
    """

    n: int
    combo_columns: tuple[str, ...]
    combo_unique_shares: tuple[float, ...]
    linkage: LinkageResult = field(repr=False)
    before: Assessment = field(repr=False)
    after: Assessment = field(repr=False)
    suppressed: int
    linkage_after: LinkageResult = field(repr=False)
    homogeneity: HomogeneityResult = field(repr=False)
    exposure_p: tuple[float, ...]
    exposure_classes: tuple[int, ...]
    exposure_records: tuple[int, ...]
    differencing: DifferencingResult = field(repr=False)
    epsilons: np.ndarray = field(repr=False)
    p_exact: np.ndarray = field(repr=False)
    count_error: np.ndarray = field(repr=False)

    @property
    def combos(self) -> pd.DataFrame:
        """Step 1 as a table: ``columns`` and ``unique share``."""
        return pd.DataFrame(
            {"columns": list(self.combo_columns), "unique share": list(self.combo_unique_shares)}
        )

    @property
    def exposure(self) -> pd.DataFrame:
        """Step 4 as a table: ``p``, ``classes`` and ``records`` exposed."""
        return pd.DataFrame(
            {
                "p": list(self.exposure_p),
                "classes": list(self.exposure_classes),
                "records": list(self.exposure_records),
            }
        )

    def relative_count_error(self, epsilon: float) -> float:
        """95% error of the step-5 count at the grid epsilon nearest ``epsilon``, as a share.

        Parameters
        ----------
        epsilon : float
            The privacy-loss parameter ε (> 0).

        Returns
        -------
        float
        """
        i = int(np.abs(self.epsilons - epsilon).argmin())
        return float(self.count_error[i] / self.differencing.q_all)

    def intro(self, step: int) -> str:
        """Return the introduction of step ``step`` (0-5), from :mod:`riskcore.report.readings`.

        Parameters
        ----------
        step : int
            The step, 0 to 5.

        Returns
        -------
        str
            Markdown.
        """
        return story_intro(step, suppressed=self.suppressed, n=self.n, k=SUPPRESS_BELOW)

    def caption(
        self, step: int, *, epsilon: float = 0.1, escape: Callable[[object], str] = str
    ) -> str:
        """Return the reading under step ``step``'s chart (0-5).

        ``epsilon`` is the per-query epsilon chosen in step 6; ``escape``
        escapes the untrusted parts (the diagnosis value, step 6's noise
        sentence) for markdown, as the page does with ``ui.core.safe.md``.

        Parameters
        ----------
        step : int
            The step, 0 to 5.
        epsilon : float, optional
            The privacy-loss parameter ε (> 0).
        escape : callable, optional
            Escapes user-supplied text (column names, values) for where it is shown.

        Returns
        -------
        str
            Markdown, its untrusted parts passed through ``escape``.
        """
        if step == 0:
            return combos_caption(self.combos)
        if step == 1:
            return linkage_caption(self.linkage)
        if step == 2:
            raw = join_names(RAW_QIS[:2])  # steps 1 and 2: date of birth + ZIP
            earlier = (raw, float(self.combos.set_index("columns")["unique share"][raw]))
            return coarsening_caption(self.before, self.after, self.linkage_after, earlier=earlier)
        if step == 3:
            return homogeneity_caption(self.after.k, self.exposure)
        if step == 4:
            return differencing_caption(self.differencing, escape=escape)
        if step == 5:
            return escape(noise_reading(epsilon, 1.0, 0.5)) + published_count_reading(
                self.differencing.q_all, self.relative_count_error(epsilon)
            )
        raise ValueError(f"step must be 0 to 5, got {step!r}")


def _exposure(
    homogeneity: HomogeneityResult,
) -> tuple[tuple[float, ...], tuple[int, ...], tuple[int, ...]]:
    """Return the confidences p = 0.5, 0.55, ..., 1 and the classes and records exposed at each."""
    grid = np.round(np.arange(0.5, 1.0001, 0.05), 2)
    hit = homogeneity.top_share[None, :] >= grid[:, None] - 1e-12  # exposures nest as p rises
    return (
        tuple(grid.tolist()),
        tuple(hit.sum(axis=1).tolist()),
        tuple((hit * homogeneity.sizes[None, :]).sum(axis=1).tolist()),
    )


def _differencing(release: pd.DataFrame, enc: EncodedTable) -> DifferencingResult:
    """Return the differencing attack on the first person unique on date of birth + ZIP + sex
    whose diagnosis is not the commonest one."""
    ids = enc.record_classes(RAW_QIS)
    sizes = enc.classes(RAW_QIS).sizes[ids]  # candidates per person
    common = release["diagnosis"].value_counts().index[0]
    target = int(np.flatnonzero((sizes == 1) & (release["diagnosis"] != common).to_numpy())[0])
    return differencing_attack(
        release,
        target,
        list(RAW_QIS),
        condition={"diagnosis": release["diagnosis"].iloc[target]},
    )


def guided_story(n: int = 32_561, seed: int = 0) -> Story:
    """Compute the guided demo on ``make_people(n, seed)``.

    Parameters
    ----------
    n : int
        The number of people generated (the default is the size of the Adult data set).
    seed : int
        Seed of the random generator.

    Returns
    -------
    Story
    """
    people = make_people(n, seed=seed)
    release = people.drop(columns=["name", "ssn"])
    enc = EncodedTable(release)
    shares = tuple(float((enc.classes(c).sizes == 1).sum() / len(enc)) for c in COMBOS)
    aux, truth = simulate_auxiliary(people, ["date_of_birth", "zip"], identifiers=["name"])
    aux = aux.assign(sex=people["sex"].to_numpy(), age=people["age"].to_numpy())
    linkage = linkage_attack(
        release, aux, ["date_of_birth", "zip"], truth=truth, sensitive=["diagnosis"]
    )
    before = assess(enc, quasi_identifiers=list(RAW_QIS), sensitive=["diagnosis"])
    coarse = release.drop(columns=["date_of_birth"]).assign(
        age=band_numeric(release["age"], 10), zip=mask_trailing(release["zip"], 3, width=5)
    )
    released, kept = suppress_small_classes(coarse, COARSE_QIS, SUPPRESS_BELOW)
    after = assess(released, quasi_identifiers=list(COARSE_QIS), sensitive=["diagnosis"])
    new_pos = np.full(n, -1, dtype=np.int64)
    new_pos[kept] = np.arange(len(kept))
    linkage_after = linkage_attack(
        released, aux, list(COARSE_QIS), truth=new_pos[truth], sensitive=["diagnosis"]
    )
    homogeneity = homogeneity_attack(released, list(COARSE_QIS), "diagnosis", p=0.5)
    exposure_p, exposure_classes, exposure_records = _exposure(homogeneity)
    differencing = _differencing(release, enc)
    eps = epsilon_grid()
    p_exact = difference_within_probability(0.5, eps)
    count_error = LAPLACE_95 / eps  # Laplace(1/eps): P(|noise| > x) = e^{-x eps} = 5%
    return Story(
        n=n,
        combo_columns=tuple(join_names(c) for c in COMBOS),
        combo_unique_shares=shares,
        linkage=linkage,
        before=before,
        after=after,
        suppressed=n - len(kept),
        linkage_after=linkage_after,
        homogeneity=homogeneity,
        exposure_p=exposure_p,
        exposure_classes=exposure_classes,
        exposure_records=exposure_records,
        differencing=differencing,
        epsilons=eps,
        p_exact=p_exact,
        count_error=count_error,
    )
