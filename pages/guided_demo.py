"""Guided demo: six screens that tell the re-identification story on the demo data."""

from __future__ import annotations

import streamlit as st

from riskcore.report import figures as charts
from riskcore.report.readings import noise_reading, size_histogram
from ui import cached
from ui.safe import md

STEP = "rc_story_step"
TITLES = [
    "1. Names and SSNs are removed",
    "2. A voter roll re-identifies almost everyone",
    "3. Coarsen to age band + ZIP3: k rises",
    "4. Classes where one diagnosis dominates still leak it",
    "5. Published counts leak through differencing",
    "6. Differential privacy noise stops it, at a cost",
]

st.title("Guided demo")
st.caption(
    "Built-in demo data: 32,561 made-up people of one region. No upload needed; every number "
    "is computed live by riskcore."
)
s = cached.story(32_561, 0)
step = st.session_state.setdefault(STEP, 0)
st.progress((step + 1) / len(TITLES), text=TITLES[step])
st.subheader(TITLES[step])

if step == 0:
    unique = s.combos.set_index("columns")["unique share"]
    st.write(
        "The hospital drops names and Social Security numbers and publishes the rest: date of "
        "birth, ZIP code, sex, diagnosis. Is that anonymous? Count how many people are the "
        "only one with their combination of ordinary facts."
    )
    st.plotly_chart(
        charts.share_bars(
            s.combos,
            "columns",
            "unique share",
            "People unique on each combination of ordinary facts",
            "people unique on the combination (%)",
        ),
        key="rc_story_0",
    )
    st.caption(
        f"Sex alone singles out nobody; date of birth + ZIP singles out "
        f"{unique['date_of_birth + zip']:.1%} of people."
    )
elif step == 1:
    r = s.linkage
    st.write(
        "An attacker buys the voter roll (name, date of birth, ZIP) and joins it to the "
        "release. Every person whose date of birth and ZIP match exactly one record is "
        "re-identified, with their diagnosis."
    )
    st.plotly_chart(
        charts.candidates_bars(
            r.candidate_histogram(), "Possible identities per voter after the join"
        ),
        key="rc_story_1",
    )
    st.caption(
        f"{r.correct.rate:.1%} of the {r.n_targets:,} voters are re-identified correctly "
        f"(95% CI {r.correct.low:.1%}-{r.correct.high:.1%}); a random guess would be right "
        f"1 time in {r.n_release:,}."
    )
elif step == 2:
    st.write(
        "Generalize: ages in 10-year bands instead of dates of birth, the first three ZIP "
        f"digits, and withhold the {s.suppressed:,} people ({s.suppressed / s.n:.1%}) still in "
        "classes smaller than 5."
    )
    hist = size_histogram(s.after.anonymity.distribution)
    st.plotly_chart(charts.class_size_histogram(hist, "age band + ZIP3 + sex"), key="rc_story_2")
    st.caption(
        f"k rises from {s.before.k} to {s.after.k}: unique people fall from "
        f"{s.before.unique_records:,} to {s.after.unique_records:,}, and the voter-roll join "
        f"now re-identifies {s.linkage_after.correct.rate:.1%} of voters."
    )
elif step == 3:
    ex = s.exposure.set_index("p")
    st.write(
        "k-anonymity hides *who* a record is, not *what* it says. In a class where most "
        "people share one diagnosis, an attacker who knows someone's age band, ZIP3 and sex "
        "learns that diagnosis with the class's confidence (the homogeneity attack)."
    )
    st.plotly_chart(
        charts.exposure_bars(
            s.exposure,
            "p",
            "attacker's confidence p (share of the class with the commonest diagnosis)",
            "People whose diagnosis is exposed at confidence p (k = 5 release)",
        ),
        key="rc_story_3",
    )
    st.caption(
        f"At k = {s.after.k}, {ex.loc[0.6, 'records']:,} people sit in classes where at least "
        f"60% share one diagnosis and {ex.loc[0.8, 'records']:,} where at least 80% do; "
        "l-diversity and t-closeness (Anonymity page) limit this."
    )
elif step == 4:
    d = s.differencing
    q1, q2 = d.queries()
    st.write(
        "No table at all, only two statistics a dashboard might publish. Both counts are "
        "large, so a minimum-cell-size rule of 11 publishes them."
    )
    st.markdown(f"1. {md(q1)}: **{d.q_all:,.0f}**\n2. {md(q2)}: **{d.q_rest:,.0f}**")
    st.plotly_chart(
        charts.two_queries(
            ["everyone", "everyone but the target", "difference"],
            [d.q_all, d.q_rest, d.recovered],
            "Two large published counts and their difference",
            "people",
        ),
        key="rc_story_4",
    )
    st.caption(
        f"The difference is {d.recovered:.0f}: the target (row {d.target}, the only person "
        f"with their date of birth, ZIP and sex) has {md(d.condition[0][1])}."
    )
else:
    st.write(
        "Differential privacy adds calibrated Laplace noise to every answer. The attacker's "
        "difference drowns in the noise, while a count of thousands barely moves."
    )
    eps = st.select_slider(
        "epsilon per query", [0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0], value=0.1, key="rc_story_eps"
    )
    st.plotly_chart(
        charts.noise_success(s.epsilons, s.p_exact, s.count_error, 0.5), key="rc_story_5"
    )
    st.caption(
        md(noise_reading(eps, 1.0, 0.5))
        + f" The published count of {s.differencing.q_all:,.0f} stays within "
        f"{s.relative_count_error(eps):.2%} "
        "of the truth."
    )

back, _, nxt = st.columns([1, 4, 1])
if back.button("Back", disabled=step == 0, key="rc_story_back"):
    st.session_state[STEP] = step - 1
    st.rerun()
if nxt.button("Next", disabled=step == len(TITLES) - 1, key="rc_story_next", type="primary"):
    st.session_state[STEP] = step + 1
    st.rerun()
