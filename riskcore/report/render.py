"""The report as a document: a :class:`~riskcore.review.Review` rendered to HTML and PDF.

Rendering only: :func:`document_context` turns a review into the sentences
and tables of the report (through :mod:`riskcore.report.readings`), and the
Jinja2 template ``templates/report.html.j2`` lays them out, with autoescaping
on, so every string that comes from the user (file and column names, the
recipe) is escaped. :func:`render_html` writes one standalone HTML file (CSS
inline, plotly.js embedded once, no address of any other host);
:func:`render_pdf` renders the same document with WeasyPrint, its figures as
static SVG drawn by kaleido in the system Chromium, the JSON twin
(:meth:`~riskcore.review.Review.to_json`) attached. Data values never
appear: only aggregates, and never a direct identifier's values.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from riskcore._results import plain
from riskcore.errors import RiskcoreError
from riskcore.report._appendix import printed_json, recipe_pointer
from riskcore.report._css import CSS as _CSS
from riskcore.report._css import PRINT_CSS as _PRINT_CSS
from riskcore.report._utility_section import utility_context, utility_figures
from riskcore.report.methods import (
    CONTEXT_METHOD_NOTE,
    EVENT_METHOD_NOTES,
    METHOD_NOTES,
    MODEL_METHOD_NOTES,
)
from riskcore.review import AttackRun, Review

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "ATTACHMENT_NAME",
    "METHOD_NOTES",
    "document_context",
    "figure_objects",
    "figure_svgs",
    "render_html",
    "render_pdf",
]

#: Name of the JSON twin embedded in the PDF.
ATTACHMENT_NAME = "report.json"


# ------------------------------------------------------------------ the context


#: The result in a judged cell: all of it, or after the achieved value.
_RESULT = re.compile(r"(?:^|: )(pass|fail)(?:$|, |; )")


def _cell(v: Any) -> dict[str, Any]:
    if v is None:
        return {"text": "\u2013", "num": False, "cls": ""}
    if isinstance(v, bool):
        return {"text": "yes" if v else "no", "num": False, "cls": ""}
    if isinstance(v, int):
        return {"text": f"{v:,}", "num": True, "cls": ""}
    if isinstance(v, float):
        text = f"{v:,.0f}" if v.is_integer() and abs(v) >= 1 else f"{v:.4g}"
        return {"text": text, "num": True, "cls": ""}
    text = str(v)
    # a judged cell reads "pass" / "fail", or "<achieved>: pass" / "<achieved>: fail, ..."
    # (riskcore.report.readings.review.checks_side_by_side); a name is never marked
    found = _RESULT.search(text)
    return {"text": text, "num": False, "cls": found.group(1) if found else ""}


def _frame(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> dict[str, Any]:
    return {"headers": list(headers), "rows": [[_cell(v) for v in row] for row in rows]}


def _df(frame: pd.DataFrame) -> dict[str, Any]:
    return _frame(list(frame.columns), frame.astype(object).values.tolist())


def _pct(x: float | None) -> str:
    return "\u2013" if x is None else f"{100 * x:.2f}%"


def _rate_row(label: str, rate: Any) -> list[Any] | None:
    if rate is None:
        return None
    low, high = rate.low, rate.high
    return [
        label,
        f"{rate.successes:,} of {rate.n:,}",
        _pct(rate.rate),
        f"{_pct(low)} to {_pct(high)}",
        _pct(rate.baseline),
    ]


def _attack_context(att: AttackRun) -> dict[str, Any]:
    from riskcore.report.readings import homogeneity_reading, linkage_reading

    link = att.linkage
    rows = [
        _rate_row("re-identified uniquely (one matching record)", link.unique),
        _rate_row("re-identified correctly (that record is the target's own)", link.correct),
    ]
    if link.expected_correct is not None and link.expected_correct_ci is not None:
        ci = link.expected_correct_ci
        rows.append(
            [
                "expected correct, picking one matching record at random",
                f"{link.n_targets:,} targets",
                _pct(link.expected_correct),
                f"{_pct(ci[0])} to {_pct(ci[1])}",
                _pct(1 / max(int(link.n_release), 1)),
            ]
        )
    for a in link.attributes:
        rows.append(_rate_row(f"{a.attribute}: learned with confidence >= p", a.confident))
        rows.append(_rate_row(f"{a.attribute}: learned and correct", a.correct))
    homo = [
        [
            h.attribute,
            f"{h.exposed_classes:,} of {h.n_classes:,}",
            f"{h.exposed_records:,}",
            _pct(h.exposed_records / max(int(h.n_records), 1)),
        ]
        for h in att.homogeneity
    ]
    return {
        "of": att.of,
        "intro": (
            f"Linkage: the attacker knows {', '.join(att.known)} of all {link.n_targets:,} "
            f"people, without error, and joins them to the released columns (p = {att.p:g}). "
            "Intervals are 95%: Wilson for the rates, normal for the expected share."
        ),
        "linkage": _frame(
            ["linkage", "targets", "rate", "95% interval", "baseline"],
            [r for r in rows if r is not None],
        ),
        "homogeneity": _frame(
            ["homogeneity: sensitive attribute", "exposed classes", "exposed people", "share"],
            homo,
        )
        if homo
        else None,
        "readings": [linkage_reading(link)]
        + [homogeneity_reading(h, list(att.known)) for h in att.homogeneity],
        "not_run": "Not run here: "
        + "; ".join(att.not_run)
        + " (they need a target person and a query, or a second release: the Attacks page).",
    }


def _release_context(review: Review) -> dict[str, Any] | None:
    """The release context's answers, threshold and why (None without one)."""
    from riskcore.report.readings.context import context_reading, context_rows, overall_reading

    c = review.profile.context
    if c is None:
        return None
    overall = []
    for of, v in (
        ("As recorded", review.verdict_before),
        ("After remediation", review.verdict_after),
    ):
        text = None if v is None else overall_reading(c, v.checks)
        if text:
            overall.append(f"{of}: {text[0].lower()}{text[1:]}")
    return {
        "answers": _df(context_rows(c)),
        "reading": context_reading(c, carried=c.carried_by(review.profile.targets)),
        "overall": overall,
    }


def _readings(review: Review, after: bool) -> list[str]:
    from riskcore.report.readings import (
        candidates_reading,
        diversity_reading,
        histogram_reading,
        missing_reading,
        risk_reading,
    )
    from riskcore.report.readings.population import population_reading

    a = review.after if after else review.before
    if a is None:
        return []
    out = [
        missing_reading(a.missing, a.missing_records, people=a.person is not None),
        histogram_reading(a),
        candidates_reading(a),
        risk_reading(a),
    ]
    if a.population_uniqueness is not None:
        out.append(population_reading(a.population_uniqueness))
    out += [diversity_reading(a, s) for s in a.sensitive]
    return out


def _method_notes(review: Review) -> list[tuple[str, str, str]]:
    """Return the method notes: every report's, then those of the profile's events and
    household, then those of the privacy models its targets hold beyond every report's, then
    the release context's."""
    p = review.profile
    used = [k for k, on in (("events", bool(p.events)), ("household", p.household)) if on]
    kinds = dict.fromkeys(c.kind for c in p.targets.criteria if c.kind in MODEL_METHOD_NOTES)
    return [
        *METHOD_NOTES,
        *(EVENT_METHOD_NOTES[k] for k in used),
        *(MODEL_METHOD_NOTES[k] for k in kinds),
        *([CONTEXT_METHOD_NOTE] if p.context is not None else []),
    ]


def _events_context(review: Review) -> list[dict[str, Any]]:
    """Return the many-rows-per-person section: per table, the k^m-anonymity and household
    readings and the rarest sets of visits (empty without events or a household)."""
    from riskcore.report.readings.longitudinal import (
        household_reading,
        km_reading,
        rare_itemset_table,
    )

    out = []
    for of, a in (("As recorded", review.before), ("After remediation", review.after)):
        if a is None or (a.km_anonymity is None and a.household is None):
            continue
        km, hh = a.km_anonymity, a.household
        out.append(
            {
                "of": of,
                "readings": [
                    *([km_reading(km)] if km is not None else []),
                    *([household_reading(hh)] if hh is not None else []),
                ],
                "rarest": _df(rare_itemset_table(km)) if km is not None and km.rarest else None,
            }
        )
    return out


def document_context(review: Review) -> dict[str, Any]:
    """Return every sentence and table of the report, derived from the review.

    Parameters
    ----------
    review : Review
        The review the report states: the one source of every sentence.

    Returns
    -------
    dict
        What the template lays out (see ``templates/report.html.j2``).
    """
    from riskcore.metrics import SudaResult
    from riskcore.report.readings.budget import budget_check_reading, ledger_provenance_reading
    from riskcore.report.readings.identity import UNAUTHENTICATED_NAME, built_by_note
    from riskcore.report.readings.records import suda_reading
    from riskcore.report.readings.review import (
        ROLE_LABELS,
        checks_side_by_side,
        figures_side_by_side,
        limitation_text,
        release_banner,
        role_reason_text,
        seeds_reading,
        target_rows,
    )
    from riskcore.report.readings.saved import audit_head_reading, head_kept_reading

    r = review
    d = r.dataset
    banner = release_banner(r)
    rem = r.remediation
    view = (
        "This report describes the table as recorded and the table after the remediation "
        "recipe, side by side; the verdict is on the remediated table."
        if r.after is not None
        else "This report describes the table as recorded (no remediation recipe)."
    )
    ctx: dict[str, Any] = {
        "schema": r.schema,
        "built_at": r.built_at.replace("T", " ").rstrip("Z"),
        "built_by": r.built_by or UNAUTHENTICATED_NAME,
        "built_by_note": built_by_note(r.built_by, r.identity),
        "version": r.software.get("riskcore", "?"),
        "dataset_name": d["name"],
        "verdict_state": banner.state,
        "verdict_head": banner.mark,
        "verdict_text": banner.text,
        "view": view,
        "dataset": _frame(
            ["file", "rows", "columns", "missing cells"],
            [[d["name"], d["rows"], d["columns"], d["missing"]]],
        )
        if r.before.person is None
        else _frame(  # with a person column the unit: "2,500 people in 8,177 rows"
            ["file", "people", "rows", "columns", "missing cells"],
            [
                [
                    d["name"],
                    f"{r.before.n_people:,} (linked by {r.before.person})",
                    d["rows"],
                    d["columns"],
                    d["missing"],
                ]
            ],
        ),
        "sha256": d["sha256"],
        "fingerprint_of": d["fingerprint_of"],
        "audit_head": audit_head_reading(r.audit_head)
        + ("" if r.audit_head is None else " " + head_kept_reading()),
        "roles": _frame(
            ["column", "role", "why"],
            [
                [x.column, ROLE_LABELS.get(x.role, x.role), role_reason_text(x, r.built_by)]
                for x in r.reasons
            ],
        ),
        "targets": _df(target_rows(r)),
        "context": _release_context(r),
        "checks": _df(checks_side_by_side(r)),
        "figures": _df(figures_side_by_side(r)),
        "readings_before": _readings(r, after=False),
        "readings_after": _readings(r, after=True),
        "suda": None,
        "attacks": [_attack_context(a) for a in (r.attacks_before, r.attacks_after) if a],
        "remediation": None,
        "budget": None,
        "limitations": [limitation_text(x) for x in r.limitations],
        "methods": _frame(["topic", "computed as", "citation"], _method_notes(r)),
        "events": _events_context(r),
        "missing_policy": r.before.missing_policy,
        "software": _frame(["software", "version"], list(r.software.items())),
        "parameters": _frame(
            ["parameter", "value"],
            [[k, json.dumps(plain(val), allow_nan=False)] for k, val in r.parameters.items()],
        ),
        "command": r.command,
        "seeds": seeds_reading(r),
    }
    su = r.special_uniques
    if su is not None:
        ctx["suda"] = _frame(
            ["minimal sample uniques", "special uniques", "sample uniques", "DIS"],
            [[su["n_msus"], su["special_uniques"], su["sample_uniques"], su["dis"]]],
        )
        ctx["suda_share"] = _frame(
            ["quasi-identifier", "share of the SUDA scores"],
            [
                [q, _pct(share)]
                for q, share in zip(su["quasi_identifiers"], su["qi_contribution"], strict=True)
            ],
        )
        ctx["suda_reading"] = suda_reading(SudaResult.from_dict(su))
    if rem is not None:
        loss = rem.information_loss or {}
        printed, abridged = printed_json(rem.recipe.to_dict())
        ctx["remediation"] = {
            "steps": [s.words for s in rem.steps],
            "loss": _frame(
                [
                    "records before",
                    "records after",
                    "suppressed",
                    "NCP",
                    "precision loss",
                    "discernibility",
                ],
                [
                    [
                        rem.records_before,
                        rem.records_after,
                        f"{rem.suppressed:,} ({rem.suppressed / max(rem.records_before, 1):.2%})",
                        _pct(loss.get("ncp")),
                        _pct(loss.get("precision")),
                        loss.get("discernibility"),
                    ]
                ],
            ),
            "not_reapplied": (
                "Keyed steps of the recipe, named and not redone here (the report holds no key; "
                "they change direct identifiers or shift dates): "
                + "; ".join(rem.not_reapplied)
                + "."
            )
            if rem.not_reapplied
            else "",
            "recipe_json": json.dumps(rem.recipe.to_dict(), indent=2, allow_nan=False),
            "recipe_printed": printed,
            "recipe_pointer": recipe_pointer(ATTACHMENT_NAME, abridged=abridged),
            **utility_context(rem, _frame),
        }
    b = r.privacy_budget
    if b is not None:
        ctx["budget"] = {
            "text": budget_check_reading(
                f"Accounting {b['accounting']}: epsilon spent {b['epsilon_spent']:.4g} of "
                f"{b['epsilon_budget']:.4g} (remaining {b['epsilon_remaining']:.4g}); delta "
                f"spent {b['delta_spent']:.3g} of {b['delta_budget']:.3g}."
                + (
                    " " + ledger_provenance_reading(b["charged_to"])
                    if isinstance(b.get("charged_to"), dict)
                    else ""
                ),
                b.get("checked"),
            ),
            "entries": _frame(
                ["query", "mechanism", "epsilon", "delta", "unit"],
                [
                    [e["query"], e["mechanism"], e["epsilon"], e["delta"], _unit(e.get("unit"))]
                    for e in b["entries"]
                ],
            ),
        }
    return ctx


def _unit(unit: Any) -> str:
    """Return what one entry's epsilon protects ("one row" for an entry written before units)."""
    from riskcore.dp.contributions import ONE_ROW, PrivacyUnit
    from riskcore.report.readings.dp_unit import unit_phrase

    return unit_phrase(ONE_ROW if not isinstance(unit, dict) else PrivacyUnit.from_dict(unit))


# ------------------------------------------------------------------ figures


def figure_objects(review: Review) -> list[Any]:
    """Return the report's plotly figures: class sizes and candidates, then the utility ones.

    Class sizes and candidates as recorded (and after remediation), then the
    remediation's utility figures (:func:`utility_figures`).

    Parameters
    ----------
    review : Review
        The review whose classes and utility are drawn.

    Returns
    -------
    list of Any
    """
    main, util = _figure_groups(review)
    return [*main, *util]


def _figure_groups(review: Review) -> tuple[list[Any], list[Any]]:
    """Return the figures of the risk section and of the remediation's utility."""
    from riskcore.report.figures import candidates_curve, class_size_histogram
    from riskcore.report.readings import candidate_table, join_names, size_histogram

    out = []
    shown = [(" (as recorded)", review.before)]
    if review.after is not None:
        shown.append((" (after remediation)", review.after))
    k = review.profile.targets.find("k-anonymity")
    for suffix, a in shown:
        dist = a.anonymity.distribution
        out.append(
            class_size_histogram(
                size_histogram(dist, people=a.person is not None),
                join_names(a.quasi_identifiers),
                suffix=suffix,
                k=review.profile.targets.k_required,
            )
        )
        out.append(
            candidates_curve(
                candidate_table(dist, people=a.person is not None),
                k=None if k is None else int(k.target),
                suffix=suffix,
            )
        )
    return out, list(utility_figures(review.remediation))


def figure_svgs(review: Review) -> list[bytes]:
    """Return the report's figures as static SVG, drawn by kaleido in the system Chromium.

    plotly.js comes from the installed plotly package (a ``file:`` URL) and
    MathJax is switched off, so the drawing fetches nothing from the network.

    Parameters
    ----------
    review : Review
        The review whose figures are drawn, as :func:`figure_objects`.

    Returns
    -------
    list of bytes

    Raises
    ------
    RiskcoreError
        When kaleido is not installed or cannot start Chromium.
    """
    return _draw(figure_objects(review))


def _draw(figs: Sequence[Any]) -> list[bytes]:
    import asyncio

    try:
        import kaleido
    except ImportError:
        raise RiskcoreError(
            "static figures need kaleido (pip install -e '.[pdf]') and Chromium; "
            "or leave the figures out"
        ) from None

    async def draw() -> list[bytes]:
        async with kaleido.Kaleido(n=1, mathjax=False) as k:
            # 900 x 420 px, or taller for a figure laid out taller (a chart with many bars)
            sizes = [max(420, int(fig.layout.height or 420)) for fig in figs]
            opts = [{"format": "svg", "width": 900, "height": h} for h in sizes]
            return [bytes(await k.calc_fig(f, opts=o)) for f, o in zip(figs, opts, strict=True)]

    try:
        return asyncio.run(draw())
    except Exception as exc:  # kaleido / choreographer raise their own error types
        raise RiskcoreError(
            f"kaleido could not draw the figures ({type(exc).__name__}: {exc}); "
            "install Chromium, or leave the figures out"
        ) from None


# ------------------------------------------------------------------ HTML and PDF


#: Characters that change the direction of the text around them (embeddings, overrides,
#: isolates, marks): a U+202E in a file name turns "...fdp.csv" into "...vsc.pdf".
_BIDI = frozenset("\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _isolate(value: Any) -> Any:
    """Return a printed text that holds direction controls isolated (FSI ... PDI).

    Every embedding or override it opens is closed (PDF) and every isolate
    (PDI) before the closing PDI, so nothing it holds reorders the text
    around it (Unicode Bidirectional Algorithm, UAX #9, rules X6a and X7).
    Other values (and the template's own markup) are printed as they are.
    """
    if not isinstance(value, str) or hasattr(value, "__html__") or _BIDI.isdisjoint(value):
        return value
    opened = sum(value.count(c) for c in "\u202a\u202b\u202d\u202e")
    isolates = sum(value.count(c) for c in "\u2066\u2067\u2068")
    return "\u2068" + value + "\u202c" * opened + "\u2069" * (isolates + 1)


@cache
def _template() -> Any:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).with_name("templates")),
        autoescape=True,
        finalize=_isolate,  # user text (file, column, person names) isolated for bidi
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    return env.get_template("report.html.j2")


def _render(
    review: Review,
    *,
    head: Sequence[str],
    figures: Sequence[str],
    css: str,
    utility: Sequence[str] = (),
    printed: bool = False,
) -> str:
    from markupsafe import Markup

    return str(
        _template().render(
            d=document_context(review),
            css=Markup(css),  # noqa: S704 - the module's own constant
            head=[Markup(h) for h in head],  # noqa: S704 - plotly.js and our own CSS
            figures=[Markup(f) for f in figures],  # noqa: S704 - plotly's own HTML / our <img>
            utility_figures=[Markup(f) for f in utility],  # noqa: S704 - as the figures
            printed=printed,  # the PDF: the recipe abridged, the whole of it attached
        )
    )


def render_html(review: Review, *, figures: bool = True) -> str:
    """Return the report as one standalone HTML document that opens offline.

    CSS is inline, plotly.js is embedded once in one ``<script>``, each figure
    follows as a ``<div>`` with its own small script; no address of another
    host appears in any ``src``, ``href`` or CSS ``url(``. Every string that
    comes from the user is escaped by the template's autoescaping.

    Parameters
    ----------
    review : Review
        The review the HTML report states.
    figures : bool, default True
        Include the plotly figures (and plotly.js, about 4.8 MB).

    Returns
    -------
    str
    """
    head: list[str] = []
    blocks: list[list[str]] = [[], []]
    if figures:
        import plotly.offline

        head.append(f'<script type="text/javascript">{plotly.offline.get_plotlyjs()}</script>')
        config = {"displaylogo": False, "responsive": True}
        blocks = [
            ['<div class="plot">'
             + fig.to_html(full_html=False, include_plotlyjs=False, config=config)
             + "</div>" for fig in group]
            for group in _figure_groups(review)
        ]  # fmt: skip
    return _render(review, head=head, figures=blocks[0], css=_CSS, utility=blocks[1])


def render_pdf(review: Review, *, figures: bool = True) -> bytes:
    """Return the report as a PDF/A-3b document with the JSON twin attached.

    Rendered locally by WeasyPrint from the same template as
    :func:`render_html` (without scripts), figures as static SVG
    (:func:`figure_svgs`) in ``data:`` URLs. The URL fetcher allows only
    ``data:`` URLs: nothing is read from the network or the disk. Every page
    carries its number and the dataset's SHA-256 (CSS ``@page``). The JSON
    twin is embedded as the file :data:`ATTACHMENT_NAME` (PDF/A-3 associated
    file, relationship ``Data``).

    Parameters
    ----------
    review : Review
        The review the PDF states; its JSON twin is attached.
    figures : bool, default True
        Draw the figures (needs kaleido and Chromium).

    Returns
    -------
    bytes

    Raises
    ------
    RiskcoreError
        When WeasyPrint is not installed, figures are asked for and cannot be
        drawn, or the document refers to anything but a ``data:`` URL.
    """
    import base64

    try:
        import weasyprint
        from weasyprint.urls import FatalURLFetchingError, URLFetcher
    except (ImportError, OSError) as exc:  # OSError: the Pango libraries are missing
        raise RiskcoreError(
            f"the PDF needs WeasyPrint and Pango ({exc}): pip install -e '.[pdf]'; "
            "apt-get install libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0"
        ) from None
    blocks = []
    main, util = _figure_groups(review) if figures else ([], [])
    for svg in _draw([*main, *util]) if figures else []:
        b64 = base64.b64encode(svg).decode("ascii")
        blocks.append(f'<div class="plot"><img src="data:image/svg+xml;base64,{b64}"></div>')
    sha = review.dataset["sha256"]
    if not all(ch in "0123456789abcdef" for ch in sha):
        raise RiskcoreError("the fingerprint must be a hex SHA-256")
    css = _CSS + _PRINT_CSS.format(sha=sha)
    n = len(main)
    text = _render(review, head=[], figures=blocks[:n], css=css, utility=blocks[n:], printed=True)
    fetcher = URLFetcher(allowed_protocols=("data",), fail_on_errors=True)
    twin = weasyprint.Attachment(
        string=review.to_json().encode("utf-8"),
        name=ATTACHMENT_NAME,
        description="The report's numbers as JSON (riskcore report twin)",
        relationship="Data",
        url_fetcher=fetcher,
    )
    doc = weasyprint.HTML(string=text, url_fetcher=fetcher, base_url=None)
    try:
        pdf = doc.write_pdf(pdf_variant="pdf/a-3b", attachments=[twin])
    except FatalURLFetchingError as exc:
        raise RiskcoreError(f"the PDF may use data: URLs only, refused: {exc}") from None
    if not isinstance(pdf, bytes):  # write_pdf() without a target returns the bytes
        raise RiskcoreError("WeasyPrint returned no PDF")
    return pdf
