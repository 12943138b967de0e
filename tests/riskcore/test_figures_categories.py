"""Categorical axes of every bar chart: a label on every bar, long labels wrapped or cut
with the full text in the hover, and at most 25 categories with a "(N more)" note (issue 12).

Plotly labels only every other category when the bars are crowded, and draws a
long label at full length; the builders fix every tick with ``tickmode="array"``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from riskcore.attacks.linkage import LinkageCurve, Rate
from riskcore.metrics import assess
from riskcore.metrics.uniqueness import subset_uniqueness
from riskcore.report import figures as fg
from riskcore.report import readings as rd
from riskcore.report.figures._style import tick_label
from tests.riskcore.cases import AB, PEOPLE, linkage_case

LONG = "hours_per_week + marital_status + native_country"  # 48 characters


def _every_tick(axis: go.layout.XAxis | go.layout.YAxis, categories: list[str]) -> None:
    assert axis.type == "category"
    assert axis.tickmode == "array"  # plotly may not skip any of them
    assert list(axis.tickvals) == categories
    assert axis.automargin
    for value, text in zip(axis.tickvals, axis.ticktext, strict=True):
        assert all(len(line) <= 32 for line in text.split("<br>")), text
        if len(value) <= 16:
            assert text == value


def test_tick_label_wraps_at_words_and_cuts_with_an_ellipsis():
    assert tick_label("age", 16) == "age"
    assert tick_label("hours_per_week + marital_status", 16) == "hours_per_week +<br>marital_status"
    assert tick_label("hours_per_week + marital_status", 32) == "hours_per_week + marital_status"
    # one 38-character word: cut at 15 characters + ellipsis
    assert tick_label("a_very_long_column_name_without_spaces", 16) == "a_very_long_col\u2026"
    # three lines' worth: two lines, the second marked as cut
    assert tick_label(LONG, 16) == "hours_per_week +<br>marital_status\u2026"
    assert tick_label(LONG, 32) == "hours_per_week + marital_status<br>+ native_country"


@pytest.fixture(scope="module")
def a():
    return assess(PEOPLE, quasi_identifiers=["age", "zip"], sensitive=["diag"])


def test_uniqueness_bars_label_every_category(a):
    hist = rd.size_histogram(a.anonymity.distribution)
    _every_tick(fg.class_size_histogram(hist, "age").layout.xaxis, [b[0] for b in rd.SIZE_BINS])
    u = subset_uniqueness(AB, ["a", "b"])
    _every_tick(fg.subset_bars(rd.subset_table(u)).layout.yaxis, ["a + b", "b", "a"])
    _every_tick(fg.contribution_bars(rd.contribution_table(u)).layout.xaxis, ["b", "a"])


def test_long_labels_are_wrapped_and_the_hover_keeps_the_full_text():
    df = pd.DataFrame({"columns": ["sex", LONG], "unique %": [1.0, 90.0], "unique records": 1})
    fig = fg.subset_bars(df)
    _every_tick(fig.layout.yaxis, ["sex", LONG])
    assert list(fig.layout.yaxis.ticktext) == [
        "sex",
        "hours_per_week + marital_status<br>+ native_country",
    ]
    assert LONG in list(fig.data[0].y)  # %{y} in the hover is the full label
    assert "%{y}" in fig.data[0].hovertemplate
    share = pd.DataFrame({"columns": ["sex", LONG], "unique share": [0.1, 0.9]})
    fig = fg.share_bars(share, "columns", "unique share", "T", "x (%)", y_title="combination")
    _every_tick(fig.layout.yaxis, ["sex", LONG])
    contrib = pd.DataFrame({"column": [LONG, "sex"], "drop": [3, 1], "drop %": [75.0, 25.0]})
    fig = fg.contribution_bars(contrib)
    assert list(fig.layout.xaxis.ticktext) == ["hours_per_week +<br>marital_status\u2026", "sex"]
    assert "%{x}" in fig.data[0].hovertemplate and LONG in list(fig.data[0].x)


def test_attack_bars_label_every_category():
    hist = linkage_case().candidate_histogram()
    fig = fg.candidates_bars(hist, "Possible identities")
    _every_tick(fig.layout.xaxis, list(hist["candidates"]))
    df = pd.DataFrame({"p": np.round(np.arange(0.5, 1.0001, 0.05), 2), "classes": 1, "records": 1})
    fig = fg.exposure_bars(df, "p", "confidence p", "Exposed")
    _every_tick(fig.layout.xaxis, [str(p) for p in df["p"]])
    labels = ["everyone", "everyone but the target's group", "difference"]
    _every_tick(fg.two_queries(labels, [3.0, 2.0, 1.0], "Two", "people").layout.xaxis, labels)
    rates = tuple(Rate(0, 10, r, r, r, 0.1) for r in (0.1, 0.5, 0.7))
    curve = LinkageCurve(("zip", "date_of_birth", "sex"), rates, rates).to_frame()
    _every_tick(fg.linkage_curve_chart(curve).layout.xaxis, ["zip", "date_of_birth", "sex"])


def test_homogeneity_lines_tick_every_level():
    df = pd.DataFrame(
        {
            "criterion": ["distinct l"] * 6,
            "level": [1, 2, 3, 4, 5, 6],
            "exposed records left": [9, 8, 7, 6, 5, 4],
        }
    )
    assert fg.criterion_lines(df).layout.xaxis.dtick == 1


def test_diversity_bars_label_every_count_and_go_numeric_beyond_25(a):
    fig = fg.diversity_bars(rd.diversity_distribution(a, "diag"), "diag")
    _every_tick(fig.layout.xaxis, ["1", "2"])
    many = pd.DataFrame({"distinct values": np.arange(1, 41), "classes": 1, "records": 1})
    fig = fg.diversity_bars(many, "diag")
    assert fig.layout.xaxis.type == "linear"  # ordered counts: a skipped label misleads no one
    assert list(fig.data[0].x) == list(range(1, 41))


def _grr(k: int) -> pd.DataFrame:
    est = np.arange(k, dtype=float)  # category c{i} estimated at i people
    return pd.DataFrame(
        {
            "category": [f"c{i}" for i in range(k)],
            "true": est,
            "observed (randomized)": est,
            "estimated": est,
            "95% low": est - 1,
            "95% high": est + 1,
        }
    )


def test_grr_bars_label_every_category():
    fig = fg.grr_bars(_grr(14), "diagnosis")  # horizontal: the categories on y
    _every_tick(fig.layout.yaxis, [f"c{i}" for i in range(14)])
    assert "more)" not in fig.layout.title.text


def test_forty_categories_show_the_top_25_and_say_15_more():
    fig = fg.grr_bars(_grr(40), "diagnosis")
    top = [f"c{i}" for i in range(39, 14, -1)]  # the 25 largest estimates, largest first
    _every_tick(fig.layout.yaxis, top)
    assert all(list(t.y) == top for t in fig.data)
    assert fig.layout.title.text.replace("<br>", " ").endswith("(top 25; 15 more)")
    share = pd.DataFrame({"columns": [f"q{i}" for i in range(40)], "s": np.arange(40) / 40})
    fig = fg.share_bars(share, "columns", "s", "Unique", "x (%)", y_title="combination")
    assert list(fig.data[0].y) == [f"q{i}" for i in range(39, 14, -1)]
    assert fig.layout.title.text == "Unique (top 25; 15 more)"
    contrib = pd.DataFrame({"column": [f"q{i}" for i in range(40)], "drop": 1, "drop %": 1.0})
    contrib["drop %"] = np.arange(40.0)
    fig = fg.contribution_bars(contrib)
    assert len(fig.data[0].x) == 25 and fig.layout.title.text.endswith("(top 25; 15 more)")


def test_subset_chart_says_how_many_subsets_the_table_left_out():
    # 6 QIs, subsets of 1 to 3 of them: 6 + 15 + 20 = 41; the table keeps 25 -> 16 more
    df = pd.DataFrame({c: np.arange(12) % (i + 2) for i, c in enumerate("abcdef")})
    u = subset_uniqueness(df, list("abcdef"))
    assert len(u.subsets) == 6 + 15 + 20
    table = rd.subset_table(u)
    assert len(table) == 25 and table.attrs["more"] == 16
    fig = fg.subset_bars(table)
    assert fig.layout.title.text.endswith("(top 25; 16 more)")
    _every_tick(fig.layout.yaxis, list(table["columns"]))


# ------------------------------------------------------------------ text from the data stays text

ANCHOR = '<a href="http://127.0.0.9/a">a</a>'
IMG = "<img src=http://127.0.0.9/i>"


def _strings(node: object, key: str = "") -> list[tuple[str, str]]:
    """Every (key, string) of a figure's JSON, nested lists and arrays included."""
    if isinstance(node, str):
        return [(key, node)]
    if isinstance(node, dict):
        return [s for k, v in node.items() for s in _strings(v, k)]
    if isinstance(node, (list, tuple, np.ndarray)):
        return [s for v in node for s in _strings(v, key)]
    return []


def _no_tags_from_data(fig: go.Figure) -> None:
    """Plotly reads <a>, <b>, <br>... in every text: the only tags left are the builders' own."""
    for key, text in _strings(fig.to_plotly_json()):
        if key == "hovertemplate":  # authored: "%{x}: ...<extra></extra>"
            continue
        assert "<" not in text.replace("<br>", ""), (key, text)


def test_hostile_names_and_values_reach_plotly_as_text():
    df = pd.DataFrame({ANCHOR: [IMG, IMG, "x & y", "x & y"], IMG: [ANCHOR, "b", "b", "b"]})
    a = assess(df, quasi_identifiers=[ANCHOR], sensitive=[IMG])
    fig = fg.diversity_bars(rd.diversity_distribution(a, IMG), IMG)
    _no_tags_from_data(fig)
    title = fig.layout.title.text.replace("<br>", " ")  # wrapped at a word
    assert title == "Diversity of &lt;img src=http://127.0.0.9/i&gt; within " + (
        "equivalence classes"
    )  # plotly shows the entities as the characters "<img src=...>"
    grr = pd.DataFrame(
        {
            "category": [ANCHOR, "x & y"],
            "true": [3.0, 1.0],
            "observed (randomized)": [3.0, 1.0],
            "estimated": [3.0, 1.0],
            "95% low": [2.0, 0.0],
            "95% high": [4.0, 2.0],
        }
    )
    fig = fg.grr_bars(grr, ANCHOR)
    _no_tags_from_data(fig)
    escaped = ['&lt;a href="http://127.0.0.9/a"&gt;a&lt;/a&gt;', "x &amp; y"]
    assert list(fig.data[0].y) == escaped and list(fig.layout.yaxis.tickvals) == escaped
    u = subset_uniqueness(df, [ANCHOR, IMG])
    _no_tags_from_data(fg.subset_bars(rd.subset_table(u)))
    _no_tags_from_data(fg.contribution_bars(rd.contribution_table(u)))
    rates = tuple(Rate(0, 10, r, r - 0.05, r + 0.1, 0.1) for r in (0.1, 0.5))
    _no_tags_from_data(fg.linkage_curve_chart(LinkageCurve((ANCHOR, IMG), rates, rates).to_frame()))


def test_tick_labels_escape_each_line():
    # lines "a < b", "and <br>", "c": two kept, the second cut to 7 characters + ellipsis
    assert tick_label("a < b and <br> c", 8) == "a &lt; b<br>and &lt;br\u2026"
