"""Guided demo: six screens that tell the re-identification story on the demo data."""

from __future__ import annotations

import streamlit as st

from riskcore.demo.story import SUPPRESS_BELOW
from riskcore.report import figures as charts
from riskcore.report.readings import (
    STORY_CAPTION,
    STORY_END,
    STORY_LABELS,
    STORY_TITLES,
    exposure_title,
    queries_list,
    size_histogram,
)
from ui.core import cached, keys
from ui.core.safe import md

TITLES = STORY_TITLES

st.title("Guided demo")
st.caption(STORY_CAPTION)
s = cached.story(32_561, 0)
step = st.session_state.setdefault(keys.STORY_STEP, 0)
st.progress((step + 1) / len(TITLES), text=TITLES[step])
st.subheader(TITLES[step])

st.write(s.intro(step))
if step == 0:
    st.plotly_chart(
        charts.share_bars(
            s.combos,
            "columns",
            "unique share",
            "People unique on each combination of ordinary facts",
            "people unique on the combination (%)",
            y_title="combination of columns",
        ),
        key=keys.story_chart(0),
    )
    st.info(s.caption(0, escape=md))  # the step's take-away
elif step == 1:
    r = s.linkage
    st.plotly_chart(
        charts.candidates_bars(
            r.candidate_histogram(), "Possible identities per voter after the join"
        ),
        key=keys.story_chart(1),
    )
    st.info(s.caption(1, escape=md))  # the step's take-away
elif step == 2:
    hist = size_histogram(s.after.anonymity.distribution)
    st.plotly_chart(
        charts.class_size_histogram(hist, "age band + ZIP3 + sex", k=SUPPRESS_BELOW),
        key=keys.story_chart(2),
    )
    st.info(s.caption(2, escape=md))  # the step's take-away
elif step == 3:
    st.plotly_chart(
        charts.exposure_bars(
            s.exposure,
            "p",
            "attacker's confidence p (share of the class with the commonest diagnosis)",
            exposure_title(s.after.k),
        ),
        key=keys.story_chart(3),
    )
    st.info(s.caption(3, escape=md))  # the step's take-away
elif step == 4:
    d = s.differencing
    st.markdown(queries_list(d, escape=md, labels=STORY_LABELS))
    st.plotly_chart(
        charts.two_queries(
            ["everyone", "everyone but the target", "difference"],
            [d.q_all, d.q_rest, d.recovered],
            "Two large published counts and their difference",
            "people",
        ),
        key=keys.story_chart(4),
    )
    st.info(s.caption(4, escape=md))  # the step's take-away
else:
    eps = st.select_slider(
        "epsilon per query", [0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0], value=0.1, key=keys.STORY_EPS
    )
    st.plotly_chart(
        charts.noise_success(s.epsilons, s.p_exact, s.count_error, 0.5, epsilon=eps),
        key=keys.story_chart(5),
    )
    st.info(s.caption(5, epsilon=eps, escape=md))  # the step's take-away
    st.success(STORY_END)
    st.page_link("pages/data.py", label="Now try your own table on the Data page")

back, _, nxt = st.columns([1, 4, 1])
if back.button("Back", disabled=step == 0, key=keys.STORY_BACK):
    st.session_state[keys.STORY_STEP] = step - 1
    st.rerun()
if nxt.button("Next", disabled=step == len(TITLES) - 1, key=keys.STORY_NEXT, type="primary"):
    st.session_state[keys.STORY_STEP] = step + 1
    st.rerun()
