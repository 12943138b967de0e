"""Isolation and containment in a real browser (issue 17), against a server of their own.

The server runs with HOME, TMPDIR and RISKCORE_DB in fresh folders (so ``~/.streamlit``,
``~/.cache`` and every temporary file it could write are there and only there) and its
standard output and error captured. The tests show that two sessions given files of the
same name and shape (different values) never see each other's data; that an upload,
browsed through every page, writes nothing to disk (not the project's folder, the home
folder, the temporary folder nor the database); that no value of the data reaches the
server's log; that no page sends a request beyond localhost; and that the worst of the
hostile files (gzip bomb, billion laughs, 100,000 columns, UTF-16 names) leave the session
usable in the browser.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from riskcore.io import load_table
from riskcore.roles import suggest_roles
from tests import live
from tests.browser_helpers import goto, metric, new_page, open_app, upload, wait_idle
from tests.conftest import ROOT
from tests.hostile_files import BY_NAME, csv_bytes

pytestmark = pytest.mark.browser

#: Every page registered in app.py, by its title in the navigation.
PAGES = re.findall(r'st\.Page\("pages/\w+\.py", title="([^"]+)"', (ROOT / "app.py").read_text())
#: Folders of the project that the tests themselves write (screenshots) or Python does.
NOT_WATCHED = {".git", "__pycache__", "screenshots", ".hypothesis", ".mypy_cache", ".ruff_cache"}


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("sandbox")
    folders = {name: root / name for name in ("home", "tmp", "db")}
    for folder in folders.values():
        folder.mkdir()
    (folders["home"] / ".streamlit").mkdir()
    (folders["home"] / ".cache").mkdir()
    folders["log"] = root / "server.log"
    return folders


@pytest.fixture(scope="module")
def server(sandbox):
    env = {
        "HOME": str(sandbox["home"]),
        "TMPDIR": str(sandbox["tmp"]),
        "XDG_CACHE_HOME": str(sandbox["home"] / ".cache"),
        "RISKCORE_DB": str(sandbox["db"] / "riskcore.db"),
    }
    with live.serve(env=env, log=sandbox["log"]) as (url, _, _):
        yield url


def snapshot(sandbox) -> dict[str, tuple[int, int]]:
    """Return {path: (size, mtime)} of every file the server could write."""
    found: dict[str, tuple[int, int]] = {}
    for top in (ROOT, sandbox["home"], sandbox["tmp"], sandbox["db"]):
        for path in top.rglob("*"):
            if NOT_WATCHED & set(path.relative_to(top).parts) or not path.is_file():
                continue
            stat = path.stat()
            found[str(path)] = (stat.st_size, stat.st_mtime_ns)
    return found


def changed(before: dict, after: dict) -> list[str]:
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))


def preview_text(page) -> str:
    """The Data page's preview of the first 100 rows, as the grid's accessible text."""
    page.get_by_text("Preview the first 100 rows").first.click()
    wait_idle(page)
    return page.locator('[data-testid="stDataFrame"]').nth(1).evaluate("e => e.textContent")


def people(prefix: str, ages: list[int]) -> bytes:
    """40 rows of city, sex, age, dx: the same header and shape whatever the values."""
    return csv_bytes(
        [["city", "sex", "age", "dx"]]
        + [
            [f"{prefix}ville-{i}", "FM"[i % 2], age, f"{prefix}itis-{i}"]
            for i, age in enumerate(ages)
        ]
    )


def uniqueness(page, server) -> dict[str, str]:
    goto(page, server, "Uniqueness")
    page.get_by_text("Records by equivalence-class size").first.wait_for()
    return {m: metric(page, m) for m in ("Equivalence classes", "k (smallest class)")}


def test_two_sessions_with_same_shaped_files_never_see_each_other(server, browser, tmp_path):
    # same file name, same columns, same row count; different values and figures
    files = {"Alpha": people("Alpha", [30] * 40), "Bravo": people("Bravo", list(range(20, 60)))}
    for raw in files.values():  # the suggested quasi-identifiers are sex and age
        roles = suggest_roles(load_table(raw).data).roles
        assert roles.quasi_identifiers == ("sex", "age"), roles
    # by hand: Alpha is 20 women and 20 men of 30, Bravo 40 different ages
    want = {
        "Alpha": {"Equivalence classes": "2", "k (smallest class)": "20"},
        "Bravo": {"Equivalence classes": "40", "k (smallest class)": "1"},
    }
    external: list[str] = []
    pages = {}
    for who, raw in files.items():
        folder = tmp_path / who
        folder.mkdir()
        (folder / "people.csv").write_bytes(raw)
        ctx, page = open_app(browser, server, external)
        upload(page, folder / "people.csv")
        page.get_by_text("people.csv: 40 rows x 4 columns").first.wait_for()
        pages[who] = (ctx, page)
    try:
        for _ in range(2):  # each session, after the other has uploaded and browsed
            for who, (_, page) in pages.items():
                other = "Bravo" if who == "Alpha" else "Alpha"
                assert uniqueness(page, server) == want[who], who
                goto(page, server, "Data")
                shown = preview_text(page)
                assert f"{who}ville-0" in shown and f"{who}itis-5" in shown, shown[:300]
                assert other not in shown and other not in page.content(), who
    finally:
        for ctx, _ in pages.values():
            ctx.close()
    assert not external, external


def test_an_upload_writes_nothing_and_logs_no_value_and_no_page_leaves_localhost(
    server, browser, sandbox, tmp_path
):
    external: list[str] = []
    ctx, page = new_page(browser, external)
    local: list[str] = []
    page.on("request", lambda r: local.append(r.url))
    try:
        page.goto(server)
        wait_idle(page)
        for title in PAGES:  # the demo on every page: modules imported, caches warm
            goto(page, server, title)
        before = snapshot(sandbox)
        secret = ["Quokkaburg-7731", "Zebrafish-syndrome-5520", "Yttrium-Lane-0042"]
        data = tmp_path / "distinctive.csv"
        data.write_bytes(
            csv_bytes(
                [["city", "sex", "age", "diagnosis"]]
                + [[secret[i % 2], "FM"[i % 2], 20 + i, secret[2 - i % 2]] for i in range(30)]
            )
        )
        goto(page, server, "Data")
        refused = tmp_path / "refused.csv"  # a refused file's values stay out of the log too
        refused.write_bytes(csv_bytes([["city", "sex"], ["Narwhal-Omega-3141", "F", "extra"]]))
        upload(page, refused)
        page.get_by_text("line 2 has 3 fields").first.wait_for()
        secret.append("Narwhal-Omega-3141")
        upload(page, data)
        page.get_by_text("distinctive.csv: 30 rows x 4 columns").first.wait_for()
        assert secret[0] in preview_text(page)  # the values are shown ...
        for title in PAGES:  # ... and the table browsed on every page
            goto(page, server, title)
            assert page.locator('[data-testid="stException"]').count() == 0, title
        after = snapshot(sandbox)
    finally:
        ctx.close()
    assert not external, f"requests left localhost or a dialog opened: {external}"
    assert any(u.startswith(server) for u in local)  # the recorder sees requests
    # nothing written: no file new, changed or removed, the database included (no save)
    writes = changed(before, after)
    assert writes == [], [(p, before.get(p), after.get(p)) for p in writes]
    # ... and the check sees a write (negative control)
    stray = sandbox["tmp"] / "stray.bin"
    stray.write_bytes(b"x")
    assert changed(before, snapshot(sandbox)) == [str(stray)]
    stray.unlink()
    log = sandbox["log"].read_text(errors="replace")
    assert "You can now view your Streamlit app" in log  # the log is captured
    leaked = [s for s in secret if s in log]
    assert not leaked, f"data values in the server log: {leaked}"


def test_the_worst_hostile_files_keep_the_browser_session(server, browser, tmp_path):
    external: list[str] = []
    ctx, page = open_app(browser, server, external)
    try:
        for name in ("gzip bomb", "billion laughs (.xlsx)", "100,000 columns"):
            case = BY_NAME[name]
            path = tmp_path / case.file
            path.write_bytes(case.make())
            upload(page, path)
            alert = page.locator('[data-testid="stAlertContentError"]').first
            alert.wait_for()
            assert re.search(case.error or "", alert.inner_text()), alert.inner_text()
            assert page.locator('[data-testid="stException"]').count() == 0
            assert page.get_by_role("button", name="Reset session").count() == 1
            assert page.locator('[data-testid="stFileUploader"]').count() >= 1
            page.get_by_text("The table in use is still Demo people").first.wait_for()
        utf16 = BY_NAME["utf-16 names (its byte-order mark)"]
        path = tmp_path / utf16.file
        path.write_bytes(utf16.make())
        upload(page, path)
        page.get_by_text(f"{utf16.file}: 6 rows x 2 columns").first.wait_for()
        shown = preview_text(page)
        for name in ("Muñoz", "São", "Åsa", "Zoë", "Ørsted", "€"):
            assert name in shown, (name, shown[:200])
        page.get_by_role("button", name="Reset session").click()
        wait_idle(page)
        page.get_by_text("Demo people (32,561 rows)").first.wait_for()
    finally:
        ctx.close()
    assert not external, external
