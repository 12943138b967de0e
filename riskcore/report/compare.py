"""Two saved assessments side by side, and a file checked against the one an assessment was made on.

Both work on the report's JSON twin (:meth:`riskcore.review.Review.to_dict`), as the
store keeps it, so an assessment saved a year ago compares with one saved today: a
``riskcore-report/1`` twin (before the one verdict) is read into the same figures
(:func:`normalized`). The verdicts compared are each report's own, given by
:func:`riskcore.criteria.evaluate` when it was built; the targets are listed one row per
privacy model.

* :func:`compare_results` -- the key figures of two reports (the dataset, the
  roles, the targets, k, the three attacker models, l and t per sensitive
  attribute, the remediation, the attacks, the budget spent and the verdict),
  the difference B - A of each number, and which of the two is safer on it
  (lower risk, higher k or l, lower t, fewer people exposed).
* :func:`check_dataset` -- whether a file is the one assessed: its SHA-256
  against the saved one, with rows, columns and missing cells compared and the
  columns the saved roles name that the file lacks. A reopened assessment's
  roles are restored only on a match.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from riskcore._results import Result

__all__ = [
    "ComparedFigure",
    "Comparison",
    "DatasetCheck",
    "check_dataset",
    "compare_results",
    "key_figures",
    "normalized",
]

#: Which way is safer for a figure: "lower", "higher", a pass / fail verdict, or no direction.
Direction = Literal["lower", "higher", "pass", ""]

_ROLE_KEYS = ("identifiers", "quasi_identifiers", "sensitive", "weights", "other")
#: The figures of a dataset compared by :func:`check_dataset`.
DATASET_FIGURES = ("sha256", "rows", "columns", "missing")


@dataclass(frozen=True)
class ComparedFigure(Result):
    """One figure of two assessments.

    Attributes
    ----------
    figure : str
        What it is ("k", "prosecutor: records at risk", ...).
    a, b : object
        Its value in each (None when the assessment does not have it).
    difference : float or None
        b - a, for two numbers.
    changed : bool
    safer : str
        "a" or "b" when one is safer on this figure, "" when neither is or
        the figure has no direction.
    share : bool
        The figure is a share of records or targets (read as a percentage).
    """

    figure: str
    a: Any
    b: Any
    difference: float | None
    changed: bool
    safer: str
    share: bool = False


@dataclass(frozen=True)
class Comparison(Result):
    """Two saved assessments side by side (:func:`compare_results`).

    Attributes
    ----------
    names : (str, str)
        The two assessments' names, A first.
    same_data : bool
        Both assessed the same file (same SHA-256).
    figures : tuple of ComparedFigure
    roles : dict
        Per role whose columns differ: ``{"added": [...], "removed": [...]}``,
        B against A.
    """

    names: tuple[str, str]
    same_data: bool
    figures: tuple[ComparedFigure, ...]
    roles: dict[str, dict[str, list[str]]]

    @property
    def changed(self) -> tuple[ComparedFigure, ...]:
        """Return the figures that differ."""
        return tuple(f for f in self.figures if f.changed)


#: A riskcore-report/1 target, as the privacy model (kind) and parameter it was: its l was
#: distinct l, its threshold the prosecutor's.
_V1_TARGETS = {
    "k": ("k-anonymity", "k"),
    "l": ("distinct-l-diversity", "l"),
    "t": ("t-closeness", "t"),
    "threshold": ("record-risk", "threshold"),
}


def _target_text(params: Mapping[str, Any]) -> str:
    return ", ".join(f"{p} {v}" for p, v in params.items() if v is not None)


def _v1_targets(t: Mapping[str, Any]) -> dict[str, Any]:
    """Return a /1 twin's targets as a /2 twin's read: {kind: "k 5"}, the values as judged then."""
    out: dict[str, Any] = {}
    for key, (kind, param) in _V1_TARGETS.items():
        value = t.get(key)
        if value is None:
            continue
        params = {param: value}
        if key == "threshold":
            params["model"] = "prosecutor"
        out[kind] = _target_text(params)
    return out


def _recipe_qis(recipe: Mapping[str, Any]) -> Any:
    """Return a saved recipe's QIs (``qis`` in a recipe of version 7 or before)."""
    return recipe.get("quasi_identifiers", recipe.get("qis", []))


def normalized(r: Mapping[str, Any]) -> dict[str, Any]:
    """Return a report's JSON twin in the shape the figures read, whatever its schema.

    ``assessment`` (as recorded), ``after``, ``roles``, ``targets`` ({model:
    target}), ``verdict`` ({"pass": bool}), ``remediation.levels`` and the
    attacks as ``{"linkage": {"result": ...}, "homogeneity": [...]}``.

    Parameters
    ----------
    r : mapping of str to Any
        A report's JSON twin (:meth:`riskcore.review.Review.to_dict`), of any schema version.

    Returns
    -------
    dict of str to Any
    """
    if r.get("schema") != "riskcore-report/2":
        out = dict(r)
        out["targets"] = _v1_targets(r.get("targets") or {})
        return out
    profile = r.get("profile") or {}
    targets = {}
    for c in (profile.get("targets") or {}).get("criteria", []):
        targets[str(c.get("kind"))] = {k: v for k, v in c.items() if k != "kind"}
    rem = r.get("remediation")
    recipe = (rem or {}).get("recipe") or {}

    def attacks(a: Any) -> Any:
        if not isinstance(a, Mapping):
            return None
        return {"linkage": {"result": a.get("linkage")}, "homogeneity": a.get("homogeneity")}

    return {
        "dataset": r.get("dataset"),
        "roles": profile.get("roles") or {},
        "targets": {k: _target_text(params) for k, params in targets.items()},
        "assessment": r.get("before"),
        "after": r.get("after"),
        "remediation": None
        if rem is None
        else {
            "levels": dict(zip(_recipe_qis(recipe), recipe.get("levels", []), strict=False)),
            "suppressed": rem.get("suppressed"),
        },
        "attacks": attacks(r.get("attacks_before")),
        "attacks_after": attacks(r.get("attacks_after")),
        "privacy_budget": r.get("privacy_budget"),
        "verdict": {"pass": (r.get("verdict") or {}).get("passed")},
    }


def _get(d: Mapping[str, Any] | None, path: str) -> Any:
    """Return ``d[a][b]...`` for the dotted ``path``, None when any part is absent."""
    cur: Any = d
    for part in path.split("."):
        if not isinstance(cur, Mapping) or part not in cur:
            return None
        cur = cur[part]
    return cur


def _joined(v: Any) -> Any:
    return ", ".join(map(str, v)) if isinstance(v, list) else v


def _final_attacks(r: Mapping[str, Any]) -> Mapping[str, Any] | None:
    att = r.get("attacks_after") or r.get("attacks")
    return att if isinstance(att, Mapping) else None


def _exposed(r: Mapping[str, Any], attr: str) -> Any:
    att = _final_attacks(r)
    for h in (att or {}).get("homogeneity", []):
        if h.get("attribute") == attr:
            return h.get("exposed_records")
    return None


def _levels(r: Mapping[str, Any]) -> Any:
    levels = _get(r, "remediation.levels")
    if not isinstance(levels, Mapping):
        return None
    return ", ".join(f"{q} level {lv}" for q, lv in levels.items())


def _verdict(r: Mapping[str, Any]) -> Any:
    ok = _get(r, "verdict.pass")
    return None if ok is None else ("pass" if ok else "fail")


_Getter = Callable[[Mapping[str, Any]], Any]


def _figures(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[tuple[str, _Getter, Direction]]:
    """Return (figure, getter, safer direction) for every key figure of the two reports."""

    def at(path: str) -> _Getter:
        return lambda r: _joined(_get(r, path))

    out: list[tuple[str, _Getter, Direction]] = [
        ("dataset", at("dataset.name"), ""),
        ("SHA-256", at("dataset.sha256"), ""),
        ("rows", at("dataset.rows"), ""),
        ("columns", at("dataset.columns"), ""),
        ("missing cells", at("dataset.missing"), ""),
        ("quasi-identifiers", at("roles.quasi_identifiers"), ""),
        ("sensitive attributes", at("roles.sensitive"), ""),
    ]
    models: list[str] = []
    for r in (a, b):
        for m in r.get("targets") or {}:
            if m not in models:
                models.append(m)
    out += [(f"target: {m}", at(f"targets.{m}"), "") for m in models]
    out += [
        ("generalization", _levels, ""),
        ("k", at("assessment.k"), "higher"),
        ("equivalence classes", at("assessment.n_classes"), ""),
        ("unique records", at("assessment.unique_records"), "lower"),
    ]
    for model in ("prosecutor", "journalist", "marketer"):
        if _get(a, f"assessment.{model}") is None and _get(b, f"assessment.{model}") is None:
            continue
        out += [
            (f"{model}: highest record risk", at(f"assessment.{model}.highest_risk"), "lower"),
            (f"{model}: records at risk", at(f"assessment.{model}.records_at_risk"), "lower"),
            (f"{model}: expected re-identified", at(f"assessment.{model}.success_rate"), "lower"),
        ]
    attrs: list[str] = []
    for r in (a, b):
        for s in _get(r, "roles.sensitive") or []:
            if s not in attrs:
                attrs.append(s)
    for s in attrs:
        out += [
            (f"distinct l ({s})", at(f"assessment.sensitive.{s}.distinct_l"), "higher"),
            (f"t ({s})", at(f"assessment.sensitive.{s}.t_closeness"), "lower"),
        ]
    if a.get("after") is not None or b.get("after") is not None:
        out += [
            ("records suppressed", at("remediation.suppressed"), "lower"),
            ("k after remediation", at("after.k"), "higher"),
            ("highest record risk after remediation", at("after.prosecutor.highest_risk"), "lower"),
        ]

    def linkage(path: str) -> _Getter:
        return lambda r: _get(_final_attacks(r), f"linkage.result.{path}")

    def exposed(attr: str) -> _Getter:
        return lambda r: _exposed(r, attr)

    if _final_attacks(a) is not None or _final_attacks(b) is not None:
        out.append(("linkage: re-identified correctly", linkage("correct.rate"), "lower"))
        out += [(f"homogeneity: people exposed ({s})", exposed(s), "lower") for s in attrs]
    if a.get("privacy_budget") is not None or b.get("privacy_budget") is not None:
        out.append(("epsilon spent", at("privacy_budget.epsilon_spent"), ""))
    out.append(("verdict", _verdict, "pass"))
    return out


#: Figures that are shares of records or targets, by the end of their name.
_SHARES = ("records at risk", "expected re-identified", "re-identified correctly")


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _safer(x: Any, y: Any, direction: Direction) -> str:
    if direction == "pass":
        if x != y and {x, y} == {"pass", "fail"}:
            return "a" if x == "pass" else "b"
        return ""
    if not direction or not (_is_number(x) and _is_number(y)) or x == y:
        return ""
    lower_wins = direction == "lower"
    return "a" if (x < y) == lower_wins else "b"


def key_figures(results: Mapping[str, Any]) -> dict[str, Any]:
    """Return the key figures of one report's JSON twin, {figure: value}, in reading order.

    Parameters
    ----------
    results : mapping
        A report's JSON twin.

    Returns
    -------
    dict
    """
    r = normalized(results)
    return {name: get(r) for name, get, _ in _figures(r, r)}


def compare_results(
    a: Mapping[str, Any], b: Mapping[str, Any], *, names: tuple[str, str] = ("A", "B")
) -> Comparison:
    """Compare two reports' JSON twins figure by figure.

    For each key figure (:func:`key_figures` of either) the two values, the
    difference b - a when both are numbers, whether they differ, and which is
    safer: lower is safer for risks, unique records, t, people exposed and
    records suppressed; higher for k and l; a pass beats a fail.

    Parameters
    ----------
    a, b : mapping
        The two reports' JSON twins (the ``results`` of saved assessments).
    names : (str, str)
        Their names, for the readings.

    Returns
    -------
    Comparison
    """
    a, b = normalized(a), normalized(b)
    rows = []
    for name, get, direction in _figures(a, b):
        x, y = get(a), get(b)
        diff = float(y - x) if _is_number(x) and _is_number(y) else None
        share = name.endswith(_SHARES)
        rows.append(ComparedFigure(name, x, y, diff, x != y, _safer(x, y, direction), share))
    roles: dict[str, dict[str, list[str]]] = {}
    for key in _ROLE_KEYS:
        ra, rb = _get(a, f"roles.{key}") or [], _get(b, f"roles.{key}") or []
        added, removed = [c for c in rb if c not in ra], [c for c in ra if c not in rb]
        if added or removed:
            roles[key] = {"added": added, "removed": removed}
    sha_a, sha_b = _get(a, "dataset.sha256"), _get(b, "dataset.sha256")
    return Comparison(
        names=(str(names[0]), str(names[1])),
        same_data=sha_a is not None and sha_a == sha_b,
        figures=tuple(rows),
        roles=roles,
    )


@dataclass(frozen=True)
class DatasetCheck(Result):
    """A file checked against the dataset a saved assessment was made on.

    Attributes
    ----------
    matches : bool
        Same SHA-256 and every column the saved roles name is present.
    saved, current : dict
        ``sha256``, ``rows``, ``columns``, ``missing`` (and ``name``) of each.
    differences : tuple of str
        Which of ``sha256``, ``rows``, ``columns``, ``missing`` differ.
    missing_columns : tuple of str
        Columns the saved roles name that the file does not hold.
    """

    matches: bool
    saved: dict[str, Any]
    current: dict[str, Any]
    differences: tuple[str, ...]
    missing_columns: tuple[str, ...] = ()


def check_dataset(
    saved: Mapping[str, Any],
    current: Mapping[str, Any],
    *,
    roles: Mapping[str, Any] | None = None,
    columns: Sequence[str] | None = None,
) -> DatasetCheck:
    """Check a file against the dataset a saved assessment was made on.

    The file matches when its SHA-256 equals the saved one (the same bytes)
    and it holds every column the saved roles name. Rows, columns and
    missing cells are compared too, so a refusal says how the file differs
    (a different file of the same shape differs in its SHA-256 alone).

    Parameters
    ----------
    saved : mapping
        The saved report's ``dataset`` (:func:`riskcore.review.dataset_facts`).
    current : mapping
        The same facts of the file given now.
    roles : mapping, optional
        The saved role profile (``identifiers``, ``quasi_identifiers``, ...),
        or a saved :class:`~riskcore.profile.Profile` (its roles under ``roles``).
    columns : sequence of str, optional
        The file's column names, checked against ``roles``.

    Returns
    -------
    DatasetCheck
    """
    keep = ("name", *DATASET_FIGURES)
    s = {k: saved.get(k) for k in keep}
    c = {k: current.get(k) for k in keep}
    diffs = tuple(k for k in DATASET_FIGURES if s[k] != c[k])
    absent: tuple[str, ...] = ()
    if roles is not None and "riskcore_profile" in roles:  # a version-2 profile
        roles = roles.get("roles") or {}
    if roles is not None and columns is not None:
        named = [str(col) for key in _ROLE_KEYS for col in roles.get(key) or []]
        have = set(map(str, columns))
        absent = tuple(col for col in named if col not in have)
    ok = s["sha256"] is not None and "sha256" not in diffs and not absent
    return DatasetCheck(ok, s, c, diffs, absent)
