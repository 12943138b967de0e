"""Saved assessments, the hash-chained audit log and the privacy ledgers, in one SQLite file.

The database (stdlib :mod:`sqlite3`, WAL journal) lives under the user's data
directory, ``$XDG_DATA_HOME/riskcore/riskcore.db`` (``~/.local/share/...``;
``%LOCALAPPDATA%`` on Windows), or at the path in the ``RISKCORE_DB``
environment variable. Every write is one ``BEGIN IMMEDIATE`` transaction, so
parallel writers (threads or processes) queue instead of losing entries.

Audit log: the ``audit`` table is append-only, triggers refuse every UPDATE and
DELETE (``RAISE(ABORT, ...)``), and each entry holds the SHA-256 of the
previous one (a hash chain):

.. math:: h_i = \\mathrm{SHA256}(\\mathrm{json}(i, t_i, u_i, a_i, f_i, v_i, h_{i-1})),
   \\quad h_0 = 0^{64}

so an entry changed or removed below the triggers (by dropping them, or by
editing the file) breaks the chain at that entry, which :meth:`Store.verify`
names. An assessment holds its profile, results and rendered report, keyed
by the dataset's SHA-256; raw data only when the caller passes them
(``save(data=...)``, the Report page's unticked option), as Parquet in a
table of their own. Reopening (:meth:`Store.reopen`) checks a file against
the saved fingerprint; reopening, comparing and deleting are logged.

Modules:

- ``database``: where the file lives, its tables, connections and
  transactions (:class:`Database`);
- ``audit``: the audit log: append, read, verify, export (:class:`AuditLog`);
- ``assessments``: saved assessments (:class:`Store`, the class callers open);
- ``ledgers``: the persisted privacy-budget ledgers
  (:class:`riskcore.store.ledgers.BudgetStore`), imported on its own
  (``from riskcore.store.ledgers import BudgetStore``; :mod:`riskcore.ledgers`
  re-exports it), so importing the store does not import :mod:`riskcore.dp`.
"""

from riskcore.store.assessments import SavedAssessment, SavedSummary, Store
from riskcore.store.audit import GENESIS, AuditEntry, AuditLog, AuditVerification, entry_hash
from riskcore.store.database import DB_ENV, Database, default_path

__all__ = [
    "DB_ENV",
    "GENESIS",
    "AuditEntry",
    "AuditLog",
    "AuditVerification",
    "Database",
    "SavedAssessment",
    "SavedSummary",
    "Store",
    "default_path",
    "entry_hash",
]
