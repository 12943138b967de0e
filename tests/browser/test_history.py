"""In Chromium: the Remediate page's history (issue 29 item 2) against the command line.

An upload; four steps applied on the page (two masking choices, a PRAM perturbation, the
search's result); two undone, one redone; the page reloaded (the guard asks first) and the
work restored from the same file. The history panel stands where it stood, and the table
downloaded from the page and the steps' recipe are the ones the exported command script
gives when it runs the project's CLI (``riskcore apply``, here ``python -m riskcore`` on
this checkout) on the same file: the same bytes, the same recipe. Screenshots of the page with
the history panel at 1400 and 1024 px go to ``screenshots/``. Nothing may leave localhost.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from urllib.parse import urlparse

import pytest

from riskcore.demo import make_people
from tests.browser_helpers import TIMEOUT, choose, goto, shot, upload, wait_idle
from tests.conftest import ROOT

pytestmark = pytest.mark.browser


def _download(page, name, to) -> bytes:
    with page.expect_download(timeout=60_000) as got:
        page.get_by_role("button", name=name).first.click()
    got.value.save_as(to)
    return to.read_bytes()


def test_four_steps_two_undone_one_redone_survive_a_reload_and_match_the_cli(
    server, browser, tmp_path
):
    data = tmp_path / "people.csv"
    make_people(600, seed=2).to_csv(data, index=False)
    external: list[str] = []
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT)
    page.on("dialog", lambda d: d.accept())  # the reload's "leave the page?" is accepted
    page.on("request", lambda r: None if urlparse(r.url).hostname in ("localhost", "127.0.0.1")
            or r.url.startswith(("data:", "blob:")) else external.append(r.url))  # fmt: skip
    page.goto(server)
    wait_idle(page)
    upload(page, data)
    page.get_by_text("people.csv:").first.wait_for()
    goto(page, server, "Remediate")
    page.get_by_text("History: No step applied yet.").first.wait_for()

    page.get_by_role("tab", name="Direct identifiers").click()  # 1, 2: masking choices
    choose(page, "ssn", "keep the last 4 digits")
    choose(page, "name", "redact (one text for all)")
    page.get_by_role("tab", name="Perturb").click()  # 3: PRAM of a category
    page.get_by_text("PRAM", exact=True).click()
    wait_idle(page)
    page.get_by_role("button", name="Perturb", exact=True).click()
    wait_idle(page)
    page.get_by_text("History: 3 of 3 steps applied.").first.wait_for()
    page.get_by_role("tab", name="Generalize and suppress").click()  # 4: the search's result
    page.get_by_role("button", name="Find the least-loss generalization").click()
    wait_idle(page)
    page.get_by_role("button", name="Apply these levels (a step in the history)").click()
    wait_idle(page)
    page.get_by_text("History: 4 of 4 steps applied.").first.wait_for()
    page.mouse.wheel(0, -10_000)
    shot(page, "remediate-history-1400")
    page.set_viewport_size({"width": 1024, "height": 900})
    wait_idle(page)
    shot(page, "remediate-history-1024")
    page.set_viewport_size({"width": 1400, "height": 1000})

    for _ in range(2):
        page.get_by_role("button", name="Undo").click()
        wait_idle(page)
    page.get_by_text("History: 2 of 4 steps applied; 2 can be redone.").first.wait_for()
    page.get_by_role("button", name="Redo").click()
    wait_idle(page)
    page.get_by_text("History: 3 of 4 steps applied; 1 can be redone.").first.wait_for()

    page.reload()  # a new session: the upload is gone, the work is kept
    wait_idle(page)
    goto(page, server, "Data")
    upload(page, data)
    page.get_by_role("button", name=re.compile("^Restore your work from")).click()
    wait_idle(page)
    goto(page, server, "Remediate")
    page.get_by_text("History: 3 of 4 steps applied; 1 can be redone.").first.wait_for()

    table = _download(page, re.compile(r"^Download the generalized table \(CSV\)"),
                      tmp_path / "page.csv")  # fmt: skip
    recipe = json.loads(_download(page, "Download the steps' recipe (JSON)",
                                  tmp_path / "page_recipe.json"))  # fmt: skip
    script = _download(page, "Download the command script (.sh)",
                       tmp_path / "steps.sh").decode()  # fmt: skip
    ctx.close()
    assert external == [], f"requests left localhost: {external}"
    assert len([line for line in script.splitlines() if re.match(r"^# +\d+\. ", line)]) == 3

    # the script, run where the file is, with `riskcore` this checkout's CLI
    work = tmp_path / "cli"
    (work / "bin").mkdir(parents=True)
    (work / "people.csv").write_bytes(data.read_bytes())
    shim = work / "bin" / "riskcore"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m riskcore "$@"\n')
    shim.chmod(0o755)
    (work / "steps.sh").write_text(script)
    env = {**os.environ, "PATH": f"{work / 'bin'}:{os.environ.get('PATH', '')}",
           "PYTHONPATH": str(ROOT)}  # fmt: skip
    sh = shutil.which("sh") or "/bin/sh"
    done = subprocess.run([sh, "steps.sh"], cwd=work, env=env, capture_output=True, text=True,
                          timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads((work / "people_recipe.json").read_text()) == recipe
    assert (work / "people_remediated.csv").read_bytes() == table
    assert [p["method"] for p in recipe["perturb"]] == ["pram"] and recipe[
        "quasi_identifiers"
    ] == []
    masks = {m["column"]: m["operator"] for m in recipe["masking"]}
    assert masks["ssn"] == "mask_digits" and masks["name"] == "redact"
