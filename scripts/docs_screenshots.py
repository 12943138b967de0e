"""Regenerate the documentation's screenshots: one per page of the app, docs/img/<page>.png.

Starts the dashboard with the README's command on a free loopback port (the browser tests'
:func:`tests.live.serve`, with a temporary database), opens it on the demo data in Debian's
headless Chromium (the browser tests' flags, ``tests.browser_helpers.ARGS``), visits every
registered page, waits until its run is over and takes a 1400 x 1400 screenshot of the
window, saved as an optimized palette PNG. On the Report page it builds the report and saves it
(into the server's temporary database), so the Saved assessments page shows one. Run from
the repository root::

    python scripts/docs_screenshots.py            # every page
    python scripts/docs_screenshots.py data dp    # some pages

The list of pages is :data:`PAGES` (file stem of ``pages/*.py`` -> title in ``app.py``);
``tests/test_docs.py`` checks that every page of the app has a guide page showing its image.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import live  # noqa: E402
from tests.browser_helpers import ARGS, CHROMIUM, wait_idle  # noqa: E402

IMG = ROOT / "docs" / "img"
WIDTH, HEIGHT = 1400, 1400

# page file stem -> the link title in app.py's navigation
PAGES = {
    "data": "Data",
    "uniqueness": "Uniqueness",
    "anonymity": "Anonymity (k / l / t)",
    "records": "Records",
    "attacks": "Attacks",
    "remediate": "Remediate",
    "dp": "Differential privacy",
    "ldp": "Local DP",
    "report": "Report",
    "saved": "Saved assessments",
    "guided_demo": "Guided demo",
}

# a button to press after opening the page, so the image shows its result
PRESS = {"report": "Build the report"}


def save_assessment(page) -> None:
    """Save the report just built as "Demo, as recorded" (the Saved assessments page lists it)."""
    page.get_by_label("Name of the assessment").fill("Demo, as recorded")
    page.keyboard.press("Enter")
    wait_idle(page)
    page.get_by_role("button", name="Save this assessment").click()
    wait_idle(page)
    page.get_by_text("Saved as #").first.wait_for()
    page.mouse.wheel(0, -10_000)  # back to the top of the page


def optimized_png(raw: bytes) -> bytes:
    """Return the screenshot as a 256-colour palette PNG (a few hundred KB at most)."""
    from PIL import Image

    image = Image.open(io.BytesIO(raw)).convert("RGB")
    small = image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, format="PNG", optimize=True)
    return out.getvalue()


def main(names: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    wanted = names or list(PAGES)
    unknown = [n for n in wanted if n not in PAGES]
    if unknown:
        print(f"unknown page(s): {', '.join(unknown)}; pages: {', '.join(PAGES)}", file=sys.stderr)
        return 2
    IMG.mkdir(parents=True, exist_ok=True)
    with live.serve() as (url, _, _), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        ctx = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
        page = ctx.new_page()
        page.set_default_timeout(120_000)
        page.goto(url)
        wait_idle(page)
        page.get_by_text("Demo people (32,561 rows)").first.wait_for()
        for name in wanted:
            page.get_by_role("link", name=PAGES[name]).first.click()
            wait_idle(page)
            if name in PRESS:
                page.get_by_role("button", name=PRESS[name]).first.click()
                wait_idle(page)
            page.wait_for_timeout(1500)  # charts finish drawing
            data = optimized_png(page.screenshot())
            (IMG / f"{name}.png").write_bytes(data)
            print(f"docs/img/{name}.png: {len(data) // 1024} KB")
            if name == "report":
                save_assessment(page)
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
