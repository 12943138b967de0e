"""Where a plotly figure's texts land when it is drawn as the PDF draws it (a test helper).

The PDF report draws each figure with kaleido in the system Chromium as a
900 x 420 px SVG (:func:`riskcore.report.document.figure_svgs`) and places
it at the text width of an A4 page (182 mm). :func:`render_svgs` draws
figures the same way; :func:`measure` loads each SVG in headless Chromium
(Playwright, Debian's ``/usr/bin/chromium``) and reads the box of every
visible ``<text>`` from the browser: ``getBBox()`` in the text's own
coordinates, mapped through ``getScreenCTM()``, so a rotated tick label or
axis title is the rotated rectangle it really occupies, with the fonts the
browser really uses. :func:`problems` lists, in words, every text (title,
axis title, tick label, legend entry, annotation, bar text) that lies even
partly outside the figure, every two texts that overlap, and every text
smaller than :data:`MIN_PT` points once the figure is scaled to the page.

Without Chromium (or kaleido, or Playwright) the callers fail in CI
(``CI=true``) and skip elsewhere: :func:`require_browser`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.browser_helpers import ARGS
from tests.conftest import IN_CI

CHROMIUM = Path("/usr/bin/chromium")
#: Flags for Debian's Chromium on these machines: the browser tests' own.
CHROMIUM_ARGS = ARGS
#: The PDF's figure size in CSS px (riskcore.report.document.figure_svgs).
PDF_WIDTH, PDF_HEIGHT = 900, 420
#: Text width of the PDF's A4 page: 210 mm less 14 mm margins each side (report._css.PRINT_CSS).
PAGE_TEXT_MM = 210.0 - 2 * 14.0
#: Smallest text allowed once a figure 900 px wide is printed at the text width, in points
#: (the report's tables are 8 pt; 7 pt is about the smallest print a reader takes in).
MIN_PT = 7.0
#: Slack for boxes that touch: overlaps and overhangs up to this many px are not counted.
TOLERANCE_PX = 1.0


def require_browser() -> None:
    """Skip the calling test outside CI when Chromium, kaleido or Playwright is missing;
    fail it in CI."""
    missing = []
    if not (CHROMIUM.exists() and os.access(CHROMIUM, os.X_OK)):
        missing.append(str(CHROMIUM))
    for module in ("kaleido", "playwright.sync_api"):
        try:
            __import__(module)
        except ImportError:
            missing.append(module)
    if missing:
        why = "figure layout tests need " + ", ".join(missing)
        if IN_CI:
            pytest.fail(why + " in CI")
        pytest.skip(why)


def pt_per_px(width_px: float = PDF_WIDTH) -> float:
    """Return the points one px of a ``width_px`` figure takes on the PDF page."""
    return PAGE_TEXT_MM / 25.4 * 72.0 / width_px


@contextlib.contextmanager
def default_template(name: str) -> Iterator[None]:
    """Build figures under plotly's default template ``name`` (restored on exit).

    ``"streamlit"`` is the template Streamlit installs as the default when it
    is imported (every figure the app builds, and the report the app
    exports): it sets colours only, no ``automargin``. Importing streamlit
    here to get it would change the default for the whole test process, so
    the default is put back.
    """
    import plotly.io as pio

    before = pio.templates.default
    if name == "streamlit" and "streamlit" not in pio.templates:
        import streamlit  # noqa: F401  (registers the template, and makes it the default)
    pio.templates.default = name
    try:
        yield
    finally:
        pio.templates.default = before


def render_svgs(figs: Sequence[object], sizes: Sequence[tuple[int, int]]) -> list[str]:
    """Return each figure drawn as SVG by kaleido in Chromium at its (width, height) px.

    The same call as :func:`riskcore.report.document.figure_svgs` (one
    kaleido, MathJax off, ``format="svg"``), for any figures and sizes.
    """
    import kaleido

    async def draw() -> list[str]:
        async with kaleido.Kaleido(n=1, mathjax=False) as k:
            out = []
            for fig, (w, h) in zip(figs, sizes, strict=True):
                opts = {"format": "svg", "width": w, "height": h}
                out.append(bytes(await k.calc_fig(fig, opts=opts)).decode("utf-8"))
            return out

    return asyncio.run(draw())


@dataclass(frozen=True)
class Text:
    """One visible text of a drawn figure: its role, string, corners (px) and font size."""

    role: str
    text: str
    corners: tuple[tuple[float, float], ...]
    font_px: float

    def name(self) -> str:
        """Return the text as a reader would point at it: role and (shortened) string."""
        s = self.text if len(self.text) <= 40 else self.text[:39] + "\u2026"
        return f"{self.role} {s!r}"

    def bounds(self) -> tuple[float, float, float, float]:
        """Return (left, top, right, bottom) of the corners."""
        xs = [c[0] for c in self.corners]
        ys = [c[1] for c in self.corners]
        return min(xs), min(ys), max(xs), max(ys)


@dataclass(frozen=True)
class Drawn:
    """The texts and reference lines (shapes) of one SVG, and its width and height (px).

    A line is (``"vertical"``, x, top, bottom) or (``"horizontal"``, y, left, right).
    """

    width: float
    height: float
    texts: tuple[Text, ...]
    lines: tuple[tuple[str, float, float, float], ...] = ()


# the roles by the class plotly gives a text or one of its groups, the first match wins
_ROLES = (
    ("gtitle", "title"),
    ("legendtitletext", "legend title"),
    ("legendtext", "legend entry"),
    ("annotation", "annotation"),
    ("xtitle", "x axis title"),
    ("x2title", "x axis title"),
    ("ytitle", "y axis title"),
    ("y2title", "y2 axis title"),
    ("xtick", "x tick"),
    ("x2tick", "x tick"),
    ("ytick", "y tick"),
    ("y2tick", "y2 tick"),
    ("textpoint", "bar or point text"),
)

# Each visible <text>: its classes and its ancestors', string, box in its own
# coordinates mapped to page px by its screen CTM (rotation included), font size.
_MEASURE_JS = """
() => {
  const svg = document.querySelector('svg');
  const origin = svg.getBoundingClientRect();
  const out = [];
  for (const t of svg.querySelectorAll('text')) {
    const rows = t.querySelectorAll('tspan.line');  // plotly's lines of a wrapped text
    const s = (rows.length ? Array.from(rows, r => r.textContent).join(' ')
                           : t.textContent || '').trim();
    if (!s || t.getClientRects().length === 0) continue;
    const cs = getComputedStyle(t);
    if (cs.visibility === 'hidden' || parseFloat(cs.opacity) === 0) continue;
    const b = t.getBBox();
    if (b.width === 0 || b.height === 0) continue;
    const m = t.getScreenCTM();
    const corners = [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height],
                     [b.x, b.y + b.height]].map(([x, y]) => {
      const p = new DOMPoint(x, y).matrixTransform(m);
      return [p.x - origin.left, p.y - origin.top];
    });
    const classes = [];
    for (let e = t; e && e !== svg; e = e.parentNode) {
      const c = e.getAttribute && e.getAttribute('class');
      if (c) classes.push(...c.split(/\\s+/));
    }
    out.push({classes, text: s, corners, font: parseFloat(cs.fontSize)});
  }
  const lines = [];
  for (const path of svg.querySelectorAll('.shapelayer path')) {
    const b = path.getBBox();
    const m = path.getScreenCTM();
    const p0 = new DOMPoint(b.x, b.y).matrixTransform(m);
    const p1 = new DOMPoint(b.x + b.width, b.y + b.height).matrixTransform(m);
    const [x0, y0, x1, y1] = [p0.x - origin.left, p0.y - origin.top, p1.x - origin.left,
                              p1.y - origin.top];
    if (Math.abs(x1 - x0) <= 2 && Math.abs(y1 - y0) >= 20) lines.push(['vertical', x0, y0, y1]);
    if (Math.abs(y1 - y0) <= 2 && Math.abs(x1 - x0) >= 20) lines.push(['horizontal', y0, x0, x1]);
  }
  return {width: svg.width.baseVal.value, height: svg.height.baseVal.value, texts: out, lines};
}
"""


def _role(classes: Sequence[str]) -> str:
    for cls, role in _ROLES:
        if cls in classes:
            return role
    return "text"


def measure(svgs: Sequence[str]) -> list[Drawn]:
    """Return the texts of each SVG as Chromium draws it (Playwright, headless)."""
    from playwright.sync_api import sync_playwright

    out = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            for svg in svgs:
                page.set_content(
                    "<!DOCTYPE html><html><body style='margin:0'>" + svg + "</body></html>"
                )
                raw = page.evaluate(_MEASURE_JS)
                texts = tuple(
                    Text(
                        role=_role(t["classes"]),
                        text=" ".join(t["text"].split()),
                        corners=tuple((float(x), float(y)) for x, y in t["corners"]),
                        font_px=float(t["font"]),
                    )
                    for t in raw["texts"]
                )
                lines = tuple((str(k), float(a), float(b), float(c)) for k, a, b, c in raw["lines"])
                out.append(Drawn(float(raw["width"]), float(raw["height"]), texts, lines))
        finally:
            browser.close()
    return out


def _inset(corners: Sequence[tuple[float, float]], by: float) -> list[tuple[float, float]]:
    """Return the parallelogram's corners moved ``by`` px inwards along both of its sides."""
    (x0, y0), (x1, y1), _, (x3, y3) = corners
    ux, uy = x1 - x0, y1 - y0  # along the text
    vx, vy = x3 - x0, y3 - y0  # across it
    lu, lv = (ux * ux + uy * uy) ** 0.5, (vx * vx + vy * vy) ** 0.5
    du = min(by, lu / 2) / lu if lu else 0.0
    dv = min(by, lv / 2) / lv if lv else 0.0
    ax, ay = x0 + ux * du + vx * dv, y0 + uy * du + vy * dv
    sx, sy = ux * (1 - 2 * du), uy * (1 - 2 * du)
    tx, ty = vx * (1 - 2 * dv), vy * (1 - 2 * dv)
    return [(ax, ay), (ax + sx, ay + sy), (ax + sx + tx, ay + sy + ty), (ax + tx, ay + ty)]


def _overlap(a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]]) -> bool:
    """Return whether two convex quadrilaterals share interior (separating-axis test)."""
    for poly in (a, b):
        for i in range(4):
            (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % 4]
            nx, ny = y0 - y1, x1 - x0  # the edge's normal
            pa = [nx * x + ny * y for x, y in a]
            pb = [nx * x + ny * y for x, y in b]
            if max(pa) <= min(pb) or max(pb) <= min(pa):
                return False
    return True


#: A reference line's label lies within this many px of the line.
LABEL_REACH_PX = 40.0
#: Roles of the texts that can label a reference line.
LABEL_ROLES = ("annotation", "bar or point text")


def problems(
    drawn: Drawn,
    *,
    min_pt: float = MIN_PT,
    width_px: float | None = None,
    annotations: int | None = None,
) -> list[str]:
    """Return a sentence for each layout problem of a drawn figure (none: an empty list).

    A text outside the figure (even partly), two texts that overlap, a text
    under ``min_pt`` points on the page (the figure printed from
    ``width_px``, default its own width, at the PDF's text width), a
    reference line (a shape drawn as a vertical or horizontal line) with no
    annotation or point text within :data:`LABEL_REACH_PX` of it, and, given
    ``annotations`` (the figure's count), an annotation plotly did not draw
    (one placed off its axis's range is silently left out).
    """
    out = []
    if annotations is not None:
        drawn_notes = sum(t.role == "annotation" for t in drawn.texts)
        if drawn_notes < annotations:
            out.append(f"{annotations - drawn_notes} of {annotations} annotations are not drawn")
    labels = [t.bounds() for t in drawn.texts if t.role in LABEL_ROLES]
    r = LABEL_REACH_PX
    for kind, at, start, end in drawn.lines:
        near = [
            (left - r <= at <= right + r and top <= end + r and bottom >= start - r)
            if kind == "vertical"
            else (top - r <= at <= bottom + r and left <= end + r and right >= start - r)
            for left, top, right, bottom in labels
        ]
        if not any(near):
            out.append(f"the {kind} line at {at:.0f} px has no label")
    w, h, tol = drawn.width, drawn.height, TOLERANCE_PX
    scale = pt_per_px(width_px or w)
    for t in drawn.texts:
        left, top, right, bottom = t.bounds()
        sides = [
            f"{side} by {d:.1f} px"
            for side, d in (
                ("left", -left),
                ("top", -top),
                ("right", right - w),
                ("bottom", bottom - h),
            )
            if d > tol
        ]
        if sides:
            out.append(f"{t.name()} lies outside the figure ({', '.join(sides)})")
        if t.font_px * scale < min_pt - 1e-9:
            out.append(
                f"{t.name()} is {t.font_px:g} px, {t.font_px * scale:.1f} pt on the page "
                f"(at least {min_pt:g} pt)"
            )
    quads = [_inset(t.corners, tol / 2) for t in drawn.texts]
    for i, a in enumerate(drawn.texts):
        for j in range(i + 1, len(drawn.texts)):
            if _overlap(quads[i], quads[j]):
                out.append(f"{a.name()} overlaps {drawn.texts[j].name()}")
    return out
