"""AppTest for the Attacks and Guided demo pages, numbers checked against riskcore."""

from __future__ import annotations

import json

import numpy as np

from riskcore.attacks import differencing_attack, homogeneity_attack
from riskcore.attacks.linkage import linkage_attack, simulate_auxiliary
from riskcore.demo import make_people
from riskcore.demo.story import guided_story
from tests.app.helpers import (
    demo_roles,
    metrics,
    plotly_values,
    run,
)

QIS = ["age", "sex", "race"]


def test_attacks_page_linkage_matches_riskcore():
    at = run("pages/attacks.py", demo_roles(QIS, ["diagnosis"]))
    df = make_people(32_561, seed=0)
    aux, truth = simulate_auxiliary(df, QIS, seed=0)
    r = linkage_attack(df, aux, QIS, truth=truth, sensitive=["diagnosis"], p=0.9)
    m = metrics(at)
    assert m["Targets"] == f"{r.n_targets:,}"
    assert m["Re-identified uniquely"] == f"{r.unique.rate:.1%}"
    assert m["Re-identified correctly"] == f"{r.correct.rate:.1%}"
    # the same three labelled figures and the baseline as riskcore (test_linkage works them out)
    assert m["Expected correct, random pick"] == f"{r.expected_correct:.1%}"
    captions = " ".join(c.value for c in at.caption).replace("\\", "")  # markdown escapes
    assert f"right for an expected {r.expected_correct:.1%} of targets, 95% CI" in captions
    assert "a guess among all 32,561 released records is right 1 time in 32,561" in captions
    specs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    hist = next(s for s in specs if "identities" in s["layout"]["title"]["text"])
    shares = plotly_values(hist["data"][0]["y"])
    assert np.allclose(shares, r.candidate_histogram()["share"].to_numpy() * 100)
    # more errors in the attacker's table: fewer correct re-identifications
    at.slider[1].set_value(0.3).run()
    assert not at.exception
    assert float(metrics(at)["Re-identified correctly"].rstrip("%")) < r.correct.rate * 100


def test_attacks_page_homogeneity_and_differencing():
    roles = demo_roles(QIS, ["income"]) | {"name": "identifier", "ssn": "identifier"}
    at = run("pages/attacks.py", roles)
    df = make_people(32_561, seed=0)
    h = homogeneity_attack(df, QIS, "income", p=1.0)
    m = metrics(at)
    assert m["People exposed"] == f"{h.exposed_records:,}"
    assert m["Classes exposed"] == f"{len(h.exposed):,} of {h.n_classes:,}"
    # the default target is the first person unique on the known columns (groupby oracle)
    sizes = df.groupby(QIS, dropna=False, observed=True)["age"].transform("size")
    target = int(np.flatnonzero(sizes.to_numpy() == 1)[0])
    box = next(n for n in at.number_input if n.label == "Target row (position, from 0)")
    assert box.value == target
    d = differencing_attack(df, target, QIS, condition={"income": df["income"].iloc[target]})
    text = " ".join(x.value for x in at.markdown)
    assert f"**{d.q_all:,.6g}**" in text and f"**{d.q_rest:,.6g}**" in text
    # the target's row is shown without direct identifiers
    shown = next(t.value for t in at.dataframe if "date_of_birth" in t.value.columns)
    assert "name" not in shown.columns and "ssn" not in shown.columns
    assert shown["age"].iloc[0] == df["age"].iloc[target]


def test_attacks_page_without_qis_prompts_only_where_qis_are_needed():
    roles = {c: "other" for c in make_people(100).columns}
    at = run("pages/attacks.py", roles)
    assert not at.exception
    infos = [i.value for i in at.info]
    assert len(infos) == 2  # linkage and homogeneity wait for QIs
    assert all("do not need them" in i for i in infos)
    # the differencing attack runs without any (two counts, their difference)
    text = " ".join(x.value for x in at.markdown)
    assert "(the target's value)" in text
    assert any(ms.label.startswith("Columns of") for ms in at.multiselect)  # two releases


def test_guided_demo_walks_all_six_steps():
    s = guided_story(32_561, 0)
    at = run("pages/guided_demo.py")
    seen = []
    for step in range(6):
        assert not at.exception, at.exception
        seen.append(at.subheader[0].value)
        assert len(at.get("plotly_chart")) == 1, f"step {step + 1} shows one plot"
        # the take-away is a visible box, not a grey caption
        captions = " ".join(c.value for c in at.info).replace("\\", "")  # markdown escapes
        if step == 1:
            assert f"{s.linkage.correct.rate:.1%}" in captions
        if step == 2:
            assert f"k rises from {s.before.k} to {s.after.k}" in captions
        if step == 4:  # the queries name columns as a reader would, not by their code names
            text = " ".join(m.value for m in at.markdown).replace("\\", "")
            assert "the target's date of birth, ZIP code, sex" in text
            assert "date_of_birth" not in text
        if step < 5:
            at.button(key="rc_story_next").click().run()
    assert seen[0].startswith("1.") and seen[-1].startswith("6.")
    assert s.before.k == 1 and s.after.k >= 11  # the k = 11 target of every other page
    assert s.linkage.correct.rate > 0.95 and s.linkage_after.correct.rate < 0.01
    assert s.differencing.exact and s.differencing.passes_cell_rule


def test_a_large_table_waits_for_the_run_button_and_a_slider_does_not_rerun_it(monkeypatch):
    """Above the auto-run size nothing runs on open or on a slider move; Run runs it once."""
    import riskcore.attacks.linkage.attack as attack_module
    from ui.core import state

    calls = []
    real = attack_module.linkage_attack

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(state, "AUTO_RUN_ROWS", 1_000)  # the demo's 32,561 rows count as large
    monkeypatch.setattr("ui.core.cached.attacks.linkage_attack", counting)
    monkeypatch.setattr(attack_module, "linkage_attack", counting)
    at = run("pages/attacks.py", demo_roles(QIS, ["diagnosis"]))
    assert calls == [] and "Re-identified uniquely" not in metrics(at)
    assert any("runs when you press" in i.value for i in at.info)
    at.slider[1].set_value(0.2).run()  # a slider move starts nothing
    assert calls == [] and "Re-identified uniquely" not in metrics(at)
    at.button(key="rc_link_run_button").click().run()
    assert not at.exception
    assert "Re-identified uniquely" in metrics(at)
    ran = len(calls)
    assert ran == 1 + len(QIS)  # the attack, then one per column for the curve (progress bar)
    at.run()  # an unrelated rerun shows the result again without running anything
    assert len(calls) == ran and "Re-identified uniquely" in metrics(at)
    at.slider[1].set_value(0.3).run()  # the settings changed: the button is offered again
    assert len(calls) == ran and "Re-identified uniquely" not in metrics(at)
    assert any("settings changed" in i.value for i in at.info)


def test_ground_truth_can_be_the_row_number_of_an_attacker_table_drawn_from_the_data():
    from riskcore.attacks.linkage import row_number_truth

    df = make_people(32_561, seed=0)
    aux = df.iloc[[0, 5, 9]][QIS].assign(row=[1, 6, 10]).reset_index(drop=True)
    pos = row_number_truth(aux, "row", len(df))
    assert pos.tolist() == [0, 5, 9]
    r = linkage_attack(df, aux, QIS, truth=pos)
    # an independent count: a target is correctly re-identified iff it is unique on the QIs
    sizes = df.groupby(QIS, dropna=False, observed=True)["age"].transform("size").to_numpy()
    assert r.correct.successes == int((sizes[[0, 5, 9]] == 1).sum())
    blanks = aux.assign(row=[1, None, 10])
    assert row_number_truth(blanks, "row", len(df)).tolist() == [0, -1, 9]
    import pytest

    from riskcore.errors import RiskcoreError

    for bad in ([0, 5, 9], [1.5, 2, 3], ["a", 2, 3], [1, 2, 32_562]):
        with pytest.raises(RiskcoreError, match="row numbers from 1 to 32,561"):
            row_number_truth(aux.assign(row=bad), "row", len(df))


def test_attacks_page_offers_row_number_as_ground_truth():
    df = make_people(32_561, seed=0)
    rows = [3, 696, 755, 101, 1025]  # two common, three unique on the QIs, one in a pair
    aux = df.iloc[rows][QIS].assign(row=[r + 1 for r in rows])
    at = run("pages/attacks.py", demo_roles(QIS, ["diagnosis"]))
    at.radio(key="rc_link_source").set_value("Upload a file").run()
    at.file_uploader(key="rc_aux_upload").set_value(
        ("aux.csv", aux.to_csv(index=False).encode(), "text/csv")
    ).run()
    next(s for s in at.selectbox if s.label.startswith("Ground truth")).set_value("row").run()
    truth_col = next(s for s in at.selectbox if s.label.startswith("... matches"))
    assert "(row number in this table)" in truth_col.options
    truth_col.set_value("(row number in this table)").run()
    assert not at.exception, at.exception
    sizes = df.groupby(QIS, dropna=False, observed=True)["age"].transform("size").to_numpy()
    expected = (sizes[rows] == 1).mean()
    assert metrics(at)["Re-identified correctly"] == f"{expected:.1%}"
    assert not any("__" in e.value for e in at.error)


def _noise_note(at) -> str:
    specs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    spec = next(s for s in specs if s["layout"]["title"]["text"].startswith("Laplace noise"))
    (note,) = spec["layout"]["annotations"]
    marker = next(t for t in spec["data"] if t.get("name") == "chosen epsilon")
    return note["text"], plotly_values(marker["x"])


def test_guided_demo_last_step_epsilon_moves_the_figure():
    # issue 12: the step-6 slider changed the caption only
    at = _at_step(5)
    text, x = _noise_note(at)
    assert text.startswith("epsilon = 0.1: attacker within +/- 0.5 in ") and x == [0.1, 0.1]
    at.select_slider(key="rc_story_eps").set_value(1.0).run()
    assert not at.exception
    text, x = _noise_note(at)
    # b = 1: P(|D| <= 0.5) = 1 - e^-0.5 (1 + 0.25) = 24.2%; error ln 20 = 3.0
    assert text == "epsilon = 1: attacker within +/- 0.5 in 24.2% of tries; error +/- 3.0"
    assert x == [1.0, 1.0]
    captions = " ".join(c.value for c in at.info).replace("\\", "")
    assert "+/- 3.0 (95%)" in captions and "probability 24.2%" in captions


def _at_step(step: int):
    at = run("pages/guided_demo.py")
    at.session_state["rc_story_step"] = step
    at.run()
    assert not at.exception
    return at


def test_attacks_differencing_epsilon_moves_the_noise_figure():
    at = run("pages/attacks.py", demo_roles(QIS, ["diagnosis"]))
    text, x = _noise_note(at)
    assert text.startswith("epsilon = 0.5: ") and x == [0.5, 0.5]
    at.select_slider(key="rc_diff_eps").set_value(2.0).run()
    text, x = _noise_note(at)
    assert text.startswith("epsilon = 2: ") and x == [2.0, 2.0]
    captions = " ".join(c.value for c in at.caption).replace("\\", "")
    assert "At epsilon = 2 per query" in captions


def test_the_guided_demo_uses_k_11_says_when_the_qis_change_and_ends_on_your_own_table():
    import pandas as pd

    from riskcore.demo.story import SUPPRESS_BELOW
    from tests.app.helpers import seen

    s = guided_story(32_561, 0)
    assert SUPPRESS_BELOW == 11 and s.after.k >= 11
    at = run()
    df = pd.DataFrame({"a": [1, 2, 3], "b": ["x", "y", "z"]})
    at.file_uploader(key="rc_upload").set_value(("mine.csv", df.to_csv(index=False).encode(),
                                                "text/csv")).run()  # fmt: skip
    at.switch_page("pages/guided_demo.py").run()
    assert not at.exception, at.exception
    # (the sidebar's line, drawn by the router, is in test_story and the browser walk)
    at.session_state["rc_story_step"] = 2
    at.run()
    assert "classes smaller than 11 (k = 11" in " ".join(seen(m.value) for m in at.markdown)
    info = " ".join(seen(i.value) for i in at.info)
    raw = s.combos.set_index("columns")["unique share"]["date_of_birth + zip"]
    assert f"Steps 1 and 2 used date of birth + ZIP code ({raw:.1%} unique)" in info
    at.session_state["rc_story_step"] = 5
    at.run()
    assert any(seen(x.value).startswith("That is the story on made-up people. Now try your own")
               for x in at.success)  # fmt: skip
    assert any(p.proto.page.endswith("data.py") or "data" in p.proto.page
               for p in at.get("page_link"))  # fmt: skip
