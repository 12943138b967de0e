"""What a review holds: its results (role reasons, attacks, remediation, limitations, Review).

Frozen results on :class:`riskcore._results.Result`; :meth:`Review.to_dict`
is the report's JSON twin (``riskcore-report/2``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Self

from riskcore._results import Result, dumps
from riskcore.attacks.homogeneity import HomogeneityResult
from riskcore.attacks.linkage.results import LinkageResult
from riskcore.criteria import Verdict
from riskcore.deidentify.recipe.base import Recipe
from riskcore.deidentify.recipe.steps import RecipeStep
from riskcore.errors import RiskcoreError
from riskcore.metrics import Assessment
from riskcore.profile import Profile
from riskcore.review.utility import CountTable, TwoWayTable, ValueCounts
from riskcore.roles.persons import RowsNotPeople
from riskcore.utility.numeric import NumericRiskUtility
from riskcore.utility.tables import ClassificationUtility, ColumnChange

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "ATTACK_P",
    "REPORT_SCHEMA",
    "SUDA_MAX_ROWS",
    "AttackRun",
    "CountTable",
    "Limitation",
    "Readiness",
    "ReleasedIdentifiers",
    "Remediation",
    "Review",
    "RoleReason",
    "TwoWayTable",
    "ValueCounts",
    "dataset_facts",
]

#: Name and version of the report's JSON format (raise the version when a field changes meaning).
REPORT_SCHEMA = "riskcore-report/2"

#: Largest table whose special uniques (SUDA) the report computes (as the Records page).
SUDA_MAX_ROWS = 200_000

#: Confidence at which the report's linkage attack counts a sensitive value as learned (the
#: Attacks page's default).
ATTACK_P = 0.9


@dataclass(frozen=True)
class RoleReason(Result):
    """Why a column has its role: the suggestion, or the choice of the person building it.

    Attributes
    ----------
    column : str
        The column's name.
    role : str
        The role it has.
    suggested : str or None
        The role riskcore suggested (None: no suggestion).
    reason : str
        The suggestion's reason (the rule that fired).
    chosen : bool
        True when the role differs from the suggestion (chosen in the session
        or the profile).
    """

    column: str
    role: str
    suggested: str | None
    reason: str
    chosen: bool


@dataclass(frozen=True)
class AttackRun(Result):
    """The attacks the profile alone allows, on one table.

    Attributes
    ----------
    of : str
        Which table: "the table as recorded" or "the remediated table".
    known : tuple of str
        The quasi-identifiers the attacker knows, of every record, without error.
    p : float
        Confidence at which a sensitive value counts as learned.
    linkage : LinkageResult
        The attacker's join on the known columns (rates with 95% Wilson intervals).
    homogeneity : tuple of HomogeneityResult
        Per sensitive attribute, the classes whose records share one value.
    not_run : tuple of str
        The attacks left to the Attacks page (differencing, two releases).
    """

    of: str
    known: tuple[str, ...]
    p: float
    linkage: LinkageResult
    homogeneity: tuple[HomogeneityResult, ...]
    not_run: tuple[str, ...] = ("differencing", "two releases")


@dataclass(frozen=True)
class Remediation(Result):
    """The recipe applied to the table, as the report states it.

    Attributes
    ----------
    recipe : Recipe
        Every step with its parameters and the key's check value (never the key).
    steps : tuple of RecipeStep
        Every step in words, in the order it applies
        (:func:`riskcore.deidentify.recipe.steps.recipe_steps`): "ssn: last 4 digits kept".
    records_before, records_after : int
    suppressed : int
        Records of classes breaking the recipe's targets, removed.
    within_limit : bool
        Whether they fit the recipe's suppression limit.
    n_unknown : dict of str to int
        Per QI, records holding a value the recipe's hierarchy does not know.
    information_loss : dict or None
        NCP, precision, discernibility and average class size of the levels.
    not_reapplied : tuple of str
        Keyed steps named but not redone (the report holds no key).
    column_changes : tuple of ColumnChange
        Per quasi-identifier and sensitive attribute, the records whose value is unchanged,
        changed or suppressed (:func:`riskcore.utility.tables.column_change`).
    classification : ClassificationUtility or None
        A naive Bayes predicting the first sensitive attribute from the quasi-identifiers,
        trained and scored before and after
        (:func:`riskcore.utility.tables.classification_utility`); None without a
        sensitive attribute.
    value_counts : tuple of ValueCounts
        Per quasi-identifier and sensitive attribute released (at most
        :data:`~riskcore.review.utility.REPORT_MAX_VALUE_COLUMNS`), its records per value
        as recorded and released (:func:`riskcore.utility.tables.value_counts`, at most
        :data:`~riskcore.review.utility.REPORT_TOP_VALUES` bars a side).
    two_way : TwoWayTable or None
        The first quasi-identifier against the first sensitive attribute (or the second
        quasi-identifier) before and after, with Cramer's V
        (:func:`riskcore.utility.tables.two_way`); None without two such columns.
    numeric : NumericRiskUtility or None
        sdcMicro's dRisk and IL1s of the columns the recipe microaggregates or adds noise
        to, after its perturbation steps (:attr:`AppliedRecipe.numeric
        <riskcore.deidentify.recipe.apply.AppliedRecipe>`); None without such steps. Before
        any perturbation dRisk is 1 and IL1s 0 by definition.
    person : str or None
        The recipe's person column: ``suppressed`` counts people (all of their rows
        removed), of ``people_before``.
    people_before, people_after : int or None
        With a person column, the people of the table and of the release.
    suppressed_rows : int or None
        With a person column, the rows of the suppressed people.
    blanked : int
        Records (people, with a person column) of the release with a cell blanked by the
        recipe's local suppression: they count toward the suppression limit with
        ``suppressed``.
    """

    recipe: Recipe
    steps: tuple[RecipeStep, ...]
    records_before: int
    records_after: int
    suppressed: int
    within_limit: bool
    n_unknown: dict[str, int]
    information_loss: dict[str, float] | None
    not_reapplied: tuple[str, ...] = ()
    column_changes: tuple[ColumnChange, ...] = ()
    classification: ClassificationUtility | None = None
    numeric: NumericRiskUtility | None = None
    value_counts: tuple[ValueCounts, ...] = ()
    two_way: TwoWayTable | None = None
    person: str | None = None
    people_before: int | None = None
    people_after: int | None = None
    suppressed_rows: int | None = None
    blanked: int = 0

    @property
    def units_before(self) -> int:
        """Return what ``suppressed`` is a share of: the people, else the records."""
        return self.records_before if self.people_before is None else self.people_before

    @property
    def units_after(self) -> int:
        """Return the people (else the records) of the release."""
        return self.records_after if self.people_after is None else self.people_after


@dataclass(frozen=True)
class Limitation(Result):
    """What the report assumed or did not check (phrased by :mod:`riskcore.report`).

    Attributes
    ----------
    kind : str
        ``attacker``, ``population``, ``missing``, ``not-applicable``,
        ``attacks-not-run``, ``keyed-steps``, ``suda-skipped``, ``suda-capped``,
        ``suda-people``, ``free-text``, ``population-table``, ``recipe-limit``,
        ``unit`` (the unit of privacy: a person column, its people and rows),
        ``rows-not-people`` (a person column in the table, none tagged: its facts
        are a :class:`~riskcore.roles.persons.RowsNotPeople`), ``events``
        (k^m-anonymity's attacker: the event columns, m, k) or ``household``
        (the household risk's independence assumption).
    facts : dict
        What the sentence needs (column names, counts, models).
    """

    kind: str
    facts: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ReleasedIdentifiers(Result):
    """Identifiers the built-in patterns found written in one released column.

    Read from the ``found`` facts of the ``free-text`` :class:`Limitation`
    (:func:`riskcore.review.limitations.free_text_limitation`).

    Attributes
    ----------
    column : str
        The released column (tagged other or sensitive, or untagged).
    kinds : tuple of str
        What was found, as the patterns name it ("SSNs", "phone numbers").
    letters : tuple of str
        Their HIPAA Safe Harbor letters (45 CFR 164.514(b)(2)(i)), sorted.
    cells : int
        Cells holding one: the most of any one kind.
    """

    column: str
    kinds: tuple[str, ...]
    letters: tuple[str, ...] = ()
    cells: int = 0

    @classmethod
    def from_found(cls, found: Mapping[str, Any]) -> Self:
        """Read one entry of the free-text limitation's ``found`` facts.

        Parameters
        ----------
        found : mapping of str to Any
            ``column``, ``kinds``, ``letters`` and ``cells``, as
            :func:`riskcore.review.limitations.free_text_limitation` writes them.

        Returns
        -------
        Self
            The identifiers found in that column.
        """
        return cls(
            column=str(found["column"]),
            kinds=tuple(str(k) for k in found.get("kinds") or ()),
            letters=tuple(str(k) for k in found.get("letters") or ()),
            cells=int(found.get("cells") or 0),
        )


@dataclass(frozen=True)
class Readiness(Result):
    """Whether the release may go: the targets met and no identifier left in released columns.

    Derived, never judged again: ``targets_met`` is the ``passed`` of the
    verdict the report gives (:func:`riskcore.criteria.evaluate`, the only
    judge of targets), and the identifiers are the free-text scan's findings
    (:func:`riskcore.review.limitations.free_text_limitation`). A release is
    ready when the targets are met, the released columns were scanned, the
    built-in patterns found no HIPAA Safe Harbor identifier in them
    (45 CFR 164.514(b)(2)(i)), none was left partly read, and no person
    column goes untagged (``rows_not_people``: the targets were then judged
    on rows, and a class of k rows can hold fewer than k people).

    Attributes
    ----------
    targets_met : bool
        The verdict's ``passed``.
    of : str
        Which table the verdict is on.
    scanned : bool
        Whether the released columns were scanned (False for a review
        without the free-text limitation: one filed before the scan existed).
    identifiers : tuple of ReleasedIdentifiers
        Per released column, the identifiers found written in it.
    unchecked : tuple of str
        Released text columns read only in part (beyond the scan's limit).
    rows_not_people : RowsNotPeople or None
        The table's person column when none is tagged as the person (the
        ``rows-not-people`` limitation); None otherwise.
    """

    targets_met: bool
    of: str
    scanned: bool = True
    identifiers: tuple[ReleasedIdentifiers, ...] = ()
    unchecked: tuple[str, ...] = ()
    rows_not_people: RowsNotPeople | None = None

    @property
    def ready(self) -> bool:
        """Return whether the release is ready: targets met on people, nothing found or unread."""
        return (
            self.targets_met
            and self.scanned
            and not self.identifiers
            and not self.unchecked
            and self.rows_not_people is None
        )

    @classmethod
    def of_review(cls, verdict: Verdict, of: str, limitations: Sequence[Limitation]) -> Self:
        """Return the readiness of a release from its verdict and its limitations.

        Parameters
        ----------
        verdict : Verdict
            The verdict the report gives (its ``passed`` is taken as it is).
        of : str
            Which table the verdict is on.
        limitations : sequence of Limitation
            The review's limitations; the ``free-text`` one holds the scan's facts.

        Returns
        -------
        Readiness
        """
        scan = next((x for x in limitations if x.kind == "free-text"), None)
        facts = {} if scan is None else scan.facts
        person = next((x for x in limitations if x.kind == "rows-not-people"), None)
        return cls(
            targets_met=bool(verdict.passed),
            of=of,
            scanned=scan is not None,
            identifiers=tuple(ReleasedIdentifiers.from_found(x) for x in facts.get("found") or ()),
            unchecked=tuple(str(u["column"]) for u in facts.get("unchecked") or ()),
            rows_not_people=None if person is None else RowsNotPeople.from_dict(person.facts),
        )

    def to_dict(self) -> dict[str, Any]:
        """Return the readiness as JSON-ready values, with ``ready``.

        :meth:`from_dict` (the base's) reads the fields and derives ``ready`` again.
        ``rows_not_people`` is written only when set, so a readiness without it reads
        as before it existed.

        Returns
        -------
        dict of str to Any
            Every field, with ``schema_version`` and ``ready`` (derived).
        """
        out = {**super().to_dict(), "ready": self.ready}
        if self.rows_not_people is None:
            del out["rows_not_people"]
        return out


@dataclass(frozen=True)
class Review(Result):
    """Every number of one filed assessment, and what produced it.

    Attributes
    ----------
    built_at : str
        When it was built: ISO 8601, UTC.
    built_by : str or None
        The name given in the session (None when none was given).
    software : dict of str to str
        Versions of riskcore, Python, pandas and numpy.
    dataset : dict
        ``name``, ``sha256``, ``fingerprint_of``, ``rows``, ``columns``, ``missing``.
    profile : Profile
        Roles, targets, policy, population model and the full recipe.
    reasons : tuple of RoleReason
    before : Assessment
        The table as recorded.
    verdict_before : Verdict
        The targets judged on the table as recorded.
    after : Assessment or None
        The table after the recipe.
    verdict_after : Verdict or None
        The targets judged on the remediated table.
    remediation : Remediation or None
    attacks_before, attacks_after : AttackRun or None
    special_uniques : dict or None
        The SUDA summary of the table as recorded (up to :data:`SUDA_MAX_ROWS` rows).
    privacy_budget : dict or None
        The DP ledger's entries and the budget spent.
    limitations : tuple of Limitation
    audit_head : dict or None
        ``{"seq": int, "hash": str}``: the audit log's last entry when the
        report was built (:class:`riskcore.store.AuditHead`), given by the
        caller; None when there was no audit log.
    identity : dict or None
        Who built it (:meth:`riskcore.store.identity.Identity.to_dict`:
        subject, issuer, roles, authenticated), given by the caller; None
        when none was given (the command line): the report says
        "unauthenticated".
    parameters : dict
        Every parameter of the assessment (c, threshold, distances, engine, policy).
    command : str
        The command line that reproduces the numbers.
    """

    schema: ClassVar[str] = REPORT_SCHEMA

    built_at: str
    built_by: str | None
    software: dict[str, str]
    dataset: dict[str, Any]
    profile: Profile
    reasons: tuple[RoleReason, ...]
    before: Assessment
    verdict_before: Verdict
    parameters: dict[str, Any]
    command: str
    after: Assessment | None = None
    verdict_after: Verdict | None = None
    remediation: Remediation | None = None
    attacks_before: AttackRun | None = None
    attacks_after: AttackRun | None = None
    special_uniques: dict[str, Any] | None = None
    privacy_budget: dict[str, Any] | None = None
    limitations: tuple[Limitation, ...] = ()
    audit_head: dict[str, Any] | None = None
    identity: dict[str, Any] | None = None

    @property
    def verdict(self) -> Verdict:
        """Return the verdict the report gives: on the remediated table when there is one."""
        return self.verdict_after if self.verdict_after is not None else self.verdict_before

    @property
    def of(self) -> str:
        """Return which table the verdict is on."""
        return "the remediated table" if self.after is not None else "the table as recorded"

    @property
    def readiness(self) -> Readiness:
        """Return the release decision: the verdict's targets and the identifiers left.

        Derived from :attr:`verdict` (never judged again) and the ``free-text``
        limitation; see :class:`Readiness`.
        """
        return Readiness.of_review(self.verdict, self.of, self.limitations)

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON twin: every field, with ``schema``, ``schema_version``, the verdict.

        ``verdict`` repeats the verdict the report gives (with ``of``), so a
        reader need not choose between ``verdict_before`` and ``verdict_after``;
        ``readiness`` states the release decision (:attr:`readiness`: the
        targets met and no identifier left in released columns, with ``ready``).
        Both are derived: :meth:`from_dict` reads past them.

        Returns
        -------
        dict of str to Any
            Also ``readiness``.
        """
        out = {"schema": self.schema, **super().to_dict()}
        out["verdict"] = {"of": self.of, **self.verdict.to_dict()}
        out["readiness"] = self.readiness.to_dict()
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild a review from its JSON twin (without per-class arrays).

        Parameters
        ----------
        data : mapping of str to Any
            The JSON twin, its ``schema`` :data:`REPORT_SCHEMA`.

        Returns
        -------
        Self
        """
        if data.get("schema") != REPORT_SCHEMA:
            raise RiskcoreError(f"not a {REPORT_SCHEMA} document (schema {data.get('schema')!r})")
        rest = {k: v for k, v in data.items() if k not in ("schema", "verdict", "readiness")}
        return super().from_dict(rest)

    def to_json(self) -> str:
        """Return the JSON twin as strict JSON text (indented, keys in field order).

        Returns
        -------
        str
        """
        return dumps(self.to_dict(), indent=2)


def dataset_facts(
    data: pd.DataFrame, *, sha256: str | None = None, name: str = "data"
) -> dict[str, Any]:
    """Return the dataset's fingerprint as a report files it.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    sha256 : str, optional
        SHA-256 of the file's bytes; without it, of the table written as CSV
        (UTF-8, no index).
    name : str, default "data"
        The file's name (or "demo").

    Returns
    -------
    dict
        ``name``, ``sha256``, ``fingerprint_of`` (which bytes were hashed),
        ``rows``, ``columns``, ``missing`` (missing cells).
    """
    if sha256 is not None:
        sha, of = sha256, "the file's bytes"
    else:
        from riskcore.io.digest import fingerprint

        text = data.to_csv(index=False, lineterminator="\n").encode("utf-8")
        sha, of = fingerprint(text), "the table written as CSV (UTF-8, no index)"
    return {
        "name": name,
        "sha256": sha,
        "fingerprint_of": of,
        "rows": len(data),
        "columns": data.shape[1],
        "missing": int(data.isna().sum().sum()),
    }
