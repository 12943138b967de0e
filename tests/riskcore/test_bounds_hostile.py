"""The hostile suite of bounded work (issue 26, item 4): one entry per stated limit.

Each entry is an input that grew without bound before (a traceback, a hang, gigabytes),
now refused before the work starts with a message naming the limit and what to do, within
a few seconds and a little memory (:func:`tests.hostile_files.bounded`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from riskcore.errors import RiskcoreError
from tests.hostile_files import bounded


def _qis(m: int, n: int = 200) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    return pd.DataFrame({f"q{i}": rng.integers(0, 3, n) for i in range(m)})


# --- SUDA: the number of QIs and the MSU size -------------------------------------------


def test_suda_on_171_qis_is_refused_not_an_overflow() -> None:
    from riskcore.metrics.suda import SUDA_MAX_QIS, suda

    with bounded(seconds=5, mb=200), pytest.raises(RiskcoreError, match="SUDA_MAX_QIS") as e:
        suda(_qis(171, 20), [f"q{i}" for i in range(171)])
    assert f"limit is {SUDA_MAX_QIS} quasi-identifiers" in str(e.value)


def test_suda_search_beyond_the_combination_limit_names_the_size_that_fits() -> None:
    from riskcore.metrics.suda import (
        SUDA_MAX_COMBINATIONS,
        check_suda_bounds,
        largest_msu_size,
        suda,
        suda_combinations,
    )

    # 14 QIs in full: 2^14 - 1 = 16,383 combinations (15 s and 0.6 GB on 2,000 rows before)
    assert suda_combinations(14, 14) == 2**14 - 1
    assert suda_combinations(40, 2) == 40 + 780
    # the largest size within the limit, by hand: C(14,1..4) = 14+91+364+1001 = 1,470;
    # C(14,5) = 2,002 -> 3,472; C(14,6) = 3,003 -> 6,475; C(14,7) = 3,432 -> 9,907; 8 -> 12,910
    assert SUDA_MAX_COMBINATIONS == 10_000
    assert largest_msu_size(14) == 7
    assert largest_msu_size(12) == 12  # 4,095 combinations: searched in full
    with bounded(seconds=5, mb=200), pytest.raises(RiskcoreError) as e:
        suda(_qis(14), [f"q{i}" for i in range(14)])
    assert "16,383 combinations" in str(e.value)
    assert "max_size=7" in str(e.value)
    assert check_suda_bounds(14, 7) == 7
    r = suda(_qis(14), [f"q{i}" for i in range(14)], max_size=7)
    assert r.max_size == 7


def test_the_report_skips_or_caps_suda_with_a_stated_reason() -> None:
    from riskcore.metrics.suda import SUDA_MAX_QIS
    from riskcore.review import suda_plan

    assert suda_plan(2_000, 60)[0] is None
    assert suda_plan(2_000, 60)[1].to_dict()["facts"] == {"qis": 60, "limit": SUDA_MAX_QIS}
    size, note = suda_plan(2_000, 20)
    assert size is not None and 1 <= size < 20
    assert note is not None and note.kind == "suda-capped"
    assert math.fsum(math.comb(20, k) for k in range(1, size + 1)) <= 10_000
    assert suda_plan(2_000, 5) == (5, None)


def test_a_report_on_60_qis_stays_small_and_says_why_suda_is_missing() -> None:
    from riskcore.profile import Profile
    from riskcore.report.readings.review import limitation_text
    from riskcore.review import review
    from riskcore.roles import ColumnRoles

    data = _qis(60, 2_000)
    prof = Profile(roles=ColumnRoles(quasi_identifiers=tuple(data.columns)))
    with bounded(seconds=60, mb=1_000):  # 23 GB and killed after 244 s before
        rep = review(data, prof)
    assert rep.special_uniques is None
    said = [limitation_text(x) for x in rep.limitations]
    assert any("60 quasi-identifiers, above the limit of 40" in s for s in said), said
