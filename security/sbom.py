"""Check a CycloneDX SBOM of the environment against the pins of ``requirements-dev.txt``.

``.ci/run`` writes the SBOM with ``cyclonedx-py environment`` and runs
``python -m security.sbom build/sbom.cdx.json``, which exits 1 unless the file is a
CycloneDX JSON document whose components include every pinned package at its pinned
version (so an empty, truncated or stale SBOM fails CI).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from security.audit import ROOT, AuditError, normalize, read_pins


def problems(sbom: Path, requirements: Path) -> list[str]:
    """Return what is wrong with the SBOM (an empty list when it lists every pin)."""
    try:
        data = json.loads(sbom.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return [f"cannot read {sbom} as JSON: {exc}"]
    if not isinstance(data, dict) or data.get("bomFormat") != "CycloneDX":
        return [f"{sbom} is not a CycloneDX document"]
    components = data.get("components") or []
    versions = {
        normalize(str(c.get("name", ""))): str(c.get("version", ""))
        for c in components
        if isinstance(c, dict)
    }
    if not versions:
        return [f"{sbom} lists no component"]
    try:
        pins = read_pins(requirements)
    except AuditError as exc:
        return [str(exc)]
    out = []
    for name, version in pins:
        found = versions.get(normalize(name))
        if found is None:
            out.append(f"{name} is pinned but not in the SBOM")
        elif found != version:
            out.append(f"{name}: the SBOM has {found}, {requirements.name} pins {version}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sbom", type=Path)
    parser.add_argument("--requirements", type=Path, default=ROOT / "requirements-dev.txt")
    args = parser.parse_args(argv)
    found = problems(args.sbom, args.requirements)
    for problem in found:
        print(f"sbom: {problem}", file=sys.stderr)
    if found:
        return 1
    n = len(json.loads(args.sbom.read_text(encoding="utf-8"))["components"])
    print(f"sbom: {args.sbom} lists {n} components, every pin of {args.requirements.name} included")
    return 0


if __name__ == "__main__":
    sys.exit(main())
