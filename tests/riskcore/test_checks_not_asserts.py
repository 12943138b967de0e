"""Checks that must hold under ``python -O`` too: raised errors, not ``assert`` (ruff S101).

``python -O`` strips ``assert`` statements, so a check written as one vanishes and the code
goes on with the wrong value. Each check below used to be an ``assert`` (an
``AssertionError``, or nothing at all under ``-O``); it is now a typed error.
"""

from __future__ import annotations

import pandas as pd
import pytest

from riskcore.metrics.assessment import Assessment, assess


def test_assessment_json_without_its_prosecutor_risk_is_refused() -> None:
    df = pd.DataFrame({"age": [30, 30, 41, 52], "sex": ["F", "F", "M", "M"]})
    data = assess(df, quasi_identifiers=["age", "sex"]).to_dict()
    assert Assessment.from_dict(data).prosecutor.to_dict() == data["prosecutor"]
    data["prosecutor"] = None
    with pytest.raises(ValueError, match="prosecutor"):
        Assessment.from_dict(data)


def test_token_masking_without_a_key_is_refused() -> None:
    from ui.core import cached

    col = pd.DataFrame({"ssn": ["123-45-6789", "987-65-4321"]})
    for operator in ("hmac_tokens", "reversible_tokens"):
        with pytest.raises(ValueError, match="key"):
            cached.masked.__wrapped__("k", col, "ssn", operator, None, 0)
