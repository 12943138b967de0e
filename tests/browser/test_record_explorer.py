"""The record explorer of the Uniqueness page in Chromium, on the demo: pick a record by its
row number, read its class, its MSUs and the generalization covering it, and take a screenshot.

The figures are checked against pandas on the demo's rows; no request may leave localhost.
"""

from __future__ import annotations

import pytest

from tests.browser_helpers import goto, metric, new_page, wait_idle

pytestmark = pytest.mark.browser


def test_the_record_explorer_on_the_demo(server, browser, tmp_path):
    from riskcore.demo import make_people
    from riskcore.metrics.special_uniques import suda
    from riskcore.roles import suggest_roles

    df = make_people(32_561, seed=0)
    qis = list(suggest_roles(df).roles.quasi_identifiers)
    size = df.groupby(qis, dropna=False, sort=False)[qis[0]].transform("size").to_numpy()
    s = suda(df, qis)
    # a unique record with a minimal sample unique of one value: "unique by age = 85 alone"
    row = next(i + 1 for i in range(len(df)) if size[i] == 1 and s.min_msu_size[i] == 1)
    msu = s.msus_of(row - 1)[0]

    external: list[str] = []
    ctx, page = new_page(browser, external)
    page.goto(server)
    wait_idle(page)
    goto(page, server, "Uniqueness")
    page.get_by_text("Why is this record risky?").first.scroll_into_view_if_needed()
    page.get_by_text("By row number").first.click()
    wait_idle(page)
    box = page.get_by_label("Row number (the first data row is 1)")
    box.fill(str(row))
    box.press("Enter")
    wait_idle(page)
    page.get_by_text(f"Row {row:,} is the only record").first.wait_for()
    assert metric(page, "Class size") == "1"
    assert metric(page, "Row") == f"{row:,}"
    value = " + ".join(f"{q} = {df[q].iloc[row - 1]}" for q in msu)
    bold = page.locator("strong").filter(has_text=f"unique by {value} alone")
    assert bold.count() >= 1  # the MSU is highlighted
    page.get_by_text(f"puts row {row:,} in a class of").first.wait_for()
    path = tmp_path / "record-explorer.png"
    page.set_viewport_size({"width": 1400, "height": 2300})
    page.get_by_text("Why is this record risky?").first.evaluate(
        "e => e.scrollIntoView({block: 'start'})"
    )
    page.wait_for_timeout(700)
    page.screenshot(path=str(path))
    assert path.stat().st_size > 10_000
    ctx.close()
    assert external == [], f"requests left localhost: {external}"
