"""Layout checks of the browser tests: labels cut, tables or tab rows running off, tick
labels lying over each other, sliders too narrow to use, measured in Chromium at 1400 and
1024 px (docs/layout.md).

A text cut with an ellipsis or a tab row wider than the main column is found by comparing
each element's scroll width with its client width; a select box's chosen value by its
input; a dataframe by its grid's scroller (Glide's ``.dvn-scroller``), more than 16 px wider
than its box when its last columns are hidden; a static table (``st.table``, whose cells
wrap) by its table's width against its box and each cell's contents against the cell;
overlapping tick labels by their boxes.
"""

from __future__ import annotations

from tests.browser_helpers import shot, wait_idle

__all__ = [
    "CELLS",
    "CUT",
    "HEADERS_FROM_PX",
    "HINTS",
    "INPUTS",
    "LABELS",
    "MIN_SLIDER_PX",
    "OVERLAP",
    "RUNS_OFF",
    "SLIDERS",
    "TABLE_CELLS",
    "measure",
]

#: The elements whose text is cut when wider than their box, by Streamlit's test id.
LABELS = [
    "stMetricLabel",
    "stWidgetLabel",
    "stBaseButton-secondary",
    "stDownloadButton",
    "stMultiSelect",  # its chips
]
#: A select box's chosen value is the text of an input (a combo box): cut when the input
#: scrolls.
INPUTS = """() => [...document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stSelectbox"] input')]
  .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1 && e.value.trim())
  .map(e => `stSelectbox: ${e.value.trim().slice(0, 60)}`)"""
CUT = """(ids) => {
  const out = [];
  for (const id of ids) {
    for (const box of document.querySelectorAll(`[data-testid="stMain"] [data-testid="${id}"]`)) {
      for (const e of [box, ...box.querySelectorAll('*')]) {
        if (e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1 && e.innerText.trim())
          out.push(`${id}: ${e.innerText.trim().slice(0, 60)}`);
      }
    }
  }
  return [...new Set(out)];
}"""
RUNS_OFF = """() => [
  ...[...document.querySelectorAll('[data-testid="stMain"] [role="tablist"]')]
    .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 16)
    .map(e => 'tablist: ' + e.innerText.trim().slice(0, 50)),
  // a dataframe (Glide data grid) scrolls inside its ".dvn-scroller": wider than its box
  // when its last columns are hidden
  ...[...document.querySelectorAll('[data-testid="stMain"] [data-testid="stDataFrame"]')]
    .map(e => [e, e.querySelector('.dvn-scroller') || e])
    .filter(([e, s]) => e.offsetParent !== null && s.scrollWidth > s.clientWidth + 16)
    .map(([e, s]) => 'table: ' + [...e.querySelectorAll('th, [role="columnheader"]')]
      .map(h => h.textContent.trim()).filter(Boolean).slice(0, 4).join(' | ')
      + ` (${s.scrollWidth} of ${s.clientWidth} px)`),
]"""


#: The uploader's hint ("Drag and drop file here", "Limit ... per file"), Streamlit's own text.
HINTS = ["stFileUploaderDropzoneInstructions"]
#: Tick labels of a plotly chart that lie over each other (a pair on one axis whose boxes
#: intersect by more than 2 px), with the chart's title.
OVERLAP = """() => {
  const out = [];
  for (const plot of document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot')) {
    const title = (plot.querySelector('.gtitle') || {}).textContent || '?';
    for (const [cls, a, b] of [['ytick', 'top', 'bottom'], ['xtick', 'left', 'right']]) {
      for (const layer of plot.querySelectorAll(`.${cls[0]}axislayer-above`)) {
        const boxes = [...layer.querySelectorAll(`.${cls} text`)]
          .map(t => [t.getBoundingClientRect(), t.textContent])
          .filter(([r, t]) => r.width > 0 && t.trim())
          .sort((p, q) => p[0][a] - q[0][a]);
        for (let i = 1; i < boxes.length; i++) {
          if (boxes[i][0][a] < boxes[i - 1][0][b] - 2)
            out.push(`${title.slice(0, 50)}: ${boxes[i - 1][1]} / ${boxes[i][1]}`);
        }
      }
    }
  }
  return [...new Set(out)];
}"""
#: Headers and cells of a dataframe whose text is wider than their column (cut where the
#: grid's canvas ends the cell). The grid (Glide) draws on a canvas: its columns (with their
#: widths), cells and theme are read from the props of its React component, each header's
#: and cell's text is measured in the grid's font on a canvas of its own; a cell whose text
#: wraps (rows taller than 4 rem) is left out. At most 200 rows a table.
CELLS = """() => {
  const out = [];
  const ctx = document.createElement('canvas').getContext('2d');
  const boxes = document.querySelectorAll('[data-testid="stMain"] [data-testid="stDataFrame"]');
  for (const box of boxes) {
    if (box.offsetParent === null) continue;
    const canvas = box.querySelector('canvas[data-testid="data-grid-canvas"]');
    if (!canvas) continue;  // not drawn (in a closed expander)
    const key = canvas && Object.keys(canvas).find(k => k.startsWith('__reactFiber$'));
    let fiber = key ? canvas[key] : null, grid = null;
    for (let i = 0; fiber && i < 80 && !grid; i++, fiber = fiber.return) {
      const p = fiber.memoizedProps;
      if (p && Array.isArray(p.columns) && typeof p.getCellContent === 'function'
          && p.columns.every(c => typeof c.width === 'number')) grid = p;
    }
    if (!grid) { out.push('table: its grid could not be read'); continue; }
    const theme = grid.theme || {};
    ctx.font = `${theme.baseFontStyle || '14px'} ${theme.fontFamily || 'sans-serif'}`;
    const pad = 2 * (theme.cellHorizontalPadding ?? 8);
    const rows = Math.min(grid.rows || 0, 200);
    const header = `${theme.headerFontStyle || '600 14px'} ${theme.fontFamily || 'sans-serif'}`;
    grid.columns.forEach((col, c) => {
      ctx.font = header;  // a header is cut where its column ends too
      const title = col.title || '';
      const needH = ctx.measureText(title).width + pad;
      if (title.trim() && needH > col.width + 1)
        out.push(`header cut: ${title.slice(0, 40)} `
          + `(${Math.ceil(needH)} of ${Math.round(col.width)} px)`);
      ctx.font = `${theme.baseFontStyle || '14px'} ${theme.fontFamily || 'sans-serif'}`;
      for (let r = 0; r < rows; r++) {
        const cell = grid.getCellContent([c, r]);
        const text = cell && typeof cell.displayData === 'string' ? cell.displayData : '';
        if (!text.trim() || cell.allowWrapping) continue;
        const need = ctx.measureText(text).width + pad;
        if (need > col.width + 1) {
          const px = `${Math.ceil(need)} of ${Math.round(col.width)} px`;
          out.push(`cell cut: ${col.title}: ${text.slice(0, 40)} (${px})`);
          break;  // one a column
        }
      }
    });
  }
  return out;
}"""


#: Cells of a static table (``st.table``, an HTML table whose cells wrap at spaces) whose
#: text is wider than the cell (a word longer than its column: it runs over the next cell or
#: is clipped), and a static table wider than its box (its last columns behind a scroll bar).
TABLE_CELLS = """() => {
  const out = [];
  const boxes = document.querySelectorAll('[data-testid="stMain"] [data-testid="stTable"]');
  for (const box of boxes) {
    if (box.offsetParent === null) continue;
    const table = box.querySelector('table');
    if (!table) continue;
    const head = [...table.querySelectorAll('th')].map(h => h.innerText.trim())
      .filter(Boolean).slice(0, 3).join(' | ');
    if (table.getBoundingClientRect().width > box.getBoundingClientRect().width + 1)
      out.push(`static table runs off: ${head} (${Math.round(table.getBoundingClientRect().width)}`
        + ` of ${Math.round(box.getBoundingClientRect().width)} px)`);
    for (const cell of table.querySelectorAll('th, td')) {
      const text = cell.innerText.trim();
      if (!text) continue;
      const over = [cell, ...cell.querySelectorAll('*')]
        .find(e => e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1);
      if (over)
        out.push(`static cell cut: ${text.slice(0, 40)} (${over.scrollWidth} of `
          + `${over.clientWidth} px)`);
    }
  }
  return [...new Set(out)];
}"""


#: The headers of a table checked by :data:`CELLS` are whole above this window width (px):
#: at 1024 px :func:`ui.core.tables.fitted` may narrow one, its name in its tooltip; at 1400 px
#: nothing needs to be (the candidate table's "search's choice" was cut, issue 38).
HEADERS_FROM_PX = 1024
#: The narrowest a slider's track may be (px): the Differential privacy page's delta and
#: confidence sliders were 70 px at 1024 px, their five values 14 px apart (issue 38).
MIN_SLIDER_PX = 120
#: Sliders narrower than :data:`MIN_SLIDER_PX`, by their label.
SLIDERS = """(least) => [...document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stSlider"]')]
  .filter(e => e.offsetParent !== null)
  .map(e => [e, (e.querySelector('[data-baseweb="slider"]') || e).getBoundingClientRect()])
  .filter(([e, r]) => r.width > 0 && r.width < least)
  .map(([e, r]) => `narrow slider: ${(e.querySelector('label') || e).innerText.trim()
    .slice(0, 40)} (${Math.round(r.width)} px)`)"""


def measure(page, name: str, *, cells: bool = False) -> dict[int, list[str]]:
    """Screenshot and measure the page at 1400 and 1024 px; return what is cut, runs off
    or overlaps, by width.

    ``cells`` adds the check of dataframe cells cut (:data:`CELLS`): asked for by the tests
    of the tables made to show every cell whole; elsewhere a cell may be cut by design (its
    full text shows on hover, docs/layout.md).
    """
    found = {}
    for width in (1400, 1024):
        page.set_viewport_size({"width": width, "height": 1000})
        wait_idle(page)
        page.wait_for_timeout(500)  # plotly redraws on resize
        shot(page, f"walk-{width}-{name}")
        found[width] = (
            page.evaluate(CUT, LABELS + HINTS)
            + page.evaluate(INPUTS)
            + page.evaluate(RUNS_OFF)
            + page.evaluate(OVERLAP)
            + page.evaluate(SLIDERS, MIN_SLIDER_PX)
            + page.evaluate(TABLE_CELLS)
            + [
                cut
                for cut in (page.evaluate(CELLS) if cells else [])
                # at 1024 px ui.core.tables.fitted narrows a header, its name in the tooltip
                if width > HEADERS_FROM_PX or not cut.startswith("header cut:")
            ]
        )
    return found
