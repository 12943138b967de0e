"""AppTest: looking writes nothing to disk (issue 17); the database is made at a save.

The pages that read the database (the Data page's near-duplicate note, the DP page's
ledger, the Report page's save box and the Saved assessments page) made it, or added the
ledgers' tables to it, on a mere visit.
"""

from __future__ import annotations

from riskcore.store import Store
from tests.app.helpers import run

PAGES = ["pages/data.py", "pages/dp.py", "pages/report.py", "pages/saved.py"]


def state_of(folder) -> dict[str, tuple[int, int, bytes]]:
    return {
        p.name: (p.stat().st_size, p.stat().st_mtime_ns, p.read_bytes()) for p in folder.iterdir()
    }


def visit_all(at) -> None:
    for page in PAGES:
        at.switch_page(page).run()
        assert not at.exception, (page, at.exception)


def test_visiting_the_pages_makes_no_database(database):
    at = run()
    visit_all(at)
    assert not database.exists()
    assert any("Nothing is saved yet" in i.value for i in at.info)  # the Saved page says so


def test_visiting_the_pages_leaves_a_database_as_it_is(database):
    Store(database)  # made by a save in another session: the store's tables only
    before = state_of(database.parent)
    at = run()
    visit_all(at)
    assert state_of(database.parent) == before
