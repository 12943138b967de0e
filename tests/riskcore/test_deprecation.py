"""The deprecation shim of renamed arguments (riskcore._deprecation.renamed_arguments)."""

from __future__ import annotations

import inspect
import warnings

import pandas as pd
import pytest

from riskcore._deprecation import renamed_arguments
from riskcore.engine import EncodedTable
from riskcore.io.export import to_csv_bytes
from riskcore.metrics.records import record_risk
from riskcore.roles import suggest_roles


@renamed_arguments(qis="quasi_identifiers", df="data")
def _width(data, quasi_identifiers, *, scale=1):
    return len(data) * len(quasi_identifiers) * scale


def test_the_old_keyword_works_with_a_warning_naming_the_new_one():
    with pytest.warns(DeprecationWarning, match=r"_width\(\): the argument 'qis' is deprecated; "
                      r"use 'quasi_identifiers'"):
        assert _width([1, 2, 3], qis=["a", "b"]) == 6
    with pytest.warns(DeprecationWarning, match="'df' is deprecated; use 'data'"):
        assert _width(df=[1], quasi_identifiers=["a"], scale=5) == 5


def test_new_names_and_positional_calls_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _width([1, 2], ["a", "b", "c"]) == 6
        assert _width(data=[1, 2], quasi_identifiers=["a"], scale=2) == 4


def test_old_and_new_name_together_is_refused():
    with pytest.raises(TypeError, match="both 'qis' and 'quasi_identifiers'"):
        _width([1], qis=["a"], quasi_identifiers=["b"])


def test_the_signature_shows_the_new_names():
    assert list(inspect.signature(_width).parameters) == ["data", "quasi_identifiers", "scale"]
    assert "quasi_identifiers" in inspect.signature(record_risk).parameters


def test_a_renamed_public_function_accepts_its_old_keyword():
    data = pd.DataFrame({"age": [30, 30, 41], "zip": ["a", "a", "b"]})
    new = record_risk(data, quasi_identifiers=["age", "zip"])
    with pytest.warns(DeprecationWarning, match="'qis' is deprecated; use 'quasi_identifiers'"):
        old = record_risk(data, qis=["age", "zip"])
    pd.testing.assert_frame_equal(old, new)
    with pytest.warns(DeprecationWarning, match="'df' is deprecated; use 'data'"):
        assert suggest_roles(df=data).keys() == suggest_roles(data).keys()


def test_the_engine_and_the_export_accept_their_old_keywords():
    data = pd.DataFrame({"age": [30, 30, 41]})
    with pytest.warns(DeprecationWarning, match="'df' is deprecated; use 'data'"):
        enc = EncodedTable(df=data)
    assert enc.n_records == 3
    with pytest.warns(DeprecationWarning, match="'qis' is deprecated; use 'quasi_identifiers'"):
        assert enc.partition(qis=["age"]).sizes.tolist() == [2, 1]
    with pytest.warns(DeprecationWarning, match="'df' is deprecated; use 'data'"):
        assert to_csv_bytes(df=data) == to_csv_bytes(data)
