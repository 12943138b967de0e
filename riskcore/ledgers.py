"""The persisted privacy-budget ledgers: moved to :mod:`riskcore.store.ledgers`.

Kept so that ``from riskcore.ledgers import BudgetStore`` still works; new
code imports from :mod:`riskcore.store.ledgers`.
"""

from riskcore.store.ledgers import SCHEMA, BudgetStore, LedgerHandle, holds_ledgers

__all__ = ["SCHEMA", "BudgetStore", "LedgerHandle", "holds_ledgers"]
