"""Regenerate the documentation's screenshots: one per page of the app, docs/img/<page>.png.

Starts the dashboard with the README's command on a free loopback port (the browser tests'
:func:`tests.live.serve`, with a temporary database), opens it on the demo data in Debian's
headless Chromium (the browser tests' flags, ``tests.browser_helpers.ARGS``), visits every
registered page, waits until its run is over and takes a 1400 x 1400 screenshot of the
window, saved as an optimized palette PNG. On the Report page it builds the report and saves it
(into the server's temporary database), so the Saved assessments page shows one. Run from
the repository root::

    python scripts/docs_screenshots.py            # every page, then the views
    python scripts/docs_screenshots.py data dp    # some pages
    python scripts/docs_screenshots.py remediate-history   # one view
    python scripts/docs_screenshots.py data-claims-person  # the Data page on the claims demo
    python scripts/docs_screenshots.py people-uniqueness people-report   # the claims in people

The list of pages is :data:`PAGES` (file stem of ``pages/*.py`` -> title in ``app.py``);
``tests/test_docs.py`` checks that every page of the app has a guide page showing its image.
:data:`VIEWS` are parts of a page reached by a few clicks (the Remediate page's history
panel after four steps, its hierarchy builder, its Perturb tab after a run, the candidate
table, two candidates compared and the utility views after the search; the Data page on the
claims demo; the Anonymity page's Context step, answered and set), each shown by the docs
page :data:`VIEW_DOCS` names. :data:`PEOPLE` are five
pages on the claims
(``make_claims(2500, seed=0)``, uploaded as a CSV) with patient_id tagged as the person
(``tests.browser_helpers.CLAIMS_ROLES``, loaded as a role profile), each a full-page
screenshot (the window stretched to the page's height) for ``docs/howto/claims.md``; the
search's levels are applied after the Remediate page's, so the report states the table before
and after.
"""

from __future__ import annotations

import io
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import live  # noqa: E402
from tests.browser_helpers import (  # noqa: E402
    ARGS,
    CHROMIUM,
    CLAIMS_ROLES,
    choose,
    open_expander,
    page_height,
    wait_idle,
)

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


def history_view(page) -> None:
    """Four steps on the Remediate page (two masking choices, PRAM, the search's result)."""
    page.get_by_role("tab", name="Direct identifiers").click()
    choose(page, "ssn", "keep the last 4 digits")
    choose(page, "name", "redact (one text for all)")
    page.get_by_role("tab", name="Perturb").click()
    page.get_by_text("PRAM", exact=True).click()
    wait_idle(page)
    page.get_by_role("button", name="Perturb", exact=True).click()
    wait_idle(page)
    page.get_by_role("tab", name="Generalize and suppress").click()
    page.get_by_role("button", name="Find the least-loss generalization").click()
    wait_idle(page)
    page.get_by_role("button", name="Apply these levels (a step in the history)").click()
    wait_idle(page)
    page.get_by_text("History: 4 of 4 steps applied.").first.wait_for()
    page.get_by_role("button", name="Undo").click()  # one step in the redo tail
    wait_idle(page)
    page.mouse.wheel(0, -10_000)


def hierarchy_view(page) -> None:
    """The hierarchy builder of the Generalize tab, opened on the first QI (age)."""
    page.get_by_text("Hierarchies: how each quasi-identifier can be generalized").click()
    wait_idle(page)
    page.get_by_text("Kind of hierarchy").first.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(500)


def perturb_view(page) -> None:
    """The Perturb tab after local suppression at k = 2."""
    page.get_by_role("tab", name="Perturb").click()
    page.get_by_text("Local suppression", exact=True).click()  # the method last chosen may differ
    wait_idle(page)
    page.get_by_text("Suppressed first to last").first.wait_for()
    box = page.get_by_label("k", exact=True)
    box.fill("2")  # k = 2: a few seconds on the demo (the profile's k = 11 takes longer)
    box.press("Enter")
    wait_idle(page)
    page.get_by_role("button", name="Perturb", exact=True).click()
    page.get_by_text("of 32,561 before, 0 after").first.wait_for(timeout=300_000)
    wait_idle(page)
    page.get_by_role("tab", name="Perturb").evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(500)


def _searched(page) -> None:
    """Open the Generalize tab and run the least-loss search unless its result is shown."""
    page.get_by_role("tab", name="Generalize and suppress").click()
    wait_idle(page)
    if not page.get_by_text("Candidate solutions").count():
        page.get_by_role("button", name="Find the least-loss generalization").click()
        wait_idle(page)
    page.get_by_text("Candidate solutions").first.wait_for()


def _top(page, text: str) -> None:
    page.get_by_text(text).first.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(500)


def candidates_view(page) -> None:
    """The candidate table after the search."""
    _searched(page)
    _top(page, "Candidate solutions")


def comparison_view(page) -> None:
    """Two candidates compared side by side."""
    _searched(page)
    _top(page, "Candidate A")


def utility_view(page) -> None:
    """The utility views of the levels chosen."""
    _searched(page)
    toggle = page.get_by_text("Show the utility views").first
    toggle.click()
    wait_idle(page)
    _top(page, "Utility: what the release keeps")


def claims_view(page) -> None:
    """The Data page on the claims demo: the roles, patient_id suggested as the person.

    The window is 1,080 px high for it, so that the roles' heading can reach its top (at
    1,400 the page ends first and a table's cut rows show above the heading).
    """
    page.get_by_role("button", name="Use the claims demo (many rows per person)").click()
    wait_idle(page)
    page.get_by_text("patient_id: 2,500 people in").first.wait_for()
    page.set_viewport_size({"width": WIDTH, "height": 1_080})
    page.wait_for_timeout(500)
    _top(page, "Column roles")


def people_again(page) -> None:
    """Back to the people demo and the usual window, after the claims view."""
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    page.get_by_role("button", name="Use the demo data").click()
    wait_idle(page)
    page.get_by_text("Demo people (32,561 rows)").first.wait_for()


_CONTEXT = "Context: the threshold from the release"


def context_view(page) -> None:
    """The Anonymity page's Context step: a non-public release, answered, before it is set."""
    box = open_expander(page, _CONTEXT)
    box.get_by_text("high", exact=True).first.click()  # the invasion of privacy
    wait_idle(page)
    box.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(500)


def context_set_view(page) -> None:
    """The Context step once set: the answers with their sources, the threshold and why."""
    box = open_expander(page, _CONTEXT)
    box.get_by_role("button", name="Set the targets from this context").click()
    wait_idle(page)
    box = open_expander(page, _CONTEXT)
    box.get_by_text("Set the targets from this context").first.wait_for()
    _top(page, "Clear the context")


# a view: docs/img/<name>.png, drawn on the page it names by a function of the page
VIEWS = {
    "anonymity-context": ("Anonymity (k / l / t)", context_view),
    "anonymity-context-set": ("Anonymity (k / l / t)", context_set_view),
    "remediate-history": ("Remediate", history_view),
    "remediate-hierarchy-builder": ("Remediate", hierarchy_view),
    "remediate-perturb": ("Remediate", perturb_view),
    "remediate-candidates": ("Remediate", candidates_view),
    "remediate-comparison": ("Remediate", comparison_view),
    "remediate-utility": ("Remediate", utility_view),
    "data-claims-person": ("Data", claims_view),
}
# what to do after a view's screenshot, so that the next one starts as the others do
AFTER = {"data-claims-person": people_again}
# the docs page that shows each view
VIEW_DOCS = {
    "anonymity-context": "howto/threshold.md",
    "anonymity-context-set": "howto/threshold.md",
    "data-claims-person": "guide/data.md",
    "remediate-history": "guide/remediate.md",
    "remediate-hierarchy-builder": "hierarchy-builder.md",
    "remediate-perturb": "perturbation.md",
    "remediate-candidates": "candidates-and-utility.md",
    "remediate-comparison": "candidates-and-utility.md",
    "remediate-utility": "candidates-and-utility.md",
}


# docs/img/<name>.png: a page on the claims in people, and the button pressed there first
PEOPLE = {
    "people-uniqueness": ("Uniqueness", None),
    "people-anonymity": ("Anonymity (k / l / t)", None),
    "people-records": ("Records", None),
    "people-remediate": ("Remediate", "Find the least-loss generalization"),
    "people-report": ("Report", "Build the report"),
    "people-attacks": ("Attacks", None),
    "people-dp": ("Differential privacy", None),
    "people-ldp": ("Local DP", None),
}


def claims_data(page, folder: Path) -> None:
    """Upload the claims on the Data page and load ``CLAIMS_ROLES`` as a role profile."""
    from riskcore.demo.claims import make_claims

    data, roles = folder / "claims.csv", folder / "claims-roles.json"
    make_claims(2500, seed=0).to_csv(data, index=False)
    roles.write_text(json.dumps(CLAIMS_ROLES))
    page.get_by_role("link", name="Data").first.click()
    wait_idle(page)
    page.locator('[data-testid="stFileUploader"] input[type="file"]').first.set_input_files(
        str(data)
    )
    wait_idle(page)
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text("claims.csv").first.wait_for(timeout=60_000)
    wait_idle(page)
    open_expander(page, "Save or load a role profile")
    box = page.locator('[data-testid="stFileUploader"]').filter(has_text="Load a role profile")
    box.locator('input[type="file"]').set_input_files(str(roles))
    wait_idle(page)
    page.get_by_text("quasi-identifiers, 1 sensitive attribute, 6 direct").first.wait_for()


def full_page(page) -> bytes:
    """Return a screenshot of the whole page (the window stretched to its height, then
    restored: Streamlit scrolls inside its main container)."""
    size = page.viewport_size
    height = page_height(page)
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], height + 40)})
    page.wait_for_timeout(1500)  # the charts redraw at the new size
    raw = page.screenshot(full_page=True)
    page.set_viewport_size(size)
    return raw


def people_views(browser, url: str, names: list[str]) -> None:
    """Save the :data:`PEOPLE` screenshots named in ``names``, on the claims in people."""
    ctx = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    page = ctx.new_page()
    page.set_default_timeout(120_000)
    page.goto(url)
    wait_idle(page)
    with tempfile.TemporaryDirectory() as folder:
        claims_data(page, Path(folder))
    for name in names:
        title, press = PEOPLE[name]
        page.get_by_role("link", name=title).first.click()
        wait_idle(page)
        if press is not None:
            page.get_by_role("button", name=press).first.click()
            wait_idle(page)
        page.mouse.wheel(0, -10_000)
        data = optimized_png(full_page(page))
        (IMG / f"{name}.png").write_bytes(data)
        print(f"docs/img/{name}.png: {len(data) // 1024} KB")
        if name == "people-remediate" and "people-report" in names:  # a report before / after
            page.get_by_role("button", name="Apply these levels (a step in the history)").click()
            wait_idle(page)
            page.get_by_text("History: 1 of 1 step applied.").first.wait_for()
    ctx.close()


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

    wanted = names or [*PAGES, *VIEWS, *PEOPLE]
    unknown = [n for n in wanted if n not in PAGES and n not in VIEWS and n not in PEOPLE]
    if unknown:
        print(f"unknown page(s): {', '.join(unknown)}; pages: "
              f"{', '.join([*PAGES, *VIEWS, *PEOPLE])}", file=sys.stderr)  # fmt: skip
        return 2
    people = [n for n in wanted if n in PEOPLE]  # on the claims, after the demo's pages
    wanted = [n for n in wanted if n not in PEOPLE]
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
            title, view = VIEWS.get(name, (PAGES.get(name), None))
            page.get_by_role("link", name=title).first.click()
            wait_idle(page)
            if view is not None:
                view(page)
            if name in PRESS:
                page.get_by_role("button", name=PRESS[name]).first.click()
                wait_idle(page)
            page.wait_for_timeout(1500)  # charts finish drawing
            data = optimized_png(page.screenshot())
            (IMG / f"{name}.png").write_bytes(data)
            print(f"docs/img/{name}.png: {len(data) // 1024} KB")
            if name == "report":
                save_assessment(page)
            if name in AFTER:
                AFTER[name](page)
        if people:
            people_views(browser, url, people)
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
