"""AppTest: every edit of a target on the anonymity page is kept, and a reset restores defaults."""

from __future__ import annotations

from riskcore.criteria import KAnonymity, Targets
from tests.app.helpers import demo_roles, run, settings_of, static_table

K_BOX = "k (smallest class; 0: none)"


def _k_box(at):
    return next(w for w in at.number_input if w.label == K_BOX)


def test_a_second_edit_of_a_target_is_kept():
    # Before: the widget's default followed its own last value, so its identity changed
    # after each edit and the next edit was dropped (k stayed 5).
    at = run("pages/anonymity.py", demo_roles(["age", "sex"], ["income"]))
    next(w for w in at.selectbox if w.label == "Targets").set_value("custom").run()
    _k_box(at).set_value(5).run()
    _k_box(at).set_value(7).run()
    assert not at.exception
    assert _k_box(at).value == 7
    checks = static_table(at, "required")
    assert checks.loc[checks["target"] == "k-anonymity", "required"].iloc[0] == "7"
    assert settings_of(at).targets.find("k-anonymity") == KAnonymity(k=7)
    # kept across a page switch, and the same on the Remediate page
    at.switch_page("pages/uniqueness.py").run()
    at.switch_page("pages/anonymity.py").run()
    assert _k_box(at).value == 7
    at.switch_page("pages/remediate.py").run()
    assert not at.exception
    assert _k_box(at).value == 7


def test_reset_session_restores_the_default_targets():
    at = run("pages/anonymity.py", demo_roles(["age", "sex"], ["income"]))
    next(w for w in at.selectbox if w.label == "Targets").set_value("k = 5").run()
    assert settings_of(at).targets.find("k-anonymity") == KAnonymity(k=5)
    at.switch_page("app.py").run()  # the router's default page, with the sidebar's button
    next(b for b in at.button if b.label == "Reset session").click().run()
    at.switch_page("pages/anonymity.py").run()
    assert not at.exception
    assert next(w for w in at.selectbox if w.label == "Targets").value == "k = 11"
    assert settings_of(at).targets == Targets.of(k=11, threshold=1 / 11, max_suppression=0.02)


def test_every_privacy_model_is_named_and_the_risk_models_are_chosen_on_the_page():
    """The model picker: every model of the registry under ARX's name with what it protects
    against; sample uniqueness, beta-likeness and delta-disclosure chosen on the page are judged
    by the one verdict and kept on the Remediate page."""
    from riskcore.criteria import REGISTRY, BetaLikeness, DeltaDisclosure, SampleUniqueness

    at = run("pages/anonymity.py", demo_roles(["age", "sex"], ["income"]))
    guide = static_table(at, "ARX class")  # its cells escaped, read as a reader sees them
    assert len(guide) == len(REGISTRY)
    assert {"SampleUniqueness", "BasicBLikeness, EnhancedBLikeness", "DDisclosurePrivacy"} <= set(
        guide["ARX class"]
    )
    next(w for w in at.toggle if w.label == "sample uniqueness").set_value(True).run()
    next(w for w in at.toggle if w.label == "beta-likeness").set_value(True).run()
    next(w for w in at.toggle if w.label == "delta-disclosure").set_value(True).run()
    assert not at.exception, at.exception
    targets = settings_of(at).targets
    assert targets.find("sample-uniqueness") == SampleUniqueness(threshold=0.01)
    assert targets.find("beta-likeness") == BetaLikeness(beta=1.0)
    assert targets.find("delta-disclosure") == DeltaDisclosure(delta=1.0)
    checks = static_table(at, "required")
    assert {"sample uniqueness", "basic beta-likeness of income",
            "delta-disclosure privacy of income"} <= set(checks["target"])  # fmt: skip
    at.switch_page("pages/remediate.py").run()
    assert not at.exception, at.exception
    assert settings_of(at).targets == targets
