"""AppTest: the Remediate page's Perturb tab (ui/widgets/remediate/perturb.py) on the hospital
table, the demo
and UCI Adult."""

from __future__ import annotations

import numpy as np

from riskcore.report.readings.perturb import METHOD_NOTES
from tests.app.helpers import hospital_app, roles_of, run, seen, set_roles

RUN = "rc_rem_perturb_run"
METHOD = "rc_rem_perturb_method"


def _texts(at) -> str:
    return "\n".join(seen(m.value) for m in at.markdown) + "\n".join(
        seen(c.value) for c in at.caption
    )


def test_local_suppression_and_pram_on_the_hospital_table():
    at = hospital_app()
    at.switch_page("pages/remediate.py").run()
    assert not at.exception, at.exception
    _, strength, weakness = METHOD_NOTES["local_suppression"]
    assert strength in _texts(at) and weakness in _texts(at)
    # k starts at the profile's target k (the Anonymity page's), not at 2
    from ui.core.profile import DEFAULT_TARGETS

    target_k = DEFAULT_TARGETS.find("k-anonymity").k
    assert at.number_input(key="rc_rem_perturb_k").value == target_k > 2
    at.number_input(key="rc_rem_perturb_k").set_value(2).run()
    at.button(key=RUN).click().run()
    assert not at.exception, at.exception
    text = _texts(at)
    assert "Local suppression: " in text and "cells blanked" in text
    assert "of 5,000 before, 0 after" in text  # re-scored: nobody below k = 2 any more
    at.radio(key=METHOD).set_value("pram").run()
    assert METHOD_NOTES["pram"][1] in _texts(at)
    at.selectbox(key="rc_rem_perturb_pram_col").set_value("diagnosis").run()
    at.button(key=RUN).click().run()
    assert not at.exception, at.exception
    assert "PRAM of diagnosis: " in _texts(at)
    matrix = at.dataframe[-1].value
    np.testing.assert_allclose(matrix.sum(axis=1).to_numpy(), 1.0)
    # issue 38.13: pd bounds the basic matrix's diagonal, not the matrix applied (alpha and
    # the invariant step mix it): the slider does not call it the least chance a value stays
    # itself, and the reading gives that chance from the matrix shown
    assert "stays itself" not in at.slider(key="rc_rem_perturb_pd").label
    diag = np.diag(matrix.to_numpy(dtype=float))
    assert f"stays itself with probability {diag.min():.2f} to {diag.max():.2f}" in _texts(at)


def test_microaggregation_and_noise_on_the_demo_show_drisk_and_il1s():
    at = run("pages/remediate.py")
    at.radio(key=METHOD).set_value("microaggregation").run()
    at.multiselect(key="rc_rem_perturb_microaggregation_cols").set_value(["age"]).run()
    at.button(key=RUN).click().run()
    assert not at.exception, at.exception
    table = at.dataframe[-1].value
    assert table["Before"].tolist() == ["100.0%", "0.000"]
    assert "Microaggregation (single) of age" in _texts(at)
    at.radio(key=METHOD).set_value("noise").run()
    at.multiselect(key="rc_rem_perturb_noise_cols").set_value(["age"]).run()
    at.button(key=RUN).click().run()
    assert not at.exception, at.exception
    assert "Noise added to age 150%" in _texts(at)
    after = at.dataframe[-1].value["After"].tolist()
    # sdcMicro 5.8.1's dRisk (every value inside its interval) falls with the noise,
    # on one column too (the rule of 5.5.1 and before counted every record there)
    assert after[0] != "100.0%"
    assert "every value inside its interval" in _texts(at)


def test_microaggregation_and_local_suppression_on_uci_adult():
    """The Done-when table of issue 30: the tab on UCI Adult, its figures recomputed apart."""
    import pandas as pd

    from riskcore.perturb import microaggregate
    from tests.conftest import shared_file

    raw = shared_file("adult.csv").read_bytes()
    at = run()
    at.file_uploader(key="rc_upload").set_value(("adult.csv", raw, "text/csv")).run()
    assert not at.exception, at.exception
    roles = {c: "other" for c in roles_of(at)}
    roles |= {"sex": "quasi_identifier", "race": "quasi_identifier", "income": "sensitive"}
    set_roles(at, roles)
    at.switch_page("pages/remediate.py").run()
    assert not at.exception, at.exception
    # one column: sdcMicro's single-variable method (MDAV on Adult's 32,561 rows takes 17 s
    # of CPU; MDAV itself is checked against sdcMicro on francdat and testdata)
    cols = ["hours-per-week"]
    at.radio(key=METHOD).set_value("microaggregation").run()
    at.multiselect(key="rc_rem_perturb_microaggregation_cols").set_value(cols).run()
    at.number_input(key="rc_rem_perturb_agg_k").set_value(3).run()
    at.button(key=RUN).click().run()
    assert not at.exception, at.exception
    adult = pd.read_csv(shared_file("adult.csv"))
    x = adult[cols].to_numpy(float)
    xm = microaggregate(adult, cols, 3).data[cols].to_numpy(float)
    half = 0.05 * xm.std(axis=0, ddof=1)
    outside = ((x < xm - half) | (x > xm + half)).sum(axis=1)  # sdcMicro 5.8.1's dRiskWORK
    after = at.dataframe[-1].value["After"].tolist()
    assert after[0] == f"{np.mean(outside == 0):.1%}" != "100.0%"
    assert "Microaggregation (single) of hours-per-week" in _texts(at)
    # local suppression on two QIs to k = 150 (the smallest class holds 109 records)
    at.radio(key=METHOD).set_value("local_suppression").run()  # on the QIs: sex and race
    at.number_input(key="rc_rem_perturb_k").set_value(150).run()
    at.button(key=RUN).click().run()
    assert not at.exception, at.exception
    text = _texts(at)
    assert "Local suppression: " in text and "every record now matches at least 150" in text
    # no value of sex or race is missing in Adult: the class sizes are plain counts
    assert adult[["sex", "race"]].notna().all().all()
    before = int((adult.groupby(["sex", "race"])["sex"].transform("size") < 150).sum())
    assert before > 0 and f"{before:,} of {len(adult):,} before, 0 after" in text


def _verdicts(at, of: str) -> tuple[list[str], list[str]]:
    """Return the success and error texts naming ``of``."""
    ok = [seen(x.value) for x in at.success if of in seen(x.value).lower()]
    bad = [seen(x.value) for x in at.error if of in seen(x.value).lower()]
    return ok, bad


def test_issue38_local_suppression_works_on_the_table_in_use_and_counts_toward_the_limit():
    """Issue 38 item 1: the Perturb tab ran on the table as recorded ("5,000 of 5,000
    before") instead of the release in use, and the records its blanks cost were not
    judged: the Generalize tab and the Anonymity page said "meets" and the downloads carried
    no warning. Now it starts from the release, and every page judges the release by its one
    verdict, the records with a blanked cell counted with those the generalization removed."""
    import json

    from riskcore.criteria import Targets
    from riskcore.deidentify.recipe.apply import apply_recipe
    from riskcore.deidentify.recipe.base import Recipe
    from riskcore.io import load_table
    from riskcore.perturb import local_suppression
    from tests.app.helpers import hospital_csv

    at = hospital_app()
    at.switch_page("pages/remediate.py").run()
    levels = {"date_of_birth": 3, "zip": 2, "sex": 1}  # meets k = 11 with 43 suppressed
    for q, lv in levels.items():
        at.select_slider(key=f"rc_rem_level_{q}").set_value(lv).run()
    at.button(key="rc_rem_use").click().run()
    assert not at.exception, at.exception
    recipe = at.session_state["rc_remediation"]["recipe"]
    data = load_table(hospital_csv(), name="hospital.csv").data  # as the app reads it
    release = apply_recipe(data, recipe, skip_keyed=True)  # the table in use, apart
    removed = release.suppressed
    assert 0 < removed and release.within_limit
    n_in_use = len(release.data)
    qis = list(levels)

    # at the target k the release is already k-anonymous: nothing below k, nothing blanked
    at.number_input(key="rc_rem_perturb_k").set_value(11).run()
    at.button(key=RUN).click().run()
    assert not at.exception, at.exception
    assert f"0 of {n_in_use:,} before, 0 after" in _texts(at)  # was "... of 5,000 before"

    # a larger k blanks cells of the release: with the removed records, past the 2 % limit
    k = 60
    at.number_input(key="rc_rem_perturb_k").set_value(k).run()
    at.button(key=RUN).click().run()
    assert not at.exception, at.exception
    touched = local_suppression(release.data, qis, k).records_touched
    limit = Targets.from_dict(recipe["targets"]).max_suppression * len(data)
    assert removed <= limit < removed + touched  # the blanks break the limit
    below = f"of {n_in_use:,} before, 0 after"
    assert below in _texts(at)
    in_use = at.session_state["rc_remediation"]["recipe"]
    assert [p["params"]["k"] for p in in_use["perturb"]] == [11, k]
    assert Recipe.from_dict(json.loads(json.dumps(in_use))).quasi_identifiers == tuple(qis)
    ok, bad = _verdicts(at, "the table in use")
    assert len(bad) == 2 and not ok  # the Perturb and Generalize tabs judge the release
    assert all(f"{removed + touched:,} records" in x for x in bad)
    labels = [seen(b.label) for b in at.get("download_button")]
    assert any(x.startswith("Download the perturbed table (CSV): it does not meet") for x in labels)
    assert any(x.startswith("Download the generalized table (CSV): it does not meet")
               for x in labels)  # fmt: skip
    at.switch_page("pages/anonymity.py").run()
    assert not at.exception, at.exception
    ok, bad = _verdicts(at, "this table")
    assert bad and not ok  # was "meets": the release as it is, its suppression not counted
    assert f"{removed + touched:,}" in bad[0]


def test_a_method_registered_only_in_the_registry_is_offered_run_and_recorded(monkeypatch):
    """Issue 40.3: the tab offers every method of ``riskcore.perturb.steps.METHODS`` and runs
    it through the registry; a method registered there and nowhere else (no notes, no
    controls of the page's own) is a choice, runs, and becomes a step of the history."""
    import dataclasses

    import pandas as pd

    from riskcore._results import NOT_IN_JSON, Result
    from riskcore.perturb import steps

    @dataclasses.dataclass(frozen=True)
    class Shuffled(Result):
        column: str
        seed: int
        data: pd.DataFrame = dataclasses.field(
            default_factory=pd.DataFrame, repr=False, compare=False, metadata=NOT_IN_JSON
        )

    def shuffle(data, cols, params, seed, progress):
        out = data.copy()
        order = np.random.default_rng(seed).permutation(len(out))
        out[cols[0]] = out[cols[0]].to_numpy()[order]
        return Shuffled(cols[0], int(seed), out)

    method = steps.PerturbMethod(
        "shuffle",
        Shuffled,
        (),
        seeded=True,
        numeric=False,
        changed="values swapped between records",
        run=shuffle,
        record=lambda r: ([r.column], {}, r.seed),
        describe=lambda cols, p, seed: [(c, f"values swapped (seed {seed})") for c in cols],
    )
    monkeypatch.setitem(steps.METHODS, "shuffle", method)
    at = hospital_app()
    at.switch_page("pages/remediate.py").run()
    assert not at.exception, at.exception
    radio = at.radio(key=METHOD)
    assert "Shuffle" in radio.options  # its name in words: it has no METHOD_NOTES entry
    radio.set_value("shuffle").run()
    assert not at.exception, at.exception
    at.multiselect(key="rc_rem_perturb_shuffle_cols").set_value(["diagnosis"]).run()
    at.button(key=RUN).click().run()
    assert not at.exception, at.exception
    assert not [e.value for e in at.error], [e.value for e in at.error]
    assert "Shuffled(column='diagnosis', seed=0)" in _texts(at)
    # a step of the history (the registry, not a list of names, judged the step's method)
    shown = "\n".join(d.value.to_string() for d in at.dataframe) + _texts(at)
    assert "diagnosis: values swapped (seed 0)" in shown
