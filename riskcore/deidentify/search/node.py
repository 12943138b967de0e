"""One evaluated node of the generalization lattice (:class:`NodeResult`).

The losses are defined, with their sources, in :mod:`riskcore.utility.loss`;
:meth:`riskcore.deidentify.search.lattice.Lattice.evaluate` computes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from riskcore._results import Result
from riskcore.criteria import Verdict
from riskcore.utility.loss import Objective

__all__ = ["NodeResult"]


@dataclass(frozen=True)
class NodeResult(Result):
    """One node of the lattice: its levels, whether it meets the targets, and its losses.

    Every loss field is the objective's standard definition (every QI
    weighing the same); ``weighted`` holds the objectives as the search
    compares them under per-QI weights (:class:`~riskcore.deidentify.search.steering.Steering`).

    Attributes
    ----------
    levels : tuple of int
        Level of each QI (in the lattice's QI order).
    anonymous : bool
        True when the records suppressed to meet the targets are within the limit.
    suppressed : int
        Records in the classes that break a target (removed from the release);
        people, with a person column.
    n_classes : int
        Classes released (not suppressed).
    k : int
        Smallest released class (0 when every record is suppressed).
    ncp : float
        Normalized certainty penalty (Xu et al. 2006), suppressed cells costing 1.
    precision : float
        Sweeney's precision loss: level / height averaged over QIs and records,
        suppressed records costing 1.
    discernibility : float
        sum of f_j^2 over released classes + n per suppressed record
        (Bayardo & Agrawal 2005; ARX's ``MetricSDNMDiscernability``).
    avg_class_size : float
        LeFevre et al.'s C_avg = (released records / released classes) /
        k_target (LeFevre, DeWitt & Ramakrishnan 2006); NaN when every record
        is suppressed. Not ARX's AECS (:attr:`aecs`).
    success_rate : float
        Prosecutor success rate of the release: released classes / released
        records (the expected share re-identified); NaN when nothing is
        released.
    lower_bound : float
        The objective without suppression (NCP unless the lattice was asked
        for another): a lower bound of this node's loss and of every more
        general node's.
    distortion : dict of str to float
        The *sensitive distortion*: per sensitive attribute, the
        Kullback-Leibler divergence (nats) of its distribution in the release
        from its distribution in the whole table, sum_s p(s) ln(p(s) / q(s)):
        generalization leaves it unchanged, suppression shifts it (0: the
        release keeps the table's proportions). Not Machanavajjhala et al.'s
        KL over QI combinations (:mod:`riskcore.utility.loss`).
    verdict : Verdict or None
        The targets judged on the node with suppression
        (:func:`riskcore.criteria.evaluate`): ``anonymous`` is its ``passed``.
    loss_arithmetic : float
        ARX's Loss, arithmetic mean over QIs (``MetricMDNMLoss``).
    loss_geometric : float
        ARX's Loss, geometric mean over QIs (ARX's default aggregate).
    aecs : float
        ARX's AECS: n / (released classes + 1 when any record is suppressed)
        (``MetricSDAECS``).
    dm_star : float
        DM*: sum of f_j^2 over every class, suppression ignored (El Emam et
        al. 2009; ``MetricSDDiscernability``).
    entropy : float
        Non-uniform entropy in bits, summed over QIs
        (``MetricMDNUEntropyPrecomputed``).
    all_classes : int
        Classes before suppression (the bound of AECS up the lattice).
    weighted : dict of str to float
        The multi-dimensional objectives under the lattice's per-QI weights;
        empty when every QI weighs the same.
    removed : tuple of str
        QIs generalized to their hierarchy's single top label (``*``): the
        column carries nothing in the release.
    suppressed_rows : int or None
        With a person column: the rows of the suppressed people (``suppressed``
        then counts people, as every class figure does); None without one.
    """

    levels: tuple[int, ...]
    anonymous: bool
    suppressed: int
    n_classes: int
    k: int
    ncp: float
    precision: float
    discernibility: float
    avg_class_size: float
    success_rate: float
    lower_bound: float
    distortion: dict[str, float] = field(default_factory=dict)
    verdict: Verdict | None = None
    loss_arithmetic: float = float("nan")
    loss_geometric: float = float("nan")
    aecs: float = float("nan")
    dm_star: float = float("nan")
    entropy: float = float("nan")
    all_classes: int = 0
    weighted: dict[str, float] = field(default_factory=dict)
    removed: tuple[str, ...] = ()
    suppressed_rows: int | None = None

    @property
    def c_avg(self) -> float:
        """Return LeFevre et al.'s C_avg (the same as :attr:`avg_class_size`)."""
        return self.avg_class_size

    def loss(self, objective: Objective) -> float:
        """Return the node's loss under ``objective``, per-QI weights applied.

        Parameters
        ----------
        objective : str
            A name of :data:`riskcore.utility.loss.OBJECTIVES`.

        Returns
        -------
        float
        """
        if objective in self.weighted:
            return self.weighted[objective]
        name = "loss_arithmetic" if objective == "loss" else objective
        return float(getattr(self, name))
