"""AppTest: the targets editor keeps ARX's rule of a reopened profile's likeness models."""

from __future__ import annotations

from riskcore.criteria import Targets
from tests.app.helpers import demo_roles, run, seen, set_settings, settings_of


def test_the_editor_keeps_the_input_reference_of_beta_and_delta():
    at = run(None, demo_roles(["age", "sex", "race"], ["diagnosis"]))
    given = Targets.of(k=11, beta=5, delta_disclosure=4, likeness_reference="input")
    set_settings(at, targets=given)
    at.switch_page("pages/anonymity.py").run()
    assert not at.exception, at.exception
    drawn = settings_of(at).targets
    kinds = {c.kind: c for c in drawn.criteria}
    assert kinds["beta-likeness"].reference == kinds["delta-disclosure"].reference == "input"
    said = " ".join(seen(c.value) for c in at.caption)
    assert "basic beta-likeness 5 (each class against the input's distribution, as ARX)" in said
