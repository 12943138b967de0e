"""Readings and figures of the unit of privacy (issue 36.7), on hand-made results."""

from __future__ import annotations

import math

import numpy as np
import pytest

from riskcore import dp
from riskcore.dp import local as ldp
from riskcore.dp.contributions import (
    ONE_ROW,
    BoundedRows,
    BoundTradeoff,
    PrivacyUnit,
    RowsPerPerson,
)
from riskcore.report import figures as fg
from riskcore.report import readings as rd

FOUR = PrivacyUnit("patient_id", 4)


def test_the_unit_in_a_few_words():
    assert rd.unit_phrase(FOUR) == "one person, at most 4 rows each"
    assert rd.unit_phrase(PrivacyUnit("patient_id", 1)) == "one person, at most 1 row each"
    assert rd.unit_phrase(ONE_ROW) == "one row (each row is taken to be a different person)"
    assert rd.unit_phrase(PrivacyUnit("patient_id", None)) == (
        "one person (all of their rows in one block)"
    )


def test_the_unit_sentence():
    assert rd.release_unit_reading(FOUR) == (
        "Unit of privacy: one person, at most 4 rows each, linked by patient_id. Before each "
        "query, a person's rows beyond 4 are left out (a seeded sample of their rows), and "
        "the noise is set for 4 rows, 4 times what one row needs: every epsilon here is per "
        "person."
    )
    assert rd.release_unit_reading(ONE_ROW).startswith(
        "Unit of privacy: one row (each row is taken to be a different person). If one "
        "person can have several rows"
    )


def _people() -> RowsPerPerson:
    # 5 people with 1 row, 3 with 2, 2 with 6, and 3 rows without a person:
    # 5 + 6 + 12 = 23 rows with a person
    return RowsPerPerson("patient_id", 10, 23, 3, np.array([0, 5, 3, 0, 0, 0, 2]))


def test_rows_per_person_reading_by_hand():
    # c = 2 keeps min(m, 2): 5 + 6 + 4 = 15 rows, so 8 of 23 (35%) are left out; the 8
    # people with at most 2 rows (80%) keep all of theirs
    assert rd.rows_per_person_reading(_people(), 2) == (
        "Read from the data, so not protected: 10 people have 1 to 6 rows each (23 rows). A "
        "bound of c = 2 keeps every row of 8 people (80%) and leaves out 8 of the 23 rows "
        "(35%). 3 rows have no patient_id: they are left out of every release. Choosing c "
        "from these figures uses the data itself; a bound fixed in advance (from how the "
        "data were collected) keeps the guarantee exact."
    )


def _tradeoff() -> BoundTradeoff:
    # a count of 23 rows: c = 1 .. 4 keeps 10, 15, 17, 19 rows; Laplace at epsilon 1
    c = np.arange(1, 5)
    answer = np.array([10.0, 15.0, 17.0, 19.0])
    noise = c * math.log(20)
    return BoundTradeoff(
        "count", dp.Mechanism.LAPLACE, 1.0, 0.05, 2, 23.0, c, answer, answer - 23, 23 - answer,
        noise, np.abs(answer - 23) + noise, None,
    )  # fmt: skip


def test_bound_tradeoff_reading_by_hand():
    t = _tradeoff()
    # at c = 2: 15 - 23 = -8 rows; noise 2 ln 20 = 5.991; total 13.99, the smallest of
    # 13 + 3.00 = 16.00, 13.99, 6 + 8.99 = 14.99 and 4 + 11.98 = 15.98
    assert rd.bound_tradeoff_reading(t, what="count", unit="rows") == (
        "At c = 2 rows per person, leaving out the rows beyond it changes the count by -8 "
        "rows (read from the data), and the Laplace noise is +/- 5.991 at 95%: the release "
        "is within +/- 13.99 of the count over every row. Every bound up to c = 4 leaves "
        "some rows out. The smallest total on this plot is at c = 2; picking c from it reads "
        "the data, so fix c in advance where the guarantee must be exact."
    )


def test_bounded_rows_reading_by_hand():
    b = BoundedRows(FOUR, 0, 100, 70, 20, 2, 28)
    assert rd.bounded_rows_reading(b) == (
        "Before the query, each person's rows beyond 4 were left out: 28 of the query's 100 "
        "rows (a seeded sample of each person's rows, seed 0). The query read the other 70 "
        "rows, of 20 people. 2 rows without a patient_id were left out too."
    )
    assert rd.bounded_rows_reading(None) is None


def test_ledger_shows_and_warns_about_units():
    ledger = dp.PrivacyLedger(
        5.0,
        1e-6,
        "basic",
        (
            dp.LedgerEntry("count of rows", "laplace", 0.5),  # written before units: one row
            dp.LedgerEntry("count of rows", "laplace", 0.25, unit=FOUR),
            dp.LedgerEntry("sum of amount", "laplace", 0.5, unit=PrivacyUnit("household", 2)),
        ),
    )
    assert list(rd.ledger_table(ledger)["unit"]) == [
        "one row (each row is taken to be a different person)",
        "one person, at most 4 rows each",
        "one person, at most 2 rows each",
    ]
    assert rd.ledger_unit_reading(ledger, "patient_id") == (
        "2 of the 3 releases in this ledger (epsilon 1 in all) were made with another unit "
        "than one person (patient_id): for a person with m rows they cost up to m times the "
        "epsilon recorded (group privacy, Dwork & Roth 2014, Theorem 2.2)."
    )
    assert rd.ledger_unit_reading(ledger, None) is None
    only = dp.PrivacyLedger(5.0, entries=(ledger.entries[1],))
    assert rd.ledger_unit_reading(only, "patient_id") is None


def _grr(unit: PrivacyUnit, left_out: int) -> ldp.GrrResult:
    p, q = ldp.grr_probabilities(1.0 / unit.factor, 2)
    true = np.array([600.0, 400.0])
    return ldp.GrrResult(
        "sex", 1.0, 1000, ("f", "m"), p, q, true, true, np.array([612.0, 388.0]),
        true - 10, true + 10, 0, unit, left_out,
    )  # fmt: skip


def test_local_dp_readings_count_reports_per_person():
    r = _grr(PrivacyUnit("patient_id", 2), 340)
    # 2 reports at epsilon 1/2: p = e^0.5 / (e^0.5 + 1) = 62.2%
    assert rd.grr_reading(r) == (
        "With Warner's binary design at epsilon = 1 per person (0.5 per report), each report "
        "carries the true value with probability 62.2%. From 1,000 randomized reports the "
        "estimates are off by at most 12 reports (for 'f')."
    )
    assert rd.local_unit_reading(r) == (
        "Each person sends at most 2 reports, each randomized at epsilon 1 / 2 = 0.5, so "
        "together they cost epsilon 1 per person; 1,000 reports were sent. 340 rows (beyond "
        "2 per person, or without a patient_id) were not sent."
    )
    assert rd.local_unit_reading(_grr(ONE_ROW, 0)) is None


def test_rows_per_person_chart_by_hand():
    fig = fg.rows_per_person_chart(_people(), 2)
    kept, cut = fig.data
    assert list(kept.x) == ["1", "2"] and list(kept.y) == [5, 3]
    assert list(cut.x) == ["3", "4", "5", "6"] and list(cut.y) == [0, 0, 0, 2]
    assert kept.name == "people with at most 2 rows: every row kept"
    assert fig.layout.title.text.replace("<br>", " ") == (
        "How many rows each person has (patient_id): read from the data, not protected"
    )
    assert (fig.layout.xaxis.title.text, fig.layout.yaxis.title.text) == (
        "rows per person",
        "people",
    )
    assert fig.layout.shapes[0].x0 == 1.5  # the bound between the bars of 2 and 3 rows


def test_bound_tradeoff_chart_by_hand():
    fig = fg.bound_tradeoff_chart(_tradeoff(), unit="rows")
    dropped, noise, total, chosen = fig.data
    assert list(dropped.y) == [13.0, 8.0, 6.0, 4.0]
    assert list(noise.y) == pytest.approx(np.arange(1, 5) * math.log(20))
    assert list(total.y) == pytest.approx(
        [13 + math.log(20), 8 + 2 * math.log(20), 6 + 3 * math.log(20), 4 + 4 * math.log(20)]
    )
    assert (list(chosen.x), list(chosen.y)) == ([2], [pytest.approx(8 + 2 * math.log(20))])
    assert fig.layout.xaxis.title.text == "c, the most rows kept per person"
    assert fig.layout.yaxis.title.text == "error (rows, log scale)"
    assert fig.layout.title.text.replace("<br>", " ") == (
        "Rows left out against noise, by the bound on rows per person (epsilon = 1)"
    )
