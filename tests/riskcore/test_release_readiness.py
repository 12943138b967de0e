"""The release decision: targets met and no identifier left in released columns, one banner.

A review's :attr:`~riskcore.review.Review.readiness` reads the verdict (never judged again)
and the free-text scan's findings; :func:`~riskcore.report.readings.review.release_banner`
phrases it green (ready), amber (targets met, identifiers left) or red (a target fails) in
the HTML report, on the Report page and on the command line.
"""

from __future__ import annotations

import dataclasses
import json

import pandas as pd
import pytest

from riskcore.profile import Profile
from riskcore.report.readings.review import release_banner
from riskcore.report.render import render_html
from riskcore.review import Limitation, Readiness, ReleasedIdentifiers, Review, review

#: Two classes on q, {a, a} and {b, b, b}: k = 2, highest prosecutor risk 1/2; distinct l = 2.
#: ``ref`` (role other) holds an SSN in 3 of its 5 cells, written by hand.
TABLE = {
    "q": ["a", "a", "b", "b", "b"],
    "s": ["x", "y", "x", "y", "z"],
    "ref": ["123-45-6789", "none", "234-56-7890", "none", "345-67-8901"],
}
MET = {"quasi_identifiers": ["q"], "sensitive": ["s"], "targets": {"k": 2, "threshold": 0.5}}
#: k = 3 fails: the class {a, a} holds 2 records.
FAILED = {**MET, "targets": {"k": 3, "threshold": 0.5}}
SSNS = ReleasedIdentifiers("ref", ("Social Security numbers",), ("G",), 3)


def _review(profile: dict, *, ssns: bool = True) -> Review:
    data = pd.DataFrame(TABLE)
    if not ssns:
        data["ref"] = ["none", "kept", "none", "kept", "none"]
    return review(data, Profile.read(profile))


@pytest.fixture(scope="module")
def amber() -> Review:
    return _review(MET)


def _banner_div(html: str) -> str:
    start = html.index('<div class="verdict')
    return html[start : html.index("</div>", start)]


def test_targets_met_with_ssns_in_an_other_column_is_not_ready_and_amber(amber):
    r = amber.readiness
    assert amber.verdict.passed is True  # the criteria's verdict: the targets are met
    assert r == Readiness(targets_met=True, of="the table as recorded", identifiers=(SSNS,))
    assert r.ready is False
    banner = release_banner(amber)
    assert (banner.state, banner.mark) == ("hold", "NOT READY")
    assert banner.text.startswith(
        "Targets met; not ready to release: identifiers remain in released columns "
        "(ref: Social Security numbers, 3 cells). The table as recorded meets both targets."
    )
    assert banner.line == banner.text
    html = render_html(amber, figures=False)
    div = _banner_div(html)
    assert div.startswith('<div class="verdict hold"><strong>NOT READY</strong> Targets met;')
    assert "HIPAA Safe Harbor identifiers to remove or mask before release" in div
    # said once: no caution box repeats the columns under the banner
    assert 'class="caution"' not in html
    assert html.count("(ref: Social Security numbers, 3 cells)") == 1
    assert "ref: Social Security numbers, 3 cells, Safe Harbor G" in html  # the Limitations


def test_targets_met_without_identifiers_is_ready_and_green():
    rev = _review(MET, ssns=False)
    assert rev.readiness == Readiness(targets_met=True, of="the table as recorded")
    assert rev.readiness.ready is True
    banner = release_banner(rev)
    assert (banner.state, banner.mark) == ("pass", "PASS")
    assert banner.line.startswith("Passes: the table as recorded meets both targets.")
    div = _banner_div(render_html(rev, figures=False))
    assert div.startswith('<div class="verdict pass"><strong>PASS</strong> The table as')
    assert "not ready" not in div


def test_failing_targets_are_red_and_still_name_the_identifiers_left():
    rev = _review(FAILED)
    assert rev.readiness.targets_met is False and rev.readiness.identifiers == (SSNS,)
    banner = release_banner(rev)
    assert (banner.state, banner.mark) == ("fail", "FAIL")
    assert banner.line.startswith("Does not pass: the table as recorded does not meet 1 of 2")
    assert "Identifiers remain in released columns (ref: Social Security numbers, 3 cells)" in (
        banner.text
    )
    div = _banner_div(render_html(rev, figures=False))
    assert div.startswith('<div class="verdict fail"><strong>FAIL</strong> The table as')
    # red without identifiers too: the targets alone decide the colour of a failure
    clean = release_banner(_review(FAILED, ssns=False))
    assert clean.state == "fail" and "Identifiers" not in clean.text


def test_the_readiness_reads_the_verdict_and_never_judges_the_targets_again(amber):
    # the same evidence with the verdict marked failed: readiness follows the verdict
    failed = dataclasses.replace(
        amber, verdict_before=dataclasses.replace(amber.verdict_before, passed=False)
    )
    assert failed.readiness.targets_met is False
    assert release_banner(failed).state == "fail"


def test_released_text_not_fully_read_or_not_scanned_is_not_ready(amber):
    partly = Limitation("free-text", {"found": [], "unchecked": [{"column": "note", "why": "x"}]})
    others = tuple(x for x in amber.limitations if x.kind != "free-text")
    rev = dataclasses.replace(amber, limitations=(*others, partly))
    assert rev.readiness.unchecked == ("note",) and rev.readiness.ready is False
    banner = release_banner(rev)
    assert banner.state == "hold"
    assert "released text not fully read for identifiers (note)" in banner.text
    assert "the released text is to be read for identifiers before release" in banner.text
    # a review filed without the scan cannot say that no identifier is left
    unscanned = dataclasses.replace(amber, limitations=others)
    assert unscanned.readiness.scanned is False and unscanned.readiness.ready is False
    assert "the released columns were not scanned for identifiers" in release_banner(
        unscanned
    ).text


def test_the_json_twin_carries_the_readiness_and_round_trips(amber):
    twin = json.loads(amber.to_json())
    assert twin["readiness"] == {
        "schema_version": 1,
        "targets_met": True,
        "of": "the table as recorded",
        "scanned": True,
        "identifiers": [
            {
                "schema_version": 1,
                "column": "ref",
                "kinds": ["Social Security numbers"],
                "letters": ["G"],
                "cells": 3,
            }
        ],
        "unchecked": [],
        "ready": False,
    }
    back = Review.from_dict(twin)
    assert back.readiness == amber.readiness
    assert Readiness.from_dict(twin["readiness"]) == amber.readiness
    # a twin written before the readiness existed still loads, and derives it again
    del twin["readiness"]
    assert Review.from_dict(twin).readiness == amber.readiness


def test_the_command_line_prints_not_ready_and_fails_on_targets_only(tmp_path, capsys):
    from riskcore.cli import main

    data, profile = tmp_path / "t.csv", tmp_path / "p.json"
    pd.DataFrame(TABLE).to_csv(data, index=False)
    profile.write_text(Profile.read(MET).to_json())
    argv = ["report", str(data), "--profile", str(profile), "--out", str(tmp_path / "r.html"),
            "--no-figures", "--fail-on-targets"]  # fmt: skip
    assert main(argv) == 0  # the targets are met: --fail-on-targets judges them only
    out = capsys.readouterr().out
    assert out.startswith(
        "NOT READY: Targets met; not ready to release: identifiers remain in released "
        "columns (ref: Social Security numbers, 3 cells)."
    )
    assert "PASS" not in out
    # --fail-unless-ready: the SSNs left in ref stop the pipeline, after the report is written
    (tmp_path / "r.html").unlink()
    assert main([*argv[:-1], "--fail-unless-ready"]) == 1
    assert (tmp_path / "r.html").exists()
    capsys.readouterr()
    # without them the release is ready: PASS and exit 0
    clean = pd.DataFrame(TABLE).assign(ref=["none", "kept", "none", "kept", "none"])
    clean.to_csv(data, index=False)
    assert main([*argv[:-1], "--fail-unless-ready"]) == 0
    assert capsys.readouterr().out.startswith("PASS: ")
