"""Privacy accounting: composition theorems and the budget ledger.

References
----------
.. [DR14] C. Dwork, A. Roth. The Algorithmic Foundations of Differential
   Privacy. Foundations and Trends in TCS 9(3-4), 2014.
.. [DRV10] C. Dwork, G. Rothblum, S. Vadhan. Boosting and Differential
   Privacy. FOCS 2010.
.. [BS16] M. Bun, T. Steinke. Concentrated Differential Privacy:
   Simplifications, Extensions, and Lower Bounds. TCC 2016.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

import numpy as np

from riskcore._results import Result
from riskcore._validation import (
    check_epsilon,
    check_one_of,
    check_positive,
    check_positive_int,
    check_probability,
)
from riskcore.dp.contributions import ONE_ROW, PrivacyUnit
from riskcore.errors import RiskcoreError

__all__ = [
    "Accounting",
    "BudgetChangeRefusedError",
    "BudgetExceededError",
    "Charger",
    "CompositionCurves",
    "LedgerEntry",
    "LedgerTotals",
    "PrivacyLedger",
    "advanced_composition",
    "change_needs_reason",
    "composition_curves",
    "zcdp_of_gaussian",
    "zcdp_of_pure",
    "zcdp_to_approx",
]


class BudgetExceededError(RiskcoreError):
    """Raise when a release would take the ledger past its privacy budget."""


class BudgetChangeRefusedError(RiskcoreError):
    """Raise when a budget is loosened after spending without a reason."""


def advanced_composition(
    epsilon: float | Sequence[float] | np.ndarray, k: int | None = None, *, delta_prime: float
) -> float:
    """Compute the total epsilon of k epsilon-DP releases under advanced composition.

    [DRV10]_ Theorem III.3 ([DR14]_ Theorem 3.20): k releases, each
    epsilon-DP, are (epsilon', k delta + delta')-DP with

        epsilon' = epsilon sqrt(2 k ln(1/delta')) + k epsilon (e^epsilon - 1).

    Given a sequence of different epsilons, the same Azuma argument gives
    sqrt(2 ln(1/delta') sum eps_i^2) + sum eps_i (e^eps_i - 1).

    Parameters
    ----------
    epsilon : float or sequence of float or numpy.ndarray
        The privacy-loss parameter ε (> 0).
    k : int, optional
        The number of releases composed.
    delta_prime : float
        The delta' the composition bound allows.

    Returns
    -------
    float
    """
    check_probability("delta_prime", delta_prime)
    if isinstance(epsilon, (int, float, np.floating)):
        if k is None:
            raise ValueError("give k with a single epsilon")
        eps = np.full(check_positive_int("k", k), float(epsilon))
    else:
        eps = np.asarray(epsilon, dtype=float)
    if eps.size == 0:
        return 0.0
    return float(
        math.sqrt(2.0 * math.log(1.0 / delta_prime) * float(np.sum(eps**2)))
        + float(np.sum(eps * np.expm1(eps)))
    )


def zcdp_of_pure(epsilon: float) -> float:
    """Return rho = epsilon^2 / 2: an epsilon-DP release is rho-zCDP [BS16]_ (Prop. 1.4).

    Parameters
    ----------
    epsilon : float
        The ε of the pure-DP release (> 0).

    Returns
    -------
    float
        rho, the release's cost in zCDP.
    """
    return 0.5 * float(epsilon) ** 2


def zcdp_of_gaussian(l2: float, sigma: float) -> float:
    """Return rho = Delta_2^2 / (2 sigma^2) of the Gaussian mechanism [BS16]_ (Prop. 1.6).

    Parameters
    ----------
    l2 : float
        The L2 sensitivity of the query.
    sigma : float
        Standard deviation of the Gaussian noise.

    Returns
    -------
    float
    """
    check_positive("sigma", sigma)
    return float(l2) ** 2 / (2.0 * float(sigma) ** 2)


def zcdp_to_approx(rho: float, delta: float) -> float:
    """Return epsilon = rho + 2 sqrt(rho ln(1/delta)).

    rho-zCDP implies (epsilon, delta)-DP for this epsilon [BS16]_ (Prop. 1.3).

    Parameters
    ----------
    rho : float
        The zCDP parameter rho.
    delta : float
        The δ of approximate differential privacy (0 for pure ε-DP).

    Returns
    -------
    float
    """
    check_probability("delta", delta)
    return float(rho + 2.0 * math.sqrt(rho * math.log(1.0 / delta)))


@dataclass(frozen=True)
class CompositionCurves(Result):
    """Total epsilon of k releases of epsilon each, under three accountants.

    Attributes
    ----------
    epsilon : float
        Per-release epsilon (pure DP).
    delta_prime : float
        Extra delta spent by the advanced and zCDP bounds.
    k : ndarray
        1..k_max.
    basic, advanced, zcdp : ndarray
        k epsilon; [DRV10]_; rho = k epsilon^2 / 2 converted at delta'.
    best : ndarray
        The smallest of the three (each is a valid bound, at delta 0 or delta').
    """

    epsilon: float
    delta_prime: float
    k: np.ndarray
    basic: np.ndarray
    advanced: np.ndarray
    zcdp: np.ndarray
    best: np.ndarray


def composition_curves(
    epsilon: float, k_max: int, *, delta_prime: float = 1e-6
) -> CompositionCurves:
    """Compute total epsilon against the number of releases k = 1..k_max.

    Basic composition ([DR14]_ Theorem 3.16): k epsilon, delta 0. Advanced
    composition ([DRV10]_): epsilon sqrt(2k ln(1/delta')) + k epsilon
    (e^epsilon - 1), delta'. zCDP ([BS16]_): rho = k epsilon^2 / 2, then
    rho + 2 sqrt(rho ln(1/delta')), delta'.

    Parameters
    ----------
    epsilon : float
        The privacy-loss parameter ε (> 0).
    k_max : int
        The largest number of releases on the curves.
    delta_prime : float, optional
        The delta' the composition bound allows.

    Returns
    -------
    CompositionCurves
    """
    check_epsilon(epsilon)
    check_probability("delta_prime", delta_prime)
    check_positive_int("k_max", k_max)
    k = np.arange(1, int(k_max) + 1, dtype=float)
    basic = k * epsilon
    advanced = epsilon * np.sqrt(2.0 * k * math.log(1.0 / delta_prime)) + k * epsilon * math.expm1(
        epsilon
    )
    rho = k * epsilon**2 / 2.0
    zcdp = rho + 2.0 * np.sqrt(rho * math.log(1.0 / delta_prime))
    best = np.minimum(basic, np.minimum(advanced, zcdp))
    return CompositionCurves(
        float(epsilon), float(delta_prime), k.astype(int), basic, advanced, zcdp, best
    )


@dataclass(frozen=True)
class LedgerEntry(Result):
    """One release charged to a privacy ledger.

    Attributes
    ----------
    query : str
        Plain-language description.
    mechanism : str
    epsilon : float
        The epsilon the release costs (OpenDP's certified value).
    delta : float
    rho : float
        Its zCDP cost: Delta^2 / (2 sigma^2) for the Gaussian mechanism
        [BS16]_; when not given, epsilon^2 / 2 (pure DP) is filled in.
    groups : int
        Disjoint groups answered at once (a histogram's bars). By parallel
        composition the release costs epsilon once, not ``groups`` times.
    unit : PrivacyUnit
        What the epsilon protects: one row, or one person (the person column) with at
        most c rows. An entry written before units were recorded reads as one row.
        Epsilons of one ledger add up per person only when every entry's unit is
        that person: a row-unit entry costs a person with m rows up to m times its
        epsilon (group privacy, [DR14]_ Theorem 2.2).
    """

    query: str
    mechanism: str
    epsilon: float
    delta: float = 0.0
    rho: float | None = None
    groups: int = 1
    unit: PrivacyUnit = ONE_ROW

    def __post_init__(self) -> None:
        if not (self.epsilon >= 0 and math.isfinite(self.epsilon)):
            raise ValueError(f"epsilon must be finite and non-negative, got {self.epsilon!r}")
        if not 0 <= self.delta < 1:
            raise ValueError(f"delta must be in [0, 1), got {self.delta!r}")
        check_positive_int("groups", self.groups)
        if self.rho is None:
            object.__setattr__(self, "rho", zcdp_of_pure(self.epsilon))

    @property
    def zcdp(self) -> float:
        """Return the zCDP rho of this entry."""
        return zcdp_of_pure(self.epsilon) if self.rho is None else self.rho


@dataclass(frozen=True)
class LedgerTotals(Result):
    """Total privacy loss of a ledger under three composition theorems.

    Attributes
    ----------
    basic : tuple of float
        (sum epsilon, sum delta) [DR14]_ Theorem 3.16.
    advanced : tuple of float
        (heterogeneous [DRV10]_ bound, sum delta + delta').
    zcdp : tuple of float
        (rho + 2 sqrt(rho ln(1/delta')), delta') with rho = sum rho_i [BS16]_;
        ``None`` when an entry's delta is not from a Gaussian/zCDP mechanism.
    rho : float
        The zCDP parameter rho.
    parallel_saving : float
        Epsilon saved by parallel composition: sum eps_i (groups_i - 1).
    releases : int
    """

    basic: tuple[float, float]
    advanced: tuple[float, float]
    zcdp: tuple[float, float]
    rho: float
    parallel_saving: float
    releases: int


Accounting = Literal["basic", "zcdp"]


@dataclass(frozen=True)
class PrivacyLedger(Result):
    """A privacy budget and the releases charged to it.

    A value object: :meth:`charge` returns a new ledger or raises
    :class:`BudgetExceededError`; the ledger itself never changes.

    Attributes
    ----------
    epsilon_budget : float
    delta_budget : float
    accounting : {"basic", "zcdp"}
        How the spent budget is counted against ``epsilon_budget``: basic
        composition (sum of epsilons and deltas) or zCDP (sum of rho,
        converted at ``delta_budget``).
    entries : tuple of LedgerEntry

    Notes
    -----
    A ledger has no restart: the releases already made still leak what
    they leaked, whatever a new ledger would say. The persisted ledger
    (:mod:`riskcore.store.ledgers`) is append-only.
    """

    epsilon_budget: float
    delta_budget: float = 1e-6
    accounting: Accounting = "basic"
    entries: tuple[LedgerEntry, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        check_epsilon(self.epsilon_budget, "the epsilon budget")
        if not 0 <= self.delta_budget < 1:
            raise ValueError(f"the delta budget must be in [0, 1), got {self.delta_budget!r}")
        check_one_of("accounting", self.accounting, ("basic", "zcdp"))
        if self.accounting == "zcdp" and self.delta_budget <= 0:
            raise ValueError("zCDP accounting needs a positive delta budget")

    def totals(self, *, delta_prime: float | None = None) -> LedgerTotals:
        """Return the total loss under basic, advanced and zCDP composition.

        Parameters
        ----------
        delta_prime : float, optional
            The delta' the composition bound allows.

        Returns
        -------
        LedgerTotals
            Each as (epsilon, delta); advanced and zCDP at ``delta_prime`` (the delta
            budget by default); (0, 0) for no entry.
        """
        dp_ = self.delta_budget if delta_prime is None else delta_prime
        if not 0 < dp_ < 1:
            dp_ = 1e-6
        eps = np.array([e.epsilon for e in self.entries], dtype=float)
        dl = float(sum(e.delta for e in self.entries))
        rho = float(sum(e.zcdp for e in self.entries))
        basic = (float(eps.sum()), dl)
        adv = (advanced_composition(eps, delta_prime=dp_), dl + dp_)
        z = (zcdp_to_approx(rho, dp_) if rho > 0 else 0.0, dp_)
        saving = float(sum(e.epsilon * (e.groups - 1) for e in self.entries))
        return LedgerTotals(basic, adv, z, rho, saving, len(self.entries))

    def spent(self) -> tuple[float, float]:
        """Return (epsilon, delta) spent under this ledger's accounting.

        Returns
        -------
        tuple of (float, float)
            Basic composition's sums, or zCDP's rho converted at the delta budget
            ((0, 0) with no rho spent).
        """
        t = self.totals()
        if self.accounting == "basic":
            return t.basic
        return t.zcdp if t.rho > 0 else (0.0, 0.0)

    def remaining(self) -> float:
        """Return the epsilon left under this ledger's accounting (never negative).

        Returns
        -------
        float
            ``epsilon_budget`` minus the epsilon of :meth:`spent`, at least 0.
        """
        return max(self.epsilon_budget - self.spent()[0], 0.0)

    def exceeds(self, epsilon: float, delta: float = 0.0) -> Literal["epsilon", "delta"] | None:
        """Return which budget the totals ``epsilon`` and ``delta`` break, or None.

        The one budget rule (:meth:`charge` refuses by it; the DP page warns by
        it): epsilon above the epsilon budget, or, under basic composition,
        delta above the delta budget, each with a relative slack of 1e-9 for
        the sums' floating point.

        Parameters
        ----------
        epsilon : float
            Total epsilon spent under this ledger's accounting.
        delta : float, default 0
            Total delta spent.

        Returns
        -------
        {"epsilon", "delta"} or None
        """
        tol = 1e-9
        if epsilon > self.epsilon_budget * (1 + tol):
            return "epsilon"
        if self.accounting == "basic" and delta > self.delta_budget * (1 + tol):
            return "delta"
        return None

    def charge(self, entry: LedgerEntry) -> PrivacyLedger:
        """Return a new ledger with ``entry`` added, or refuse it.

        Parameters
        ----------
        entry : LedgerEntry
            The release to charge.

        Returns
        -------
        PrivacyLedger
            ``self`` is unchanged (a value object).

        Raises
        ------
        BudgetExceededError
            When the total after this release would exceed the epsilon or
            delta budget; the message gives what is spent and what is left.
        """
        new = replace(self, entries=(*self.entries, entry))
        eps, dl = new.spent()
        over = self.exceeds(eps, dl)
        if over == "epsilon":
            spent = self.spent()[0]
            raise BudgetExceededError(
                f"Refused: this release costs epsilon {entry.epsilon:.4g} and this data "
                f"has already spent {spent:.4g} of its budget of {self.epsilon_budget:.4g} "
                f"({self.accounting} composition); it would bring the total to {eps:.4g}. "
                f"Only {self.remaining():.4g} is left. Ask a cheaper query (smaller "
                f"epsilon) or raise the budget before any release is published."
            )
        if over == "delta":
            raise BudgetExceededError(
                f"Refused: this release's delta {entry.delta:.3g} would bring the total "
                f"delta to {dl:.3g}, above the budget of {self.delta_budget:.3g}."
            )
        return new

    def to_dict(self) -> dict[str, Any]:
        """Return the ledger as JSON-ready values, with what is spent and the totals.

        ``spent`` and ``totals`` are derived (``from_dict`` ignores them).

        Returns
        -------
        dict of str to Any
            The fields, ``spent`` as ``[epsilon, delta]`` and ``totals`` as
            :meth:`LedgerTotals.to_dict` writes them.
        """
        return {
            **super().to_dict(),
            "spent": list(self.spent()),
            "totals": self.totals().to_dict(),
        }


class Charger(Protocol):
    """What a release charges before it draws noise.

    A :class:`PrivacyLedger` (in memory), or a persisted ledger's handle
    (:class:`riskcore.store.ledgers.LedgerHandle`), which reserves the cost in the database."""

    def charge(self, entry: LedgerEntry) -> PrivacyLedger:
        """Return the ledger with ``entry`` charged, or raise :class:`BudgetExceededError`.

        Parameters
        ----------
        entry : LedgerEntry
            The release to charge, before its noise is drawn.

        Returns
        -------
        PrivacyLedger
        """
        ...


def change_needs_reason(old: PrivacyLedger, new: PrivacyLedger) -> bool:
    """Return True when going from budget ``old`` to ``new`` needs a logged reason.

    Before any release every setting is free. After one, a change that could
    leave more budget to spend needs a reason: a higher epsilon or delta
    budget, or another accounting (the same releases count differently under
    basic composition and zCDP). Lowering a budget is always allowed.

    Parameters
    ----------
    old, new : PrivacyLedger
        The ledger in force and the one proposed (their entries are ``old``'s).

    Returns
    -------
    bool
    """
    if not old.entries:
        return False
    return (
        new.epsilon_budget > old.epsilon_budget
        or new.delta_budget > old.delta_budget
        or new.accounting != old.accounting
    )
