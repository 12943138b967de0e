"""The one assessment profile: everything an assessment is judged and remediated under.

A :class:`Profile` holds the column roles, the targets (privacy models and
the suppression limit, :class:`riskcore.criteria.Targets`), the missing-value
policy, the population model (a sampling fraction; sampling weights are a
column role), the value orders and t-closeness distances of the sensitive
attributes, a reference to a population table (its name and fingerprint,
never its rows), the full remediation recipe, masking steps included with
their parameters and the key's check value (never the key), and the history of
remediation steps with its undo / redo cursor
(:class:`riskcore.deidentify.history.base.History`). It is frozen and
validated once, here; the app keeps one in its session, the command line
reads it with ``--profile`` and writes it with ``assess --profile-out``, the
report and saved assessments store it. Every reader and writer goes through
:meth:`Profile.read` and :meth:`Profile.to_json`.

Versions: this writes version 4, ``{"riskcore_profile": 4, "roles": {...},
"targets": {...}, ..., "events": [...], "m": 2, "household": null, "context": null}``.
Version 4 added the release context (:class:`riskcore.criteria.context.Context`: the
answers the risk targets were chosen from; version 3 profiles read with none). Version 3
added the event columns and m of k^m-anonymity and the household column
(version 2 profiles read with none). They are fields of the profile, not
column roles: they parameterize an attacker model (k^m's "m visits of these
columns", the household's members) rather than say what a column is, a
column tagged "other" can be an event, and the role editor's six roles stay
as they are. Version 2 is version 3 without them. Version 1 (a Data page role profile with the
report's optional keys ``targets``, ``c``, ``sampling_fraction``, ``recipe``,
``ledger`` and ``missing`` beside the roles) still loads: its ``l`` is distinct
l, its thresholds 0.33 and 0.09 (which stood for k = 3 and k = 11) become 1/3
and 1/11, and without a threshold it had the default 0.09, now 1/11.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Self, TypeVar

from riskcore._json import read_json
from riskcore._results import Migrations, Result, dumps, plain
from riskcore.criteria import Targets
from riskcore.criteria.context import Context
from riskcore.errors import RiskcoreError, RolesError
from riskcore.metrics.missing import MISSING_POLICIES
from riskcore.roles import ColumnRoles

if TYPE_CHECKING:  # imported where used: `riskcore assess` never loads the remediation code
    from riskcore.deidentify.history.base import History
    from riskcore.deidentify.recipe.base import Recipe

__all__ = ["DEFAULT_TARGETS", "PROFILE_VERSION", "PopulationReference", "Profile"]

_T = TypeVar("_T")

#: Version of the profile JSON this riskcore writes (3 added events, m and household; 4 the
#: release context).
PROFILE_VERSION = 4

#: The targets of a new profile: the k = 11 preset (k-anonymity 11 and a highest prosecutor
#: record risk of 1/11, the US public-release precedent), with up to 2% of the records
#: suppressed by a remediation.
DEFAULT_TARGETS = Targets.of(k=11, threshold=1 / 11, max_suppression=0.02)

#: Most characters a profile file may have (a profile is a few KB; a recipe of large
#: hierarchies a few MB).
MAX_PROFILE_BYTES = 32 * 1024 * 1024

_LEGACY_KEYS = frozenset(
    {
        "riskcore_roles", "schema_version", "identifiers", "quasi_identifiers", "sensitive",
        "weights", "other", "targets", "sampling_fraction", "c", "recipe", "ledger", "missing",
    }
)  # fmt: skip

#: The keys a profile of each version may have (version 1: :data:`_LEGACY_KEYS`).
_KEYS_V2 = frozenset(
    {
        "riskcore_profile", "roles", "targets", "missing", "sampling_fraction", "distances",
        "orders", "population", "recipe", "ledger", "history",
    }
)  # fmt: skip
_KEYS_V3 = _KEYS_V2 | {"events", "m", "household", "sensitive_hierarchies"}
_KEYS = {1: _LEGACY_KEYS, 2: _KEYS_V2, 3: _KEYS_V3, 4: _KEYS_V3 | {"context"}}


def _profile_from_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Return a version-1 profile as version 2 writes it (see the module for what changes).

    Version 1 is a Data page role profile with the report's optional keys beside the
    roles: the roles move under ``roles``, the old targets and ``c`` become the
    criteria (a recipe's suppression limit was the profile's).
    """
    try:
        roles = ColumnRoles.from_dict(data)
    except RolesError as exc:
        raise RiskcoreError(str(exc)) from None
    old = data.get("targets") or {}
    if not isinstance(old, Mapping):
        raise RiskcoreError("'targets' in the profile must be an object")
    c = data.get("c", 2.0)
    if isinstance(c, bool) or not isinstance(c, (int, float)) or c <= 0:
        raise RiskcoreError(f"c must be a positive number, got {c!r}")
    targets = Targets.from_dict({"threshold": 0.09, **old, "c": c})
    recipe = _recipe(data.get("recipe"))
    if recipe is not None:  # the recipe's suppression limit was the profile's
        targets = replace(
            targets, max_suppression=Targets.from_dict(recipe.targets).max_suppression
        )
    role_lists = roles.to_dict()
    role_lists.pop("schema_version", None)
    return {
        "riskcore_profile": 2,
        "roles": role_lists,
        "targets": targets.to_dict(),
        "missing": data.get("missing", "own"),
        "sampling_fraction": data.get("sampling_fraction"),
        "recipe": data.get("recipe"),
        "ledger": data.get("ledger"),
    }


@dataclass(frozen=True)
class PopulationReference(Result):
    """Which identified population table k-map and delta-presence are judged against.

    Attributes
    ----------
    name : str
        Its file name.
    sha256 : str
        The SHA-256 of its bytes: the same table must be given again.
    count_column : str or None
        Its column of counts, when a row stands for several people.
    """

    name: str
    sha256: str
    count_column: str | None = None

    def __post_init__(self) -> None:
        if len(self.sha256) != 64 or any(ch not in "0123456789abcdef" for ch in self.sha256):
            raise RiskcoreError("the population table's fingerprint must be a hex SHA-256")


@dataclass(frozen=True)
class Profile(Result):
    """Everything an assessment is judged and remediated under (never data, never a key).

    Attributes
    ----------
    roles : ColumnRoles
        The role of every column.
    targets : Targets
        The targets the release must meet.
    missing : {"own", "any"}
        The missing-value policy of every class-based figure.
    sampling_fraction : float or None
        pi in (0, 1] when the data are a sample (journalist and marketer risk);
        sampling weights are the ``weights`` role instead.
    distances : dict of str to {"ordered", "equal", "hierarchical"}
        t-closeness ground distance per sensitive attribute (default by type).
    orders : dict of str to tuple
        Per sensitive attribute, its values lowest first (the ordered distance
        of text).
    population : PopulationReference or None
        The population table of k-map and delta-presence.
    recipe : Recipe or None
        The remediation, every step (masking included) with its parameters and
        the key's check value.
    ledger : dict or None
        A differential-privacy ledger as JSON (:class:`riskcore.dp.PrivacyLedger`),
        reported with the assessment.
    history : History or None
        The remediation steps applied in the session and the ones an undo took
        back (never a key); written only when there is one. Its applied steps fold
        into the recipe (:meth:`History.to_recipe`).
    events : tuple of str
        Event columns: quasi-identifiers that change from visit to visit (visit
        date, diagnosis, provider), judged by k^m-anonymity of each person's
        visits (:mod:`riskcore.metrics.longitudinal`); they need the person role
        and are not quasi-identifiers, sensitive, weights or identifiers too.
    m : int
        The most visits the k^m attacker knows (default 2). A k^m-anonymity
        target carries the same m and the same events (checked here).
    household : str or None
        The household column: sdcMicro's household risk beside the individual
        risk (:mod:`riskcore.metrics.household`).
    context : Context or None
        The release context the risk targets were chosen from (the answers, shown by
        the report); its targets are applied to ``targets`` where it is set
        (:meth:`Context.apply`), and the report says when they were changed since.
    sensitive_hierarchies : dict of str to tuple of tuples
        Per sensitive attribute, its generalization hierarchy as rows
        ``(value, level 1, ..., top)``, for the hierarchical t-closeness
        distance (required by it; checked by
        :func:`riskcore.metrics.closeness.check_value_hierarchy`). Written
        only when there is one, so older profiles load and older readers read
        the rest.
    """

    schema_version: ClassVar[int] = PROFILE_VERSION
    #: Versions 2 and 3 read as they are (their keys were added with defaults).
    migrations: ClassVar[Migrations] = {1: _profile_from_v1}

    roles: ColumnRoles = field(default_factory=ColumnRoles)
    targets: Targets = DEFAULT_TARGETS
    missing: Literal["own", "any"] = "own"
    sampling_fraction: float | None = None
    distances: dict[str, str] = field(default_factory=dict)
    orders: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    population: PopulationReference | None = None
    recipe: Recipe | None = None
    ledger: dict[str, Any] | None = None
    history: History | None = None
    events: tuple[str, ...] = ()
    m: int = 2
    household: str | None = None
    context: Context | None = None
    sensitive_hierarchies: dict[str, tuple[tuple[Any, ...], ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.roles, ColumnRoles):
            raise RiskcoreError("the profile's roles must be ColumnRoles")
        if not isinstance(self.targets, Targets):
            raise RiskcoreError("the profile's targets must be Targets")
        if self.missing not in MISSING_POLICIES:
            raise RiskcoreError(f"missing must be 'own' or 'any', got {self.missing!r}")
        sf = self.sampling_fraction
        if sf is not None and (
            isinstance(sf, bool) or not isinstance(sf, (int, float)) or not 0 < sf <= 1
        ):
            raise RiskcoreError(f"sampling_fraction must be in (0, 1], got {sf!r}")
        if sf is not None and self.roles.weights:
            raise RiskcoreError("give a sampling fraction or a sampling-weight column, not both")
        sens = set(self.roles.sensitive)
        for name, kind in (
            ("distances", self.distances),
            ("orders", self.orders),
            ("sensitive_hierarchies", self.sensitive_hierarchies),
        ):
            if not isinstance(kind, Mapping):
                raise RiskcoreError(f"'{name}' must map sensitive attributes")
            for col in kind:
                if col not in sens:
                    raise RiskcoreError(f"'{name}' names {col!r}, which is not sensitive")
        from riskcore.metrics.closeness import sensitive_hierarchies

        for col, d in self.distances.items():
            if d not in ("ordered", "equal", "hierarchical"):
                raise RiskcoreError(
                    f"the distance of {col!r} is 'ordered', 'equal' or 'hierarchical', not {d!r}"
                )
        object.__setattr__(
            self,
            "sensitive_hierarchies",
            sensitive_hierarchies(self.roles.sensitive, self.distances, self.sensitive_hierarchies),
        )
        object.__setattr__(self, "distances", dict(self.distances))
        object.__setattr__(self, "orders", {c: tuple(v) for c, v in self.orders.items()})
        if self.ledger is not None and not isinstance(self.ledger, Mapping):
            raise RiskcoreError("'ledger' in the profile must be an object")
        if self.context is not None and not isinstance(self.context, Context):
            raise RiskcoreError("the profile's context must be a Context")
        if self.history is not None:
            from riskcore.deidentify.history.base import History

            if not isinstance(self.history, History):
                raise RiskcoreError("the profile's history must be a History")
        self._check_events()

    def _check_events(self) -> None:
        """Check the event columns, m, the household and the k^m target against each other."""
        from riskcore.roles.assignment import event_names

        object.__setattr__(self, "events", event_names(self.events))
        m = self.m
        if isinstance(m, bool) or not isinstance(m, int) or m < 1:
            raise RiskcoreError(f"m must be a whole number of at least 1, not {m!r}")
        hh = self.household
        if hh is not None and not isinstance(hh, str):
            raise RiskcoreError(f"'household' must be a column name, not {hh!r}")
        roles = self.roles
        taken = {
            **{c: "a quasi-identifier" for c in roles.quasi_identifiers},
            **{c: "sensitive" for c in roles.sensitive},
            **{c: "the sampling weight" for c in roles.weights},
            **{c: "the person" for c in roles.persons},
        }
        for col in self.events:
            if col in taken or col in roles.identifiers:
                what = taken.get(col, "a direct identifier")
                raise RiskcoreError(f"the event column {col!r} cannot be {what} too")
        if self.events and not roles.persons:
            raise RiskcoreError(
                "event columns need the person column (k^m-anonymity counts each person's "
                "events): tag the column linking a person's rows"
            )
        if hh is not None and (hh in taken or hh in self.events):
            raise RiskcoreError(
                f"the household column {hh!r} cannot be {taken.get(hh, 'an event column')} too"
            )
        km = self.targets.find("km-anonymity")
        if km is not None:
            if not self.events:
                raise RiskcoreError(
                    "a k^m-anonymity target needs event columns (and the person column)"
                )
            named = tuple(getattr(km, "events", ()))
            if named and set(named) != set(self.events):
                raise RiskcoreError(
                    f"the k^m-anonymity target names the event columns {', '.join(named)}; "
                    f"the profile's are {', '.join(self.events)}"
                )
            if getattr(km, "m", self.m) != self.m:
                raise RiskcoreError(
                    f"the k^m-anonymity target has m = {getattr(km, 'm', None)}; the "
                    f"profile's m is {self.m}"
                )

    @property
    def event_k(self) -> int:
        """Return the k people at risk of k^m-anonymity are counted by.

        The k^m-anonymity target's k, else the k of the record-risk threshold
        (the smallest class size whose risk 1/k is within it: 11 for 1/11).
        """
        km = self.targets.find("km-anonymity")
        if km is not None:
            return int(getattr(km, "k"))  # noqa: B009 - a KmAnonymity
        return max(math.ceil(1.0 / self.threshold - 1e-9), 1)

    # ------------------------------------------------------------------ use

    def validate_against(self, columns: Sequence[str]) -> Profile:
        """Check that every column the profile names is in the table; return self.

        Parameters
        ----------
        columns : sequence of str
            The table's column names.

        Returns
        -------
        Profile

        Raises
        ------
        RiskcoreError
            Naming the first column that is not there.
        """
        try:
            self.roles.validate_against(list(columns))
        except RolesError as exc:
            raise RiskcoreError(str(exc)) from None
        present = set(map(str, columns))
        for what, col in (
            *(("event", c) for c in self.events),
            *((("household", self.household),) if self.household is not None else ()),
        ):
            if col not in present:
                raise RiskcoreError(f"the {what} column {col!r} is not in the table")
        return self

    def with_(self, **changes: Any) -> Profile:
        """Return a copy with some fields changed (validated again).

        Parameters
        ----------
        **changes : Any
            New values by field name (``targets=...``, ``recipe=...``).

        Returns
        -------
        Profile
        """
        return replace(self, **changes)

    @cached_property
    def cache_key(self) -> str:
        """Return the SHA-256 of the profile's canonical JSON: equal profiles, equal keys.

        Computed once per profile (it is frozen): a cache keyed by it (the app's cached
        wrappers, a lattice's key) neither writes nor reads the JSON again on each call.
        The JSON is :meth:`to_dict` with its keys sorted.
        """
        text = dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    @property
    def threshold(self) -> float:
        """Return the record-risk threshold the figures count records at risk by.

        The threshold of the profile's record-risk target, else 1/11 (the k =
        11 preset) so that "records at risk" is always stated against a
        cited value.
        """
        crit = self.targets.find("record-risk")
        return float(getattr(crit, "threshold", 1 / 11))

    # ------------------------------------------------------------------ JSON

    def to_dict(self) -> dict[str, Any]:
        """Return the profile as JSON-ready values (version :data:`PROFILE_VERSION`).

        Returns
        -------
        dict of str to Any
            Under the marker ``"riskcore_profile"``; ``history`` and
            ``sensitive_hierarchies`` only when set, so older readers read the rest.
        """
        roles = self.roles.to_dict()
        roles.pop("schema_version", None)
        out = {
            "riskcore_profile": PROFILE_VERSION,
            "roles": roles,
            "targets": self.targets.to_dict(),
            "missing": self.missing,
            "sampling_fraction": self.sampling_fraction,
            "distances": dict(self.distances),
            "orders": plain({c: list(v) for c, v in self.orders.items()}),  # numpy values too
            "population": None if self.population is None else self.population.to_dict(),
            "recipe": None if self.recipe is None else self.recipe.to_dict(),
            "ledger": self.ledger,
        }
        if self.history is not None:  # only when there is one: older readers read the rest
            out["history"] = self.history.to_dict()
        out["events"] = list(self.events)
        out["m"] = self.m
        out["household"] = self.household
        out["context"] = None if self.context is None else self.context.to_dict()
        if self.sensitive_hierarchies:  # only when there is one: older readers read the rest
            out["sensitive_hierarchies"] = plain(self.sensitive_hierarchies)
        return out

    def to_json(self) -> str:
        """Return the profile as strict JSON text (indented).

        Returns
        -------
        str
            :meth:`to_dict` indented by 2; no NaN or infinity.
        """
        return dumps(self.to_dict(), indent=2)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Read a profile of any version (see the module).

        Parameters
        ----------
        data : mapping of str to Any
            A profile of any version, as :meth:`to_dict` (or older riskcore) wrote it.

        Returns
        -------
        Self

        Raises
        ------
        RiskcoreError
            When it is not a valid profile, naming what is wrong.
        """
        if not isinstance(data, Mapping):
            raise RiskcoreError("the profile must be a JSON object")
        version = cls.data_version(data)
        marked = "riskcore_profile" in data  # version 1 never wrote the marker
        if not isinstance(version, int) or isinstance(version, bool) or version < 1 + marked:
            raise RiskcoreError(f"unknown profile version {version!r}")
        if version > PROFILE_VERSION:
            raise RiskcoreError(
                f"the profile is version {version}; this riskcore reads versions up to "
                f"{PROFILE_VERSION}"
            )
        unknown = sorted(set(map(str, data)) - _KEYS[version])
        if unknown:
            known = f" (known: {', '.join(sorted(_LEGACY_KEYS))})" if version == 1 else ""
            raise RiskcoreError(f"the profile has an unknown key {unknown[0]!r}{known}")
        data = cls.upgrade(data)
        try:
            roles = ColumnRoles.from_dict(data.get("roles") or {"other": []})
        except RolesError as exc:
            raise RiskcoreError(str(exc)) from None
        return cls(
            roles=roles,
            targets=Targets.from_dict(data["targets"]) if "targets" in data else DEFAULT_TARGETS,
            missing=data.get("missing", "own"),
            sampling_fraction=data.get("sampling_fraction"),
            distances=dict(data.get("distances") or {}),
            orders={c: tuple(v) for c, v in (data.get("orders") or {}).items()},
            population=_population(data.get("population")),
            recipe=_recipe(data.get("recipe")),
            ledger=_mapping("ledger", data.get("ledger")),
            history=_history(data.get("history")),
            events=_names("events", data.get("events") or []),
            m=data.get("m", 2),
            household=data.get("household"),
            context=_context(data.get("context")),
            sensitive_hierarchies=_mapping(
                "sensitive_hierarchies", data.get("sensitive_hierarchies")
            )
            or {},
        )

    @classmethod
    def data_version(cls, data: Mapping[str, Any]) -> Any:
        """Return a profile's version: its ``riskcore_profile`` (version 1 has none).

        Parameters
        ----------
        data : mapping of str to Any
            A profile of any version.

        Returns
        -------
        object
            The version as written (checked by :meth:`from_dict`).
        """
        return data.get("riskcore_profile", 1)

    @classmethod
    def read(cls, source: Mapping[str, Any] | str | bytes | Path) -> Profile:
        """Read a profile from JSON text, bytes, a mapping or a file path: the one reader.

        Parameters
        ----------
        source : mapping, str, bytes or pathlib.Path
            A :class:`~pathlib.Path` is read (at most :data:`MAX_PROFILE_BYTES`);
            text and bytes are JSON.

        Returns
        -------
        Profile

        Raises
        ------
        RiskcoreError
            When the file cannot be read or the profile is not valid.
        """
        if isinstance(source, Path):
            if source.exists() and not source.is_file():  # a FIFO or a device would block
                raise RiskcoreError(f"the profile {source} is not a regular file")
            try:
                with source.open("rb") as fh:
                    raw = fh.read(MAX_PROFILE_BYTES + 1)
            except OSError as exc:
                raise RiskcoreError(f"cannot read the profile {source}: {exc.strerror}") from None
            if len(raw) > MAX_PROFILE_BYTES:
                raise RiskcoreError(f"the profile {source} is over {MAX_PROFILE_BYTES // 2**20} MB")
            source = raw
        if isinstance(source, (str, bytes)):
            obj = read_json(source, what="the profile")
        else:
            obj = source
        return cls.from_dict(obj)


def _names(name: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise RiskcoreError(f"'{name}' in the profile must be a list of column names")
    return tuple(value)


def _mapping(name: str, value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise RiskcoreError(f"'{name}' in the profile must be an object")
    return dict(value)


def _member(
    name: str, what: str, value: Any, from_dict: Callable[[dict[str, Any]], _T]
) -> _T | None:
    """Return the profile's member ``name`` read by ``from_dict``, None when it has none.

    A value that is not an object, or that ``from_dict`` refuses, is a RiskcoreError naming
    ``what`` ("recipe", "population table").
    """
    obj = _mapping(name, value)
    if obj is None:
        return None
    try:
        return from_dict(obj)
    except (KeyError, TypeError, ValueError) as exc:
        raise RiskcoreError(f"the {what} in the profile is not valid: {exc}") from None


def _recipe(value: Any) -> Recipe | None:
    def read(obj: dict[str, Any]) -> Recipe:
        from riskcore.deidentify.recipe.base import Recipe

        return Recipe.from_dict(obj)

    return _member("recipe", "recipe", value, read)


def _history(value: Any) -> History | None:
    def read(obj: dict[str, Any]) -> History:
        from riskcore.deidentify.history.base import History

        return History.from_dict(obj)

    return _member("history", "history", value, read)


def _context(value: Any) -> Context | None:
    return _member("context", "release context", value, Context.from_dict)


def _population(value: Any) -> PopulationReference | None:
    return _member("population", "population table", value, PopulationReference.from_dict)
