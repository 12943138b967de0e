"""Offline dependency audit: the pinned packages against a vendored advisory list.

``pip-audit`` cannot reach its database on this machine and still exits 0 having checked
nothing. This audit needs no network: it reads the exact pins of ``requirements-dev.txt``
(a superset of the app's ``requirements.txt``, checked by :mod:`security.lockcheck`)
(and, with ``--installed``, every distribution installed in the running environment,
transitive dependencies included), matches each version against the affected ranges of
``security/advisories.json`` (OSV ``ECOSYSTEM`` ranges and explicit version lists, with
PEP 440 ordering from ``packaging``) and exits

* 0 when at least one package was checked and none is affected;
* 1 when a checked version is affected by an advisory (each is printed);
* 2 when it could not check properly: the list is missing, of another format, empty or
  without a dated source; a requirement is not pinned with ``==``; a package was never
  looked up when the list was built (rebuild it with ``security/build_advisories.py``);
  or nothing at all was checked.

Run: ``python -m security.audit`` (add ``--installed`` for the whole environment).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement
from packaging.version import InvalidVersion, Version

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FORMAT = "riskcore-advisories/1"
#: This project itself (installed editable), which no advisory database lists.
SELF = {"riskcore"}


class AuditError(Exception):
    """The audit could not check what it was asked to check (exit status 2)."""


@dataclass(frozen=True)
class Finding:
    """One checked package version affected by one advisory."""

    package: str
    version: str
    advisory: dict[str, Any]

    def __str__(self) -> str:
        a = self.advisory
        ids = ", ".join([a["id"], *a.get("aliases", [])])
        fixed = sorted({e["fixed"] for r in ranges_of(a) for e in r if "fixed" in e}, key=Version)
        fix = f"fixed in {', '.join(fixed)}" if fixed else "no fixed version listed"
        return f"{self.package}=={self.version}: {ids} ({fix}): {a.get('summary', '')}"


def normalize(name: str) -> str:
    """Return a distribution name normalized as PEP 503 does (``Jinja2`` -> ``jinja2``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def read_pins(path: Path) -> list[tuple[str, str]]:
    """Return (name, version) for every requirement of a requirements file.

    Comments, blank lines and editable installs of a local folder (``-e .``) are skipped;
    every other requirement must be pinned with a single ``==`` and no wildcard.

    Raises
    ------
    AuditError
        On an unpinned requirement or an option this reader does not follow.
    """
    pins = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith(("-e ", "--editable ")) and line.split()[-1].startswith("."):
            continue  # this project itself
        if line.startswith("-"):
            raise AuditError(f"{path.name}:{number}: option not followed by the audit: {line}")
        try:
            req = Requirement(line)
        except InvalidRequirement as exc:
            raise AuditError(f"{path.name}:{number}: {exc}") from None
        specs = list(req.specifier)
        if len(specs) != 1 or specs[0].operator != "==" or "*" in specs[0].version:
            raise AuditError(f"{path.name}:{number}: {req.name} is not pinned with ==")
        pins.append((req.name, specs[0].version))
    return pins


def installed() -> list[tuple[str, str]]:
    """Return (name, version) of every distribution installed in this environment."""
    found = {normalize(d.metadata["Name"]): d.version for d in metadata.distributions()}
    return sorted(found.items())


def load(path: Path) -> dict[str, Any]:
    """Read and check the advisory list.

    Raises
    ------
    AuditError
        When the file is missing, not JSON, of another format, has no dated source,
        covers no package or holds no advisory.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise AuditError(f"cannot read the advisory list {path}: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise AuditError(f"{path} is not a {FORMAT} advisory list")
    sources = data.get("sources")
    if not sources or not all(
        isinstance(s, dict) and re.fullmatch(r"\d{4}-\d\d-\d\d", str(s.get("date")))
        for s in sources
    ):
        raise AuditError(f"{path}: every source must carry its date (YYYY-MM-DD)")
    advisories = data.get("advisories")
    if not isinstance(advisories, list) or not advisories:
        raise AuditError(f"{path} holds no advisory: an empty list would check nothing")
    packages = data.get("packages")
    if not isinstance(packages, list) or not packages:
        raise AuditError(f"{path} lists no package that was looked up")
    for a in advisories:
        if not (isinstance(a, dict) and a.get("id") and a.get("package")):
            raise AuditError(f"{path}: an advisory without id or package: {a!r:.120}")
        if not isinstance(a.get("affected"), list) or not all(
            isinstance(x, dict) and ("ranges" in x or "versions" in x) for x in a["affected"]
        ):
            raise AuditError(f"{path}: {a['id']} has no affected ranges or versions")
    return data


def ranges_of(advisory: dict[str, Any]) -> Iterable[list[dict[str, str]]]:
    """Yield the event lists of the advisory's ``ECOSYSTEM`` ranges."""
    for affected in advisory["affected"]:
        for r in affected.get("ranges", []):
            if r.get("type") == "ECOSYSTEM":
                yield r["events"]


def _bound(event: dict[str, str]) -> Version:
    value = next(iter(event.values()))
    return Version("0") if value == "0" else Version(value)


def in_range(version: Version, events: list[dict[str, str]]) -> bool:
    """Return whether ``version`` is affected by one OSV range (the OSV spec's evaluation:
    events in version order; ``introduced`` opens, ``fixed`` closes at, ``last_affected``
    closes after)."""
    affected = False
    for event in sorted(events, key=_bound):
        bound = _bound(event)
        if "introduced" in event and version >= bound:
            affected = True
        elif "fixed" in event and version >= bound:
            affected = False
        elif "last_affected" in event and version > bound:
            affected = False
    return affected


def affects(advisory: dict[str, Any], version: str) -> bool:
    """Return whether the advisory affects this version of its package."""
    if advisory.get("withdrawn"):
        return False
    v = Version(version)
    for affected in advisory["affected"]:
        for listed in affected.get("versions", []):
            try:
                if Version(listed) == v:
                    return True
            except InvalidVersion:
                continue
    return any(in_range(v, events) for events in ranges_of(advisory))


def audit(pins: list[tuple[str, str]], data: dict[str, Any]) -> tuple[int, list[Finding]]:
    """Match the pins against the list; return (packages checked, findings).

    Raises
    ------
    AuditError
        When a package was never looked up for the list, a version is not PEP 440, or no
        package was checked.
    """
    covered = {normalize(p) for p in data["packages"]}
    by_package: dict[str, list[dict[str, Any]]] = {}
    for a in data["advisories"]:
        by_package.setdefault(normalize(a["package"]), []).append(a)
    checked, findings, missing = 0, [], []
    for name, version in pins:
        key = normalize(name)
        if key in SELF:
            continue
        if key not in covered:
            missing.append(name)
            continue
        try:
            Version(version)
        except InvalidVersion:
            raise AuditError(f"{name}=={version} is not a PEP 440 version") from None
        checked += 1
        findings += [
            Finding(name, version, a) for a in by_package.get(key, []) if affects(a, version)
        ]
    if missing:
        raise AuditError(
            "never looked up when the advisory list was built (rebuild it with "
            f"security/build_advisories.py): {', '.join(sorted(missing))}"
        )
    if checked == 0:
        raise AuditError("no package was checked")
    return checked, findings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requirements", type=Path, default=ROOT / "requirements-dev.txt")
    parser.add_argument("--advisories", type=Path, default=HERE / "advisories.json")
    parser.add_argument(
        "--installed",
        action="store_true",
        help="also check every distribution installed in this environment",
    )
    args = parser.parse_args(argv)
    try:
        data = load(args.advisories)
        pins = read_pins(args.requirements)
        what = f"{len(pins)} pins of {args.requirements.name}"
        if args.installed:
            pins = sorted(set(pins) | set(installed()))
            what += " and the installed distributions"
        checked, findings = audit(pins, data)
    except AuditError as exc:
        print(f"audit: cannot check: {exc}", file=sys.stderr)
        return 2
    dates = ", ".join(f"{s['name']} {s['date']}" for s in data["sources"])
    age = (dt.date.today() - dt.date.fromisoformat(data["generated"])).days
    print(
        f"audit: {checked} packages checked ({what}) against {len(data['advisories'])} "
        f"advisories (list built {data['generated']}, {age} days ago; sources: {dates})"
    )
    for finding in findings:
        print(f"VULNERABLE {finding}")
    if findings:
        print(f"audit: {len(findings)} known-vulnerable pin(s)", file=sys.stderr)
        return 1
    print("audit: no known-vulnerable version")
    return 0


if __name__ == "__main__":
    sys.exit(main())
