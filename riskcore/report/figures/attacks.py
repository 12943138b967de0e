"""Plotly figures: titles, axis labels with units, readable in light and dark themes."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from riskcore.dp import MECHANISM_LABELS

ACCENT = "#d1495b"  # risk
NEUTRAL = "#2e86ab"  # everything else


def _layout(fig: go.Figure, title: str, x: str, y: str) -> go.Figure:
    fig.update_layout(
        title={"text": title, "x": 0.0},
        xaxis_title=x,
        yaxis_title=y,
        margin={"l": 10, "r": 10, "t": 60, "b": 10},
        height=380,
        showlegend=False,
    )
    return fig


def class_size_histogram(hist: pd.DataFrame, qis_label: str) -> go.Figure:
    """Bar chart of records per class-size bin; unique records highlighted."""
    colors = [ACCENT if i == 0 else NEUTRAL for i in range(len(hist))]
    fig = go.Figure(
        go.Bar(
            x=hist["class size"],
            y=hist["records"],
            marker_color=colors,
            customdata=hist[["classes", "share"]],
            hovertemplate="class size %{x}<br>%{y:,} records in %{customdata[0]:,} classes"
            "<br>%{customdata[1]:.1%} of records<extra></extra>",
        )
    )
    return _layout(
        fig,
        f"Records by equivalence-class size on {qis_label}",
        "class size (records sharing the same QI values)",
        "records (people)",
    )


def candidates_curve(cand: pd.DataFrame) -> go.Figure:
    """Cumulative share of records with at most x candidates."""
    fig = go.Figure(
        go.Scatter(
            x=cand["candidates"],
            y=cand["cumulative share"] * 100,
            mode="lines+markers",
            line={"shape": "hv", "color": NEUTRAL},
            hovertemplate="%{y:.1f}% of people have at most %{x:,} candidates<extra></extra>",
        )
    )
    top = max(float(cand["candidates"].max()), 30.0)
    fig.update_xaxes(type="log", range=[-0.05, math.log10(top) + 0.1])
    fig.update_yaxes(range=[0, 102])
    fig.add_vline(x=11, line_dash="dot", line_color=ACCENT, annotation_text="11 (cell-size rule)")
    return _layout(
        fig,
        "How many people share each person's QI values",
        "candidates per record (class size, log scale)",
        "people with at most this many candidates (%)",
    )


def subset_bars(df: pd.DataFrame) -> go.Figure:
    """Horizontal bars: share of records unique on each QI subset."""
    fig = go.Figure(
        go.Bar(
            x=df["unique %"],
            y=df["columns"],
            orientation="h",
            marker_color=NEUTRAL,
            customdata=df[["unique records"]],
            hovertemplate="%{y}: %{x:.2f}% unique (%{customdata[0]:,} people)<extra></extra>",
        )
    )
    fig.update_yaxes(autorange="reversed")
    fig.update_layout(height=max(300, 26 * len(df) + 120))
    return _layout(
        fig,
        "People unique on each combination of quasi-identifiers",
        "records unique on the combination (%)",
        "quasi-identifiers",
    )


def contribution_bars(df: pd.DataFrame) -> go.Figure:
    """Bars: share of the unique records each QI is responsible for."""
    fig = go.Figure(
        go.Bar(
            x=df["column"],
            y=df["drop %"],
            marker_color=ACCENT,
            customdata=df[["drop"]],
            hovertemplate="removing %{x}: %{y:.1f}% of uniques (%{customdata[0]:,} people) "
            "become non-unique<extra></extra>",
        )
    )
    return _layout(
        fig,
        "Which column drives the risk",
        "quasi-identifier removed",
        "unique people who would become non-unique (%)",
    )


def diversity_bars(df: pd.DataFrame, attribute: str) -> go.Figure:
    """Records by the number of distinct sensitive values in their class."""
    colors = [ACCENT if v == 1 else NEUTRAL for v in df["distinct values"]]
    fig = go.Figure(
        go.Bar(
            x=df["distinct values"].astype(str),
            y=df["records"],
            marker_color=colors,
            hovertemplate="%{y:,} people in classes with %{x} distinct values<extra></extra>",
        )
    )
    fig.update_xaxes(type="category")
    return _layout(
        fig,
        f"Diversity of {attribute} within equivalence classes",
        f"distinct values of {attribute} in the person's class",
        "records (people)",
    )


def candidates_bars(hist: pd.DataFrame, title: str) -> go.Figure:
    """Targets by candidate-set size; exactly one candidate highlighted."""
    colors = [ACCENT if c == "1" else NEUTRAL for c in hist["candidates"]]
    fig = go.Figure(
        go.Bar(
            x=hist["candidates"],
            y=hist["share"] * 100,
            marker_color=colors,
            customdata=hist[["targets"]],
            hovertemplate="%{x} candidates: %{customdata[0]:,} targets (%{y:.1f}%)<extra></extra>",
        )
    )
    return _layout(
        fig,
        title,
        "released records matching the target (candidate-set size)",
        "targets (%)",
    )


def linkage_curve_chart(curve: pd.DataFrame) -> go.Figure:
    """Re-identification rate with its 95% interval as the attacker knows more columns."""
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=list(curve["added"]) + list(curve["added"])[::-1],
            y=list(curve["unique high"] * 100) + list(curve["unique low"] * 100)[::-1],
            fill="toself",
            fillcolor="rgba(209,73,91,0.2)",
            line={"width": 0},
            hoverinfo="skip",
            name="95% interval",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=curve["added"],
            y=curve["unique"] * 100,
            mode="lines+markers",
            line={"color": ACCENT},
            name="re-identified uniquely",
            customdata=curve[["known"]],
            hovertemplate="knowing %{customdata[0]}: %{y:.1f}%<extra></extra>",
        )
    )
    fig.update_xaxes(type="category")
    fig.update_yaxes(range=[0, 102])
    fig = _layout(
        fig,
        "Re-identification as the attacker learns one more column",
        "column added to what the attacker knows (cumulative, left to right)",
        "targets re-identified uniquely (%)",
    )
    return fig


def exposure_bars(df: pd.DataFrame, x: str, x_title: str, title: str) -> go.Figure:
    """Records exposed by the homogeneity attack against a parameter."""
    fig = go.Figure(
        go.Bar(
            x=df[x].astype(str),
            y=df["records"],
            marker_color=ACCENT,
            customdata=df[["classes"]],
            hovertemplate="%{x}: %{y:,} people in %{customdata[0]:,} classes<extra></extra>",
        )
    )
    fig.update_xaxes(type="category")
    return _layout(fig, title, x_title, "people whose value is exposed")


def criterion_lines(df: pd.DataFrame) -> go.Figure:
    """Exposed records left among the classes that satisfy each l-diversity level."""
    fig = go.Figure()
    palette = {"distinct l": NEUTRAL, "entropy l": "#edae49", "t-closeness": "#66a182"}
    for crit, part in df.groupby("criterion", sort=False):
        if crit == "t-closeness":
            continue
        fig.add_trace(
            go.Scatter(
                x=part["level"],
                y=part["exposed records left"],
                mode="lines+markers",
                name=str(crit),
                line={"color": palette.get(str(crit), ACCENT)},
                hovertemplate=f"{crit} >= %{{x}}: %{{y:,}} exposed people left<extra></extra>",
            )
        )
    fig = _layout(
        fig,
        "Exposed people left in classes that satisfy l-diversity",
        "required l",
        "exposed people in classes that pass",
    )
    fig.update_layout(showlegend=True, legend={"orientation": "h", "y": -0.25})
    fig.update_xaxes(dtick=1)
    return fig


def two_queries(labels: list[str], values: list[float], title: str, y: str) -> go.Figure:
    """Two query answers side by side, and their difference."""
    fig = go.Figure(
        go.Bar(
            x=labels,
            y=values,
            marker_color=[NEUTRAL, NEUTRAL, ACCENT],
            text=[f"{v:,.2f}".rstrip("0").rstrip(".") for v in values],
            textposition="outside",
            hovertemplate="%{x}: %{y:,}<extra></extra>",
        )
    )
    return _layout(fig, title, "query", y)


def noise_success(
    eps: np.ndarray, p_within: np.ndarray, error: np.ndarray, within: float
) -> go.Figure:
    """Attacker's success and the answer's error against epsilon (log scale)."""
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=eps,
            y=p_within * 100,
            mode="lines",
            line={"color": ACCENT},
            name=f"attacker within +/- {within:g} of the truth (%)",
            hovertemplate="epsilon %{x:.3g}: %{y:.1f}%<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=eps,
            y=error,
            mode="lines",
            line={"color": NEUTRAL, "dash": "dash"},
            name="95% error of one noisy answer (+/-)",
            yaxis="y2",
            hovertemplate="epsilon %{x:.3g}: +/- %{y:,.1f}<extra></extra>",
        )
    )
    fig.update_xaxes(type="log", dtick=1)
    fig = _layout(
        fig,
        "Laplace noise: attacker's success against the cost in accuracy",
        "epsilon per query (log scale; smaller = more noise)",
        "attacker's success (%)",
    )
    fig.update_layout(
        yaxis={"range": [0, 102]},
        yaxis2={
            "title": "95% error of an answer (+/- people, log)",
            "overlaying": "y",
            "side": "right",
            "type": "log",
            "dtick": 1,
            "showgrid": False,
        },
        showlegend=True,
        legend={"orientation": "h", "y": -0.3},
        margin={"l": 10, "r": 60, "t": 60, "b": 10},
    )
    return fig


def estimate_histogram(draws: np.ndarray, truth: float, title: str) -> go.Figure:
    """Histogram of simulated attacker estimates (a simulation, not a release)."""
    fig = go.Figure(go.Histogram(x=draws, nbinsx=60, marker_color=NEUTRAL))
    fig.add_vline(x=truth, line_color=ACCENT, annotation_text="true value")
    return _layout(fig, title, "attacker's estimate of the target's value", "simulated draws")


def share_bars(df: pd.DataFrame, x: str, y: str, title: str, x_title: str) -> go.Figure:
    """Horizontal percentage bars (one per row of ``df``)."""
    fig = go.Figure(
        go.Bar(
            x=df[y] * 100,
            y=df[x],
            orientation="h",
            marker_color=ACCENT,
            hovertemplate="%{y}: %{x:.1f}%<extra></extra>",
        )
    )
    fig.update_xaxes(range=[0, 102])
    fig.update_layout(height=max(280, 40 * len(df) + 120))
    return _layout(fig, title, x_title, "")


# ------------------------------------------------------------------ differential privacy

MECH_COLORS = {"laplace": NEUTRAL, "gaussian": "#edae49", "discrete_laplace": "#66a182"}


def error_vs_epsilon(
    curves: dict, epsilon: float, *, unit: str, what: str, relative: bool = False
) -> go.Figure:
    """95% error of a noisy answer against epsilon per mechanism (log-log), with the
    simulated band of the first mechanism and a marker at the chosen epsilon."""
    fig = go.Figure()
    first = next(iter(curves))
    c0 = curves[first]
    scale = 100.0 / abs(c0.true_answer) if relative and c0.true_answer else 1.0
    band_hi = np.maximum(np.abs(c0.sim_low), np.abs(c0.sim_high)) * scale
    band_lo = np.minimum(np.abs(c0.sim_low), np.abs(c0.sim_high)) * scale
    fig.add_trace(
        go.Scatter(
            x=np.r_[c0.epsilons, c0.epsilons[::-1]],
            y=np.r_[band_hi, band_lo[::-1]],
            fill="toself",
            fillcolor="rgba(46,134,171,0.18)",
            line={"width": 0},
            name=f"simulated ({c0.simulations} numpy draws per epsilon, Laplace)",
            hoverinfo="skip",
        )
    )
    for mech, c in curves.items():
        fig.add_trace(
            go.Scatter(
                x=c.epsilons,
                y=c.half_width * scale,
                mode="lines",
                line={"color": MECH_COLORS[mech], "dash": "solid" if mech == first else "dash"},
                name=f"{MECHANISM_LABELS[mech]}, closed form",
                hovertemplate="epsilon %{x:.3g}: +/- %{y:,.4g}<extra>"
                + MECHANISM_LABELS[mech]
                + "</extra>",
            )
        )
    here = c0.at(epsilon).half_width * scale
    fig.add_vline(x=epsilon, line_color=ACCENT, line_dash="dot")
    fig.add_trace(
        go.Scatter(
            x=[epsilon],
            y=[here],
            mode="markers+text",
            marker={"color": ACCENT, "size": 11},
            text=[f"+/- {here:,.4g}{'%' if relative else ''} at epsilon = {epsilon:g}"],
            textposition="top right",
            name="chosen epsilon",
            hoverinfo="skip",
        )
    )
    fig.update_xaxes(type="log", dtick=1)
    fig.update_yaxes(type="log", dtick=1)
    y = f"95% error, +/- % of the true {what} (log)" if relative else f"95% error, +/- {unit} (log)"
    fig = _layout(
        fig,
        f"How far the noisy {what} can be from the truth, by epsilon",
        "epsilon (log scale; smaller = more privacy, more noise)",
        y,
    )
    fig.update_layout(showlegend=True, legend={"orientation": "h", "y": -0.25}, height=460)
    return fig


def clipping_chart(t, unit: str) -> go.Figure:
    """Clipping bias, sampling and privacy noise, and total RMSE against the upper bound."""
    fig = go.Figure()
    for y, name, color, dash in (
        (np.abs(t.bias), "|clipping bias|", ACCENT, "dash"),
        (t.sampling_sd, "sampling noise (sd)", "#66a182", "dot"),
        (t.noise_sd, "privacy noise (sd)", "#edae49", "dash"),
        (t.rmse, "total error (RMSE)", NEUTRAL, "solid"),
    ):
        fig.add_trace(
            go.Scatter(
                x=t.uppers,
                y=y,
                mode="lines",
                name=name,
                line={"color": color, "dash": dash, "width": 3 if dash == "solid" else 2},
                hovertemplate="U = %{x:,.4g}: %{y:,.4g}<extra>" + name + "</extra>",
            )
        )
    fig.add_vline(x=t.best_upper, line_color=NEUTRAL, line_dash="dot")
    u = np.asarray(t.uppers, dtype=float)
    fig.update_xaxes(type="log", range=[math.log10(float(u.min())), math.log10(float(u.max()))])
    top = float(np.nanmax(t.rmse))
    fig.update_yaxes(
        type="log",
        exponentformat="power",
        range=[math.log10(float(t.rmse.min()) / 100.0), math.log10(top * 2.0)],
    )
    fig = _layout(
        fig,
        f"Error of the DP mean against the upper clipping bound U (epsilon = {t.epsilon:g})",
        f"upper clipping bound U ({unit}, log scale)",
        f"error of the mean ({unit}, log)",
    )
    fig.update_layout(showlegend=True, legend={"orientation": "h", "y": -0.25}, height=440)
    return fig


def composition_chart(c, budget: float) -> go.Figure:
    """Total epsilon against the number of queries under three composition theorems."""
    fig = go.Figure()
    for y, name, color, dash in (
        (c.basic, "basic (k epsilon)", ACCENT, "solid"),
        (c.advanced, "advanced (Dwork-Rothblum-Vadhan)", "#edae49", "dash"),
        (c.zcdp, "zCDP (Bun-Steinke)", "#66a182", "dot"),
    ):
        fig.add_trace(
            go.Scatter(
                x=c.k,
                y=y,
                mode="lines",
                name=name,
                line={"color": color, "dash": dash},
                hovertemplate="%{x} queries: epsilon %{y:.3g}<extra>" + name + "</extra>",
            )
        )
    fig.add_hline(y=budget, line_color=NEUTRAL, annotation_text=f"budget {budget:g}")
    fig = _layout(
        fig,
        f"Total privacy loss of k queries at epsilon = {c.epsilon:g} each",
        "number of queries k",
        "total epsilon",
    )
    # zoom on where the budget is crossed: up to three budgets, and the k where even the
    # best accountant has passed that
    top = budget * 3.0
    past = np.flatnonzero(c.best > top)
    k_end = int(c.k[past[0]]) if past.size else int(c.k[-1])
    fig.update_yaxes(range=[0, top])
    fig.update_xaxes(range=[1, max(k_end, 10)])
    fig.update_layout(showlegend=True, legend={"orientation": "h", "y": -0.25}, height=420)
    return fig


def posterior_chart(
    r: np.ndarray, gamma: np.ndarray, rho: float, true_value: float, unit: str
) -> go.Figure:
    """Attacker's posterior of the true world against the noisy response."""
    fig = go.Figure(
        go.Scatter(
            x=r,
            y=gamma * 100,
            mode="lines",
            line={"color": NEUTRAL},
            hovertemplate="response %{x:,.4g}: %{y:.2f}%<extra></extra>",
        )
    )
    fig.add_hline(
        y=rho * 100, line_color=ACCENT, line_dash="dash", annotation_text=f"rho = {rho:.1%}"
    )
    fig.add_vline(x=true_value, line_color=NEUTRAL, line_dash="dot", annotation_text="true value")
    return _layout(
        fig,
        "Attacker's certainty about the true person, by the noisy answer seen",
        f"noisy answer R ({unit})",
        "posterior of the true person (%)",
    )


def blocks_chart(sa, unit: str) -> go.Figure:
    """Block statistics, clamp bounds, their average and the full-data value."""
    fig = go.Figure(
        go.Scatter(
            x=np.arange(1, sa.k + 1),
            y=sa.block_values,
            mode="markers",
            marker={"color": NEUTRAL, "size": 7},
            hovertemplate="block %{x}: %{y:,.4g}<extra></extra>",
        )
    )
    lo, hi = sa.bounds
    fig.add_hrect(y0=lo, y1=hi, fillcolor="rgba(46,134,171,0.08)", line_width=0)
    fig.add_hline(y=sa.aggregate, line_color=ACCENT, annotation_text="average of clamped blocks")
    fig.add_hline(
        y=sa.full_data_value,
        line_color="#66a182",
        line_dash="dot",
        annotation_text="all records",
        annotation_position="bottom left",
    )
    return _layout(
        fig,
        f"Sample and aggregate: the {sa.statistic} of each of k = {sa.k} blocks",
        "block",
        f"block {sa.statistic} ({unit})",
    )


def grr_bars(df: pd.DataFrame, column: str) -> go.Figure:
    """True, randomized and estimated counts per category, with 95% intervals."""
    fig = go.Figure()
    fig.add_trace(go.Bar(x=df["category"], y=df["true"], name="true", marker_color="#66a182"))
    fig.add_trace(
        go.Bar(
            x=df["category"],
            y=df["observed (randomized)"],
            name="observed (randomized reports)",
            marker_color="#edae49",
        )
    )
    fig.add_trace(
        go.Bar(
            x=df["category"],
            y=df["estimated"],
            name="estimated (de-biased), 95% interval",
            marker_color=NEUTRAL,
            error_y={
                "type": "data",
                "symmetric": False,
                "array": df["95% high"] - df["estimated"],
                "arrayminus": df["estimated"] - df["95% low"],
            },
        )
    )
    fig = _layout(
        fig,
        f"Randomized response on {column}: what the collector sees and estimates",
        column,
        "people",
    )
    fig.update_layout(
        barmode="group", showlegend=True, legend={"orientation": "h", "y": -0.5}, height=480
    )
    return fig


def margin_chart(df: pd.DataFrame, epsilon: float) -> go.Figure:
    """95% margin on a share against epsilon for several numbers of respondents."""
    fig = go.Figure()
    for n, part in df.groupby("n", sort=False):
        fig.add_trace(
            go.Scatter(
                x=part["epsilon"],
                y=part["margin"] * 100,
                mode="lines",
                name=str(n),
                hovertemplate="epsilon %{x:.3g}: +/- %{y:.2f} points<extra>" + str(n) + "</extra>",
            )
        )
    fig.add_vline(x=epsilon, line_color=ACCENT, line_dash="dot")
    fig.update_xaxes(type="log", dtick=1)
    fig.update_yaxes(type="log", dtick=1)
    fig = _layout(
        fig,
        "Local DP: accuracy of one category's share, by epsilon and number of respondents",
        "epsilon (log scale)",
        "95% margin on a share (+/- percentage points, log)",
    )
    fig.update_layout(showlegend=True, legend={"orientation": "h", "y": -0.25}, height=420)
    return fig
