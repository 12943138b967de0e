"""beta-likeness (basic, enhanced) and delta-disclosure privacy: hand-worked and independent.

The hand-worked table (8 records, QI ``a``, sensitive ``s``): flu 3/8, cold 3/8, hiv 2/8.

=====  ==========================  =====================================
class  values                      relative gains (p - q) / q
=====  ==========================  =====================================
a=1    flu, flu                    flu (1 - 3/8)/(3/8) = 5/3
a=2    flu, cold, cold, hiv        flu -1/3, cold 1/3, hiv 0
a=3    cold, hiv                   cold 1/3, hiv (1/2 - 1/4)/(1/4) = 1
=====  ==========================  =====================================

|log2(p / q)|: a=1 flu log2(8/3); a=2 flu log2(3/2), cold log2(4/3), hiv 0; a=3 cold
log2(4/3), hiv 1. Enhanced limits min(beta, -ln q): flu and cold -ln(3/8) = 0.981, hiv
-ln(1/4) = 1.386.
"""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pandas as pd
import pytest

from riskcore.cli import main
from riskcore.criteria import (
    BetaLikeness,
    DeltaDisclosure,
    Targets,
    criterion_from_dict,
    evaluate,
)
from riskcore.errors import RiskcoreError
from riskcore.metrics import assess

TABLE = pd.DataFrame(
    {
        "a": [1, 1, 2, 2, 2, 2, 3, 3],
        "s": ["flu", "flu", "flu", "cold", "cold", "hiv", "cold", "hiv"],
    }
)


def _check(criterion, df=TABLE, **kw):
    a = assess(df, quasi_identifiers=["a"], sensitive=["s"], **kw)
    (check,) = evaluate([criterion], a.evidence).checks
    return check


def _figures(criterion, df=TABLE, **kw):
    a = assess(df, quasi_identifiers=["a"], sensitive=["s"], **kw)
    return criterion.class_figures(a.evidence, "s")


def test_basic_beta_likeness_by_hand_at_its_boundary():
    np.testing.assert_allclose(_figures(BetaLikeness(beta=1.0)), [5 / 3, 1 / 3, 1.0])
    at = _check(BetaLikeness(beta=5 / 3))
    assert at.passed and at.achieved == pytest.approx(5 / 3)  # at most beta passes
    below = _check(BetaLikeness(beta=5 / 3 - 1e-6))
    assert not below.passed and below.failing_classes == 1 and below.failing_records == 2
    one = _check(BetaLikeness(beta=1.0))  # a=3's hiv gains exactly 1: passes
    assert not one.passed and one.failing_classes == 1


def test_enhanced_beta_likeness_by_hand_caps_a_common_value_s_gain():
    flu_limit = -math.log(3 / 8)  # 0.981: below beta = 1, so flu and cold are held to it
    np.testing.assert_allclose(
        _figures(BetaLikeness(beta=1.0, variant="enhanced")),
        [(5 / 3) / flu_limit, max((1 / 3) / flu_limit, 0.0), max((1 / 3) / flu_limit, 1.0)],
    )
    # a=3: hiv gains 1 against min(1, ln 4) = 1 (passes at the boundary); cold 1/3 < 0.981
    # a=1: flu gains 5/3 > 0.981 whatever beta: enhanced fails where basic at beta 2 passes
    assert _check(BetaLikeness(beta=2.0)).passed
    high = _check(BetaLikeness(beta=2.0, variant="enhanced"))
    assert not high.passed and high.failing_classes == 1 and high.failing_records == 2
    # the figure is on beta's scale: beta x max gain / limit
    assert high.achieved == pytest.approx(2.0 * (5 / 3) / flu_limit)
    # without class a=1, q: flu 1/6, cold 1/2, hiv 1/3; a=2 flu gains (1/4-1/6)/(1/6) = 1/2,
    # cold 0, hiv -1/4; a=3 cold 0, hiv (1/2-1/3)/(1/3) = 1/2. Limits -ln q: flu 1.79, hiv 1.10
    rest = TABLE[TABLE["a"] != 1]
    loose = _check(BetaLikeness(beta=1.0, variant="enhanced"), rest)
    assert loose.passed and loose.achieved == pytest.approx(0.5)
    assert _check(BetaLikeness(beta=0.5, variant="enhanced"), rest).passed  # at the boundary
    assert not _check(BetaLikeness(beta=0.5 - 1e-6, variant="enhanced"), rest).passed


def test_delta_disclosure_by_hand_is_strict():
    np.testing.assert_allclose(
        _figures(DeltaDisclosure(delta=1.0)), [math.log2(8 / 3), math.log2(3 / 2), 1.0]
    )
    exactly = _check(DeltaDisclosure(delta=1.0))  # a=3's hiv doubles: |log2 2| = 1, not < 1
    assert not exactly.passed and exactly.failing_classes == 2 and exactly.failing_records == 4
    above = _check(DeltaDisclosure(delta=math.log2(8 / 3) + 1e-9))
    assert above.passed and above.achieved == pytest.approx(math.log2(8 / 3))
    at = _check(DeltaDisclosure(delta=math.log2(8 / 3)))
    assert not at.passed and at.failing_classes == 1


def _by_pandas(df: pd.DataFrame, qis: list[str], person: str | None = None) -> pd.DataFrame:
    """Return each (class, value) cell's p and q, straight from the rows (no riskcore code)."""
    if person is None:
        pairs = df[[*qis, "s"]]
    else:  # a person's class is their set of QI tuples; each person once per value
        sig = df.groupby(person)[qis].apply(
            lambda g: tuple(sorted(map(tuple, g.drop_duplicates().to_numpy().tolist())))
        )
        pairs = (df[[person, "s"]].drop_duplicates().assign(cls=lambda d: d[person].map(sig)))[
            ["cls", "s"]
        ]
        qis = ["cls"]
    counts = pairs.groupby([*qis, "s"], dropna=False).size().rename("n").reset_index()
    sizes = counts.groupby(qis, dropna=False)["n"].transform("sum")
    totals = counts.groupby("s")["n"].transform("sum")
    return counts.assign(p=counts["n"] / sizes, q=totals / counts["n"].sum())


@pytest.mark.parametrize("person", [False, True], ids=["rows", "people"])
def test_every_model_agrees_with_the_cells_read_off_the_rows(person):
    r = np.random.default_rng(11)
    for case in range(30):
        n = int(r.integers(10, 60))
        df = pd.DataFrame(
            {
                "pid": r.integers(0, max(n // 2, 2), n) if person else np.arange(n),
                "a": r.integers(0, 4, n),
                "s": r.choice(["flu", "hiv", "cold"], n, p=[0.6, 0.25, 0.15]),
            }
        )
        if person:  # a person's QI is constant over their rows
            df["a"] = df["pid"] % 4
        cells = _by_pandas(df, ["a"], "pid" if person else None)
        gain = (cells["p"] - cells["q"]) / cells["q"]
        log_ratio = np.abs(np.log2(cells["p"] / cells["q"]))
        limit = np.minimum(1.0, -np.log(cells["q"]))
        kw = {"person": "pid"} if person else {}
        basic = _check(BetaLikeness(beta=1.0), df, **kw)
        assert basic.passed == bool((gain <= 1.0 + 1e-12).all()), case
        assert basic.achieved == pytest.approx(gain.max()), case
        enhanced = _check(BetaLikeness(beta=1.0, variant="enhanced"), df, **kw)
        assert enhanced.passed == bool((gain <= limit + 1e-12).all()), case
        delta = _check(DeltaDisclosure(delta=1.2), df, **kw)
        assert delta.passed == bool((log_ratio < 1.2 - 1e-12).all()), case
        assert delta.achieved == pytest.approx(log_ratio.max()), case


def test_the_models_survive_json_and_refuse_bad_parameters():
    for crit in (BetaLikeness(beta=0.5, variant="enhanced", attribute="s"), DeltaDisclosure(2)):
        assert criterion_from_dict(crit.to_dict()) == crit
    with pytest.raises(RiskcoreError, match="beta must be a positive number"):
        BetaLikeness(beta=0)
    with pytest.raises(RiskcoreError, match="'basic' or 'enhanced'"):
        BetaLikeness(beta=1, variant="strong")  # type: ignore[arg-type]
    with pytest.raises(RiskcoreError, match="delta must be a positive number"):
        DeltaDisclosure(delta=float("inf"))
    targets = Targets.of(beta=1.5, beta_kind="enhanced", delta_disclosure=0.7)
    assert targets.criteria == (BetaLikeness(1.5, "enhanced"), DeltaDisclosure(0.7))


def _cli(tmp_path, capsys, *extra):
    path = tmp_path / "t.csv"
    TABLE.to_csv(path, index=False)
    code = main(["assess", str(path), "--qi", "a", "--sensitive", "s", "--format", "json", *extra])
    out = capsys.readouterr()
    return code, out


def test_the_command_line_takes_each_model_and_k_1_means_no_k_target(tmp_path, capsys):
    import json

    code, out = _cli(tmp_path, capsys, "--k", "1", "--beta", "1.7")
    assert code == 0, out.err
    kinds = [t["kind"] for t in json.loads(out.out)["verdict"]["checks"]]
    assert kinds == ["beta-likeness"]  # no k-anonymity, and not the k = 11 preset
    code, out = _cli(tmp_path, capsys, "--k", "1")
    assert json.loads(out.out)["verdict"]["checks"] == []
    code, out = _cli(tmp_path, capsys, "--delta-disclosure", "1", "--beta", "1", "--beta-kind",
                     "enhanced")  # fmt: skip
    checks = json.loads(out.out)["verdict"]["checks"]
    assert [(c["label"], c["passed"]) for c in checks] == [
        ("enhanced beta-likeness", False),
        ("delta-disclosure privacy", False),
    ]
    for bad, message in (
        (["--beta", "0"], "--beta must be a positive number"),
        (["--beta-kind", "enhanced"], "give --beta B too"),
        (["--delta-disclosure", "-1"], "--delta-disclosure must be a positive number"),
    ):
        code, out = _cli(tmp_path, capsys, *bad)
        assert code != 0 and message in out.err


def test_the_report_states_the_method_of_a_model_only_when_it_is_a_target():
    from riskcore.profile import Profile
    from riskcore.report.render import _method_notes
    from riskcore.review import review
    from riskcore.roles import ColumnRoles

    roles = ColumnRoles(quasi_identifiers=("a",), sensitive=("s",))
    plain = review(TABLE, Profile(roles=roles, targets=Targets.of(k=2)), name="t.csv")
    assert not [n for n in _method_notes(plain) if "likeness" in n[0] or "disclosure" in n[0]]
    both = Targets.of(beta=1.0, delta_disclosure=1.0)
    notes = _method_notes(review(TABLE, Profile(roles=roles, targets=both), name="t.csv"))
    topics = [n[0] for n in notes]
    assert topics[-2:] == ["beta-likeness", "delta-disclosure privacy"]
    assert "Cao J, Karras P" in notes[-2][2] and "Brickell J, Shmatikov V" in notes[-1][2]


def test_every_privacy_model_has_a_name_an_arx_class_and_a_reading():
    from riskcore.criteria import REGISTRY
    from riskcore.report.readings.criteria import MODEL_GUIDE, model_guide_table

    assert set(MODEL_GUIDE) == set(REGISTRY)
    table = model_guide_table(Targets.of(beta=2.0))
    assert len(table) == len(REGISTRY)
    row = table[table["model"] == "beta-likeness"].iloc[0]
    assert row["target"] == "basic beta-likeness 2" and row["ARX class"].startswith("BasicB")


#: A (a=1): x alone; B (a=2): x, y; C (a=3): y x 4. The input's q: x 2/7, y 5/7. A breaks
#: every target below and is suppressed (1 record of 7); the release then has q': x 1/6, y 5/6.
#: B's gain on x: against the input (1/2 - 2/7) / (2/7) = 3/4, against the release
#: (1/2 - 1/6) / (1/6) = 2; |log2(p / q)| of B's x: log2(7/4) = 0.807 against the input,
#: log2(3) = 1.585 against the release. A's: gain 5/2 and log2(7/2) = 1.807 against the input.
REFERENCE_TABLE = pd.DataFrame({"a": [1, 2, 2, 3, 3, 3, 3], "s": list("xxyyyyy")})


def _with_suppression(criterion):
    a = assess(REFERENCE_TABLE, quasi_identifiers=["a"], sensitive=["s"])
    return evaluate(Targets(criteria=(criterion,), max_suppression=0.15), a.evidence, suppress=True)


def test_beta_likeness_against_the_input_or_the_release_at_the_boundary():
    for beta, release_passes in ((2.0, True), (2.0 - 1e-6, False)):
        release = _with_suppression(BetaLikeness(beta=beta))
        given = _with_suppression(BetaLikeness(beta=beta, reference="input"))
        assert release.suppressed == given.suppressed == 1  # A alone, in both
        assert given.passed and given.checks[0].achieved == pytest.approx(0.75)  # B, input
        assert release.passed is release_passes, beta
        assert release.checks[0].achieved == pytest.approx(2.0)  # B against the release


def test_delta_disclosure_against_the_input_or_the_release_at_the_boundary():
    at = math.log2(3)  # B's x against the release: strict, so delta = log2 3 fails
    release = _with_suppression(DeltaDisclosure(delta=at))
    given = _with_suppression(DeltaDisclosure(delta=at, reference="input"))
    assert release.suppressed == given.suppressed == 1
    assert not release.passed and release.checks[0].achieved == pytest.approx(at)
    assert given.passed and given.checks[0].achieved == pytest.approx(math.log2(7 / 4))
    above = _with_suppression(DeltaDisclosure(delta=at + 1e-6))
    assert above.passed and above.suppressed == 1


def test_without_suppression_the_input_is_the_release():
    for crit in (BetaLikeness(beta=1.0, variant="enhanced"), DeltaDisclosure(delta=1.2)):
        given = dataclasses.replace(crit, reference="input")
        assert _check(given).__dict__ == _check(crit).__dict__


def test_the_input_reference_survives_json_and_old_targets_read_as_the_release():
    targets = Targets.of(beta=2, delta_disclosure=1, likeness_reference="input")
    assert [c.reference for c in targets.criteria] == ["input", "input"]
    assert Targets.from_dict(targets.to_dict()) == targets
    old = {"criteria": [{"kind": "beta-likeness", "beta": 2.0, "variant": "basic"},
                        {"kind": "delta-disclosure", "delta": 1.0}]}  # fmt: skip
    assert [c.reference for c in Targets.from_dict(old).criteria] == ["release", "release"]
    with pytest.raises(RiskcoreError, match="'release' or the 'input'"):
        DeltaDisclosure(delta=1.0, reference="output")  # type: ignore[arg-type]
    a = assess(REFERENCE_TABLE, quasi_identifiers=["a"], sensitive=["s"])
    resolved = targets.resolved(a.evidence)
    assert "input_shares" not in json.dumps(resolved.to_dict())
    assert dict(dict(resolved.criteria[0].input_shares)["s"]) == pytest.approx(
        {"x": 2 / 7, "y": 5 / 7}
    )


def test_the_command_line_and_the_report_read_the_reference(tmp_path, capsys):
    from riskcore.report.readings.criteria import targets_summary

    path, hierarchy = tmp_path / "t.csv", tmp_path / "a.csv"
    REFERENCE_TABLE.to_csv(path, index=False)
    hierarchy.write_text("1;*\n2;*\n3;*\n")
    base = ["anonymize", str(path), "--qi", "a", "--sensitive", "s", "--k", "1",
            "--delta-disclosure", str(math.log2(3)), "--max-suppression", "0.15",
            "--hierarchy", f"a={hierarchy}"]  # fmt: skip
    released = {}
    for reference in ("release", "input"):
        out = tmp_path / f"{reference}.csv"
        code = main([*base, "--likeness-reference", reference, "--out", str(out),
                     "--recipe-out", str(tmp_path / f"{reference}.json")])  # fmt: skip
        assert code == 0, capsys.readouterr().err
        released[reference] = sorted(pd.read_csv(out, dtype=str)["a"].dropna())
    # against the release a=1's suppression leaves a=2 failing: only the top node passes;
    # against the input a=1 alone is suppressed and a is released as it is
    assert released == {"release": ["*"] * 7, "input": ["2", "2", "3", "3", "3", "3"]}
    code = main(["assess", str(path), "--qi", "a", "--likeness-reference", "input"])
    assert code != 0 and "goes with --beta B or --delta-disclosure D" in capsys.readouterr().err
    text = targets_summary(Targets.of(beta=2, likeness_reference="input"))
    assert text == "basic beta-likeness 2 (each class against the input's distribution, as ARX)"


def test_the_report_judges_a_recipe_s_release_against_its_input():
    from riskcore.deidentify.hierarchy import grouping_hierarchy
    from riskcore.deidentify.recipe import Recipe
    from riskcore.profile import Profile
    from riskcore.review import review
    from riskcore.roles import ColumnRoles

    roles = ColumnRoles(quasi_identifiers=("a",), sensitive=("s",))
    hier = {"a": grouping_hierarchy(REFERENCE_TABLE["a"], [{1: "*", 2: "*", 3: "*"}])}
    for reference, passes in (("input", True), ("release", False)):
        crit = DeltaDisclosure(delta=math.log2(3), reference=reference)  # type: ignore[arg-type]
        targets = Targets(criteria=(crit,), max_suppression=0.15)
        recipe = Recipe.of(hier, {"a": 0}, targets, sensitive=("s",))
        profile = Profile(roles=roles, targets=targets, recipe=recipe)
        after = review(REFERENCE_TABLE, profile, name="t.csv").verdict_after
        # the recipe suppresses {x}; the release left is judged against the 7 records' q
        # (B's log2(7/4) passes) or against its own (B's log2 3 fails, strictly)
        assert after is not None and after.suppressed == 1, reference
        assert after.passed is passes, reference
