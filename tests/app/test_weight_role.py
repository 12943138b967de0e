"""AppTest: a sampling-weight column is offered and shown on the Data page."""

from __future__ import annotations

import pandas as pd
import pytest

from tests.app.helpers import data_uploader, roles_of, run, seen, set_roles


def test_a_weight_column_is_suggested_and_labelled_on_the_data_page():
    at = run()
    df = pd.DataFrame(
        {"age": [30, 41, 52, 30], "sex": ["F", "M", "F", "M"], "fnlwgt": [1200, 800, 950, 3000]}
    )
    data_uploader(at).set_value(("w.csv", df.to_csv(index=False).encode(), "text/csv")).run()
    assert not at.exception  # a KeyError 'weight' stopped the page before the label existed
    assert roles_of(at)["fnlwgt"] == "weight"
    editor = at.dataframe[-1].value
    assert editor.set_index("column").loc["fnlwgt", "role"] == "sampling weight"


def test_the_anonymity_page_takes_journalist_risk_from_the_weights():
    """Hand-worked (tests/riskcore/test_assess_weights.py): classes A (1 record, weight 4),
    B (2 records, weights 1, 1), C (2 records, weights 3, 5); r = E[1/F | f] per class."""
    import math

    r_a, r_b, r_c = math.log(4) / 3, 0.5, 1 / 3 - math.log(4) / 9
    df = pd.DataFrame(
        {
            "age": [30, 40, 40, 50, 50],
            "sex": ["F", "M", "M", "F", "F"],
            "weight": [4, 1, 1, 3, 5],
        }
    )
    at = run()
    data_uploader(at).set_value(("w.csv", df.to_csv(index=False).encode(), "text/csv")).run()
    set_roles(at, {"age": "quasi_identifier", "sex": "quasi_identifier", "weight": "weight"})
    at.switch_page("pages/anonymity.py").run()
    assert not at.exception, at.exception
    risks = next(d.value for d in at.dataframe if "attacker model" in d.value.columns)
    risks = risks.set_index("attacker model")
    marketer = (r_a + 2 * r_b + 2 * r_c) / 5
    assert risks.loc["marketer", "expected share re-identified"] == pytest.approx(marketer)
    assert risks.loc["journalist", "expected share re-identified"] == pytest.approx(
        max(3 / 14, marketer)
    )
    assert risks.loc["journalist", "highest record risk"] == pytest.approx(r_b)
    captions = " ".join(seen(c.value) for c in at.caption)
    assert "sum of the sampling weights in weight" in captions
    fraction = next(x for x in at.number_input if x.label.startswith("sampling fraction"))
    assert fraction.disabled
