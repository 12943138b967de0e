"""AppTest: a sampling-weight column is offered and shown on the Data page."""

from __future__ import annotations

import pandas as pd

from tests.app.test_apptest import clear_caches, data_uploader, run  # noqa: F401 (fixture)


def test_a_weight_column_is_suggested_and_labelled_on_the_data_page():
    at = run()
    df = pd.DataFrame(
        {"age": [30, 41, 52, 30], "sex": ["F", "M", "F", "M"], "fnlwgt": [1200, 800, 950, 3000]}
    )
    data_uploader(at).set_value(("w.csv", df.to_csv(index=False).encode(), "text/csv")).run()
    assert not at.exception  # a KeyError 'weight' stopped the page before the label existed
    assert at.session_state["rc_roles"]["fnlwgt"] == "weight"
    editor = at.dataframe[-1].value
    assert editor.set_index("column").loc["fnlwgt", "role"] == "sampling weight"
