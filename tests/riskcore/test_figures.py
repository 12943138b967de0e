"""Every figure builder: its data, title and axis titles (with units) for hand-made inputs.

The inputs are the hand-counted tables of ``test_readings`` (eight people in
classes of 3, 2, 1 and 2) or small frames written here; every expected array
is worked out by hand.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from riskcore import dp
from riskcore.attacks.linkage import LinkageCurve, Rate
from riskcore.metrics import assess
from riskcore.metrics.uniqueness import subset_uniqueness
from riskcore.report import figures as fg
from riskcore.report import readings as rd
from riskcore.report.figures._style import GREEN, YELLOW
from tests.riskcore.cases import AB, PEOPLE, linkage_case

LN20 = math.log(20.0)


def _unwrap(text: str) -> str:
    """Return a title as one line (layout() wraps long titles at words with <br>)."""
    return text.replace("<br>", " ")


def _titles(fig: go.Figure) -> tuple[str, str, str]:
    lay = fig.layout
    return _unwrap(lay.title.text), _unwrap(lay.xaxis.title.text), _unwrap(lay.yaxis.title.text)


def _arr(values: object) -> np.ndarray:
    return np.asarray(values, dtype=float)


@pytest.fixture(scope="module")
def a():
    return assess(PEOPLE, quasi_identifiers=["age", "zip"], sensitive=["diag"])


# ------------------------------------------------------------------ uniqueness and k


def test_class_size_histogram(a):
    fig = fg.class_size_histogram(rd.size_histogram(a.anonymity.distribution), "age + zip")
    bar = fig.data[0]
    assert list(bar.x) == [b[0] for b in rd.SIZE_BINS]
    np.testing.assert_array_equal(_arr(bar.y), [1, 4, 3, 0, 0, 0, 0, 0])
    assert list(bar.marker.color) == [fg.ACCENT] + [fg.NEUTRAL] * 7  # uniques highlighted
    # given the target k, every bin holding classes below it: 1, 2, 3-4 and 5-10 below 11;
    # at k = 4 the bin 3-4 holds classes of 3 (below) and is highlighted too
    hist = rd.size_histogram(a.anonymity.distribution)
    at11 = fg.class_size_histogram(hist, "age + zip", k=11).data[0]
    assert list(at11.marker.color) == [fg.ACCENT] * 4 + [fg.NEUTRAL] * 4
    assert "below the target k = 11" in at11.customdata[1][2] and at11.customdata[4][2] == ""
    # plotly shows customdata as text: a tag in it would read "<br>" on the hover
    assert not any("<" in str(row[2]) for row in at11.customdata)
    at4 = fg.class_size_histogram(hist, "age + zip", k=4).data[0]
    assert list(at4.marker.color) == [fg.ACCENT] * 3 + [fg.NEUTRAL] * 5
    assert _titles(fig) == (
        "Records by equivalence-class size on age + zip",
        "class size (records sharing the same QI values)",
        "records (people)",
    )


def test_candidates_curve(a):
    fig = fg.candidates_curve(rd.candidate_table(a.anonymity.distribution))
    line = fig.data[0]
    np.testing.assert_array_equal(_arr(line.x), [1, 2, 3])
    np.testing.assert_allclose(_arr(line.y), [12.5, 62.5, 100.0])  # cumulative %, by hand
    assert fig.layout.xaxis.type == "log"
    # largest class 3 < 30: the axis runs to 30 so the cell-size line at 11 shows
    np.testing.assert_allclose(fig.layout.xaxis.range, [-0.05, math.log10(30) + 0.1])
    assert fig.layout.shapes[0].x0 == 11
    # the line is labelled above the plot; on the log axis the label's x is log10 11
    (label,) = fig.layout.annotations
    assert label.text == "11: US cell-size rule"
    assert label.x == pytest.approx(math.log10(11)) and (label.yref, label.y) == ("paper", 1.0)
    # ticks 1, 2, 5 per decade, all labelled at one size, up to the range's end (10^1.577)
    assert list(fig.layout.xaxis.tickvals)[:5] == [1, 2, 5, 10, 20]
    assert list(fig.layout.xaxis.ticktext)[:5] == ["1", "2", "5", "10", "20"]
    assert _titles(fig) == (
        "How many people share each person's QI values",
        "candidates per record (class size, log scale)",
        "people with at most this many candidates (%)",
    )


def test_candidates_curve_labels_the_target_k(a):
    cand = rd.candidate_table(a.anonymity.distribution)
    fig = fg.candidates_curve(cand, k=5)
    assert sorted(sh.x0 for sh in fig.layout.shapes) == [5, 11]
    # two labels, one row apart (22 px), the smaller x in the lower row
    notes = {n.text: n for n in fig.layout.annotations}
    assert set(notes) == {"target k = 5", "11: US cell-size rule"}
    assert notes["11: US cell-size rule"].yshift - notes["target k = 5"].yshift == 22
    # k = 11: one line says both
    fig = fg.candidates_curve(cand, k=11)
    assert [sh.x0 for sh in fig.layout.shapes] == [11]
    (label,) = fig.layout.annotations
    assert label.text == "target k = 11 (also the US cell-size rule)"
    # a target above the curve's end widens the axis to show it: 3 k = 150 > 30
    fig = fg.candidates_curve(cand, k=50)
    assert fig.layout.xaxis.range[1] == pytest.approx(math.log10(150) + 0.1)


def test_subset_and_contribution_bars():
    u = subset_uniqueness(AB, ["a", "b"])
    fig = fg.subset_bars(rd.subset_table(u))
    np.testing.assert_allclose(_arr(fig.data[0].x), [400 / 6, 200 / 6, 0.0])
    assert list(fig.data[0].y) == ["a + b", "b", "a"]
    assert fig.data[0].orientation == "h"
    assert fig.layout.height == 300  # max(300, 26 * 3 + 120)
    assert _titles(fig) == (
        "People unique on each combination of quasi-identifiers",
        "records unique on the combination (%)",
        "quasi-identifiers",
    )
    fig = fg.contribution_bars(rd.contribution_table(u))
    assert list(fig.data[0].x) == ["b", "a"]
    np.testing.assert_allclose(_arr(fig.data[0].y), [100.0, 50.0])
    assert _titles(fig) == (
        "Which column drives the risk",
        "quasi-identifier removed",
        "unique people who would become non-unique (%)",
    )


def test_subset_bars_grow_with_the_number_of_subsets():
    # 25 subsets need 26 px each: 25 * 26 + 120 = 770 (the fixed 380 used to override it)
    df = pd.DataFrame(
        {"columns": [f"c{i}" for i in range(25)], "unique %": 1.0, "unique records": 1}
    )
    assert fg.subset_bars(df).layout.height == 770


def test_share_bars():
    df = pd.DataFrame({"columns": ["sex", "zip", "dob + zip"], "unique share": [0.0, 0.02, 0.9]})
    fig = fg.share_bars(df, "columns", "unique share", "T", "people (%)", y_title="combination")
    np.testing.assert_allclose(_arr(fig.data[0].x), [0.0, 2.0, 90.0])
    assert list(fig.data[0].y) == ["sex", "zip", "dob + zip"]
    assert list(fig.layout.xaxis.range) == [0, 102]
    assert fig.layout.height == 280  # max(280, 40 * 3 + 120 = 240)
    assert _titles(fig) == ("T", "people (%)", "combination")


def test_diversity_bars(a):
    fig = fg.diversity_bars(rd.diversity_distribution(a, "diag"), "diag")
    assert list(fig.data[0].x) == ["1", "2"]
    np.testing.assert_array_equal(_arr(fig.data[0].y), [3, 5])
    assert list(fig.data[0].marker.color) == [fg.ACCENT, fg.NEUTRAL]  # homogeneous highlighted
    assert _titles(fig) == (
        "Diversity of diag within equivalence classes",
        "distinct values of diag in the person's class",
        "records (people)",
    )


# ------------------------------------------------------------------ attacks


def test_candidates_bars():
    # candidates 1,1,1,0,2,2,3,5,1,0 of 10 targets: 0 -> 2, 1 -> 4, 2 -> 2, 3-4 -> 1, 5-10 -> 1
    fig = fg.candidates_bars(linkage_case().candidate_histogram(), "Possible identities")
    bar = fig.data[0]
    assert list(bar.x)[:5] == ["0 (no match)", "1", "2", "3-4", "5-10"]
    np.testing.assert_allclose(_arr(bar.y), [20, 40, 20, 10, 10, 0, 0, 0, 0])
    assert bar.marker.color[1] == fg.ACCENT and bar.marker.color[0] == fg.NEUTRAL
    assert _titles(fig) == (
        "Possible identities",
        "released records matching the target (candidate-set size)",
        "targets (%)",
    )


def test_linkage_curve_chart():
    rates = tuple(Rate(0, 10, r, r - 0.05, r + 0.1, 0.1) for r in (0.1, 0.5))
    fig = fg.linkage_curve_chart(LinkageCurve(("zip", "dob"), rates, rates).to_frame())
    band, line = fig.data
    assert list(band.x) == ["zip", "dob", "dob", "zip"]
    np.testing.assert_allclose(_arr(band.y), [20, 60, 45, 5])  # highs, then lows reversed (%)
    assert list(line.x) == ["zip", "dob"]
    np.testing.assert_allclose(_arr(line.y), [10, 50])
    assert _titles(fig) == (
        "Re-identification as the attacker learns one more column",
        "column added to what the attacker knows (cumulative, left to right)",
        "targets re-identified uniquely (%)",
    )


def test_exposure_bars():
    df = pd.DataFrame({"p": [0.5, 0.6], "classes": [4, 2], "records": [30, 12]})
    fig = fg.exposure_bars(df, "p", "confidence p", "Exposed")
    assert list(fig.data[0].x) == ["0.5", "0.6"]
    np.testing.assert_array_equal(_arr(fig.data[0].y), [30, 12])
    assert _titles(fig) == ("Exposed", "confidence p", "people whose value is exposed")


def test_criterion_lines():
    df = pd.DataFrame(
        {
            "criterion": ["distinct l"] * 2 + ["entropy l"] * 2 + ["t-closeness"] * 2,
            "level": [1, 2, 1, 2, 0.5, 0.2],
            "exposed records left": [9, 0, 9, 4, 9, 1],
        }
    )
    fig = fg.criterion_lines(df)
    assert [t.name for t in fig.data] == ["distinct l", "entropy l"]  # t is not an l level
    np.testing.assert_array_equal(_arr(fig.data[1].y), [9, 4])
    assert fig.data[1].line.color == YELLOW
    assert fig.layout.showlegend
    assert _titles(fig) == (
        "Exposed people left in classes that satisfy l-diversity",
        "required l",
        "exposed people in classes that pass",
    )


def test_two_queries():
    fig = fg.two_queries(["all", "rest", "difference"], [120.0, 119.0, 1.0], "Two", "people")
    np.testing.assert_array_equal(_arr(fig.data[0].y), [120, 119, 1])
    assert list(fig.data[0].text) == ["120", "119", "1"]
    assert list(fig.data[0].marker.color) == [fg.NEUTRAL, fg.NEUTRAL, fg.ACCENT]
    assert _titles(fig) == ("Two", "query", "people")


def test_noise_success():
    c = rd.noise_curve(0.5)
    fig = fg.noise_success(c["epsilon"], c["p within"], c["error95"], 0.5)
    success, error = fig.data
    # at epsilon = 1 (index 40): b = 1, P = 1 - e^-0.5 * 1.25; error ln 20
    assert _arr(success.y)[40] == pytest.approx(100 * (1 - math.exp(-0.5) * 1.25))
    assert _arr(error.y)[40] == pytest.approx(LN20)
    assert error.yaxis == "y2"
    assert success.name == "attacker within +/- 0.5 of the truth (%)"
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis2.type == "log"
    assert _unwrap(fig.layout.yaxis2.title.text) == "95% error of an answer (+/- people, log)"
    assert _titles(fig) == (
        "Laplace noise: attacker's success against the cost in accuracy",
        "epsilon per query (log scale; smaller = more noise)",
        "attacker's success (%)",
    )


def test_estimate_histogram():
    draws = np.array([0.2, 1.4, 0.9, -0.3])
    fig = fg.estimate_histogram(draws, 1.0, "Estimates", unit="people")
    np.testing.assert_array_equal(_arr(fig.data[0].x), draws)
    assert fig.layout.shapes[0].x0 == 1.0  # the true value
    assert _titles(fig) == (
        "Estimates",
        "attacker's estimate of the target's value (people)",
        "simulated draws",
    )


# ------------------------------------------------------------------ differential privacy


def test_error_vs_epsilon():
    curves = {
        m: dp.error_curve(1000.0, dp.sensitivity("count"), mechanism=m, delta=1e-6)
        for m in ("laplace", "gaussian")
    }
    fig = fg.error_vs_epsilon(curves, 0.5, unit="people", what="count")
    band, lap, gau, marker = fig.data
    eps = _arr(lap.x)
    np.testing.assert_allclose(_arr(lap.y), LN20 / eps)  # b = 1 / epsilon, +/- b ln 20
    assert lap.name == "Laplace, closed form" and gau.line.dash == "dash"
    np.testing.assert_allclose(_arr(marker.y), [LN20 / 0.5])
    assert list(marker.x) == [0.5]
    assert band.fill == "toself"
    assert _titles(fig) == (
        "How far the noisy count can be from the truth, by epsilon",
        "epsilon (log scale; smaller = more privacy, more noise)",
        "95% error, +/- people (log)",
    )
    # the chosen epsilon's label above the plot area, never beside the marker, where the
    # Gaussian's line ran through it ("+/- 2.996 at epsilon = 1")
    assert "text" not in marker.mode
    (note,) = [a for a in fig.layout.annotations if "at epsilon = 0.5" in a.text]
    assert note.text == f"+/- {LN20 / 0.5:,.4g} at epsilon = 0.5"
    assert (note.yref, note.y, note.yanchor) == ("paper", 1.0, "bottom")
    assert note.x == pytest.approx(np.log10(0.5))  # log axis: log10 of the value
    rel = fg.error_vs_epsilon(curves, 0.5, unit="people", what="count", relative=True)
    np.testing.assert_allclose(_arr(rel.data[1].y), LN20 / eps / 1000 * 100)
    assert _unwrap(rel.layout.yaxis.title.text) == "95% error, +/- % of the true count (log)"


def test_clipping_chart():
    t = dp.ClippingTradeoff(
        lower=0.0,
        uppers=np.array([10.0, 100.0]),
        bias=np.array([-5.0, 0.0]),
        sampling_sd=np.array([0.1, 0.2]),
        noise_sd=np.array([0.3, 3.0]),
        rmse=np.array([5.01, 3.01]),
        best_upper=100.0,
        epsilon=0.5,
        n=100,
        true_mean=20.0,
    )
    fig = fg.clipping_chart(t, "age units")
    assert [d.name for d in fig.data] == [
        "|clipping bias|",
        "sampling noise (sd)",
        "privacy noise (sd)",
        "total error (RMSE)",
        "best U (smallest total error)",
    ]
    np.testing.assert_allclose(_arr(fig.data[0].y), [5.0, 0.0])  # |bias|
    # the best U is marked on the RMSE curve and labelled with its U and error
    assert (fig.data[4].x[0], fig.data[4].y[0]) == (100.0, 3.01)
    (label,) = fig.layout.annotations
    assert label.text == "best U = 100: error 3.01"
    # the label of the line at U = 100, above the plot (x on the log axis is log10 100); the
    # line is at the right end of the axis, so the label reads leftwards from it
    assert (label.x, label.yref, label.y, label.xanchor) == (2.0, "paper", 1.0, "right")
    # decades only, as plain numbers (minor ticks labelled 2 and 5 crowded the axes)
    assert list(fig.layout.xaxis.tickvals) == [10.0, 100.0]
    assert list(fig.layout.xaxis.ticktext) == ["10", "100"]
    # y from rmse.min / 100 = 0.0301 to 2 rmse.max = 10.02: decades 0.01 .. 100
    assert list(fig.layout.yaxis.ticktext) == ["0.01", "0.1", "1", "10", "100"]
    np.testing.assert_allclose(_arr(fig.data[3].y), [5.01, 3.01])
    assert fig.layout.shapes[0].x0 == 100.0
    np.testing.assert_allclose(fig.layout.xaxis.range, [1.0, 2.0])  # log10 10 .. log10 100
    assert _titles(fig) == (
        "Error of the DP mean against the upper clipping bound U (epsilon = 0.5)",
        "upper clipping bound U (age units, log scale)",
        "error of the mean (age units, log)",
    )


def test_composition_chart():
    c = dp.composition_curves(0.1, 100, delta_prime=1e-6)
    fig = fg.composition_chart(c, 1.0)
    assert [d.name for d in fig.data] == [
        "basic composition (k epsilon)",
        "advanced composition (Dwork-Rothblum-Vadhan)",
        "zCDP (Bun-Steinke)",
    ]
    np.testing.assert_allclose(_arr(fig.data[0].y)[:3], [0.1, 0.2, 0.3])  # k epsilon
    assert any(sh.y0 == sh.y1 == 1.0 for sh in fig.layout.shapes)  # the budget
    # the x axis runs over every query plotted (the page's "Queries to plot"); basic
    # composition reaches 10 = 100 x 0.1, over three budgets: the axis turns log and
    # runs to 1.5 times the highest line, so no line leaves the plot
    assert list(fig.layout.xaxis.range) == [1, 100]
    assert fig.layout.yaxis.type == "log"
    low, high = (10**v for v in fig.layout.yaxis.range)
    assert low == pytest.approx(0.1 / 1.5) and high == pytest.approx(1.5 * 10.0)
    assert _titles(fig) == (
        "Total privacy loss of k queries at epsilon = 0.1 each",
        "number of queries k",
        "total epsilon (log scale)",
    )
    # a longer plot is a wider chart
    assert list(fg.composition_chart(dp.composition_curves(0.1, 600), 1.0).layout.xaxis.range) == [
        1,
        600,
    ]


def test_composition_chart_shows_every_accountant_when_one_query_spends_the_budget():
    # epsilon = 1 per query against a budget of 1: advanced composition at k = 1 is
    # 1 * sqrt(2 ln 1e6) + 1 * (e - 1) = 7.00, above three budgets; every line must
    # still start inside the plot
    c = dp.composition_curves(1.0, 300, delta_prime=1e-6)
    advanced_1 = math.sqrt(2 * math.log(1e6)) + (math.e - 1)
    assert c.advanced[0] == pytest.approx(advanced_1)
    fig = fg.composition_chart(c, 1.0)
    low, high = (10**v for v in fig.layout.yaxis.range)
    assert low < min(c.basic[0], c.advanced[0], c.zcdp[0])
    # every line stays inside up to the last query plotted
    assert high == pytest.approx(1.5 * max(c.basic[-1], c.advanced[-1], c.zcdp[-1]))
    assert list(fig.layout.xaxis.range) == [1, 300]


@pytest.mark.parametrize(
    ("epsilon", "k_max", "budget"),
    [(0.01, 300, 1.0), (0.01, 10, 5.0), (10.0, 10, 1.0), (1.0, 300, 1.0)],
)
def test_composition_chart_keeps_every_accountant_visible(epsilon, k_max, budget):
    # issue 12: lines hid behind each other (advanced and zCDP coincide at small
    # epsilon; basic and zCDP at epsilon 10, where advanced sets the scale)
    c = dp.composition_curves(epsilon, k_max, delta_prime=1e-6)
    fig = fg.composition_chart(c, budget)
    assert len(fig.data) == 3
    looks = {(d.line.dash, d.marker.symbol) for d in fig.data}
    assert len(looks) == 3 and len({d.line.color for d in fig.data}) == 3
    assert all(d.name and d.showlegend is not False and d.visible in (None, True) for d in fig.data)
    # widest line drawn first, so a line lying on another still shows around it
    widths = [d.line.width for d in fig.data]
    assert widths == sorted(widths, reverse=True)
    # every line has markers inside the plot; two lines that coincide never put their
    # markers at the same k
    k_end, top = fig.layout.xaxis.range[1], fig.layout.yaxis.range[1]
    if fig.layout.yaxis.type == "log":
        top = 10**top
    marked = {
        d.name.split(" (")[0]: {
            int(k)
            for k, y, size in zip(d.x, d.y, d.marker.size, strict=True)
            if size > 0 and k <= k_end and y <= top
        }
        for d in fig.data
    }
    assert all(marked.values())
    for a, b, _ in rd.coinciding_accountants(c, budget):
        assert not marked[a] & marked[b], (a, b)
    # a direct label for every accountant whose line is inside the plot
    labels = {a.text for a in fig.layout.annotations}
    assert {"basic composition", "advanced composition", "zCDP"} <= labels


def test_composition_chart_turns_log_when_one_accountant_starts_far_above():
    # issue 12: at epsilon 10 per query advanced composition starts at
    # sqrt(2 ln(1/delta')) 10 + 10 (e^10 - 1) = 220,307: a linear axis up to there
    # flattened basic composition (10 per query) and zCDP onto zero
    c = dp.composition_curves(10.0, 300, delta_prime=1e-6)
    first = math.sqrt(2 * math.log(1e6)) * 10 + 10 * math.expm1(10)
    assert c.advanced[0] == pytest.approx(first)
    fig = fg.composition_chart(c, 10.0)
    assert fig.layout.yaxis.type == "log"
    assert fig.layout.yaxis.title.text == "total epsilon (log scale)"
    low, high = (10**v for v in fig.layout.yaxis.range)
    # from below the budget (10, also basic's first query) to above every line at k = 300
    assert list(fig.layout.xaxis.range) == [1, 300]
    assert low == pytest.approx(10 / 1.5)
    assert high == pytest.approx(1.5 * c.advanced[299])
    # decades ticked in plain numbers, never "1e+6"
    assert (
        list(fig.layout.yaxis.ticktext)
        == ["1", "10", "100", "1,000", "10,000", "100,000", "1,000,000", "10,000,000",
            "100,000,000"][
            : len(fig.layout.yaxis.ticktext)
        ]
    )
    assert all("e+" not in t for t in fig.layout.yaxis.ticktext)
    # the end labels and the budget's sit on the log axis (annotation y is log10)
    by_text = {a.text: a for a in fig.layout.annotations}
    assert by_text["basic composition"].y == pytest.approx(math.log10(c.basic[299]))
    assert by_text["budget 10"].y == pytest.approx(1.0)
    # a small epsilon whose lines stay under three budgets keeps the linear axis
    assert (
        fg.composition_chart(
            dp.composition_curves(0.01, 300, delta_prime=1e-6), 1.0
        ).layout.yaxis.type
        != "log"
    )


def test_composition_chart_labels_apart_and_the_crossing_marked():
    # epsilon 1, 600 queries: advanced composition and zCDP end close on a log axis; their
    # end labels must not print over each other (a label row apart at least)
    c = dp.composition_curves(1.0, 600, delta_prime=1e-6)
    fig = fg.composition_chart(c, 1.0)
    ends = {a.text: a for a in fig.layout.annotations if a.text in
            {"basic composition", "advanced composition", "zCDP"}}  # fmt: skip
    assert len(ends) == 3
    lo, hi = fig.layout.yaxis.range
    px = {  # where each label's bottom sits, in px of the 260 px plot
        t: (a.y - lo) / (hi - lo) * 260 + a.yshift for t, a in ends.items()
    }
    heights = sorted(px.values())
    assert all(b - a >= 18 - 1e-6 for a, b in itertools.pairwise(heights)), px
    # epsilon 0.1: advanced composition falls below basic for good from
    # k > 2 ln(1/delta') / (2 - e^0.1)^2 = 34.5, so k = 35 (a dotted line, labelled)
    c = dp.composition_curves(0.1, 100, delta_prime=1e-6)
    k_cross = math.floor(2 * math.log(1e6) / (2 - math.exp(0.1)) ** 2) + 1
    fig = fg.composition_chart(c, 1.0)
    texts = [a.text for a in fig.layout.annotations]
    assert f"advanced composition below basic composition from k = {k_cross}" in texts
    assert any(sh.x0 == sh.x1 == k_cross for sh in fig.layout.shapes)


def test_posterior_chart():
    r = np.array([0.0, 5.0, 10.0])
    g = np.array([0.005, 0.01, 0.004])
    fig = fg.posterior_chart(r, g, 0.015, 5.0, "income units")
    np.testing.assert_allclose(_arr(fig.data[0].y), [0.5, 1.0, 0.4])  # %
    assert fig.layout.shapes[0].y0 == pytest.approx(1.5)  # rho in %
    assert fig.layout.shapes[1].x0 == 5.0
    assert fig.layout.annotations[0].text == "rho = 1.5%"
    assert _titles(fig) == (
        "Attacker's certainty about the true person, by the noisy answer seen",
        "noisy answer R (income units)",
        "posterior of the true person (%)",
    )


def test_blocks_chart():
    sa = dp.SampleAggregate(
        statistic="median",
        k=3,
        block_size=10,
        bounds=(0.0, 100.0),
        block_values=np.array([30.0, 120.0, 40.0]),
        aggregate=56.6667,
        full_data_value=38.0,
        epsilon=1.0,
        scale=100 / 3,
        half_width=100 / 3 * LN20,
    )
    fig = fg.blocks_chart(sa, "age units")
    np.testing.assert_array_equal(_arr(fig.data[0].x), [1, 2, 3])
    np.testing.assert_array_equal(_arr(fig.data[0].y), [30, 120, 40])
    rect, agg, full = fig.layout.shapes
    assert (rect.y0, rect.y1) == (0.0, 100.0)
    assert agg.y0 == pytest.approx(56.6667) and full.y0 == 38.0
    assert _titles(fig) == (
        "Sample and aggregate: the median of each of k = 3 blocks",
        "block",
        "block median (age units)",
    )


def test_grr_bars():
    df = pd.DataFrame(
        {
            "category": ["f", "m"],
            "true": [600.0, 400.0],
            "observed (randomized)": [560.0, 440.0],
            "estimated": [612.0, 388.0],
            "95% low": [570.0, 346.0],
            "95% high": [654.0, 430.0],
        }
    )
    fig = fg.grr_bars(df, "sex")
    true, observed, est = fig.data
    # horizontal: the categories in words on y (on x they were turned 90 degrees)
    assert {d.orientation for d in fig.data} == {"h"}
    np.testing.assert_array_equal(_arr(true.x), [600, 400])
    assert list(true.y) == ["f", "m"]
    assert true.marker.color == GREEN and observed.marker.color == YELLOW
    np.testing.assert_array_equal(_arr(est.error_x.array), [42, 42])  # high - estimate
    np.testing.assert_array_equal(_arr(est.error_x.arrayminus), [42, 42])  # estimate - low
    assert fig.layout.barmode == "group"
    assert _titles(fig) == (
        "Randomized response on sex: what the collector sees and estimates",
        "people",
        "sex",
    )


def test_margin_chart():
    eps = np.array([0.5, 1.0])
    fig = fg.margin_chart(rd.ldp_planning(4, eps, (100, 10_000)), 1.0)
    assert [d.name for d in fig.data] == ["n = 100", "n = 10,000"]
    var = (math.e + 2) / (100 * (math.e - 1) ** 2)  # GRR at epsilon 1, k = 4, n = 100
    assert _arr(fig.data[0].y)[1] == pytest.approx(100 * 1.959963984540054 * math.sqrt(var))
    assert fig.layout.shapes[0].x0 == 1.0
    assert _titles(fig) == (
        "Local DP: accuracy of one category's share, by epsilon and number of respondents",
        "epsilon (log scale)",
        "95% margin on a share (+/- percentage points, log)",
    )
    # n = 100 at epsilon 0.1 has a margin above 100 points: the axis stops at 100 (log10 = 2)
    wide = fg.margin_chart(rd.ldp_planning(4, np.array([0.1, 1.0]), (100,)), 1.0)
    assert max(_arr(wide.data[0].y)) > 100 and wide.layout.yaxis.range[1] == 2
    note = next(a for a in wide.layout.annotations if "says nothing" in a.text)
    assert note.y == 2  # log10(100): on a log axis plotly places annotations in log units


def test_noise_success_marks_the_chosen_epsilon_with_the_caption_numbers():
    # issue 12: the epsilon control changed only the caption, not the figure
    c = rd.noise_curve(0.5)
    plain = fg.noise_success(c["epsilon"], c["p within"], c["error95"], 0.5)
    assert not plain.layout.annotations and len(plain.data) == 2
    fig = fg.noise_success(c["epsilon"], c["p within"], c["error95"], 0.5, epsilon=0.1)
    line, point = (t for t in fig.data if t.name == "chosen epsilon")
    assert list(line.x) == [0.1, 0.1]
    # b = 1 / 0.1 = 10: P(|D| <= 0.5) = 1 - e^-0.05 (1 + 0.025); error 10 ln 20
    p = 1 - math.exp(-0.05) * 1.025
    assert list(point.y) == pytest.approx([100 * p])
    (note,) = fig.layout.annotations
    assert note.text == (
        f"epsilon = 0.1: attacker within +/- 0.5 in {p:.1%} of tries; error +/- {10 * LN20:,.1f}"
    )
    assert note.x == pytest.approx(-1.0)  # log10(0.1) on the log axis
    # a sum with sensitivity 50, within 1: b = 50 / 2 = 25
    big = fg.noise_success(
        c["epsilon"], c["p within"], c["error95"], 1.0, epsilon=2.0, sensitivity=50.0
    )
    q = 1 - math.exp(-1 / 25) * (1 + 1 / 50)
    assert big.layout.annotations[0].text.startswith(
        f"epsilon = 2: attacker within +/- 1 in {q:.1%}"
    )
    assert big.layout.annotations[0].text.endswith(f"error +/- {25 * LN20:,.1f}")


def test_laplace_ldp_chart_sets_one_report_against_the_average():
    from riskcore.dp.local import laplace_ldp_simulate

    values = np.arange(1, 101, dtype=float)  # 1..100, clipped to [0, 50]
    r = laplace_ldp_simulate(values, 0.5, bounds=(0.0, 50.0), column="age")
    fig = fg.laplace_ldp_chart(r)
    one, avg = fig.data
    assert one.name == "one person's report (noise only)" and avg.name == "average of 100 reports"
    # 95% of Laplace(b) noise lies within b ln 20, b = (U - L) / epsilon = 100
    np.testing.assert_allclose(one.error_x.value, 100 * np.log(20))
    assert one.x[0] == np.clip(values, 0, 50).mean()
    assert (avg.x[0], avg.error_x.value) == (r.estimated_mean, r.half_width)
    assert [s.x0 for s in fig.layout.shapes[:2]] == [50.5, np.clip(values, 0, 50).mean()]
    assert _titles(fig) == (
        "Local Laplace on age (epsilon = 0.5): one report against the average",
        "age (shaded: the clipping range [0, 50]); bars are 95% ranges",
        "",
    )
