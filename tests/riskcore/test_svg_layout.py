"""The layout helper itself: hand-placed boxes, and a hand-written SVG measured in Chromium."""

from __future__ import annotations

import pytest

from tests.riskcore.svg_layout import (
    Drawn,
    Text,
    _overlap,
    measure,
    problems,
    pt_per_px,
    require_browser,
)


def box(x: float, y: float, w: float, h: float) -> tuple[tuple[float, float], ...]:
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


def text(role: str, corners, font: float = 14.0, s: str = "t") -> Text:
    return Text(role, s, corners, font)


def test_overlap_of_squares_and_of_a_rotated_box():
    assert _overlap(box(0, 0, 10, 10), box(5, 5, 10, 10))
    assert not _overlap(box(0, 0, 10, 10), box(10, 0, 10, 10))  # touching is not overlapping
    assert not _overlap(box(0, 0, 10, 10), box(11, 11, 5, 5))
    # a diamond |x - 15| + |y - 15| <= 5: every point of the square [0, 12]^2 has
    # x + y <= 24 < 25, the diamond's lower-left edge, so they share no interior
    diamond = ((15, 10), (20, 15), (15, 20), (10, 15))
    assert not _overlap(box(0, 0, 12, 12), diamond)
    # its axis-aligned box [10, 20]^2 does overlap the square: the rotated test is finer
    assert _overlap(box(0, 0, 12, 12), box(10, 10, 10, 10))
    assert _overlap(box(0, 0, 14, 14), diamond)  # (13, 13) is inside both


def test_points_per_px_at_the_pdf_text_width():
    # 182 mm = 515.9 pt over 900 px: 0.5732 pt a px; 14 px print at 8.0 pt
    assert pt_per_px() == pytest.approx(182 / 25.4 * 72 / 900)
    assert 14 * pt_per_px() == pytest.approx(8.025, abs=1e-3)


def test_problems_name_what_is_outside_overlapping_small_or_unlabelled():
    d = Drawn(
        100.0,
        50.0,
        (
            text("y tick", box(-8, 10, 20, 10), s="5000"),  # 8 px out on the left
            text("y axis title", box(5, 5, 10, 30), s="records"),  # over the tick
            text("title", box(40, 0, 20, 10), font=12.0, s="T"),  # 12 px: 6.9 pt
            text("annotation", box(80, 30, 10, 10), s="k"),
        ),
        lines=(("vertical", 85.0, 0.0, 50.0), ("horizontal", 5.0, 0.0, 20.0)),
    )
    assert problems(d, width_px=900, annotations=2) == [
        "1 of 2 annotations are not drawn",
        # the annotation is near the vertical line, 60 px right of the horizontal one's end
        "the horizontal line at 5 px has no label",
        "y tick '5000' lies outside the figure (left by 8.0 px)",
        "title 'T' is 12 px, 6.9 pt on the page (at least 7 pt)",
        "y tick '5000' overlaps y axis title 'records'",
    ]
    # within the 1 px tolerance: a box overhanging by 1 px and two boxes sharing 1 px pass
    ok = Drawn(100.0, 50.0, (text("x tick", box(-1, 0, 10, 10)), text("x tick", box(8, 0, 10, 10))))
    assert problems(ok) == []


SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100">
<g class="ytick"><text x="-6" y="50" style="font-size:14px;font-family:sans-serif">5000</text></g>
<g class="g-ytitle"><text class="ytitle" transform="rotate(-90,14,50)" x="14" y="50"
  text-anchor="middle" style="font-size:15px;font-family:sans-serif">records (people)</text></g>
<g class="g-gtitle"><text class="gtitle" x="150" y="20" style="font-size:18px">A title</text></g>
<g class="xtick"><text x="290" y="95" style="font-size:14px;display:none">hidden</text></g>
</svg>"""


def test_measure_reads_rotated_text_from_chromium():
    require_browser()
    (d,) = measure([SVG])
    assert (d.width, d.height) == (300, 100)
    by_role = {t.role: t for t in d.texts}
    assert set(by_role) == {"y tick", "y axis title", "title"}  # the hidden text is left out
    left, top, right, bottom = by_role["y axis title"].bounds()
    assert bottom - top > right - left  # rotated: taller than wide
    assert top < 50 < bottom
    found = problems(d)
    assert "y tick '5000' lies outside the figure (left by 6.0 px)" in found
    assert "y tick '5000' overlaps y axis title 'records (people)'" in found
    assert not [p for p in found if "title 'A title'" in p]


def test_a_missing_browser_fails_in_ci_and_skips_elsewhere(monkeypatch, tmp_path):
    from tests.riskcore import svg_layout

    monkeypatch.setattr(svg_layout, "CHROMIUM", tmp_path / "no-chromium")
    monkeypatch.setattr(svg_layout, "IN_CI", True)
    with pytest.raises(pytest.fail.Exception, match="no-chromium in CI"):
        require_browser()
    monkeypatch.setattr(svg_layout, "IN_CI", False)
    with pytest.raises(pytest.skip.Exception, match="no-chromium"):
        require_browser()
