"""Readings of a review: the verdict banner, role reasons, limitations, the before / after tables.

Every sentence and cell is derived from a :class:`riskcore.review.Review`;
shares are percentages with their counts ("12 records (0.24%)").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import pandas as pd

from riskcore.metrics import Assessment
from riskcore.perturb.steps import METHODS
from riskcore.report.readings._format import join_names, plural
from riskcore.report.readings.criteria import (
    format_achieved,
    format_target,
    records_share,
    rows_not_people_reading,
    target_label,
    threshold_text,
    verdict_reading,
)
from riskcore.report.readings.longitudinal import (
    event_cells,
    events_limitation,
    household_limitation,
)
from riskcore.report.readings.people import unit_reading
from riskcore.review import Limitation, ReleasedIdentifiers, Review, RoleReason
from riskcore.review.seeds import seeds_used
from riskcore.roles.persons import RowsNotPeople, person_facts

__all__ = [
    "ROLE_LABELS",
    "ReleaseBanner",
    "checks_side_by_side",
    "figures_side_by_side",
    "limitation_text",
    "release_banner",
    "role_reason_text",
    "seeds_reading",
    "target_rows",
]

#: Each drawing step of :func:`riskcore.review.seeds.seeds_used`, in words ("{}": its columns).
_SEED_STEPS: dict[str, str] = {
    "surrogates": "surrogates (Faker) of {}",
    "pram": "PRAM of {}",
    "noise": "noise on {}",
    "classification split": "the held-out split of the classification check (predicting {})",
}

#: A role as the report names it.
ROLE_LABELS: dict[str, str] = {
    "identifier": "direct identifier",
    "person": "the person (a direct identifier linking the rows of one individual)",
    "quasi_identifier": "quasi-identifier",
    "sensitive": "sensitive",
    "weight": "sampling weight",
    "other": "other (assumed unknown to an attacker)",
}

#: What each kind of target stands for, with its citation.
_MEANINGS: dict[str, str] = {
    "k-anonymity": "smallest equivalence class allowed (Sweeney 2002)",
    "distinct-l-diversity": "distinct sensitive values in every class "
    "(Machanavajjhala et al. 2007)",
    "entropy-l-diversity": "exp of the entropy of every class's sensitive values "
    "(Machanavajjhala et al. 2007)",
    "recursive-cl-diversity": "the most frequent value below c times the rest from the l-th on "
    "(Machanavajjhala et al. 2007)",
    "t-closeness": "largest distance of a class's sensitive distribution from the release's "
    "(Li et al. 2007)",
    "beta-likeness": "largest relative gain (p - q) / q of a sensitive value in a class over "
    "its share of the release (enhanced: at most -ln q too) (Cao and Karras 2012)",
    "delta-disclosure": "bound on |log2(p / q)| for every sensitive value a class holds, strict "
    "(Brickell and Shmatikov 2008)",
    "record-risk": "highest acceptable record re-identification risk (El Emam 2013)",
    "average-risk": "highest acceptable share of records re-identified on average (El Emam 2013)",
    "k-map": "fewest population members any released record matches (Sweeney 2002)",
    "delta-presence": "range of the chance that a population member is in the release "
    "(Nergiz et al. 2007)",
}


def role_reason_text(reason: RoleReason, built_by: str | None) -> str:
    """Return why a column has its role: the rule that suggested it, or who chose it.

    Parameters
    ----------
    reason : RoleReason
        Why the column has its role.
    built_by : str or None
        The report's author (None: not given).

    Returns
    -------
    str
    """
    if not reason.chosen:
        return reason.reason
    who = f"chosen by {built_by}" if built_by else "chosen when the report was built"
    if reason.suggested is None:
        return who + " (no suggestion)"
    label = ROLE_LABELS.get(reason.suggested, reason.suggested)
    return f"{who} (suggested: {label}, {reason.reason})"


def target_rows(review: Review) -> pd.DataFrame:
    """Return the targets: ``target``, ``value`` (with its preset) and ``meaning``.

    Parameters
    ----------
    review : Review
        The review: its profile's targets.

    Returns
    -------
    pandas.DataFrame
    """
    rows = []
    for c in review.profile.targets.criteria:
        if c.target_high is not None:
            value = f"[{c.target:g}, {c.target_high:g}]"
        elif c.kind in ("record-risk", "average-risk"):
            value = threshold_text(c.target)
        else:
            value = f"{c.target:g}"
        rows.append({"target": c.label, "value": value, "meaning": _MEANINGS.get(c.kind, "")})
    limit = review.profile.targets.max_suppression
    rows.append(
        {
            "target": "suppression limit",
            "value": f"{limit:.1%}",
            "meaning": (
                "share of the people a remediation may remove, each with all of their rows "
                "(ARX's suppression, in people)"
                if review.profile.roles.person is not None
                else "share of the records a remediation may remove (ARX's suppression)"
            ),
        }
    )
    return pd.DataFrame(rows, columns=["target", "value", "meaning"])


def _risk_cells(a: Assessment) -> list[tuple[str, str]]:
    people = a.person is not None  # every class figure counts people
    n = a.n_people

    def share(count: int) -> str:
        return records_share(count, n, people=people)

    unit = "people" if people else "records"
    out = [
        ("people", f"{n:,} (in {a.n_records:,} rows)") if people else ("records", f"{n:,}"),
        ("equivalence classes", f"{a.n_classes:,}"),
        ("k (smallest class, people)" if people else "k (smallest class)", f"{a.k:,}"),
        (f"{unit} unique on the quasi-identifiers", share(a.unique_records)),
    ]
    for r in (a.prosecutor, a.journalist, a.marketer):
        if r is None:
            continue
        at_risk = round(r.records_at_risk * n)
        out += [
            (
                f"{r.model}: highest {'person' if people else 'record'} risk",
                f"{r.highest_risk:.4g}",
            ),
            (f"{r.model}: {unit} with risk above {r.threshold:.4g}", share(at_risk)),
            (f"{r.model}: expected share re-identified", f"{r.success_rate:.2%}"),
        ]
    out += event_cells(a)
    for name, s in a.sensitive.items():
        out += [
            (f"{name}: distinct l", f"{s.distinct_l:,}"),
            (f"{name}: entropy l", f"{s.entropy_l:.3f}"),
            (f"{name}: recursive ({s.c:g},l) l", f"{s.recursive_l:,}"),
            (f"{name}: t ({s.distance} distance)", f"{s.t_closeness:.3f}"),
            (f"{name}: people in classes of one value", share(s.homogeneous_records)),
        ]
    return out


def figures_side_by_side(review: Review) -> pd.DataFrame:
    """Return the figures of the table as recorded beside those after remediation.

    Columns ``figure``, ``as recorded`` and, with a recipe, ``after remediation``. With a
    person column every count is of people (the first row says how many, in how many rows).

    Parameters
    ----------
    review : Review
        The review: its figures before and, with a recipe, after remediation.

    Returns
    -------
    pandas.DataFrame
    """
    before = _risk_cells(review.before)
    if review.after is None:
        return pd.DataFrame(
            {"figure": [f for f, _ in before], "as recorded": [v for _, v in before]}
        )
    after = dict(_risk_cells(review.after))
    return pd.DataFrame(
        {
            "figure": [f for f, _ in before],
            "as recorded": [v for _, v in before],
            "after remediation": [after.get(f, "n/a") for f, _ in before],
        }
    )


def checks_side_by_side(review: Review) -> pd.DataFrame:
    """Return every target judged on the table as recorded and after remediation.

    Columns ``target``, ``required``, ``as recorded`` (achieved, pass or fail,
    records failing) and, with a recipe, ``after remediation``.

    Parameters
    ----------
    review : Review
        The review: its verdicts before and, with a recipe, after remediation.

    Returns
    -------
    pandas.DataFrame
    """

    people = review.verdict_before.person is not None  # the counts are of people

    def cell(c: Any, released: int) -> str:
        mark = "pass" if c.passed else "fail"
        failing = records_share(c.failing_records, released, people=people)
        fail = f", {failing} failing" if not c.passed else ""
        note = f"; {c.note}" if c.note else ""
        return f"{format_achieved(c)}: {mark}{fail}{note}"

    vb, va = review.verdict_before, review.verdict_after
    after = {} if va is None else {(c.kind, c.label, c.attribute): c for c in va.checks}
    rows = []
    for c in vb.checks:
        row = {
            "target": target_label(c),
            "required": format_target(c),
            "as recorded": cell(c, vb.released),
        }
        if va is not None:
            other = after.get((c.kind, c.label, c.attribute))
            row["after remediation"] = "n/a" if other is None else cell(other, va.released)
        rows.append(row)
    cols = ["target", "required", "as recorded"] + (["after remediation"] if va is not None else [])
    return pd.DataFrame(rows, columns=cols)


def _identifiers_text(x: ReleasedIdentifiers) -> str:
    """Return one released column's identifiers: "note: phone numbers, 12 cells"."""
    return f"{x.column}: {', '.join(x.kinds)}, {x.cells:,} {plural(x.cells, 'cell', 'cells')}"


def _free_text_text(f: dict[str, Any]) -> str:
    found = [ReleasedIdentifiers.from_found(x) for x in f.get("found") or []]
    unchecked = f.get("unchecked") or []
    parts = [
        _identifiers_text(x) + (f", Safe Harbor {', '.join(x.letters)}" if x.letters else "")
        for x in found
    ]
    text = "Free text: the released text columns other than the quasi-identifiers were read by "
    text += "the built-in patterns (phone "
    text += "numbers, e-mail, SSNs, URLs, IP addresses, dates, record numbers, ZIP codes)"
    text += "; " + ("; ".join(parts) if parts else "no identifier was found in them")
    if unchecked:
        text += "; not fully read: " + ", ".join(
            f"{u['column']} ({u['why']})" if u.get("why") else u["column"] for u in unchecked
        )
    if not f.get("presidio"):
        text += "; names and places written in free text are not recognised without Presidio"
    return text + "."


@dataclass(frozen=True)
class ReleaseBanner:
    """The report's verdict banner: the release decision in colour, mark and sentences.

    Attributes
    ----------
    state : {"pass", "hold", "fail"}
        ``pass`` (green): the targets are met and the release is ready;
        ``hold`` (amber): the targets are met and it is not ready;
        ``fail`` (red): a target fails.
    mark : str
        "PASS", "NOT READY" or "FAIL": the document's and the command line's mark.
    text : str
        The sentences beside the mark.
    line : str
        The banner as one line on the page: "Passes: the table ...", "Targets
        met; not ready to release: ..." or "Does not pass: the table ...".
    """

    state: Literal["pass", "hold", "fail"]
    mark: str
    text: str
    line: str


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def release_banner(review: Review) -> ReleaseBanner:
    """Return the verdict banner of the report: the release decision and its reasons.

    Read from :attr:`riskcore.review.Review.readiness` (the targets as the
    verdict judged them, never judged again, and the identifiers the free-text
    scan found in released columns): green only when the targets are met and
    the release is ready; amber when the targets are met and identifiers
    remain in released columns (or released text was not fully read, or not
    scanned); red when a target fails, the identifiers left named as well.

    Parameters
    ----------
    review : Review
        The review: its readiness and verdict.

    Returns
    -------
    ReleaseBanner
    """
    r = review.readiness
    verdict = verdict_reading(review.verdict, of=r.of)
    if r.ready:
        text = (
            f"{verdict} The built-in patterns found no identifier written in the released "
            "columns (see Limitations)."
        )
        return ReleaseBanner("pass", "PASS", text, "Passes: " + _lower_first(text))
    reasons = []
    if r.identifiers:
        cols = "; ".join(_identifiers_text(x) for x in r.identifiers)
        reasons.append(f"identifiers remain in released columns ({cols})")
    if r.unchecked:
        reasons.append(f"released text not fully read for identifiers ({', '.join(r.unchecked)})")
    if not r.scanned:
        reasons.append("the released columns were not scanned for identifiers")
    todo = (
        "these are HIPAA Safe Harbor identifiers to remove or mask before release"
        if r.identifiers
        else "the released text is to be read for identifiers before release"
    )
    rows, person, again = r.rows_not_people, "", ""
    if rows is not None:  # a person column, none tagged: the targets counted rows
        facts = person_facts(rows.n_people, rows.n_rows, rows.min_rows, rows.max_rows)
        person = f"{rows.column} repeats ({facts}) and no column is tagged as the person"
        again = (
            f"the targets were judged on rows, not people; tag {rows.column} as the person "
            "and judge them again (see Limitations)."
        )
    if not r.targets_met:
        text = verdict
        if reasons:
            said = "; ".join(reasons)
            text += f" {said[:1].upper()}{said[1:]}; {todo} (see Limitations)."
        if person:
            text += f" {person}: {again}"
        return ReleaseBanner("fail", "FAIL", text, "Does not pass: " + _lower_first(text))
    why = "; ".join([*reasons, person] if person else reasons)
    text = f"Targets met; not ready to release: {why}. {verdict}"
    if reasons:
        text += (
            " The targets cover re-identification through the quasi-identifiers; "
            f"{todo} (see Limitations)."
        )
    if person:
        text += f" {again[:1].upper()}{again[1:]}"
    return ReleaseBanner("hold", "NOT READY", text, text)


def _changed(name: str) -> str:
    """Return what a perturbation method does to values (its name when none is registered)."""
    method = METHODS.get(name)
    return name if method is None else method.changed


def perturbed_limitation(steps: list[dict[str, Any]]) -> str:
    """Return the Limitations sentence of a perturbed release: which values changed, and how.

    Parameters
    ----------
    steps : list of dict of str to Any
        The recipe's perturbation steps.

    Returns
    -------
    str
    """
    parts = [f"{join_names(s['columns'])}: {_changed(s['method'])}" for s in steps]
    return (
        "Perturbed values: the release changes values, not only their detail ("
        + "; ".join(parts)
        + "); statistics of these columns differ from the data's, and a value may be false."
    )


def limitation_text(lim: Limitation) -> str:
    """Return one limitation of the report as a sentence.

    Parameters
    ----------
    lim : Limitation
        One limitation of the review.

    Returns
    -------
    str
    """
    f = lim.facts
    if lim.kind == "unit":
        rows = int(f["rows"])
        return unit_reading(int(f.get("people", rows)), rows, f.get("person"))
    if lim.kind == "events":
        return events_limitation(f)
    if lim.kind == "household":
        return household_limitation(f)
    if lim.kind == "suda-people":
        return (
            f"Special uniques (SUDA) not computed: they are found per person, and "
            f"{int(f['people']):,} people have rows with different quasi-identifier values; "
            "quasi-identifiers that change from visit to visit are judged as events "
            "(k^m-anonymity)."
        )
    if lim.kind == "attacker":
        unknown = f.get("unknown_to_attacker") or []
        return (
            f"Attacker model: the attacker is assumed to know {join_names(f['quasi_identifiers'])} "
            "of the people they look for, and (prosecutor) that they are in the table; "
            + (
                f"the other columns ({', '.join(unknown)}) are assumed unknown to any attacker."
                if unknown
                else "no other column is released."
            )
        )
    if lim.kind == "population":
        if f["model"] == "none":
            return (
                "Population: the table is taken as the whole population (no sampling fraction "
                "or weights), so the journalist's and marketer's risks equal the prosecutor's."
            )
        if f["model"] == "fraction":
            return (
                f"Population: a sample with sampling fraction {f['sampling_fraction']:g}; its "
                "population sizes are model-based estimates (Benedetti and Franconi), not counts."
            )
        return (
            f"Population: class sizes in the population are estimated from the sampling "
            f"weights in {f['column']}, not counted."
        )
    if lim.kind == "missing":
        return (
            "Missing values: a missing quasi-identifier value counts as a value of its own."
            if f["policy"] == "own"
            else "Missing values: a missing quasi-identifier value matches any value "
            "(sdcMicro's convention)."
        )
    if lim.kind == "not-applicable":
        return "Not judged: " + ", ".join(f["targets"]) + " (no column is tagged sensitive)."
    if lim.kind == "attacks-not-run":
        return (
            "Attacks not run here: " + " and ".join(f["attacks"]) + " (they need a target "
            "person and a query, or a second release: see the Attacks page)."
        )
    if lim.kind == "keyed-steps":
        return (
            "Keyed steps named but not redone (the report holds no key): "
            + "; ".join(f["steps"])
            + "."
        )
    if lim.kind == "perturbed":
        return perturbed_limitation(f["steps"])
    if lim.kind == "recipe-limit":
        n = int(f["suppressed"])
        return (
            f"The recipe suppressed {n:,} {plural(n, 'record', 'records')}, beyond its own "
            "suppression limit, on this table."
        )
    n_qis = f.get("n_quasi_identifiers", f.get("qis"))  # "qis" in a review saved before
    if lim.kind == "suda-skipped" and n_qis is not None:
        return (
            f"Special uniques (SUDA) not computed: the profile has {n_qis:,} "
            f"quasi-identifiers, above the limit of {f['limit']:,} (SUDA_MAX_QIS); assess "
            "fewer quasi-identifiers on the Records page to see them."
        )
    if lim.kind == "suda-skipped":
        return (
            f"Special uniques (SUDA) not computed: the table has {f['rows']:,} rows, above "
            f"{f['limit']:,}."
        )
    if lim.kind == "suda-capped":
        return (
            f"Special uniques (SUDA) searched up to combinations of {f['max_size']} of the "
            f"{n_qis} quasi-identifiers only: a larger search passes the limit of "
            f"{f['limit']:,} combinations (SUDA_MAX_COMBINATIONS); larger minimal sample "
            "uniques are not counted, so the scores are lower bounds."
        )
    if lim.kind == "population-table":
        return "No identified population table was given: k-map and delta-presence are not judged."
    if lim.kind == "free-text":
        return _free_text_text(f)
    if lim.kind == "rows-not-people":
        return "Rows, not people: " + rows_not_people_reading(RowsNotPeople.from_dict(f))
    return lim.kind


def seeds_reading(review: Review) -> str:
    """Return the Reproduce section's sentence on random numbers: every seed, or none needed.

    Derived from the recipe the review applied (:func:`riskcore.review.seeds.seeds_used`):
    its PRAM, noise and surrogate steps and the classification check's held-out split.

    Parameters
    ----------
    review : Review
        The review.

    Returns
    -------
    str
        "No random numbers are drawn: no seed is needed." or "Random numbers are drawn with
        these seeds, recorded so that the command above gives the same numbers: PRAM of
        diagnosis, seed 0; ..."
    """
    seeds = seeds_used(review.remediation)
    if not seeds:
        return "No random numbers are drawn: no seed is needed."
    parts = [
        _SEED_STEPS.get(x["step"], str(x["step"]) + " of {}").format(", ".join(x["columns"]))
        + f", seed {x['seed']}"
        for x in seeds
    ]
    return (
        "Random numbers are drawn with these seeds, recorded so that the command above gives "
        f"the same numbers: {'; '.join(parts)}."
    )
