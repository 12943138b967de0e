"""Steering the least-loss search: per-QI weights, level bounds and the lattice's size limit.

ARX offers both steering inputs (``ARXConfiguration.setAttributeWeight`` and
``HierarchyBuilder``'s / ``DataDefinition.setMinimumGeneralization`` /
``setMaximumGeneralization``); so do we:

* **Weights** (``COL -> w >= 0``, default 1): how much a QI's loss counts in
  a multi-dimensional objective (NCP, precision, ARX's Loss, non-uniform
  entropy; :data:`riskcore.utility.loss.OBJECTIVES` says which). A QI of
  weight 0 may be generalized for free; "ZIP matters less than dates" is a
  smaller weight on ZIP. Single-dimensional objectives (AECS,
  discernibility, DM*) have no per-QI part and ignore the weights, as ARX's
  do.
* **Level bounds** (``COL -> (min, max)``): only nodes whose level of the QI
  lies within the bounds are searched ("keep at least the year of birth" is
  a maximum level below the top). The bounds restrict the lattice itself,
  so the size that counts against :data:`MAX_NODES` is the product of
  (max - min + 1) over the QIs.

The weights and bounds live on the :class:`~riskcore.deidentify.search.lattice.Lattice`
(one place: the lattice's size check, its losses and the search all read
them), as a :class:`Steering` value stored in the recipe.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Self

from riskcore._deprecation import renamed_arguments
from riskcore._results import Result
from riskcore.errors import RiskcoreError

__all__ = ["MAX_NODES", "Steering", "check_size"]

#: The most nodes a lattice may have (within its level bounds). Above it the search is
#: refused before anything is allocated: a grid of this many float64 bounds, tags and an
#: order is about 50 MB, and the search's Python loop over candidates stays under a minute.
#: Issue 26: 300-level hierarchies asked for 60 GiB; 12 levels x 6 QIs (4.8 million nodes)
#: gave no answer in 150 s.
MAX_NODES = 1_000_000


@renamed_arguments(qis="quasi_identifiers")
def check_size(quasi_identifiers: Sequence[str], spans: Sequence[int]) -> int:
    """Return the number of nodes, the product of ``spans``; refuse more than :data:`MAX_NODES`.

    Parameters
    ----------
    quasi_identifiers : sequence of str
        The QIs, named in the message.
    spans : sequence of int
        Levels searched per QI (height + 1, or max - min + 1 within bounds).

    Returns
    -------
    int

    Raises
    ------
    RiskcoreError
        When the lattice is larger than the limit: names the limit, the size
        and what to do.
    """
    size = math.prod(int(s) for s in spans)
    if size > MAX_NODES:
        detail = ", ".join(f"{q} {s}" for q, s in zip(quasi_identifiers, spans, strict=True))
        raise RiskcoreError(
            f"the generalization lattice has {size:,} nodes (levels searched per QI: {detail}), "
            f"more than the {MAX_NODES:,} the search takes: use fewer quasi-identifiers, "
            "hierarchies with fewer levels, or level bounds (--levels COL=MIN:MAX) on the "
            "QIs with many levels"
        )
    return size


def _weight(col: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RiskcoreError(f"the weight of {col!r} must be a number, not {value!r}")
    w = float(value)
    if math.isnan(w) or math.isinf(w) or w < 0:
        raise RiskcoreError(
            f"the weight of {col!r} must be a finite number of at least 0, not {w!r}"
        )
    return w


def _level(col: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RiskcoreError(
            f"a level of {col!r} must be a whole number of at least 0, not {value!r}"
        )
    return int(value)


@dataclass(frozen=True)
class Steering(Result):
    """Per-QI weights and level bounds of a search (see the module).

    Attributes
    ----------
    weights : dict of str to float
        Weight of a QI in multi-dimensional objectives (at least 0; a QI not
        named weighs 1).
    levels : dict of str to (int, int)
        Lowest and highest level searched for a QI (a QI not named: 0 to its
        height).

    Raises
    ------
    RiskcoreError
        For a negative, NaN or infinite weight, every weight 0, a negative
        level or a minimum above the maximum. :meth:`check` also refuses a
        column that is not a QI and a level above the QI's height.
    """

    weights: dict[str, float] = field(default_factory=dict)
    levels: dict[str, tuple[int, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        weights = {str(c): _weight(str(c), w) for c, w in dict(self.weights).items()}
        levels: dict[str, tuple[int, int]] = {}
        for c, pair in dict(self.levels).items():
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise RiskcoreError(f"the levels of {c!r} are a pair (min, max), not {pair!r}")
            lo, hi = _level(str(c), pair[0]), _level(str(c), pair[1])
            if lo > hi:
                raise RiskcoreError(
                    f"the lowest level of {c!r} ({lo}) is above its highest level ({hi})"
                )
            levels[str(c)] = (lo, hi)
        object.__setattr__(self, "weights", weights)
        object.__setattr__(self, "levels", levels)

    @property
    def empty(self) -> bool:
        """Return True when nothing is steered (every weight 1, every level allowed)."""
        return all(w == 1.0 for w in self.weights.values()) and not self.levels

    @renamed_arguments(qis="quasi_identifiers")
    def check(self, quasi_identifiers: Sequence[str], heights: Sequence[int]) -> Self:
        """Return the steering checked against the QIs and their hierarchies' heights.

        Parameters
        ----------
        quasi_identifiers : sequence of str
            The quasi-identifier columns.
        heights : sequence of int
            Height of each QI's hierarchy.

        Returns
        -------
        Steering
            Itself.

        Raises
        ------
        RiskcoreError
            For a column that is not a QI, a level above the QI's height, or
            every QI weighing 0.
        """
        known = dict(zip(quasi_identifiers, heights, strict=True))
        for what, cols in (("a weight", self.weights), ("level bounds", self.levels)):
            for c in cols:
                if c not in known:
                    raise RiskcoreError(
                        f"{c!r} is given {what} but is not a quasi-identifier "
                        f"(the QIs: {', '.join(quasi_identifiers)})"
                    )
        for c, (_, hi) in self.levels.items():
            if hi > known[c]:
                raise RiskcoreError(
                    f"the highest level of {c!r} is {hi}, above the height of its hierarchy "
                    f"({known[c]})"
                )
        if quasi_identifiers and all(self.weight(q) == 0 for q in quasi_identifiers):
            raise RiskcoreError("at least one quasi-identifier must weigh more than 0")
        return self

    def weight(self, qi: str) -> float:
        """Return the weight of ``qi`` (1 when not named).

        Parameters
        ----------
        qi : str
            A quasi-identifier.

        Returns
        -------
        float
        """
        return self.weights.get(qi, 1.0)

    def bounds(self, qi: str, height: int) -> tuple[int, int]:
        """Return the (lowest, highest) level searched for ``qi`` of a hierarchy of ``height``.

        Parameters
        ----------
        qi : str
            A quasi-identifier.
        height : int
            The number of levels of its hierarchy.

        Returns
        -------
        tuple of (int, int)
        """
        return self.levels.get(qi, (0, height))

    @classmethod
    def of(
        cls,
        weights: Mapping[str, float] | None = None,
        levels: Mapping[str, tuple[int, int]] | None = None,
    ) -> Steering:
        """Return a steering from plain mappings (None: nothing steered).

        Parameters
        ----------
        weights : mapping of str to float, optional
            The weight of each quasi-identifier in the loss (1 when not given).
        levels : mapping of str to tuple of (int, int), optional
            The (lowest, highest) level searched of each quasi-identifier (all when not given).

        Returns
        -------
        Steering
        """
        return cls(dict(weights or {}), dict(levels or {}))

    @classmethod
    def from_dict(cls, data: Any) -> Self:
        """Rebuild a steering from :meth:`to_dict`, refusing malformed input with a sentence.

        Parameters
        ----------
        data : Any
            The values :meth:`to_dict` wrote.

        Returns
        -------
        Self
        """
        if not isinstance(data, Mapping):
            raise RiskcoreError(f"the steering is an object with weights and levels, not {data!r}")
        weights = data.get("weights") or {}
        levels = data.get("levels") or {}
        if not isinstance(weights, Mapping) or not isinstance(levels, Mapping):
            raise RiskcoreError("the steering's weights and levels are objects keyed by column")
        pairs = {c: tuple(v) if isinstance(v, list) else v for c, v in levels.items()}
        return cls(dict(weights), pairs)
