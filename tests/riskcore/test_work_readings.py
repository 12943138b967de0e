"""The words of issue 27's work-survives items (riskcore.report.readings.work)."""

from __future__ import annotations

from riskcore.report.readings.work import restore_label, table_download_label, work_time

WHAT = "Download the generalized table (CSV)"


def test_a_download_label_says_when_the_table_is_empty_or_breaks_the_targets():
    assert table_download_label(WHAT, released=10, passes=True) == WHAT
    assert table_download_label(WHAT, released=10, passes=False) == (
        WHAT + ": it does not meet the targets"
    )
    # empty says empty, whatever the verdict
    for passes in (True, False):
        assert table_download_label(WHAT, released=0, passes=passes) == (
            WHAT + ": empty, every record is suppressed"
        )


def test_the_restore_button_names_the_time_in_utc():
    assert work_time("2026-11-26T17:50:03.123456+00:00") == "2026-11-26 17:50 UTC"
    label = restore_label("2026-11-26T17:50:03+00:00")
    assert label == "Restore your work from 2026-11-26 17:50 UTC"
    assert work_time("not a time") == "not a time"
