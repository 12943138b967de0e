"""Identifiers written inside free text: built-in patterns, and Presidio when installed.

patterns
    :class:`Entity` and :data:`ENTITIES`: phone and fax numbers, e-mail
    addresses, SSNs, URLs, IPv4 / IPv6 addresses, dates, medical-record-like
    numbers, card numbers, ZIP codes in text and long digit runs, each with
    its HIPAA Safe Harbor category letter (45 CFR 164.514(b)(2)(i)(A)-(R)).
scan
    :func:`scan_text` over every text column, on distinct values, within a
    character limit per column (:data:`MAX_CHARS`); results
    :class:`TextScan`, :class:`ColumnScan`, :class:`TextFinding`;
    :func:`redact_found` replaces what the patterns find by placeholders.
presidio
    The optional Presidio adapter: :func:`scan_free_text`,
    :func:`presidio_available`, :data:`PRESIDIO_CATEGORY`.

This package sits at the bottom of riskcore (under ``roles``): it imports
only the result base and the errors.
"""

from __future__ import annotations

from riskcore.freetext.patterns import ENTITIES, Entity, entity, mask_example
from riskcore.freetext.presidio import (
    PRESIDIO_CATEGORY,
    PRESIDIO_MISSING,
    PiiFinding,
    PiiScan,
    presidio_available,
    scan_free_text,
)
from riskcore.freetext.scan import (
    MAX_CHARS,
    ColumnScan,
    TextFinding,
    TextScan,
    is_text_column,
    redact_found,
    scan_text,
    text_columns,
)

__all__ = [
    "ENTITIES",
    "MAX_CHARS",
    "PRESIDIO_CATEGORY",
    "PRESIDIO_MISSING",
    "ColumnScan",
    "Entity",
    "PiiFinding",
    "PiiScan",
    "TextFinding",
    "TextScan",
    "entity",
    "is_text_column",
    "mask_example",
    "presidio_available",
    "redact_found",
    "scan_free_text",
    "scan_text",
    "text_columns",
]
