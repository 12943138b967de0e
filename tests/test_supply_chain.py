"""The offline dependency audit and the SBOM check fail when what they check breaks.

An audit that exits 0 having checked nothing is worse than none: every way of checking
nothing (an empty or foreign list, no pins, an unpinned or never looked-up package) must
exit 2, and a matching advisory must exit 1.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from security import audit, sbom

ROOT = Path(__file__).resolve().parents[1]
REAL = json.loads((ROOT / "security" / "advisories.json").read_text(encoding="utf-8"))
PINS = dict(audit.read_pins(ROOT / "requirements-dev.txt"))


def run(tmp_path: Path, data: dict, requirements: str | None = None) -> int:
    adv = tmp_path / "advisories.json"
    adv.write_text(json.dumps(data), encoding="utf-8")
    args = ["--advisories", str(adv)]
    if requirements is not None:
        req = tmp_path / "requirements.txt"
        req.write_text(requirements, encoding="utf-8")
        args += ["--requirements", str(req)]
    return audit.main(args)


def fake(package: str, events: list[dict[str, str]], versions: tuple[str, ...] = ()) -> dict:
    return {
        "id": "TEST-0001",
        "aliases": [],
        "package": package,
        "summary": "a test advisory",
        "affected": [
            {"ranges": [{"type": "ECOSYSTEM", "events": events}], "versions": list(versions)}
        ],
    }


def with_advisory(advisory: dict) -> dict:
    data = copy.deepcopy(REAL)
    data["advisories"].append(advisory)
    return data


def test_the_real_list_passes_with_our_pins(capsys) -> None:
    assert audit.main([]) == 0
    out = capsys.readouterr().out
    checked = len([n for n in PINS if audit.normalize(n) not in audit.SELF])
    assert f"audit: {checked} packages checked" in out
    assert checked >= 20


def test_streamlit_is_pinned_past_every_published_streamlit_advisory() -> None:
    mine = [a for a in REAL["advisories"] if a["package"] == "streamlit"]
    ids = {x for a in mine for x in [a["id"], *a["aliases"]]}
    # Streamlit's own advisories: path traversal (2022, Windows 2024), SSRF on Windows (2026),
    # cache hash collisions (2026)
    assert {"CVE-2022-35918", "CVE-2024-42474", "CVE-2026-33682", "CVE-2026-10804"} <= ids
    assert not [a["id"] for a in mine if audit.affects(a, PINS["streamlit"])]
    assert [a["id"] for a in mine if audit.affects(a, "1.53.0")]


def test_the_real_list_catches_known_vulnerable_versions(tmp_path, capsys) -> None:
    reqs = "streamlit==1.11.0\nsetuptools==65.5.0\ncryptography==48.0.0\nweasyprint==68.1\n"
    assert run(tmp_path, REAL, reqs) == 1
    out = capsys.readouterr().out
    for name in ("streamlit==1.11.0", "setuptools==65.5.0", "cryptography==48.0.0"):
        assert f"VULNERABLE {name}" in out
    assert "GHSA-jhhc-3hcp-qhm5" in out  # last_affected 68.1: 68.1 itself is affected


def test_a_fake_advisory_on_a_pin_fails(tmp_path, capsys) -> None:
    data = with_advisory(fake("streamlit", [{"introduced": "1.60"}, {"fixed": "1.68.0"}]))
    assert run(tmp_path, data) == 1
    assert f"VULNERABLE streamlit=={PINS['streamlit']}: TEST-0001" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("events", "versions", "hit"),
    [
        ([{"introduced": "0"}, {"fixed": "9.0.3"}], (), False),  # the fixed version is safe
        ([{"introduced": "0"}, {"fixed": "9.0.4"}], (), True),
        ([{"introduced": "0"}, {"last_affected": "9.0.3"}], (), True),
        ([{"introduced": "9.1"}], (), False),  # introduced later
        ([{"introduced": "9.0"}], (), True),  # no fix yet
        (  # a second range reopens
            [{"introduced": "0"}, {"fixed": "8"}, {"introduced": "9.0.1"}, {"fixed": "9.1"}],
            (),
            True,
        ),
        ([{"introduced": "0"}, {"fixed": "8"}], ("9.0.3",), True),  # listed explicitly
    ],
)
def test_range_evaluation(tmp_path, events, versions, hit) -> None:
    data = with_advisory(fake("pytest", events, versions))
    assert run(tmp_path, data, "pytest==9.0.3\n") == (1 if hit else 0)


def test_a_withdrawn_advisory_does_not_count(tmp_path) -> None:
    advisory = fake("pytest", [{"introduced": "0"}])
    advisory["withdrawn"] = "2026-01-01"
    assert run(tmp_path, with_advisory(advisory), "pytest==9.0.3\n") == 0


@pytest.mark.parametrize(
    "breaks",
    [
        lambda d: d.update(advisories=[]),
        lambda d: d.update(format="osv-dump/0"),
        lambda d: d.update(packages=[]),
        lambda d: d["sources"][0].pop("date"),
        lambda d: d["advisories"][0].pop("affected"),
    ],
    ids=["empty", "other-format", "no-packages", "undated-source", "no-ranges"],
)
def test_a_list_that_would_check_nothing_is_refused(tmp_path, breaks) -> None:
    data = copy.deepcopy(REAL)
    breaks(data)
    assert run(tmp_path, data) == 2


@pytest.mark.parametrize(
    "requirements",
    [
        "# nothing pinned\n-e .\n",
        "streamlit>=1.54\n",
        "streamlit==1.*\n",
        "a-package-never-looked-up==1.0\n",
        "-r other.txt\n",
    ],
    ids=["zero-packages", "unpinned", "wildcard", "not-looked-up", "include"],
)
def test_requirements_that_cannot_be_checked_are_refused(tmp_path, requirements) -> None:
    assert run(tmp_path, REAL, requirements) == 2


def test_a_missing_list_is_refused(tmp_path) -> None:
    assert audit.main(["--advisories", str(tmp_path / "nowhere.json")]) == 2


def test_installed_checks_the_whole_environment(capsys, monkeypatch) -> None:
    assert audit.main(["--installed"]) in (0, 1)  # 1 in a venv with its bundled old pip
    out = capsys.readouterr().out
    n = int(out.split("audit: ", 1)[1].split(" packages")[0])
    assert n >= len(PINS)  # requirements-dev.txt is a full lock: every pin is installed
    # a distribution installed beside the pins is checked too: one never looked up is refused
    extra = [*audit.installed(), ("left-pad-never-looked-up", "1.0")]
    monkeypatch.setattr(audit, "installed", lambda: extra)
    assert audit.main(["--installed"]) == 2
    assert "left-pad-never-looked-up" in capsys.readouterr().err


def sbom_file(tmp_path: Path, components: list[dict]) -> Path:
    path = tmp_path / "sbom.cdx.json"
    doc = {"bomFormat": "CycloneDX", "specVersion": "1.6", "components": components}
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_sbom_check_needs_every_pin_at_its_version(tmp_path) -> None:
    all_pins = [{"name": n, "version": v} for n, v in PINS.items()]
    assert sbom.problems(sbom_file(tmp_path, all_pins), ROOT / "requirements-dev.txt") == []
    without = [c for c in all_pins if c["name"] != "streamlit"]
    found = sbom.problems(sbom_file(tmp_path, without), ROOT / "requirements-dev.txt")
    assert found == ["streamlit is pinned but not in the SBOM"]
    other = [dict(c, version="0.1") if c["name"] == "streamlit" else c for c in all_pins]
    assert (
        "streamlit: the SBOM has 0.1"
        in sbom.problems(sbom_file(tmp_path, other), ROOT / "requirements-dev.txt")[0]
    )
    assert sbom.problems(sbom_file(tmp_path, []), ROOT / "requirements-dev.txt")
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    assert sbom.main([str(tmp_path / "bad.json")]) == 1
