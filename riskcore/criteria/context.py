"""A threshold with its context: the release, the attacks it allows, and the risk it may keep.

El Emam's risk-based methodology ([E13]_; El Emam and Arbuckle [EA14]_, chapter 2) as the
Information and Privacy Commissioner of Ontario states it step by step ([IPC16]_, the
source of every table here): the overall risk of a release is

    Pr(re-id) = Pr(re-id | attack) x Pr(attack)         (IPC16 step 6: data risk x context risk)

and must be at most a threshold chosen from the invasion of privacy. So the data may keep
Pr(re-id | attack) <= threshold / Pr(attack), measured as the highest record risk (a
public or semi-public release: a demonstration attack targets the most vulnerable row) or
as the "strict" average risk (a non-public release: the average, with no row above a cap,
IPC16 step 4.2). That bound is what the one verdict judges: :meth:`Context.criteria`
gives a :class:`~riskcore.criteria.RecordRisk` (the maximum) or an
:class:`~riskcore.criteria.AverageRisk` with a :class:`~riskcore.criteria.RecordRisk`
cap (the strict average), the existing criteria; nothing else judges a context.

The numbers, and where each comes from (all read in [IPC16]_, June 2016 edition):

* the threshold of each level of invasion of privacy, :data:`INVASION_THRESHOLDS`:
  low 0.1, medium 0.075, high 0.05 (IPC16 step 3 table, citing El Emam's Guide p. 228);
* Pr(attack) of a public release: 1 (IPC16 step 5, "public data releases");
* the deliberate insider attack, :data:`ATTEMPT_PROBABILITIES`, from the privacy and
  security controls and the recipient's motives and capacity: 0.05 to 0.6 (IPC16 step 5,
  attack 1 table, citing the Guide p. 208);
* the acquaintance, 1 - (1 - p)^m with p the share of the population with the data's
  condition and m the people one knows, 150 (Dunbar's number) to 190 (IPC16 step 5,
  attack 2);
* the data breach: the breach rate of the recipient's industry (IPC16 step 5, attack 3
  gives no number). :data:`HIMSS_BREACH_RATE` = 0.27 is the average breach rate of the
  HIMSS survey as Kniola [K16]_ quotes it; a 0.14 for strong controls, which is sometimes
  cited, was not found in any source read here and is not offered;
* a non-public release takes the highest of the three (IPC16 step 5); a semi-public one
  the same with the deliberate attack at low controls and high motives, 0.6 (IPC16,
  "semi-public data releases");
* the strict average's cap on a row's risk: 1/3 is "often proposed", 1/2 "may also be
  used" (IPC16 step 4.2).

ARX 3.9.2 (the peer tool of the rest of :mod:`riskcore.criteria`) has no context model: its
sources mention no motives, acquaintance or breach, so this module is checked against the
sources above only.

The checklists of controls, motives and capacity, and invasion of privacy
(:data:`CONTROLS_ITEMS`, :data:`MOTIVES_ITEMS`, :data:`INVASION_ITEMS`) are IPC16's lists,
recorded as what the assessor considered; the level (low / medium / high) is the
assessor's judgement. El Emam's Guide scores them with its own assessment tools (pp.
283-290, 290-371, 373-376), which were not available here: no scoring rule is invented.

References
----------
.. [IPC16] Information and Privacy Commissioner of Ontario, *De-identification Guidelines
   for Structured Data*, June 2016, steps 3 to 6.
.. [E13] K. El Emam, *Guide to the De-Identification of Personal Health Information*, CRC
   Press, 2013.
.. [EA14] K. El Emam and L. Arbuckle, *Anonymizing Health Data*, O'Reilly, 2014, ch. 2.
.. [K16] L. Kniola, "Calculating the Risk of Re-Identification of Patient-Level Data Using
   Quantitative Approach", PhUSE 2016, paper DH09 (tables 2, 7 and 10: worked examples).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Self

from riskcore._files import read_regular
from riskcore._json import read_json
from riskcore._results import Result
from riskcore.criteria.base import Criterion
from riskcore.criteria.models import AverageRisk, RecordRisk
from riskcore.criteria.targets import Targets
from riskcore.errors import RiskcoreError

__all__ = [
    "ATTEMPT_PROBABILITIES",
    "CONTEXT_KINDS",
    "CONTROLS_ITEMS",
    "DUNBAR",
    "HIMSS_BREACH_RATE",
    "INVASION_ITEMS",
    "INVASION_THRESHOLDS",
    "LEVELS",
    "MOTIVES_ITEMS",
    "RELEASES",
    "STRICT_CAP",
    "Context",
    "acquaintance_probability",
]

Release = Literal["public", "semi-public", "non-public"]
Level = Literal["low", "medium", "high"]

#: The release models of IPC16 step 1 (an internal share is non-public: IPC16 treats sharing
#: among institutions under a data sharing agreement as non-public).
RELEASES: tuple[str, ...] = ("public", "semi-public", "non-public")
#: The levels every qualitative answer takes.
LEVELS: tuple[str, ...] = ("low", "medium", "high")

#: Invasion of privacy -> re-identification risk threshold (IPC16 step 3 table; cell sizes
#: 10, 15 and 20).
INVASION_THRESHOLDS: dict[str, float] = {"low": 0.1, "medium": 0.075, "high": 0.05}

#: (privacy and security controls, motives and capacity) -> Pr(deliberate attack)
#: (IPC16 step 5, attack 1 table).
ATTEMPT_PROBABILITIES: dict[tuple[str, str], float] = {
    ("high", "low"): 0.05,
    ("high", "medium"): 0.1,
    ("high", "high"): 0.2,
    ("medium", "low"): 0.2,
    ("medium", "medium"): 0.3,
    ("medium", "high"): 0.4,
    ("low", "low"): 0.4,
    ("low", "medium"): 0.5,
    ("low", "high"): 0.6,
}

#: The people one knows, on average (Dunbar's number; IPC16 step 5 attack 2 allows 150 to 190).
DUNBAR = 150
#: Most acquaintances accepted (a stated limit: the formula is closed-form, the bound only
#: keeps the answer plausible).
MAX_ACQUAINTANCES = 10_000
#: The HIMSS survey's average breach rate, as Kniola [K16]_ quotes it ("Data breach").
HIMSS_BREACH_RATE = 0.27
#: The strict average's usual cap on a row's risk (IPC16 step 4.2: 0.33, i.e. k = 3).
STRICT_CAP = 1 / 3

#: IPC16 step 5's privacy and security controls of a data sharing agreement.
CONTROLS_ITEMS: dict[str, str] = {
    "need_to_know": "only authorized staff use the data, on a need-to-know basis",
    "confidentiality": "a non-disclosure or confidentiality agreement binds all staff",
    "retention": "the data are disposed of after a set retention period",
    "no_third_party": "no disclosure to third parties without controls or approval",
    "policies": "privacy and security policies are in place, monitored and enforced",
    "training": "mandatory, ongoing privacy and security training for everyone",
    "breach_protocol": "a breach protocol with immediate written notice to the custodian",
    "anti_malware": "virus checking or anti-malware is in place",
    "audit_trail": "an audit trail records who accessed the data, when and how",
    "encryption": "electronic transfer is encrypted",
    "physical": "computers and files are kept in secure, locked settings",
}
#: IPC16 step 5's questions on the recipient's motives and capacity.
MOTIVES_ITEMS: dict[str, str] = {
    "past_incident": "the recipient has had an incident with the custodian before",
    "reasons": "financial or other reasons exist to re-identify someone",
    "expertise": "the recipient has the technical expertise or money to try",
    "other_data": "the recipient holds other data that could be linked",
}
#: IPC16 step 3's factors of the invasion of privacy (assessed as if the data were identified).
INVASION_ITEMS: dict[str, str] = {
    "sensitive": "the information is sensitive",
    "detailed": "the information is detailed or wide in scope",
    "many_people": "many people are in the data",
    "harm": "a breach or misuse could harm the people",
    "no_authority": "the disclosure is not permitted without consent",
    "expected_private": "the people expected their information to stay private",
    "no_consent": "the people did not consent to, or were not told of, this use",
}

#: The kinds of criteria a context sets (the ones it replaces in a set of targets).
CONTEXT_KINDS = frozenset({"record-risk", "average-risk", "k-anonymity"})


def acquaintance_probability(prevalence: float, acquaintances: int = DUNBAR) -> float:
    """Return the probability that a recipient knows someone in the data: 1 - (1 - p)^m.

    IPC16 step 5, attack 2 (El Emam's Guide p. 211): p is the share of the population
    with the condition the data are about, m the number of people one knows.

    Parameters
    ----------
    prevalence : float
        p in [0, 1].
    acquaintances : int, default 150
        m, at least 1 (150, Dunbar's number, to 190).

    Returns
    -------
    float
        In [0, 1].
    """
    return float(-math.expm1(acquaintances * math.log1p(-prevalence))) if prevalence < 1 else 1.0


def _level(name: str, value: object) -> str:
    if value not in LEVELS:
        raise RiskcoreError(f"'{name}' is one of low, medium or high, not {value!r}")
    return str(value)


def _share(name: str, value: object, *, open_low: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise RiskcoreError(f"'{name}' must be a number, not {value!r}")
    low_ok = value > 0 if open_low else value >= 0
    if not (low_ok and value <= 1):
        side = "(0, 1]" if open_low else "[0, 1]"
        raise RiskcoreError(f"'{name}' must lie in {side}, not {value!r}")
    return float(value)


def _items(name: str, value: object, known: Mapping[str, str]) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise RiskcoreError(f"'{name}' must be a list of item names")
    for v in value:
        if v not in known:
            raise RiskcoreError(f"'{name}' has an unknown item {v!r} (known: {', '.join(known)})")
    if len(set(value)) != len(value):
        raise RiskcoreError(f"'{name}' lists an item twice")
    return tuple(value)


_TEXT_LIMIT = 2_000  # characters of a free-text answer (a reason, a source)


def _text(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise RiskcoreError(f"'{name}' must be text, not {value!r}")
    if len(value) > _TEXT_LIMIT:
        raise RiskcoreError(f"'{name}' is over {_TEXT_LIMIT:,} characters")
    return value.strip()


@dataclass(frozen=True)
class Context(Result):
    """The answers of the context questionnaire, and the threshold and attack they imply.

    Every answer is validated once, here; the derived figures are properties (and are
    written by :meth:`to_dict` beside the answers, for a reader of the JSON).

    Attributes
    ----------
    release : {"public", "semi-public", "non-public"}
        The release model (IPC16 step 1).
    invasion : {"low", "medium", "high"}
        The invasion of privacy if the data were identified (IPC16 step 3).
    controls : {"low", "medium", "high"} or None
        The privacy and security controls of the agreement (non-public only).
    motives : {"low", "medium", "high"} or None
        The recipient's motives and capacity (non-public only).
    prevalence : float or None
        p of the acquaintance attack: the share of the population with the data's
        condition (non-public and semi-public).
    acquaintances : int
        m of the acquaintance attack (150, Dunbar's number).
    breach : float or None
        Pr(data breach) at the recipient (non-public and semi-public).
    breach_source : str
        Where the breach rate comes from (required with ``breach``).
    strict_cap : float or None
        The strict average's cap on a row's risk (non-public). :meth:`from_dict` gives
        a non-public context without the key 1/3 (:data:`STRICT_CAP`); null is a plain
        average.
    threshold : float or None
        A threshold chosen over the table's (with ``threshold_reason``), else the
        table's for ``invasion``.
    threshold_reason : str
        Why ``threshold`` was chosen over the table's.
    controls_items, motives_items, invasion_items : tuple of str
        The checklist items that hold (keys of :data:`CONTROLS_ITEMS`,
        :data:`MOTIVES_ITEMS`, :data:`INVASION_ITEMS`).
    note : str
        The assessor's note.
    """

    release: Release = "public"
    invasion: Level = "medium"
    controls: Level | None = None
    motives: Level | None = None
    prevalence: float | None = None
    acquaintances: int = DUNBAR
    breach: float | None = None
    breach_source: str = ""
    strict_cap: float | None = None
    threshold: float | None = None
    threshold_reason: str = ""
    controls_items: tuple[str, ...] = ()
    motives_items: tuple[str, ...] = ()
    invasion_items: tuple[str, ...] = ()
    note: str = ""

    def __post_init__(self) -> None:
        if self.release not in RELEASES:
            raise RiskcoreError(
                f"'release' is one of public, semi-public or non-public, not {self.release!r}"
            )
        _level("invasion", self.invasion)
        public = self.release == "public"
        for name in ("controls", "motives"):
            value = getattr(self, name)
            if self.release != "non-public":
                if value is not None:
                    why = (
                        "has Pr(attack) = 1"
                        if public
                        else "assumes low controls and high motives (IPC16)"
                    )
                    raise RiskcoreError(f"a {self.release} release {why}: leave out '{name}'")
            elif value is None:
                raise RiskcoreError(f"a non-public release needs '{name}' (low, medium or high)")
            else:
                _level(name, value)
        for name in ("prevalence", "breach"):
            value = getattr(self, name)
            if public:
                if value is not None:
                    raise RiskcoreError(f"a public release has Pr(attack) = 1: leave out '{name}'")
            elif value is None:
                raise RiskcoreError(f"a {self.release} release needs '{name}', a share in [0, 1]")
            else:
                object.__setattr__(self, name, _share(name, value))
        m = self.acquaintances
        if isinstance(m, bool) or not isinstance(m, int) or not 1 <= m <= MAX_ACQUAINTANCES:
            raise RiskcoreError(
                f"'acquaintances' must be a whole number in [1, {MAX_ACQUAINTANCES:,}], not {m!r}"
            )
        object.__setattr__(self, "breach_source", _text("breach_source", self.breach_source))
        if self.breach is not None and not self.breach_source:
            raise RiskcoreError("give 'breach_source': where the breach rate comes from")
        if self.strict_cap is not None:
            if self.release != "non-public":
                raise RiskcoreError("'strict_cap' is the strict average's: a non-public release")
            object.__setattr__(
                self, "strict_cap", _share("strict_cap", self.strict_cap, open_low=True)
            )
        object.__setattr__(
            self, "threshold_reason", _text("threshold_reason", self.threshold_reason)
        )
        if self.threshold is not None:
            object.__setattr__(
                self, "threshold", _share("threshold", self.threshold, open_low=True)
            )
            if not self.threshold_reason:
                raise RiskcoreError(
                    "give 'threshold_reason': why the threshold differs from the table's"
                )
        for name, known in (
            ("controls_items", CONTROLS_ITEMS),
            ("motives_items", MOTIVES_ITEMS),
            ("invasion_items", INVASION_ITEMS),
        ):
            object.__setattr__(self, name, _items(name, getattr(self, name), known))
        object.__setattr__(self, "note", _text("note", self.note))

    # ------------------------------------------------------------------ derived

    @property
    def table_threshold(self) -> float:
        """The threshold IPC16's step 3 table gives the invasion of privacy."""
        return INVASION_THRESHOLDS[self.invasion]

    @property
    def chosen_threshold(self) -> float:
        """The threshold the overall risk is held to (the stated one, else the table's)."""
        return self.table_threshold if self.threshold is None else float(self.threshold)

    @property
    def deliberate(self) -> float | None:
        """Pr(deliberate attack): the table's value (semi-public: low controls, high motives)."""
        if self.release == "public":
            return None
        if self.release == "semi-public":
            return ATTEMPT_PROBABILITIES[("low", "high")]
        return ATTEMPT_PROBABILITIES[(str(self.controls), str(self.motives))]

    @property
    def acquaintance(self) -> float | None:
        """Pr(acquaintance) = 1 - (1 - p)^m, or None for a public release."""
        if self.prevalence is None:
            return None
        return acquaintance_probability(self.prevalence, self.acquaintances)

    @property
    def attack(self) -> float:
        """Pr(attack): 1 for a public release, else the highest of the three attacks."""
        if self.release == "public":
            return 1.0
        return max(float(self.deliberate or 0), float(self.acquaintance or 0), self.breach or 0.0)

    @property
    def attack_of(self) -> str:
        """Which attack sets Pr(attack): "public", "deliberate", "acquaintance" or "breach"."""
        if self.release == "public":
            return "public"
        figures = {
            "deliberate": float(self.deliberate or 0),
            "acquaintance": float(self.acquaintance or 0),
            "breach": float(self.breach or 0),
        }
        return max(figures, key=figures.__getitem__)  # the first of equals, in this order

    @property
    def measure(self) -> Literal["maximum", "strict average", "average"]:
        """The data risk the bound applies to (IPC16 step 4.2)."""
        if self.release != "non-public":
            return "maximum"
        return "average" if self.strict_cap is None else "strict average"

    @property
    def data_limit(self) -> float:
        """The highest Pr(re-id | attack) the data may keep: threshold / Pr(attack), at most 1."""
        if self.attack <= 0:
            return 1.0
        return min(1.0, self.chosen_threshold / self.attack)

    def overall(self, data_risk: float) -> float:
        """Return the overall risk of a data risk: Pr(re-id | attack) x Pr(attack) (IPC16 step 6).

        Parameters
        ----------
        data_risk : float
            Pr(re-id | attack), the measure of :attr:`measure`.

        Returns
        -------
        float
        """
        return float(data_risk) * self.attack

    def criteria(self) -> tuple[Criterion, ...]:
        """Return the targets the verdict judges this context by.

        Public and semi-public: the highest prosecutor record risk at most
        :attr:`data_limit`. Non-public: the average risk at most :attr:`data_limit`, with
        (a strict average) the highest record risk at most :attr:`strict_cap`.

        Returns
        -------
        tuple of Criterion
        """
        if self.release != "non-public":
            return (RecordRisk(threshold=self.data_limit, model="prosecutor"),)
        out: list[Criterion] = [AverageRisk(threshold=self.data_limit)]
        if self.strict_cap is not None:
            out.append(RecordRisk(threshold=float(self.strict_cap), model="prosecutor"))
        return tuple(out)

    def apply(self, targets: Targets) -> Targets:
        """Return ``targets`` with this context's in place of its risk and k targets.

        The record-risk, average-risk and k-anonymity targets give way (k is the
        cell-size stand-in of a threshold); the others (l, t, ...) and the
        suppression limit stay.

        Parameters
        ----------
        targets : Targets
            The targets the context replaces some of.

        Returns
        -------
        Targets
        """
        kept = tuple(c for c in targets.criteria if c.kind not in CONTEXT_KINDS)
        return Targets(criteria=kept + self.criteria(), max_suppression=targets.max_suppression)

    def carried_by(self, targets: Targets) -> bool:
        """Return whether ``targets`` hold every target of this context.

        Parameters
        ----------
        targets : Targets
            The targets to look in (a profile's, a recipe's).

        Returns
        -------
        bool
        """
        return all(c in targets.criteria for c in self.criteria())

    # ------------------------------------------------------------------ JSON

    def to_dict(self) -> dict[str, Any]:
        """Return the answers, and the figures they imply under ``derived``.

        Returns
        -------
        dict of str to Any
        """
        out = super().to_dict()
        out["derived"] = {
            "table_threshold": self.table_threshold,
            "threshold": self.chosen_threshold,
            "deliberate": self.deliberate,
            "acquaintance": self.acquaintance,
            "breach": self.breach,
            "attack": self.attack,
            "attack_of": self.attack_of,
            "measure": self.measure,
            "data_limit": self.data_limit,
        }
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Read the answers (the ``derived`` figures are recomputed, never read).

        Parameters
        ----------
        data : mapping of str to Any
            The answers, as :meth:`to_dict` wrote them or a person typed them.

        Returns
        -------
        Context

        Raises
        ------
        RiskcoreError
            When it is not an object, has an unknown key, or an answer is invalid.
        """
        if not isinstance(data, Mapping):
            raise RiskcoreError("the context must be a JSON object")
        known = set(cls.__dataclass_fields__) | {"schema_version", "derived"}
        unknown = sorted(set(map(str, data)) - known)
        if unknown:
            raise RiskcoreError(
                f"the context has an unknown key {unknown[0]!r} "
                f"(known: {', '.join(sorted(known - {'schema_version', 'derived'}))})"
            )
        if "release" not in data or "invasion" not in data:
            raise RiskcoreError("the context needs 'release' and 'invasion'")
        values = {k: v for k, v in data.items() if k not in ("schema_version", "derived")}
        if values.get("release") == "non-public" and "strict_cap" not in values:
            values["strict_cap"] = STRICT_CAP  # IPC16 step 4.2: the average is a strict one
        for name in ("controls_items", "motives_items", "invasion_items"):
            if name in values and isinstance(values[name], list):
                values[name] = tuple(values[name])
        return cls(**values)

    @classmethod
    def read(cls, path: str | Path) -> Context:
        """Read a context file (``--context FILE.json``).

        Parameters
        ----------
        path : str or Path
            A JSON file written by :meth:`to_dict`.

        Returns
        -------
        Context

        Raises
        ------
        RiskcoreError
            When the file cannot be read, is not JSON, or an answer is invalid.
        """
        data = read_json(
            read_regular(path, what="the context file", limit=1 << 20), what="the context file"
        )
        return cls.from_dict(data)
