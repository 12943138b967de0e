"""Recipes: what was done to a table, as versioned JSON that re-applies to new data.

A recipe records every step, in the order :func:`apply_recipe` redoes them:

1. ``safe_harbor``: the HIPAA Safe Harbor transforms, one per column
   (``zip3``, ``age_90_plus``, ``date_year`` with its reference year, or
   ``dropped``);
2. ``date_shift``: per-person date shifting (the person column, the date
   columns, the largest shift), always keyed, so that the shift of each person
   comes from the key and not from a seed written next to the data;
3. ``masking``: one operator per direct identifier with its parameters
   (:data:`~riskcore.deidentify.masking.registry.OPERATORS`);
4. ``perturb``: local suppression, microaggregation, PRAM and noise steps
   (:mod:`riskcore.perturb.steps`), with their parameters and seeds;
5. generalization: per quasi-identifier, its hierarchy (the builder and its
   parameters, or the table of labels) and the level chosen; the event columns
   (``events``: quasi-identifiers that change from visit to visit, judged by
   k^m-anonymity) are generalized alike, listed among ``quasi_identifiers`` with their levels;
6. suppression of the classes that break the targets.

Keys of keyed operators (HMAC and AES-SIV tokens, keyed date shifts) are never
part of a recipe: it holds only ``key_check``, a 64-bit HMAC of a fixed text
under the key, so that re-applying with another key is refused instead of
silently giving other tokens. :func:`apply_recipe` redoes the steps on the
same or next month's table, suppresses the classes that break the targets
there, and says what no longer fits: values the hierarchy does not hold (new
categories), and numbers beyond top or bottom coding bands.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Self

import numpy as np
import pandas as pd

from riskcore._deprecation import renamed_fields
from riskcore._results import Result, plain
from riskcore._steps import ReadAsDict, Step
from riskcore.deidentify.hierarchy import Hierarchy, at_leaves, rebuild
from riskcore.deidentify.masking import OPERATORS, MaskOperator, SecretKey
from riskcore.deidentify.masking.fakes import SEXED_KINDS
from riskcore.deidentify.masking.registry import get_operator, make_step
from riskcore.deidentify.recipe.seal import seal_of
from riskcore.deidentify.safe_harbor.transforms import SafeHarborStep, safe_harbor_step
from riskcore.deidentify.search.steering import Steering
from riskcore.errors import RiskcoreError
from riskcore.perturb.steps import PerturbStep, perturb_step

__all__ = [
    "DATE_SHIFT",
    "RECIPE_VERSION",
    "MaskingStep",
    "Recipe",
    "generalize_columns",
    "generalize_known",
    "key_check",
    "keyed_steps",
    "mask_step",
    "masking_step",
    "masking_steps",
    "seal_recipe",
]

#: Version of the recipe format; raise it when a field changes meaning. Version 2 added
#: ``safe_harbor``, ``date_shift``, ``masking`` and ``key_check``; version 1 recipes read
#: as version 2 recipes without them. Version 3 added ``identifiers`` (the direct
#: identifiers the recipe must mask) and ``seal`` (an HMAC under the key with keyed
#: steps, a SHA-256 of the content otherwise: :mod:`riskcore.deidentify.recipe.seal`),
#: ``steering`` (the search's weights and level bounds) and ``objective``.
#: Version 4 added ``perturb`` (local suppression, microaggregation, PRAM and noise
#: steps, :mod:`riskcore.perturb.steps`); an empty ``perturb`` is left out of ``to_dict``
#: (so out of the seal's content), so version 3 recipes read and keep their seals.
#: Version 5 added ``person`` (the column linking the rows of one person: the classes
#: count people and a suppressed class loses all of its people's rows); no ``person``
#: is left out of ``to_dict``, so version 4 recipes read and keep their seals.
#: Version 6 added ``events`` (the event columns among ``quasi_identifiers``: generalized by their
#: hierarchies and levels like the QIs, judged by k^m-anonymity of each person's visits
#: rather than by the classes); no ``events`` is left out of ``to_dict``.
#: Version 7 added ``allowed_identifiers`` (the detected direct identifiers the operator
#: released as they are, ``--allow-identifiers``: :mod:`riskcore.deidentify.recipe.identifiers`);
#: none is left out of ``to_dict``, so version 6 recipes read and keep their seals. (Without
#: the new version an older riskcore would drop the field it does not know and call the
#: recipe's seal broken; with it, it names the version it cannot read.)
#: Version 8 renamed ``qis`` to ``quasi_identifiers`` (the profile's word): a recipe of
#: version 7 or before reads, and writes its QIs under ``qis`` again, so its seal (over its
#: content as written) still matches.
RECIPE_VERSION = 8

#: The last version whose JSON names the quasi-identifiers ``qis``.
QIS_UNTIL_VERSION = 7

#: The operator of a recipe's ``date_shift`` (person, columns, largest shift).
DATE_SHIFT: MaskOperator = OPERATORS["shift_dates"]
#: Safe Harbor transforms a recipe re-applies (the actions of ``TransformStep``).
SAFE_HARBOR_ACTIONS = ("zip3", "age_90_plus", "date_year", "dropped")


def key_check(key: SecretKey | bytes) -> str:
    """Return the key's check value: the first 16 hex digits of HMAC-SHA256(key, fixed text).

    It tells two keys apart without revealing either (the key is 128 bits or
    more; 64 bits of one HMAC output give nothing back of it).

    Parameters
    ----------
    key : SecretKey or bytes
        The key.

    Returns
    -------
    str
    """
    raw = bytes.fromhex(SecretKey(key).reveal_hex())
    return hmac.new(raw, b"riskcore recipe key check", hashlib.sha256).hexdigest()[:16]


def mask_step(
    column: str, operator: str, *, seed: int = 0, sex: str | None = None
) -> dict[str, Any]:
    """Return the recipe step of one masking operator on one column.

    Parameters
    ----------
    column : str
        The column's name.
    operator : str
        A name of :data:`~riskcore.deidentify.masking.registry.OPERATORS`, or
        ``"surrogates:KIND"`` (``KIND`` one of
        :data:`~riskcore.deidentify.masking.SURROGATE_KINDS`).
    seed : int, default 0
        The surrogates' Faker seed (ignored by the other operators).
    sex : str, optional
        A sex column that name surrogates follow (a first name of the row's sex);
        ignored by the other operators and kinds.

    Returns
    -------
    dict
        ``{"column", "operator", "params"}`` with the operator's recorded
        parameters at their defaults (``mask_digits`` keeps the last 4, tokens
        are 16 hex characters).

    Raises
    ------
    RiskcoreError
        For an unknown operator or a missing or unexpected kind.
    """
    sexed = operator in {f"surrogates:{k}" for k in SEXED_KINDS}
    return make_step(column, operator, seed=int(seed), sex=(sex or "") if sexed else "")


def generalize_columns(
    data: pd.DataFrame,
    hierarchies: Mapping[str, Hierarchy],
    levels: Mapping[str, int],
    *,
    categorical: bool = False,
) -> pd.DataFrame:
    """Return ``data`` with each QI replaced by its label at its level.

    Level 0 keeps the column as it is; above it the column holds the labels
    (text). Missing values stay missing. A value the hierarchy does not hold
    becomes ``"*"`` (reported by :func:`apply_recipe`).

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    hierarchies : mapping of str to Hierarchy
        The generalization hierarchy of each quasi-identifier.
    levels : mapping of str to int
        The level of each quasi-identifier to generalize (0: kept as it is).
    categorical : bool, default False
        Give a generalized column of text labels as a pandas Categorical (each
        row's code among the level's labels) instead of an object column: the
        same values, made and written per distinct label (a writer that reads
        the codes does not hash a million strings again). A level with a label
        that is not text or is missing stays an object column.

    Returns
    -------
    pandas.DataFrame
    """
    # copy-on-write (pandas 3): replacing a column of a shallow copy leaves ``data`` as it is
    out = data.copy(deep=False)
    for q, level in levels.items():
        if level == 0:
            continue
        h = hierarchies[q]
        leaf = h.leaf_index(data[q])
        labels = np.asarray(h.levels[level], dtype=object)
        column = _categorical_labels(labels, leaf) if categorical else None
        if column is None:
            values = at_leaves(labels, leaf, "*")
            values[leaf == -2] = None
            column = pd.Series(values, index=data.index, dtype=object)
        else:
            column.index = data.index
        out[q] = column
    return out


def _categorical_labels(labels: np.ndarray, leaf: np.ndarray) -> pd.Series | None:
    """Return the labels of ``leaf`` (``"*"`` for -1, missing for -2) as a Categorical.

    The values of :func:`generalize_columns`' object column, as codes among the
    level's distinct labels; None when a label is not text (kept as an object column).
    """
    if not all(isinstance(x, str) for x in labels):
        return None
    per_leaf, names = pd.factorize(labels)  # each distinct label once, in leaf order
    categories: list[str] = [str(x) for x in names]
    star = len(categories)
    if (leaf == -1).any():
        star = categories.index("*") if "*" in categories else star
        if star == len(categories):
            categories.append("*")
    extended = np.append(per_leaf.astype(np.int64), [star, -1])  # -1: unknown, -2: missing
    codes: np.ndarray[tuple[Any, ...], np.dtype[np.int64]] = extended[
        np.where(leaf >= 0, leaf, len(per_leaf) - 1 - leaf)
    ]
    return pd.Series(pd.Categorical.from_codes(codes, categories=pd.Index(categories)))


def generalize_known(
    known: pd.DataFrame, data: pd.DataFrame, recipe: Recipe | Mapping[str, Any]
) -> pd.DataFrame:
    """Return what an attacker knows, matched into the released bands of a recipe.

    The attacker of a generalized release knows people's true values (a date of birth,
    a full ZIP code) and the published generalization: each value is matched to its label
    at the recipe's level (1934-05-21 to "1930s"), as the release shows it. A wrong value
    the attacker holds is matched the same way, so it may still fall in the right band;
    an unknown (missing) value stays unknown.

    Parameters
    ----------
    known : pandas.DataFrame
        The attacker's table: true (or mistaken) values of some of the recipe's QIs.
    data : pandas.DataFrame
        The table as recorded, from which the recipe's hierarchies are rebuilt (the
        same hierarchies :func:`apply_recipe` builds).
    recipe : Recipe or mapping
        The recipe, or its JSON form.

    Returns
    -------
    pandas.DataFrame
        ``known`` with each QI column it holds replaced by its released label; other
        columns unchanged. A value the hierarchy does not hold becomes ``"*"``.
    """
    rec = recipe if isinstance(recipe, Recipe) else Recipe.from_dict(recipe)
    level = dict(zip(rec.quasi_identifiers, rec.levels, strict=True))
    cols = [q for q in rec.quasi_identifiers if q in known.columns and q in data.columns]
    hierarchies = {q: rebuild(data[q], rec.hierarchies[q]) for q in cols}
    return generalize_columns(known, hierarchies, {q: int(level[q]) for q in cols})


@renamed_fields(qis="quasi_identifiers")
@dataclass(frozen=True)
class Recipe(Result):
    """Every step done to a table, to be written, read and re-applied (never a key).

    Attributes
    ----------
    quasi_identifiers : tuple of str
        The quasi-identifier columns (``qis`` before version 8).
    levels : tuple of int
        Level of each QI.
    hierarchies : dict
        Per QI, :meth:`Hierarchy.recipe` (builder and parameters, or the table).
    targets : dict
        :class:`~riskcore.criteria.Targets` as a dict.
    sensitive : tuple of str
    suppression : {"drop", "mask"}
    version : int
        :data:`RECIPE_VERSION`.
    safe_harbor : tuple of SafeHarborStep
        Safe Harbor steps (:func:`~riskcore.deidentify.safe_harbor.safe_harbor_plan`),
        applied first; written as ``{"column", "action", ...}``.
    date_shift : MaskingStep or None
        Keyed per-person date shifting (:func:`~riskcore.deidentify.masking.shift_dates`,
        kind ``"date_shift"``), applied next; written as ``{"person", "columns",
        "max_days"}``.
    masking : tuple of MaskingStep
        One :func:`mask_step` per direct identifier (kind ``"masking"``), applied next;
        written as ``{"column", "operator", "params"}``.
    key_check : str or None
        :func:`key_check` of the key the keyed steps used (None when none is keyed).
    missing : {"own", "any"}
        The missing-value policy the targets were judged under (which classes
        the suppression removes).
    distances, orders : dict
        The t-closeness distance and value order of each sensitive attribute
        the targets were judged with.
    sensitive_hierarchies : dict
        The hierarchy rows ``(value, level 1, ..., top)`` of each sensitive
        attribute judged with the hierarchical t-closeness distance (left out
        of the JSON when empty, so older recipes and their seals stay as they
        were).
    sampling_fraction : float or None
        The sampling fraction of a journalist risk target.
    weights : str or None
        The sampling-weight column of a journalist risk target.
    steering : dict or None
        The search's per-QI weights and level bounds
        (:meth:`riskcore.deidentify.search.steering.Steering.to_dict`); re-applying
        checks them against the QIs and hierarchies, and that the recipe's
        levels lie within the bounds.
    objective : str or None
        The objective the levels were chosen by
        (:data:`riskcore.utility.objectives.OBJECTIVES`).
    population : dict or None
        The population table of k-map and delta-presence targets, by name and
        SHA-256 (:class:`riskcore.profile.PopulationReference`); re-applying
        needs the same table.
    identifiers : tuple of str
        The direct identifiers the recipe must mask: :func:`check_recipe` refuses
        the recipe when one of them has no masking or Safe Harbor step.
    perturb : tuple of PerturbStep
        Perturbation steps (:func:`riskcore.perturb.steps.record_step`: method,
        columns, parameters, seed; a PRAM step with its matrix), applied after
        the masking and before the generalization; written as ``{"method",
        "columns", "params", "seed"}`` (a recipe's dicts given are read as steps).
    seal : dict or None
        ``{"kind", "value"}``: HMAC-SHA256 of the content under the key when a
        step is keyed, SHA-256 of it otherwise (:func:`check_recipe`).
    person : str or None
        The column linking the rows of one person: the targets were judged on
        classes of people (:mod:`riskcore.deidentify.search.signatures`), and a table
        re-applied must have it. Usually masked as keyed tokens by a masking
        step, so that the release still links a person's rows.
    events : tuple of str
        The event columns among ``quasi_identifiers`` (with ``person``): generalized to their
        levels like the QIs, judged by k^m-anonymity of each person's visits
        (:class:`riskcore.criteria.KmAnonymity`) rather than forming the
        classes (:class:`riskcore.deidentify.search.lattice.Lattice`'s ``events``).
    allowed_identifiers : tuple of str
        Columns no step treats that the detection takes for direct identifiers and the
        operator released as they are (``--allow-identifiers``,
        :func:`riskcore.deidentify.recipe.identifiers.record_allowed`). A record,
        never an authority: ``apply`` asks for the option again (a recipe file can be
        edited and, without a key, re-sealed by whoever holds it).

    ``missing`` to ``weights`` are the profile's (:class:`riskcore.profile.Profile`): a
    recipe re-applied suppresses the classes its node suppressed.
    """

    quasi_identifiers: tuple[str, ...]
    levels: tuple[int, ...]
    hierarchies: dict[str, Any]
    targets: dict[str, Any]
    sensitive: tuple[str, ...] = ()
    suppression: str = "drop"
    version: int = RECIPE_VERSION
    safe_harbor: tuple[SafeHarborStep, ...] = ()
    date_shift: MaskingStep | None = None
    masking: tuple[MaskingStep, ...] = ()
    key_check: str | None = None
    missing: Literal["own", "any"] = "own"
    distances: dict[str, str] = field(default_factory=dict)
    orders: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    sampling_fraction: float | None = None
    weights: str | None = None
    steering: dict[str, Any] | None = None
    objective: str | None = None
    population: dict[str, Any] | None = None
    identifiers: tuple[str, ...] = ()
    perturb: tuple[PerturbStep, ...] = ()
    seal: dict[str, str] | None = None
    person: str | None = None
    events: tuple[str, ...] = ()
    allowed_identifiers: tuple[str, ...] = ()
    sensitive_hierarchies: dict[str, tuple[tuple[Any, ...], ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # a recipe's steps were dicts: read them as the typed steps
        object.__setattr__(self, "safe_harbor", tuple(map(safe_harbor_step, self.safe_harbor)))
        if self.date_shift is not None:
            object.__setattr__(self, "date_shift", masking_step(self.date_shift, "date_shift"))
        object.__setattr__(self, "masking", tuple(masking_step(m) for m in self.masking))
        object.__setattr__(self, "perturb", tuple(perturb_step(x) for x in self.perturb))

    def to_dict(self) -> dict[str, Any]:
        """Return the recipe as JSON values.

        An empty ``perturb``, no ``population``, no ``person``, no ``events`` and no
        ``allowed_identifiers`` are left out (version 3's content, so its seal, stays
        the same); a recipe of version 7 or before names its QIs ``qis``, as it was
        written and sealed.

        Returns
        -------
        dict of str to Any
        """
        out = super().to_dict()
        if isinstance(self.version, int) and self.version <= QIS_UNTIL_VERSION:
            out = {("qis" if k == "quasi_identifiers" else k): v for k, v in out.items()}
        for name in (
            "perturb",
            "population",
            "person",
            "events",
            "allowed_identifiers",
            "sensitive_hierarchies",
        ):
            if not out.get(name):
                out.pop(name, None)
        return out

    @classmethod
    def of(
        cls,
        hierarchies: Mapping[str, Hierarchy],
        levels: Mapping[str, int],
        targets: Any,
        *,
        sensitive: tuple[str, ...] = (),
        suppression: str = "drop",
        safe_harbor: Sequence[SafeHarborStep | Mapping[str, Any]] = (),
        date_shift: MaskingStep | Mapping[str, Any] | None = None,
        masking: Sequence[MaskingStep | Mapping[str, Any]] = (),
        key: SecretKey | bytes | None = None,
        missing: Literal["own", "any"] = "own",
        distances: Mapping[str, str] | None = None,
        orders: Mapping[str, Sequence[Any]] | None = None,
        sampling_fraction: float | None = None,
        weights: str | None = None,
        steering: Steering | None = None,
        objective: str | None = None,
        identifiers: Sequence[str] | None = None,
        perturb: Sequence[PerturbStep | Mapping[str, Any]] = (),
        population: Mapping[str, Any] | None = None,
        person: str | None = None,
        events: Sequence[str] = (),
        sensitive_hierarchies: Mapping[str, Sequence[Sequence[Any]]] | None = None,
    ) -> Recipe:
        """Return the recipe of a chosen node (``targets`` a Targets) and the steps before it.

        ``identifiers`` (default: every column a masking step or a Safe Harbor
        ``dropped`` step treats) are the direct identifiers the recipe must
        mask; the recipe is sealed (``seal``) under ``key`` when a step is
        keyed, with a SHA-256 of its content otherwise.

        Parameters
        ----------
        hierarchies : mapping of str to Hierarchy
            The generalization hierarchy of each quasi-identifier.
        levels : mapping of str to int
            The chosen level of each quasi-identifier.
        targets : Any
            The targets (a Targets).
        sensitive : tuple of str, optional
            The sensitive column(s).
        suppression : str, optional
            ``"drop"`` the suppressed records, or ``"mask"`` their QIs.
        safe_harbor : sequence of SafeHarborStep or mapping, optional
            Safe Harbor steps (a recipe's dicts read as steps), applied first.
        date_shift : MaskingStep or mapping, optional
            The keyed date shift, when there is one (``{"person", "columns",
            "max_days"}`` read as a step).
        masking : sequence of MaskingStep or mapping, optional
            One masking step per direct identifier (:func:`mask_step`'s dicts read as
            steps).
        key : SecretKey or bytes, optional
            The key of the keyed steps (it seals the recipe).
        missing : Literal['own', 'any'], optional
            How a missing value matches: ``own`` (a value of its own) or ``any`` (any value).
        distances : mapping of str to str, optional
            The t-closeness distance of each sensitive attribute.
        orders : mapping of str to sequence of Any, optional
            The value order of each sensitive attribute (ordered distance).
        sampling_fraction : float, optional
            n / N, when the data are a sample of a population of N.
        weights : str, optional
            The sampling-weight column (numbers of at least 1), if any.
        steering : Steering, optional
            The search's per-QI weights and level bounds.
        objective : str, optional
            The objective the levels were chosen by.
        identifiers : sequence of str, optional
            The direct identifiers the recipe must mask (default above).
        perturb : sequence of PerturbStep or mapping, optional
            Perturbation steps (a recipe's dicts read as steps), applied after the masking
            and before the generalization.
        population : mapping of str to Any, optional
            The population table's reference (name and SHA-256) of k-map and delta-presence targets.
        person : str, optional
            The column linking the rows of one person (the classes were judged in people).
        events : sequence of str, default ()
            The event columns among ``hierarchies`` (judged by k^m-anonymity).
        sensitive_hierarchies : mapping of str to rows, optional
            The hierarchy of each sensitive attribute of the hierarchical
            t-closeness distance.

        Returns
        -------
        Recipe

        Raises
        ------
        RiskcoreError
            When a step is keyed and no ``key`` is given.
        """
        qis = tuple(hierarchies)
        rec = cls(
            quasi_identifiers=qis,
            levels=tuple(int(levels[q]) for q in qis),
            hierarchies={q: hierarchies[q].recipe() for q in qis},
            targets=targets.to_dict(),
            sensitive=tuple(sensitive),
            suppression=suppression,
            safe_harbor=tuple(map(safe_harbor_step, safe_harbor)),
            date_shift=None if date_shift is None else _date_shift(date_shift),
            masking=tuple(masking_step(m) for m in masking),
            missing=missing,
            distances=dict(distances or {}),
            orders={c: tuple(v) for c, v in (orders or {}).items()},
            sampling_fraction=sampling_fraction,
            weights=weights,
            steering=None if steering is None or steering.empty else steering.to_dict(),
            objective=objective,
            perturb=tuple(perturb_step(x) for x in perturb),
            population=None if population is None else dict(population),
            person=None if person is None else str(person),
            events=tuple(str(e) for e in events),
            sensitive_hierarchies={
                c: tuple(tuple(r) for r in rows)
                for c, rows in (sensitive_hierarchies or {}).items()
            },
        )
        absent = [e for e in rec.events if e not in qis]
        if absent:
            raise RiskcoreError(f"the event column {absent[0]!r} has no hierarchy in the recipe")
        named = _masked_columns(rec)
        rec = dataclasses.replace(
            rec, identifiers=tuple(named if identifiers is None else map(str, identifiers))
        )
        return seal_recipe(rec, key)


def _spec(recipe: Recipe) -> dict[str, Any]:
    """Return the recipe as JSON values (as written to and read from a file)."""
    return json.loads(json.dumps(recipe.to_dict()))  # type: ignore[no-any-return]


def _sealed(recipe: Recipe, key: SecretKey | bytes | None) -> Recipe:
    return dataclasses.replace(recipe, seal=seal_of(_spec(recipe), key))


def seal_recipe(recipe: Recipe, key: SecretKey | bytes | None) -> Recipe:
    """Return ``recipe`` with its key check (when it has keyed steps) and its seal.

    Parameters
    ----------
    recipe : Recipe
        The recipe.
    key : SecretKey or bytes or None
        The key of its keyed steps (None without any).

    Returns
    -------
    Recipe

    Raises
    ------
    RiskcoreError
        When the recipe has keyed steps and no key is given.
    """
    if not keyed_steps(recipe):
        return _sealed(recipe, None)
    if key is None:
        raise RiskcoreError(f"{keyed_steps(recipe)[0]} needs a key")
    return _sealed(dataclasses.replace(recipe, key_check=key_check(key)), key)


def _masked_columns(recipe: Recipe) -> list[str]:
    """Return the columns a masking step or a Safe Harbor ``dropped`` step treats."""
    out = [c for m in recipe.masking for c in m.columns]
    out += [x.column for x in recipe.safe_harbor if x.action == "dropped"]
    return list(dict.fromkeys(out))


#: The keys of a masking step and of the date shift as a recipe writes them.
MASKING_KEYS = ("column", "operator", "params")
DATE_SHIFT_KEYS = ("person", "columns", "max_days")


@dataclass(frozen=True)
class MaskingStep(ReadAsDict, Step):
    """One date shift or masking step of a recipe: a :class:`~riskcore._steps.Step`.

    ``kind`` is the recipe field that records it (``"date_shift"`` or ``"masking"``),
    ``operation`` the operator's name in
    :data:`~riskcore.deidentify.masking.registry.OPERATORS` (``"shift_dates"`` for the
    date shift), ``columns`` the columns it masks (one for a masking step) and
    ``parameters`` its parameters as recorded (checked when it runs or is put in words;
    the date shift's ``person`` and ``max_days``). :attr:`operator` is looked up in the
    registry by ``operation``. It is written as a recipe has always written it, a
    masking step ``{"column", "operator", "params"}`` and the date shift ``{"person",
    "columns", "max_days"}``, so recipes keep their JSON and their seals; reading one
    as a dict (``step["column"]``) still works, with a DeprecationWarning.

    Attributes
    ----------
    kind : {"date_shift", "masking"}
    operation : str
    columns : tuple of str
    parameters : dict

    Raises
    ------
    RiskcoreError
        For an operation the registry does not hold, another kind, a masking step of
        more or fewer than one column, or a date shift without its person and largest
        shift.

    Examples
    --------
    >>> step = MaskingStep.from_dict(
    ...     {"column": "ssn", "operator": "mask_digits", "params": {"keep_last": 4}})
    >>> (step.kind, step.operation, step.columns, step.parameters)
    ('masking', 'mask_digits', ('ssn',), {'keep_last': 4})
    >>> step.to_dict()
    {'column': 'ssn', 'operator': 'mask_digits', 'params': {'keep_last': 4}}
    """

    def __post_init__(self) -> None:
        if isinstance(self.operation, MaskOperator):  # made as the tuple was: the operator
            _old_masking_step(
                "MaskingStep(section, operator, ...)", "the operator's name", stacklevel=4
            )
            object.__setattr__(self, "operation", self.operation.name)
        super().__post_init__()
        if self.kind not in ("date_shift", "masking"):
            raise RiskcoreError(
                f"a masking step's kind is 'date_shift' or 'masking', not {self.kind!r}"
            )
        get_operator(self.operation)  # an unknown operator is refused when the step is made
        if self.kind == "masking" and len(self.columns) != 1:
            raise RiskcoreError(f"a masking step masks one column, not {self.columns!r}")
        if self.kind == "date_shift" and self.operation != DATE_SHIFT.name:
            raise RiskcoreError(f"the date shift's operation is {DATE_SHIFT.name!r}, not "
                                f"{self.operation!r}")  # fmt: skip
        if self.kind == "date_shift" and set(self.parameters) != {"person", "max_days"}:
            raise RiskcoreError(
                "a date shift's parameters are its person and max_days, not "
                + ", ".join(map(repr, self.parameters))
            )

    def to_dict(self) -> dict[str, Any]:
        """Return the step as a recipe writes it.

        Returns
        -------
        dict of str to Any
            A masking step's ``{"column", "operator", "params"}``, the date shift's
            ``{"person", "columns", "max_days"}``.
        """
        if self.kind == "date_shift":
            p = plain(self.parameters)
            return {"person": p["person"], "columns": list(self.columns), "max_days": p["max_days"]}
        return {"column": self.columns[0], "operator": self.operation,
                "params": plain(self.parameters)}  # fmt: skip

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Read a recipe's ``masking`` entry or ``date_shift`` (or a Step's own JSON).

        Parameters
        ----------
        data : mapping
            ``{"column", "operator", "params"}`` (:func:`mask_step`), ``{"person",
            "columns", "max_days"}``, or :meth:`Step.to_dict
            <riskcore._steps.Step.to_dict>`'s output.

        Returns
        -------
        MaskingStep

        Raises
        ------
        RiskcoreError
            For a key neither layout has, a column or operator that is not text, or
            params that are not a mapping.
        """
        if not isinstance(data, Mapping):
            raise RiskcoreError(f"a masking step is a mapping, not {type(data).__name__}")
        if "operation" in data and "operator" not in data and "person" not in data:
            step = Step.from_dict(data)  # a Step's own JSON
            return cls(step.kind, step.operation, step.columns, step.parameters)
        keys = DATE_SHIFT_KEYS if "person" in data else MASKING_KEYS
        extra = [k for k in data if k not in keys]
        if extra:
            raise RiskcoreError(f"a recipe's step holds {', '.join(keys)}, not {extra[0]!r}")
        if keys == DATE_SHIFT_KEYS:
            params = {"person": data["person"], "max_days": data.get("max_days")}
            return cls("date_shift", DATE_SHIFT.name, data.get("columns") or (), params)
        column, operator = data.get("column"), data.get("operator")
        if not isinstance(column, str) or not isinstance(operator, str):
            raise RiskcoreError(
                f"a masking step names its column and operator as text, not {dict(data)!r}"
            )
        params = data.get("params") or {}
        if not isinstance(params, Mapping):
            raise RiskcoreError(f"the masking step of {column!r} has params that are not a mapping")
        return cls("masking", operator, (column,), dict(params))

    def __iter__(self) -> Iterator[Any]:
        """Deprecated: ``kind, operator, columns, parameters`` (a masking step was a tuple)."""
        _old_masking_step("unpacking a MaskingStep", ".kind, .operator, .columns, .parameters")
        return iter((self.kind, self.operator, self.columns, self.parameters))

    def __getitem__(self, key: Any) -> Any:
        """Deprecated: a value of ``to_dict`` by its key (a recipe's masking step was a dict),
        or by its position ``kind, operator, columns, parameters`` (``masking_steps`` gave
        tuples)."""
        if isinstance(key, (int, slice)):
            _old_masking_step("indexing a MaskingStep", ".kind, .operator, .columns, .parameters")
            return (self.kind, self.operator, self.columns, self.parameters)[key]
        return super().__getitem__(key)

    @property
    def operator(self) -> MaskOperator:
        """The operator of the registry that runs the step."""
        return get_operator(self.operation)

    @property
    def section(self) -> str:
        """Deprecated: ``kind`` (the field's name when a masking step was a tuple)."""
        _old_masking_step("MaskingStep.section", "MaskingStep.kind")
        return self.kind

    @property
    def params(self) -> dict[str, Any]:
        """Deprecated: ``parameters`` (the field's name when a masking step was a tuple)."""
        _old_masking_step("MaskingStep.params", "MaskingStep.parameters")
        return self.parameters


def _old_masking_step(old: str, new: str, *, stacklevel: int = 3) -> None:
    """Warn that ``old`` is deprecated, naming the caller's line (``__post_init__`` is one
    frame deeper: ``stacklevel=4``)."""
    warnings.warn(f"{old} is deprecated; use {new}", DeprecationWarning, stacklevel=stacklevel)


def masking_step(step: MaskingStep | Mapping[str, Any], kind: str = "masking") -> MaskingStep:
    """Return a recipe's masking step or date shift as a :class:`MaskingStep` (a dict read).

    Parameters
    ----------
    step : MaskingStep or mapping
        A step, or a recipe's dict of one (:meth:`MaskingStep.from_dict`).
    kind : {"masking", "date_shift"}, default "masking"
        The recipe field it stands in.

    Returns
    -------
    MaskingStep
        ``step`` itself when it is one.

    Raises
    ------
    RiskcoreError
        For a mapping that is not such a step, or a step of another kind.
    """
    out = step if isinstance(step, MaskingStep) else MaskingStep.from_dict(step)
    if out.kind != kind:
        raise RiskcoreError(f"a recipe's {kind} holds a {kind} step, not a {out.kind} step")
    return out


def _date_shift(shift: MaskingStep | Mapping[str, Any]) -> MaskingStep:
    """Return the date shift of :meth:`Recipe.of` (a dict's values made text and a number)."""
    if isinstance(shift, MaskingStep):
        return masking_step(shift, "date_shift")
    plain_shift = {
        "person": str(shift["person"]),
        "columns": [str(c) for c in shift["columns"]],
        "max_days": int(shift["max_days"]),
    }
    return masking_step(plain_shift, "date_shift")


def masking_steps(recipe: Recipe) -> list[MaskingStep]:
    """Return the recipe's date shift and masking steps, in the order they apply.

    Parameters
    ----------
    recipe : Recipe
        The recipe.

    Returns
    -------
    list of MaskingStep

    Raises
    ------
    RiskcoreError
        For a step naming an operator the registry does not hold.
    """
    shift = [] if recipe.date_shift is None else [recipe.date_shift]
    return [*shift, *recipe.masking]


def keyed_steps(recipe: Recipe) -> list[str]:
    """Return the recipe's steps that need the key, in words ("hmac tokens of 'ssn'").

    Parameters
    ----------
    recipe : Recipe
        The recipe.

    Returns
    -------
    list of str
    """
    return [
        f"{'the date shift' if s.kind == 'date_shift' else s.operator.name.replace('_', ' ')}"
        f" of {', '.join(map(repr, s.columns))}"
        for s in masking_steps(recipe)
        if s.operator.needs_key
    ]
