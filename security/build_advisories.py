"""Rebuild ``security/advisories.json`` from a snapshot of the PyPA advisory database.

The audit (``python -m security.audit``) runs offline against this vendored list. The list
holds, for every package of the pinned environment (``requirements.txt`` and whatever is
installed beside it), each advisory of the PyPA advisory database (OSV format,
https://github.com/pypa/advisory-database) that names the package, plus the later
advisories transcribed by hand in ``security/advisories_extra.json`` (each with its source).
A package that was looked up and has no advisory is listed under ``packages`` all the same,
so that the audit can tell "checked, nothing known" from "never looked up".

Run (with a git clone of the advisory database)::

    python -m security.build_advisories /path/to/advisory-database

It reads the clone's ``HEAD`` with ``git`` (no work tree is needed) and records its commit
and date.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from security.audit import FORMAT, normalize, read_pins

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
GIT = "/usr/bin/git"


def git(repo: Path, *args: str) -> str:
    """Return the output of ``git -C repo args`` (a local, read-only command)."""
    return subprocess.run(  # noqa: S603 - fixed program, arguments from this script
        [GIT, "-C", str(repo), *args], check=True, capture_output=True, text=True
    ).stdout


def distributions(python: str) -> set[str]:
    """Return the normalized names of the distributions installed for an interpreter."""
    code = (
        "import importlib.metadata as m, json;"
        "print(json.dumps([d.metadata['Name'] for d in m.distributions()]))"
    )
    out = subprocess.run(  # noqa: S603 - an interpreter named on our own command line
        [python, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    return {normalize(n) for n in json.loads(out)}


def trim(entry: dict[str, Any], name: str) -> dict[str, Any]:
    """Keep what the audit needs of one OSV entry: ids, summary, the ranges for ``name``."""
    affected = [
        {
            "ranges": [r for r in a.get("ranges", []) if r.get("type") == "ECOSYSTEM"],
            "versions": [str(v) for v in a.get("versions", [])],
        }
        for a in entry.get("affected", [])
        if normalize(a.get("package", {}).get("name", "")) == name
    ]
    text = (entry.get("summary") or entry.get("details") or "").strip().split("\n")[0]
    urls = [r["url"] for r in entry.get("references", []) if r.get("type") == "ADVISORY"]
    return {
        "id": entry["id"],
        "aliases": sorted(entry.get("aliases", [])),
        "package": name,
        "summary": text[:300],
        "affected": affected,
        "published": str(entry.get("published", ""))[:10],
        "withdrawn": str(entry.get("withdrawn", ""))[:10] or None,
        "url": urls[0] if urls else None,
        "source": "pypa/advisory-database",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", type=Path, help="a git clone of pypa/advisory-database")
    parser.add_argument("--out", type=Path, default=HERE / "advisories.json")
    parser.add_argument(
        "--python",
        action="append",
        default=[sys.executable],
        help="also cover what this interpreter has installed (repeatable)",
    )
    args = parser.parse_args(argv)
    repo = args.database
    commit, date = git(repo, "log", "-1", "--format=%H %cI").split()
    names = {normalize(n) for n, _ in read_pins(ROOT / "requirements-dev.txt")}
    for python in args.python:
        names |= distributions(python)
    names.discard("riskcore")  # this project, not a published package
    folders = {
        normalize(p.rsplit("/", 1)[-1]): p
        for p in git(repo, "ls-tree", "--name-only", "HEAD", "vulns/").split()
    }
    advisories = []
    for name in sorted(names):
        folder = folders.get(name)
        if folder is None:
            continue
        for path in git(repo, "ls-tree", "-r", "--name-only", "HEAD", folder + "/").split():
            entry = yaml.safe_load(git(repo, "show", f"HEAD:{path}"))
            advisories.append(trim(entry, name))
    extra = json.loads((HERE / "advisories_extra.json").read_text(encoding="utf-8"))
    known = {a["id"] for a in advisories} | {x for a in advisories for x in a["aliases"]}
    for item in extra["advisories"]:
        if item["id"] in known or known & set(item["aliases"]):
            continue  # the database has caught up with a hand-transcribed entry
        advisories.append(item)
    out = {
        "format": FORMAT,
        "generated": dt.date.today().isoformat(),
        "sources": [
            {
                "name": "pypa/advisory-database",
                "url": "https://github.com/pypa/advisory-database",
                "commit": commit,
                "date": date[:10],
                "note": "every advisory naming a package below, as of this commit",
            },
            extra["source"],
        ],
        "packages": sorted(names),
        "advisories": sorted(advisories, key=lambda a: (a["package"], a["id"])),
    }
    args.out.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(advisories)} advisories on {len(names)} packages -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
