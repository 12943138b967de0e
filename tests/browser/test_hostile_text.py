"""A hostile upload in a real browser: its column names, values and file name stay text.

The CSV's column names and values are markdown images and links, bare URLs, e-mail and
``www.`` addresses, HTML, ``<script>``, right-to-left text and emoji. They are chosen as
roles and in the selectors of every page, including both DP releases (a histogram and a
mean), and after every step the page must hold no ``img`` / ``a`` / ``image`` whose address
came from the data; over the whole run no request may leave localhost and no dialog open.
"""

from __future__ import annotations

import csv
import json

import pytest

from tests.browser_helpers import (
    goto,
    load_roles,
    new_page,
    open_expander,
    shot,
    upload,
    wait_idle,
)

pytestmark = pytest.mark.browser

WORD_JOINER = "\u2060"  # what ui.core.safe.md puts inside "http:" and "www." (invisible)
HOST = "127.0.0.9"  # nothing listens there: a request to it is recorded, then fails fast
IMG = f"![p](http://{HOST}/px.png)"
LINK = f"[x](http://{HOST}/a)"
URL = f"http://{HOST}/b"
HTML_IMG = f"<img src=http://{HOST}/c>"
SCRIPT = "<script>alert(1)</script>"
RTL = "\u05e9\u05dc\u05d5\u05dd \u202e\u0645\u0631\u062d\u0628\u0627 \U0001f600"
ANCHOR = f'<a href="http://{HOST}/n">n</a>'
VALUES = [
    f"![v](http://{HOST}/v.png)",
    f"[l](https://{HOST}/l)",
    f'<a href="http://{HOST}/h">h</a>',
    f"http://{HOST}/u www.example.org bob@example.org",
    "<script>alert(2)</script>",
    "\u0645\u0631\u062d\u0628\u0627 :smile: \U0001f389",
]
#: Addresses that only the data holds.
MARKERS = (HOST, "example.org")
#: Every address an element of the page will load or link to (SVG ones included).
ADDRESSES_JS = """() => [...document.querySelectorAll(
    'a, img, image, iframe, source, video, audio, embed, object, link, script[src], use')]
  .flatMap(e => ['href', 'src', 'srcset', 'xlink:href', 'data']
  .map(a => e.getAttribute(a)).filter(Boolean))"""


def hostile_csv(path):
    header = [IMG, LINK, URL, HTML_IMG, SCRIPT, RTL, ANCHOR]
    rows = [
        [
            VALUES[i % 6],
            VALUES[i // 2 % 6],
            20 + i % 40,
            VALUES[(i + 3) % 6],
            i % 7,
            VALUES[i // 3 % 6],
            VALUES[(i + 1) % 6],
        ]
        for i in range(60)
    ]
    with path.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([header, *rows])


def no_data_addresses(page, where: str) -> None:
    wait_idle(page)
    found = [a for a in page.evaluate(ADDRESSES_JS) if any(m in a for m in MARKERS)]
    assert not found, f"{where}: the data became an address: {found}"


def main_text(page) -> str:
    return page.locator('[data-testid="stMain"]').inner_text().replace(WORD_JOINER, "")


def choose(page, label: str, option: str) -> None:
    """Pick ``option`` in the selectbox labelled ``label``."""
    box = page.locator('[data-testid="stSelectbox"]').filter(has_text=label).first
    box.locator('[role="combobox"], input').first.click()
    page.get_by_role("option", name=option, exact=True).first.click()
    wait_idle(page)


def tab(page, name: str) -> None:
    page.get_by_role("tab", name=name).click()
    wait_idle(page)


def release(page, kind: str, quoted: str, name: str) -> None:
    """Release ``kind`` at epsilon 0.5 through OpenDP: its leak warning and result show
    ``quoted`` as text, and nothing on the page links to the data."""
    page.get_by_role("button", name=f"Release this {kind} at epsilon = 0.5").click()
    wait_idle(page)
    page.get_by_text("Privacy leak").first.wait_for()
    assert quoted in main_text(page)
    no_data_addresses(page, f"DP {kind} release")
    shot(page, name)


def test_hostile_upload_stays_text_on_every_page(server, browser, tmp_path):
    external: list[str] = []
    ctx, page = new_page(browser, external)
    page.goto(server)
    wait_idle(page)
    name = f"hostile ![f](https:\\{HOST}\\f.png) www.example.org.csv"
    data = tmp_path / name
    hostile_csv(data)
    upload(page, data)
    page.get_by_text("60 rows x 7 columns").first.wait_for()
    profile = tmp_path / "roles.json"
    profile.write_text(
        json.dumps({"quasi_identifiers": [IMG, LINK, RTL], "sensitive": [ANCHOR, HTML_IMG]})
    )
    open_expander(page, "Save or load a role profile")
    load_roles(page, profile, "3 quasi-identifiers, 2 sensitive")
    reasons = page.locator('[data-testid="stExpander"]').filter(has_text="Why each role was")
    reasons.locator("summary").click()
    reasons.get_by_text("no identifying pattern in the name").first.wait_for()
    no_data_addresses(page, "Data")
    assert IMG in main_text(page) and name in page.locator('[data-testid="stSidebar"]').inner_text()

    goto(page, server, "Uniqueness")
    page.get_by_text("Records by equivalence-class size").first.wait_for()
    no_data_addresses(page, "Uniqueness")
    goto(page, server, "Anonymity (k / l / t)")
    page.get_by_text("Re-identification risk").first.wait_for()
    assert f"Sensitive attribute: {HTML_IMG}" in main_text(page)
    no_data_addresses(page, "Anonymity")

    goto(page, server, "Attacks")
    page.get_by_text("Possible identities per target").first.wait_for()
    no_data_addresses(page, "Attacks: linkage")
    for name_ in ("Differencing", "Homogeneity", "Two releases"):
        tab(page, name_)
        no_data_addresses(page, f"Attacks: {name_}")

    goto(page, server, "Differential privacy")
    slider = page.get_by_role("slider").first
    slider.focus()
    page.keyboard.press("ArrowLeft")  # epsilon 1 -> 0.5: two releases fit the budget of 1
    wait_idle(page)
    choose(page, "Query", "histogram")
    choose(page, "Filter rows by (optional)", LINK)
    no_data_addresses(page, "DP filter")
    assert f"Keep rows where {LINK} is" in main_text(page)
    release(page, "histogram", f"of '{IMG}' is revealed", "30-dp-hostile-histogram")
    choose(page, "Filter rows by (optional)", "(no filter)")
    choose(page, "Query", "mean")
    page.get_by_role("button", name="Use the data's minimum and maximum").click()
    wait_idle(page)
    assert f"Target accuracy +/- ({URL} units)" in main_text(page)
    release(page, "mean", f"Released: mean of {URL}", "31-dp-hostile-mean")
    for name_ in ("Clipped mean", "Epsilon from risk", "Sample and aggregate"):
        tab(page, name_)
        no_data_addresses(page, f"DP: {name_}")

    goto(page, server, "Records")
    page.get_by_text("Why is this record risky?").first.wait_for()
    no_data_addresses(page, "Records")
    goto(page, server, "Remediate")
    page.get_by_role("button", name="Find the least-loss generalization").click()
    # the search ends in st.rerun(): wait for what only the rerun draws, then for it to end
    page.get_by_text("Each point is one combination of levels").first.wait_for(timeout=120_000)
    wait_idle(page)
    page.get_by_text("Hierarchies: how each quasi-identifier").first.click()
    button = page.get_by_role("button", name="Download the hierarchy of").first
    button.wait_for(state="visible")
    with page.expect_download(timeout=60_000):  # a hierarchy named after a hostile column
        button.click()
    no_data_addresses(page, "Remediate: generalize")
    for name_ in ("HIPAA Safe Harbor", "Direct identifiers"):
        tab(page, name_)
        no_data_addresses(page, f"Remediate: {name_}")

    goto(page, server, "Local DP")
    page.get_by_text("Randomized response on").first.wait_for()
    no_data_addresses(page, "Local DP: randomized response")
    tab(page, "Numeric (local Laplace)")
    no_data_addresses(page, "Local DP: numeric")

    goto(page, server, "Report")
    page.get_by_role("button", name="Build the report").click()
    wait_idle(page)
    page.get_by_role("button", name="Save this assessment").click()
    page.get_by_text("the save is in the audit log").first.wait_for()
    no_data_addresses(page, "Report")
    goto(page, server, "Saved assessments")
    page.get_by_role("button", name="Reopen", exact=True).click()
    page.get_by_text("are in use on every page").first.wait_for()
    assert name in main_text(page)  # the saved name (the file's) is text
    no_data_addresses(page, "Saved assessments: reopen")
    tab(page, "Audit log")
    no_data_addresses(page, "Saved assessments: audit log")
    ctx.close()
    assert external == [], f"requests left localhost or a dialog opened: {external}"
