"""The documentation site (mkdocs.yml, docs/): every page of the app has a guide page showing
its screenshot, every page is in the navigation, and the CLI reference is generated from the
parser. ``mkdocs build --strict`` in .ci/run checks the links and references."""

from __future__ import annotations

import importlib.util
import re
import struct
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
APP_PAGES = sorted(p.stem for p in (ROOT / "pages").glob("*.py") if p.stem != "__init__")


def _module(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


def nav_files(node) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, list):
        return [f for item in node for f in nav_files(item)]
    if isinstance(node, dict):
        return [f for value in node.values() for f in nav_files(value)]
    return []


def test_every_app_page_has_a_guide_page_with_its_screenshot():
    assert len(APP_PAGES) == 11
    for stem in APP_PAGES:
        guide = DOCS / "guide" / f"{stem}.md"
        assert guide.is_file(), f"pages/{stem}.py has no guide page docs/guide/{stem}.md"
        images = re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", guide.read_text(encoding="utf-8"))
        assert f"../img/{stem}.png" in images, f"{guide} does not show ../img/{stem}.png"
        image = DOCS / "img" / f"{stem}.png"
        assert image.is_file(), f"{image} is missing: python scripts/docs_screenshots.py {stem}"
        width, height = png_size(image)
        assert width == 1400 and height >= 600, (stem, width, height)
        assert image.stat().st_size < 400_000, f"{image} is over 400 KB"


def test_the_screenshot_script_knows_every_page_by_its_title_in_the_router():
    shots = _module(ROOT / "scripts" / "docs_screenshots.py")
    assert sorted(shots.PAGES) == APP_PAGES
    router = (ROOT / "app.py").read_text(encoding="utf-8")
    for stem, title in shots.PAGES.items():
        assert f'st.Page("pages/{stem}.py", title="{title}"' in router, stem


def test_every_view_the_screenshot_script_draws_is_shown_by_its_docs_page():
    shots = _module(ROOT / "scripts" / "docs_screenshots.py")
    assert (
        set(shots.VIEWS)
        == set(shots.VIEW_DOCS)
        >= {"remediate-history", "remediate-hierarchy-builder", "remediate-perturb"}
    )
    for name, where in shots.VIEW_DOCS.items():
        doc = DOCS / where
        images = re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", doc.read_text(encoding="utf-8"))
        up = "../" * (len(Path(where).parts) - 1)
        assert f"{up}img/{name}.png" in images, f"{doc} does not show {up}img/{name}.png"
        image = DOCS / "img" / f"{name}.png"
        assert image.is_file(), f"{image} is missing: python scripts/docs_screenshots.py {name}"
        assert png_size(image)[0] == 1400 and image.stat().st_size < 400_000, name


def test_every_docs_page_is_in_the_navigation():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("\nhooks:")[0])
    assert config["docs_dir"] == "docs"
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = nav_files(yaml.safe_load(text[text.index("\nnav:") :])["nav"])
    pages = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md"))
    assert sorted(nav) == pages
    for stem in APP_PAGES:
        assert f"guide/{stem}.md" in nav


def test_the_cli_reference_is_generated_for_every_command():
    from riskcore.cli import build_parser as _build_parser

    hooks = _module(ROOT / "scripts" / "mkdocs_hooks.py")
    text = hooks.cli_reference()
    parser = _build_parser()
    (sub,) = (a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    for name, command in sub.choices.items():
        assert f"`riskcore {name}`" in text, name
        for action in command._actions:  # every option of every command, from the parser
            for flag in action.option_strings:
                assert flag in text, (name, flag)
    assert "`riskcore report verify`" in text and "--trust" in text
    page = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    assert hooks.MARKER in page
    assert hooks.on_page_markdown(page, None, None, None).count("```text") == text.count("```text")


def test_every_public_module_is_in_the_api_reference():
    hooks = _module(ROOT / "scripts" / "mkdocs_hooks.py")
    covered: set[str] = set()
    for page in (DOCS / "reference" / "api").glob("*.md"):
        for marker in hooks.API.findall(page.read_text(encoding="utf-8")):
            for package in marker.split():
                covered |= set(hooks.public_modules(package))
    public = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for p in (ROOT / "riskcore").rglob("*.py")
        if not any(part.startswith("_") for part in p.relative_to(ROOT).parts[:-1])
        and (p.stem == "__init__" or not p.stem.startswith("_"))
    }
    public.discard("riskcore")  # the package's own names are on reference/api.md
    assert public - covered == set(), "public modules missing from docs/reference/api/*.md"
    assert "riskcore.metrics.special_uniques" in covered and "riskcore.dp.release" in covered
    # a package's block lists no members (they are documented once, in their modules)
    text = hooks.api_reference(["riskcore.metrics"])
    head = "    options:\n      show_root_heading: false\n"
    assert f"::: riskcore.metrics\n{head}      members: false\n" in text
    assert f"::: riskcore.metrics.special_uniques\n{head}\n" in text + "\n"


def test_the_claims_how_to_shows_every_page_in_people():
    shots = _module(ROOT / "scripts" / "docs_screenshots.py")
    assert set(shots.PEOPLE) == {
        f"people-{p}"
        for p in (
            "uniqueness",
            "anonymity",
            "records",
            "remediate",
            "report",
            "attacks",
            "dp",
            "ldp",
        )
    }
    doc = DOCS / "howto" / "claims.md"
    images = re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", doc.read_text(encoding="utf-8"))
    for name in shots.PEOPLE:
        assert f"../img/{name}.png" in images, f"{doc} does not show ../img/{name}.png"
        image = DOCS / "img" / f"{name}.png"
        assert image.is_file(), f"{image} is missing: python scripts/docs_screenshots.py {name}"
        assert png_size(image)[0] == 1400 and image.stat().st_size < 400_000, name
