"""Bounded loopback load: N concurrent browser sessions, each uploading UCI Adult.

Starts ``streamlit run app.py`` on a free loopback port and drives Debian's Chromium
(headless, one browser, one context per user) with Playwright's async API:

1. a demo session opens every page and closes (the libraries a page imports load once);
   ``--rest`` seconds later the server's idle memory is read;
2. ``--sessions`` users at once (default 8) each open the app, upload
   ``../shared/data/adult.csv`` (32,561 rows) on the Data page and open every page, waiting
   on each until the app is idle; no page may show an exception or "This app has encountered
   an error";
3. the resident memory (RSS) of the server's process tree is sampled every 0.5 s during the
   sessions, and every 30 s for ``--linger`` seconds (default 300) after their tabs closed
   [target: within 300 MB of idle].

Prints the median and worst page and upload times (seconds from the click to the app idle).
Run: ``.venv/bin/python benchmarks/bench_concurrent.py``. Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests import load  # noqa: E402
from tests.live import serve  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--csv", type=Path, default=ROOT.parent / "shared" / "data" / "adult.csv")
    parser.add_argument("--rest", type=float, default=30.0, help="seconds before idle is read")
    parser.add_argument("--linger", type=float, default=300.0, help="seconds after the tabs close")
    args = parser.parse_args()
    if not args.csv.exists():
        raise SystemExit(f"{args.csv} is missing (see ../shared/data/README.md)")
    print(
        f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f} (other work on the machine inflates times)"
    )
    with serve() as (url, proc, _):
        result = load.run(url, proc.pid, args.csv, sessions=args.sessions, rest=args.rest)
        for s in result.sessions:
            pages = {k: v for k, v in s.times.items() if k not in ("open", "upload")}
            worst = max(pages, key=pages.get) if pages else "-"
            print(
                f"  session {s.index}: upload {s.times.get('upload', float('nan')):5.1f} s, "
                f"{len(pages)} pages, slowest {worst} {pages.get(worst, float('nan')):.1f} s, "
                f"errors: {len(s.errors)}"
            )
            for e in s.errors:
                print(f"    {e}")
        print(f"all {args.sessions} sessions done in {result.wall:.0f} s")
        for title, _, _ in load.PAGES:
            times = [s.times[title] for s in result.sessions if title in s.times]
            print(
                f"  {title:<24} median {statistics.median(times):5.1f} s, worst {max(times):5.1f} s"
            )
        fig = result.summary()
        print(f"every page: median {fig['page median']:.1f} s, worst {fig['page worst']:.1f} s")
        print(f"upload: median {fig['upload median']:.1f} s, worst {fig['upload worst']:.1f} s")
        print(
            f"server RSS (process tree): cold {result.rss_cold:.0f} MB, idle after a demo "
            f"session {result.rss_idle:.0f} MB, peak during {result.rss_peak:.0f} MB"
        )
        start = time.perf_counter()
        after = load.tree_rss_mb(proc.pid)
        while time.perf_counter() - start < args.linger:
            time.sleep(min(30.0, args.linger - (time.perf_counter() - start)))
            after = load.tree_rss_mb(proc.pid)
            print(f"  {time.perf_counter() - start:5.0f} s after the tabs closed: {after:.0f} MB")
        ok = after - result.rss_idle <= 300 and all(s.complete for s in result.sessions)
        print(
            f"after {args.linger:.0f} s: {after:.0f} MB, {after - result.rss_idle:+.0f} MB "
            f"against idle [target within 300 MB]{'  ok' if ok else '  MISSED'}"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
