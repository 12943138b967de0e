"""Every figure builder drawn as the PDF draws it: every text inside, none over another.

Each builder of :mod:`riskcore.report.figures` (its ``__all__``; a name that
is not a builder is listed in ``NOT_BUILDERS`` with the reason) is fed the
realistic inputs of :mod:`tests.riskcore.figure_cases`, drawn by kaleido in
Chromium, and measured in Chromium (:mod:`tests.riskcore.svg_layout`): no
tick label, axis title, legend entry, annotation, bar text or title may lie
outside the figure or over another, none may print under 7 pt at the PDF's
size, every reference line carries a label and every annotation is drawn.

The report's builders are built under two default templates: plotly's own
(the command line) and Streamlit's (plotly's default as soon as streamlit is
imported: the report the app exports; it sets no ``automargin``, and the y
ticks of 5,000 records were cut to "0"), and drawn at the PDF's 900 x 420 px.
The app's builders are built under Streamlit's only (the app always has it;
each drawing costs half a second) and drawn 900 px wide at their own height.
The report's figures are also measured exactly as
:func:`riskcore.report.render.figure_svgs` draws them for the hospital table.
"""

from __future__ import annotations

import re

import pytest

from riskcore.report import figures as fg
from tests.riskcore import figure_cases as fc
from tests.riskcore.svg_layout import (
    PDF_HEIGHT,
    PDF_WIDTH,
    default_template,
    measure,
    problems,
    render_svgs,
    require_browser,
)

TEMPLATES = ("plotly", "streamlit")
APP_TEMPLATES = ("streamlit",)
REPORT = fc.report_cases()
APP = fc.app_cases()
CASES = [
    (builder, label, make, template, group is REPORT)
    for group in (REPORT, APP)
    for builder, cases in group.items()
    for label, make in cases
    for template in (TEMPLATES if group is REPORT else APP_TEMPLATES)
]


def _id(builder: str, label: str, template: str) -> str:
    return f"{builder}[{label}|{template}]"


def test_every_builder_has_cases_or_a_reason():
    covered = set(REPORT) | set(APP)
    assert not covered & set(fc.NOT_BUILDERS)
    assert set(fg.__all__) == covered | set(fc.NOT_BUILDERS), (
        "a builder without realistic cases in tests/riskcore/figure_cases.py: "
        f"{sorted(set(fg.__all__) - covered - set(fc.NOT_BUILDERS))}"
    )


@pytest.fixture(scope="module")
def drawn() -> dict[str, tuple[list[str], str]]:
    """Return the problems of every case (or the error building it), and its SVG, by id."""
    require_browser()
    figs, sizes, ids, notes, out = [], [], [], [], {}
    for builder, label, make, template, in_report in CASES:
        key = _id(builder, label, template)
        try:
            with default_template(template):
                fig = make()
        except Exception as exc:  # reported by the case's own test
            out[key] = ([f"building it raised {type(exc).__name__}: {exc}"], "")
            continue
        height = PDF_HEIGHT if in_report else int(fig.layout.height or PDF_HEIGHT)
        figs.append(fig)
        sizes.append((PDF_WIDTH, height))
        ids.append(key)
        notes.append(sum(a.visible is not False for a in fig.layout.annotations))
    svgs = render_svgs(figs, sizes)
    for key, svg, d, n in zip(ids, svgs, measure(svgs), notes, strict=True):
        out[key] = (problems(d, width_px=PDF_WIDTH, annotations=n), svg)
    return out


@pytest.mark.parametrize(
    ("builder", "label", "template"),
    [(b, lab, t) for b, lab, _, t, _ in CASES],
    ids=[_id(b, lab, t) for b, lab, _, t, _ in CASES],
)
def test_every_text_is_inside_and_apart(drawn, builder, label, template):
    found, _ = drawn[_id(builder, label, template)]
    assert not found, f"{builder} on {label} ({template} template):\n  " + "\n  ".join(found)


@pytest.mark.parametrize("template", TEMPLATES)
def test_the_pdf_figures_of_the_hospital_report(template):
    """The report's own figures, drawn by ``figure_svgs`` as the PDF holds them."""
    require_browser()
    from riskcore.profile import Profile
    from riskcore.report.render import figure_objects, figure_svgs
    from riskcore.review import review

    with default_template(template):
        profile = Profile.read(fc.hospital_profile())
        report = review(fc.hospital(), profile, name="hospital.csv")
        svgs = [s.decode("utf-8") for s in figure_svgs(report)]
        heights = [int(f.layout.height or PDF_HEIGHT) for f in figure_objects(report)]
    assert report.remediation is not None
    # class sizes and candidates, as recorded and after remediation; then each released
    # column's values and the two-way heatmaps, as recorded and released
    utility = len(report.remediation.value_counts) + 2 * (report.remediation.two_way is not None)
    assert len(svgs) == 4 + utility and utility > 0
    for svg, height in zip(svgs, heights, strict=True):  # the PDF's size, or taller
        root = re.search(r"<svg[^>]*>", svg)
        assert root is not None
        assert f'width="{PDF_WIDTH}"' in root.group(0)
        assert f'height="{max(PDF_HEIGHT, height)}"' in root.group(0)
    found = [f"figure {i + 1}: {p}" for i, d in enumerate(measure(svgs)) for p in problems(d)]
    assert not found, "\n".join(found)


#: The width (px) of a chart in the app at a 1024 px window (the sidebar open): 564 px
#: measured in Chromium; a title wrapped for 900 px ran off it ("... one point per combinat").
APP_NARROW_PX = 560


@pytest.fixture(scope="module")
def narrow_titles() -> dict[str, list[str]]:
    """Return, by id, the titles of every figure drawn at :data:`APP_NARROW_PX` that lie outside."""
    require_browser()
    figs, sizes, ids = [], [], []
    for builder, label, make, template, _ in CASES:
        if template != "streamlit":
            continue
        with default_template(template):
            fig = make()
        figs.append(fig)
        sizes.append((APP_NARROW_PX, int(fig.layout.height or PDF_HEIGHT)))
        ids.append(_id(builder, label, template))
    out = {}
    for key, d in zip(ids, measure(render_svgs(figs, sizes)), strict=True):
        out[key] = [
            p for p in problems(d) if p.startswith("title") and "outside the figure" in p
        ] + [f"{t.name()} is turned on its side" for t in d.texts if _turned(t)]
    return out


def _turned(t) -> bool:
    """Whether a tick label of a few characters is drawn rotated (taller than it is wide)."""
    xs, ys = [c[0] for c in t.corners], [c[1] for c in t.corners]
    return "tick" in t.role and len(t.text) > 3 and max(ys) - min(ys) > max(xs) - min(xs)


def test_every_title_fits_and_no_label_turns_at_1024_px(narrow_titles):
    """Local DP's categories were drawn at 90 degrees at 564 px (16 diagnoses on x)."""
    found = [f"{k}: {p}" for k, ps in narrow_titles.items() for p in ps]
    assert not found, "\n".join(found)
