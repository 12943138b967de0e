"""The type of a masking operator: its parameters, words, key and function in one entry.

:class:`MaskOperator` is one entry of the registry
(:data:`~riskcore.deidentify.masking.registry.OPERATORS`); :class:`Param` one
of its parameters; :class:`Masked` what applying it gives.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import pandas as pd

from riskcore.deidentify.masking.tokens import SecretKey
from riskcore.errors import RiskcoreError

__all__ = ["Apply", "MaskOperator", "Masked", "Param"]


class Masked(NamedTuple):
    """A table after one masking step.

    Attributes
    ----------
    data : pandas.DataFrame
        The new table (the input is not changed); a dropped column is gone.
    lookup : pandas.DataFrame or None
        Surrogates' lookup table (``column``, ``original``, ``surrogate``), or
        None for an operator that has none. It re-identifies everyone: keep it
        apart from the data.
    """

    data: pd.DataFrame
    lookup: pd.DataFrame | None


@dataclass(frozen=True)
class Param:
    """One parameter of a masking operator.

    Attributes
    ----------
    name : str
    default : object
        Its value when a step does not give it (``None`` for a parameter that
        must be given).
    check : callable
        ``check(value)`` returns the value as the operator takes it, or
        raises ``TypeError`` / ``ValueError`` with a sentence naming it.
    recorded : bool
        Whether :func:`make_step` writes it into a recipe step (the others
        take their default when the recipe is re-applied).
    options : tuple of str
        The values it takes, when they are a short list (named in messages).
    """

    name: str
    default: Any
    check: Callable[[Any], Any]
    recorded: bool = True
    options: tuple[str, ...] = ()


Apply = Callable[[pd.DataFrame, Sequence[str], Mapping[str, Any], SecretKey | None], Masked]


@dataclass(frozen=True)
class MaskOperator:
    """One masking operator: what it is called, takes, does and risks, and how it runs.

    Attributes
    ----------
    name : str
        The name a recipe step records (``"mask_digits"``).
    label : str
        Its label in a menu (``"keep the last 4 digits"``).
    note : str
        One line on its strength and its weakness.
    needs_key : bool
        Whether it runs under the secret key (a recipe then records the key's check value).
    params : tuple of Param
    describe : callable
        ``describe(params)`` returns what a step with these (checked)
        parameters does to a column, in words (``"last 4 digits kept"``).
    apply : callable
        ``apply(data, columns, params, key)`` returns the :class:`Masked`
        table: the columns masked with the (checked) parameters.
    variant : str or None
        The parameter a menu choice ``"NAME:VALUE"`` sets (``"kind"``).
    choices : tuple of (str, str), or None
        The menu choices the Remediate page offers for a direct identifier,
        with their labels: None for the operator itself with its
        :attr:`label`; empty for an operator that is not one identifier's
        choice (the date shift moves several columns per person).
    validate : callable or None
        ``validate(params)`` checks the parameters together (after each alone),
        raising ``ValueError``.
    treats : tuple of str or None
        The kinds of detected direct identifier
        (:class:`~riskcore.deidentify.recipe.identifiers.DetectedIdentifier`) a step
        of it treats: None for every kind (the value is replaced or dropped);
        ``("free_text",)`` for an operator that keeps the text and removes only
        the identifiers the patterns find in it (a name column it leaves as it is).
    """

    name: str
    label: str
    note: str
    needs_key: bool
    params: tuple[Param, ...]
    describe: Callable[[Mapping[str, Any]], str]
    apply: Apply
    variant: str | None = None
    choices: tuple[tuple[str, str], ...] | None = None
    validate: Callable[[Mapping[str, Any]], None] | None = None
    treats: tuple[str, ...] | None = None

    def configure(self, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Return every parameter, each checked, defaults filled in.

        Parameters
        ----------
        params : mapping, optional
            Parameters given (a recipe step's ``params``).

        Returns
        -------
        dict
            One value per :attr:`params`, in their order.

        Raises
        ------
        RiskcoreError
            For a parameter the operator does not take, a missing one, or a bad value.
        """
        given = dict(params or {})
        known = {p.name for p in self.params}
        extra = sorted(set(given) - known)
        if extra:
            takes = ", ".join(p.name for p in self.params) or "none"
            raise RiskcoreError(
                f"the masking operator {self.name!r} takes no parameter {extra[0]!r} "
                f"(it takes: {takes})"
            )
        out: dict[str, Any] = {}
        for p in self.params:
            value = given.get(p.name, p.default)
            if value is None:
                raise RiskcoreError(f"the masking operator {self.name!r} needs {p.name!r}")
            try:
                out[p.name] = p.check(value)
            except (TypeError, ValueError) as exc:
                raise RiskcoreError(f"the masking operator {self.name!r}: {exc}") from None
        if self.validate is not None:
            try:
                self.validate(out)
            except ValueError as exc:
                raise RiskcoreError(f"the masking operator {self.name!r}: {exc}") from None
        return out

    def words(self, params: Mapping[str, Any] | None = None) -> str:
        """Return what a step with these parameters does, in words (checked first).

        Parameters
        ----------
        params : mapping of str to Any, optional
            The step's parameters (default the operator's).

        Returns
        -------
        str
        """
        return self.describe(self.configure(params))

    def run(
        self,
        data: pd.DataFrame,
        columns: Sequence[str],
        params: Mapping[str, Any] | None = None,
        key: SecretKey | bytes | None = None,
    ) -> Masked:
        """Apply the operator to ``columns`` of ``data``.

        Parameters
        ----------
        data : pandas.DataFrame
            The table.
        columns : sequence of str
            The columns masked.
        params : mapping, optional
            Checked with :meth:`configure`.
        key : SecretKey or bytes, optional
            Needed when :attr:`needs_key`.

        Returns
        -------
        Masked

        Raises
        ------
        RiskcoreError
            For a column the table does not have, bad parameters, or a keyed
            operator without a key.
        """
        if not isinstance(data, pd.DataFrame):
            raise TypeError(f"data must be a pandas DataFrame, got {type(data).__name__}")
        absent = [c for c in columns if c not in data.columns]
        if absent:
            raise RiskcoreError(f"the table has no column {absent[0]!r} to mask")
        checked = self.configure(params)
        secret = None
        if self.needs_key:
            if key is None:
                raise RiskcoreError(f"the masking operator {self.name!r} needs the key")
            secret = SecretKey(key)
        return self.apply(data, list(columns), checked, secret)
