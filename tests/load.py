"""Concurrent browser sessions against a live server, for the load test and its benchmark.

:func:`run` opens one browser (Debian's Chromium, headless) with ``n`` contexts at once; each
opens the demo, uploads a CSV on the Data page and then opens every page of the app, waiting
on each until the app is idle (:data:`tests.live.BUSY`). It records each page's time, whatever
error the page shows, and the resident memory of the server's process tree before (cold, and
idle after a demo session opened every page and closed) and during the sessions.

Only the loopback server is contacted: a request to any other host is recorded as an error.
Used by ``tests/browser/test_load.py`` and ``benchmarks/bench_concurrent.py``.
"""

from __future__ import annotations

import asyncio
import shutil
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

from tests.live import BUSY

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"]
ARGS += ["--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: Every page of the app: its link in the sidebar, its heading, and a text it shows once drawn
#: (the Attacks page shows its result at once up to 200,000 rows, else a Run button).
PAGES = [
    ("Uniqueness", "Uniqueness", "Records by equivalence-class size"),
    ("Anonymity (k / l / t)", "Anonymity: k / l / t", "Re-identification risk"),
    ("Records", "Records: special uniques", "Largest combination searched"),
    ("Attacks", "Attacks", "Possible identities per target"),
    ("Remediate", "Remediate", "Least information loss"),
    ("Differential privacy", "Differential privacy", "Differential privacy"),
    ("Local DP", "Local differential privacy", "Local"),
    ("Report", "Report", "Build the report"),
    ("Saved assessments", "Saved assessments", "Nothing is saved yet"),
    ("Guided demo", "Guided demo", "Guided demo"),
    ("Data", "Data", "Column roles"),
]
CRASH = "This app has encountered an error"
UPLOADER = '[data-testid="stFileUploader"] input[type="file"]'


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree_rss_mb(pid: int) -> float:
    """Return the resident set size of a process and all its descendants, in MB."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += _rss_kb(p)
        todo += children.get(p, [])
    return total / 1024


@dataclass
class Session:
    """What one browser context did: seconds per step, and the errors it saw."""

    index: int
    times: dict[str, float] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.errors and all(title in self.times for title, _, _ in PAGES)


@dataclass
class Load:
    """The sessions and the server's memory (MB, whole process tree)."""

    sessions: list[Session]
    rss_cold: float
    rss_idle: float
    rss_peak: float
    wall: float

    def page_times(self) -> list[float]:
        return [t for s in self.sessions for k, t in s.times.items() if k not in ("open", "upload")]

    def summary(self) -> dict[str, float]:
        pages, uploads = self.page_times(), [s.times["upload"] for s in self.sessions]
        return {
            "page median": statistics.median(pages),
            "page worst": max(pages),
            "upload median": statistics.median(uploads),
            "upload worst": max(uploads),
        }


async def settle(page, t0: float, quiet: float = 1.5, timeout: float = 300.0) -> float:
    """Wait until the app has not been busy for ``quiet`` seconds; return the seconds from
    ``t0`` to the last moment it was busy."""
    last_busy = time.perf_counter()
    while True:
        now = time.perf_counter()
        if await page.evaluate(BUSY):
            last_busy = now
        elif now - last_busy >= quiet:
            return last_busy - t0
        if now - t0 > timeout:
            raise TimeoutError(f"the app was still busy after {timeout:g} s")
        await asyncio.sleep(0.2)


async def _errors(page, where: str) -> list[str]:
    out = []
    if n := await page.locator('[data-testid="stException"]').count():
        out.append(f"{where}: {n} exception element(s)")
    if await page.get_by_text(CRASH).count():
        out.append(f"{where}: {CRASH!r}")
    return out


async def session(browser, url: str, index: int, csv: Path | None, rows: int) -> Session:
    """One user: open the app, upload ``csv`` (None: stay on the demo), open every page."""
    result = Session(index)
    ctx = await browser.new_context(viewport={"width": 1400, "height": 1000})
    page = await ctx.new_page()
    page.set_default_timeout(300_000)

    def outside(request) -> None:
        if not request.url.startswith(("data:", "blob:")) and urlparse(
            request.url
        ).hostname not in ("localhost", "127.0.0.1"):
            result.errors.append(f"request beyond localhost: {request.url}")

    page.on("request", outside)
    step = "open"
    try:
        t0 = time.perf_counter()
        await page.goto(url)
        await page.get_by_text("Column roles").first.wait_for()
        result.times["open"] = await settle(page, t0)
        if csv is not None:
            step = "upload"
            t0 = time.perf_counter()
            await page.locator(UPLOADER).first.set_input_files(str(csv))
            await page.get_by_text(f"{csv.name}: {rows:,} rows").first.wait_for()
            result.times["upload"] = await settle(page, t0)
            result.errors += await _errors(page, "Data after the upload")
        for title, heading, text in PAGES:
            step = title
            t0 = time.perf_counter()
            await page.get_by_role("link", name=title).first.click()
            drawn = page.locator('[data-testid="stMain"] h1').filter(has_text=heading)
            await drawn.or_(page.get_by_text(CRASH)).first.wait_for()
            await page.get_by_text(text).or_(page.get_by_text(CRASH)).first.wait_for()
            result.times[title] = await settle(page, t0)
            result.errors += await _errors(page, title)
            if csv is not None and not await page.get_by_text(csv.name).count():
                result.errors.append(f"{title}: the session no longer shows {csv.name}")
    except Exception as exc:  # a timeout or a closed page: this session failed, say where
        result.errors.append(f"{step}: {type(exc).__name__}: {str(exc).splitlines()[0]}")
    finally:
        await ctx.close()
    return result


async def _sample(pid: int, peak: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        peak.append(tree_rss_mb(pid))
        try:
            await asyncio.wait_for(stop.wait(), timeout=0.5)
        except TimeoutError:
            pass


async def _run(url: str, pid: int, csv: Path, sessions: int, rest: float) -> Load:
    from playwright.async_api import async_playwright

    rows = sum(1 for _ in csv.open("rb")) - 1  # one record a line (no quoted newlines)
    cold = tree_rss_mb(pid)
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        warm = await session(browser, url, -1, None, 0)  # loads every library a page needs
        if warm.errors:
            raise RuntimeError(f"the warm-up demo session failed: {warm.errors}")
        await asyncio.sleep(rest)
        idle = tree_rss_mb(pid)
        samples: list[float] = [idle]
        stop = asyncio.Event()
        sampler = asyncio.create_task(_sample(pid, samples, stop))
        t0 = time.perf_counter()
        done = await asyncio.gather(*(session(browser, url, i, csv, rows) for i in range(sessions)))
        wall = time.perf_counter() - t0
        stop.set()
        await sampler
        await browser.close()
    return Load(list(done), cold, idle, max(samples), wall)


def run(url: str, pid: int, csv: Path, sessions: int = 8, rest: float = 30.0) -> Load:
    """Run ``sessions`` concurrent users against the server ``pid`` at ``url``.

    ``rest`` seconds after the warm-up session closed, the idle memory is read.
    """
    return asyncio.run(_run(url, pid, csv, sessions, rest))


def settled_rss(pid: int, bound: float, wait: float, every: float = 5.0) -> tuple[float, float]:
    """Read the tree's RSS every ``every`` s until it is at most ``bound`` MB or ``wait``
    seconds have passed; return (the last reading, seconds waited)."""
    t0 = time.perf_counter()
    while True:
        rss = tree_rss_mb(pid)
        waited = time.perf_counter() - t0
        if rss <= bound or waited >= wait:
            return rss, waited
        time.sleep(every)
