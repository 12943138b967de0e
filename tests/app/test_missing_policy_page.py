"""AppTest: the missing-value policy set on the Anonymity page changes k there and elsewhere."""

from __future__ import annotations

from riskcore import assess
from riskcore.demo import make_people
from tests.app.helpers import demo_roles, metrics, run, seen, settings_of

QIS = ["sex", "workclass", "occupation"]  # workclass and occupation have missing values


def _policy_radio(at):
    return next(r for r in at.radio if seen(r.label) == "a missing quasi-identifier value is")


def test_switching_the_policy_changes_k_on_the_anonymity_page():
    # The expected k come from riskcore's assess on the same demo table (its numbers are
    # tested by hand and against sdcMicro in tests/riskcore/test_missing_policy.py); the
    # test is that the page follows the control.
    df = make_people(32_561, seed=0)
    own = assess(df, quasi_identifiers=QIS).k
    anyp = assess(df, quasi_identifiers=QIS, missing="any").k
    assert own != anyp
    at = run("pages/anonymity.py", demo_roles(QIS))
    assert metrics(at)["k"] == f"{own:,}"
    captions = [seen(c.value) for c in at.caption]
    assert any(c.startswith("Missing values: a missing quasi-identifier value counts as a value")
               for c in captions)  # fmt: skip
    _policy_radio(at).set_value("any").run()
    assert not at.exception
    assert metrics(at)["k"] == f"{anyp:,}"
    assert any(seen(c.value).startswith("Missing values match any value") for c in at.caption)
    assert settings_of(at).missing == "any"
    # the other pages follow the policy chosen here, and it is kept when coming back
    at.switch_page("pages/uniqueness.py").run()
    assert not at.exception
    assert metrics(at)["k (smallest class)"] == f"{anyp:,}"
    assert any(seen(c.value).startswith("Missing values match any value") for c in at.caption)
    at.switch_page("pages/anonymity.py").run()
    assert _policy_radio(at).value == "any"
    assert metrics(at)["k"] == f"{anyp:,}"
