"""Presidio's free-text detection (optional), beside the built-in patterns.

Presidio's pattern recognizers (with spaCy's blank English pipeline, so
offline and without a language model) find e-mail addresses, phone numbers,
card, IBAN and bank numbers, IP addresses, URLs and some national numbers
inside longer text; with a trained spaCy model they find names and places
too. :func:`scan_free_text` reports what it finds on its own
(:class:`PiiScan`); :func:`add_presidio` adds its findings to the built-in
scan (:func:`riskcore.freetext.scan_text` with ``presidio=True``) for the
entities the built-in patterns do not look for.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore._results import Result
from riskcore.errors import RiskcoreError
from riskcore.freetext.findings import ColumnScan, TextFinding, distinct_texts, text_columns

__all__ = [
    "PRESIDIO_CATEGORY",
    "PRESIDIO_KIND",
    "PRESIDIO_MISSING",
    "PiiFinding",
    "PiiScan",
    "add_presidio",
    "presidio_available",
    "scan_free_text",
]

#: Safe Harbor category of each Presidio entity type (None: not one of the 18).
PRESIDIO_CATEGORY: dict[str, str | None] = {
    "PERSON": "A",
    "LOCATION": "B",
    "DATE_TIME": "C",
    "AGE": "C",
    "PHONE_NUMBER": "D",
    "EMAIL_ADDRESS": "F",
    "EMAIL": "F",
    "US_SSN": "G",
    "CREDIT_CARD": "J",
    "IBAN_CODE": "J",
    "US_BANK_NUMBER": "J",
    "CRYPTO": "J",
    "MEDICAL_LICENSE": "K",
    "US_DRIVER_LICENSE": "K",
    "MAC_ADDRESS": "M",
    "URL": "N",
    "IP_ADDRESS": "O",
    "US_PASSPORT": "R",
    "US_ITIN": "R",
    "UK_NHS": "R",
    "ID": "R",
    "UUID": "R",
    "ORGANIZATION": None,
    "NRP": None,
}

#: Presidio entity types the built-in patterns already look for, and their built-in kind:
#: :func:`add_presidio` leaves them to the patterns (which read every value, not a sample).
PRESIDIO_KIND: dict[str, str] = {
    "PHONE_NUMBER": "phone",
    "EMAIL_ADDRESS": "email",
    "EMAIL": "email",
    "US_SSN": "ssn",
    "URL": "url",
    "IP_ADDRESS": "ip",
    "DATE_TIME": "date",
    "CREDIT_CARD": "card",
}


@dataclass(frozen=True)
class PiiFinding(Result):
    """One entity type Presidio found in one column's free text.

    Attributes
    ----------
    column : str
        The column's name.
    entity : str
        Presidio's entity type (``"EMAIL_ADDRESS"``, ``"CREDIT_CARD"`` ...).
    n_values : int
        Sampled values in which it was found at least once.
    n_sampled : int
        Distinct values of the column scanned.
    max_score : float
        Presidio's highest confidence for it, in [0, 1].
    letter : str or None
        Its Safe Harbor category, None when it is none of the 18.
    """

    column: str
    entity: str
    n_values: int
    n_sampled: int
    max_score: float
    letter: str | None = None


@dataclass(frozen=True)
class PiiScan(Result):
    """What Presidio found in the free text of some columns.

    Attributes
    ----------
    findings : tuple of PiiFinding
        By column, then by number of values, most first.
    columns : tuple of str
        Columns scanned.
    note : str
        What the scan can and cannot see.
    """

    findings: tuple[PiiFinding, ...]
    columns: tuple[str, ...]
    note: str


def presidio_available() -> bool:
    """Return True when presidio-analyzer and spaCy can be imported (the optional ``pii`` extra).

    Returns
    -------
    bool
        Found without importing either (:func:`importlib.util.find_spec`).
    """
    import importlib.util

    try:
        return all(importlib.util.find_spec(m) is not None for m in ("presidio_analyzer", "spacy"))
    except (ImportError, ValueError):  # a module set to None in sys.modules: absent
        return False


#: What to do when Presidio is absent (the page shows it).
PRESIDIO_MISSING = (
    "free-text PII detection needs the optional package presidio-analyzer: "
    "pip install 'presidio-analyzer>=2.2,<2.3' (or pip install -e '.[pii]'), then restart "
    "the app. It runs offline with spaCy's blank English pipeline, no model download. Column "
    "roles, the built-in free-text patterns and the Safe Harbor checklist work without it."
)


@functools.cache
def _analyzer() -> Any:
    """Return a Presidio analyzer on spaCy's blank English pipeline (built once, ~2 s)."""
    # no download of the public-suffix list (tldextract) and no spaCy model: fully offline
    os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")
    try:
        import spacy
        from presidio_analyzer import AnalyzerEngine
        from presidio_analyzer.nlp_engine import SpacyNlpEngine
    except ImportError:
        raise RiskcoreError(PRESIDIO_MISSING) from None
    engine = SpacyNlpEngine()
    engine.nlp = {"en": spacy.blank("en")}
    return AnalyzerEngine(nlp_engine=engine, supported_languages=["en"])


def _check_sample(sample: object) -> int:
    if isinstance(sample, bool) or not isinstance(sample, int) or sample < 1:
        raise ValueError(f"sample must be an integer >= 1, got {sample!r}")
    return sample


def _hits(
    texts: Sequence[str], min_score: float
) -> tuple[dict[str, npt.NDArray[np.bool_]], dict[str, float]]:
    """Return ``{entity: found in each text}`` and ``{entity: highest score}``.

    Presidio's API reads one text at a time: this loops over the (sampled) distinct
    values, never over rows.
    """
    analyzer = _analyzer()
    flags: dict[str, npt.NDArray[np.bool_]] = {}
    scores: dict[str, float] = {}
    for i, text in enumerate(texts):
        for hit in analyzer.analyze(text=text, language="en"):
            if hit.score < min_score:
                continue
            entity = str(hit.entity_type)
            scores[entity] = max(scores.get(entity, 0.0), float(hit.score))
            flags.setdefault(entity, np.zeros(len(texts), dtype=bool))[i] = True
    return flags, scores


def scan_free_text(
    data: pd.DataFrame,
    columns: Sequence[str] | None = None,
    *,
    sample: int = 200,
    min_score: float = 0.4,
) -> PiiScan:
    """Look for identifiers inside free text with Presidio (optional).

    Without a trained model Presidio does not find names or places, and it
    does not look at column names; the built-in patterns
    (:func:`riskcore.freetext.scan_text`) and the role rule run beside it.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    columns : sequence of str, optional
        Columns to scan; default every text column.
    sample : int, default 200
        Distinct values scanned per column (the first ones, in row order).
    min_score : float, default 0.4
        Findings with a lower Presidio score are left out.

    Returns
    -------
    PiiScan
        Entity, number of values and highest score per column; the text
        found is never copied into the result.

    Raises
    ------
    RiskcoreError
        When presidio-analyzer is not installed, saying how to install it.
    """
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"data must be a pandas DataFrame, got {type(data).__name__}")
    _check_sample(sample)
    _analyzer()  # fails first, with the message, when Presidio is absent
    columns = text_columns(data) if columns is None else [str(c) for c in columns]
    findings: list[PiiFinding] = []
    for col in columns:
        if col not in data.columns:
            raise RiskcoreError(f"column {col!r} is not in the table")
        _, texts = distinct_texts(data[col])
        part = [str(t) for t in texts.iloc[:sample]]
        flags, scores = _hits(part, min_score)
        counts = {e: int(f.sum()) for e, f in flags.items()}
        for entity in sorted(counts, key=lambda e: (-counts[e], e)):
            findings.append(
                PiiFinding(
                    col,
                    entity,
                    counts[entity],
                    len(part),
                    scores[entity],
                    PRESIDIO_CATEGORY.get(entity),
                )
            )
    note = (
        f"Presidio's pattern recognizers on up to {sample} distinct values per column "
        "(spaCy's blank English pipeline: no names or places are recognised); column names "
        "and the role rule are not used."
    )
    return PiiScan(tuple(findings), tuple(columns), note)


def add_presidio(
    data: pd.DataFrame,
    scans: Sequence[ColumnScan],
    positions: dict[str, int],
    *,
    sample: int = 200,
    min_score: float = 0.4,
) -> list[ColumnScan]:
    """Add Presidio's findings to built-in column scans, for the entities the patterns skip.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    scans : sequence of ColumnScan
        The built-in scans.
    positions : dict
        ``{column name: position in data}``.
    sample : int, default 200
        Distinct values per column Presidio reads (the first ones).
    min_score : float, default 0.4
        Findings with a lower Presidio score are left out.

    Returns
    -------
    list of ColumnScan
        The scans with Presidio's findings (``source="presidio"``, counts over
        the sampled values) appended; an entity that is a Safe Harbor identifier
        makes a clean column's status ``"found"``.

    Raises
    ------
    RiskcoreError
        When Presidio is not installed.
    """
    _check_sample(sample)
    _analyzer()
    out: list[ColumnScan] = []
    for scan in scans:
        codes, texts = distinct_texts(data.iloc[:, positions[scan.column]])
        part = [str(t) for t in texts.iloc[:sample]]
        cells = np.bincount(codes[codes >= 0], minlength=len(texts))[: len(part)]
        flags, _ = _hits(part, min_score)
        extra = [
            TextFinding(
                scan.column,
                entity.lower(),
                PRESIDIO_CATEGORY.get(entity),
                f"{entity.replace('_', ' ').lower()} (Presidio)",
                int(f.sum()),
                int(cells[f].sum()),
                int(f.sum()),
                source="presidio",
            )
            for entity, f in sorted(flags.items())
            if entity not in PRESIDIO_KIND
        ]
        status = scan.status
        if status == "clean" and any(f.letter for f in extra):
            status = "found"
        out.append(replace(scan, status=status, findings=scan.findings + tuple(extra)))
    return out
