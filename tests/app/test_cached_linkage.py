"""The uploaded-table linkage wrapper names the user's columns in its messages."""

from __future__ import annotations

import pandas as pd
import pytest

from riskcore.errors import RiskcoreError
from ui.core import cached


def test_a_duplicate_ground_truth_id_is_reported_under_its_own_name():
    data = pd.DataFrame({"patient_id": ["a", "a", "b"], "zip": ["02139", "02139", "10001"]})
    aux = pd.DataFrame({"pid": ["a", "b"], "zip": ["02139", "10001"]})
    with pytest.raises(RiskcoreError) as err:
        cached.linkage_uploaded.__wrapped__(  # the function under the session cache
            "data-key",
            "aux-key",
            data,
            aux,
            ("zip",),
            (("zip", "zip"),),
            ("pid", "patient_id"),
            (),
            0.9,
            (),
            (),
        )
    assert str(err.value) == "the released id column 'patient_id' has duplicate values"
    assert "__" not in str(err.value)
