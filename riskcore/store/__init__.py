"""Saved assessments, the hash-chained audit log and the privacy ledgers, in one SQLite file.

The database (stdlib :mod:`sqlite3`, WAL journal) lives under the user's data
directory, ``$XDG_DATA_HOME/riskcore/riskcore.db`` (``~/.local/share/...``;
``%LOCALAPPDATA%`` on Windows), or at the path in the ``RISKCORE_DB``
environment variable. Every write is one ``BEGIN IMMEDIATE`` transaction, so
parallel writers (threads or processes) queue instead of losing entries.

Audit log: the ``audit`` table is append-only, triggers refuse every UPDATE and
DELETE (``RAISE(ABORT, ...)``), and each entry holds the HMAC-SHA256, under a
key kept outside the database (``RISKCORE_AUDIT_KEY``, the file named by
``RISKCORE_AUDIT_KEY_FILE``, else ``<database>.key`` made with mode 0600 on
first use), of its fields, of the rows it wrote in the guarded tables
(saved assessments, the privacy ledgers, their budgets and releases) and of
the previous entry's hash:

.. math:: h_i = \\mathrm{HMAC\\text{-}SHA256}_K(\\mathrm{json}(i, t_i, u_i, a_i, f_i, v_i,
   r_i, h_{i-1})), \\quad h_0 = 0^{64}

so an entry changed, removed or re-hashed without the key, or a guarded row
deleted, added or edited outside riskcore, is found by :meth:`Store.verify`
(read-only), and the head ``(seq, hash)`` kept elsewhere finds a log cut
back or replaced. What it cannot prove (someone holding the key can rewrite
it) is in SECURITY.md. An assessment holds its profile, results and rendered report, keyed
by the dataset's SHA-256; raw data only when the caller passes them
(``save(data=...)``, the Report page's unticked option), as Parquet in a
table of their own. Reopening (:meth:`Store.reopen`) checks a file against
the saved fingerprint; reopening, comparing and deleting are logged.

Modules:

- ``database``: where the file lives, its tables, schema version and
  migrations, connections and transactions (:class:`Database`);
- ``auditkey``: the audit key: where it is, made on first use, its check value;
- ``chain``: entry MACs, row digests, the rows each entry vouches for;
- ``audit``: the audit log: append, read, export (:class:`AuditLog`);
- ``verify``: checking the log read-only, its head (:func:`verify_file`, :func:`read_head`);
- ``assessments``: saved assessments (:class:`Store`, the class callers open);
- ``ledgers``: the persisted privacy-budget ledgers
  (:class:`riskcore.store.ledgers.BudgetStore`), imported on its own
  (``from riskcore.store.ledgers import BudgetStore``; :mod:`riskcore.ledgers`
  re-exports it), so importing the store does not import :mod:`riskcore.dp`.
"""

from riskcore.store.assessments import SavedAssessment, SavedSummary, Store
from riskcore.store.audit import GENESIS, AuditEntry, AuditLog, entry_hash
from riskcore.store.auditkey import KEY_ENV, KEY_FILE_ENV, AuditKeyError
from riskcore.store.chain import entry_mac
from riskcore.store.database import DB_ENV, SCHEMA_VERSION, Database, default_path
from riskcore.store.verify import (
    AuditHead,
    AuditUnreadableError,
    AuditVerification,
    read_head,
    verify_file,
)

__all__ = [
    "DB_ENV",
    "GENESIS",
    "KEY_ENV",
    "KEY_FILE_ENV",
    "SCHEMA_VERSION",
    "AuditEntry",
    "AuditHead",
    "AuditKeyError",
    "AuditLog",
    "AuditUnreadableError",
    "AuditVerification",
    "Database",
    "SavedAssessment",
    "SavedSummary",
    "Store",
    "default_path",
    "entry_hash",
    "entry_mac",
    "read_head",
    "verify_file",
]
