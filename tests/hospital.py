"""A generated hospital table, the one of the one-verdict issue (a test fixture, not demo data).

5,000 patients by default: surrogate names (some with accents, so the file is
written in latin-1), SSN-like numbers from the never-issued 900-999 area,
medical record numbers, ISO dates of birth, 5-digit ZIP codes with leading
zeros drawn from a few 3-digit areas, US-format admission dates
(MM/DD/YYYY), sex, a diagnosis and a free-text ``note`` column in which
about 70% of the notes hold a phone number. A few cells are missing (ZIP,
sex, diagnosis). Seeded: the same arguments give the same table.

The quasi-identifiers a privacy officer tags are ``date_of_birth``, ``zip``
and ``sex`` (``admission_date`` too, for a stricter model); ``diagnosis`` is
sensitive. At decade of birth and ZIP3 the table reaches k = 11 once a few
records of rare combinations are suppressed.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["HOSPITAL_QIS", "hospital_csv", "hospital_table"]

#: The quasi-identifiers of the issue's walk-through.
HOSPITAL_QIS: tuple[str, ...] = ("date_of_birth", "zip", "sex")

_FIRST = [
    "José", "Zoë", "Renée", "Anna", "Ben", "Chloé", "David", "Émile", "Fatima", "George",
    "Hélène", "Ivan", "Jürgen", "Kate", "Liam", "María", "Noël", "Olga", "Paul", "Søren",
]  # fmt: skip
_LAST = [
    "Müller", "García", "Smith", "O'Brien", "Nguyen", "Dubois", "Kowalski", "Brown",
    "Åkesson", "Rossi", "Jones", "Peña", "Lee", "Novák", "Taylor", "Schäfer",
]  # fmt: skip
_ZIP3 = ["021", "100", "606", "770", "941", "303", "981", "191"]
_DIAGNOSES = [
    "hypertension", "diabetes", "asthma", "depression", "fracture", "influenza",
    "migraine", "pneumonia",
]  # fmt: skip


def hospital_table(n: int = 5_000, *, seed: int = 0) -> pd.DataFrame:
    """Return the generated hospital table (every column as text, as a CSV is read).

    Parameters
    ----------
    n : int, default 5000
        Patients (rows).
    seed : int, default 0

    Returns
    -------
    pandas.DataFrame
        Columns ``name``, ``ssn``, ``mrn``, ``date_of_birth`` (YYYY-MM-DD),
        ``zip`` (5 digits, leading zeros kept), ``admission_date``
        (MM/DD/YYYY), ``sex``, ``diagnosis`` and ``note``; missing cells are
        None.
    """
    rng = np.random.default_rng(seed)
    first = rng.choice(_FIRST, n)
    last = rng.choice(_LAST, n)
    names = np.char.add(np.char.add(first.astype(str), " "), last.astype(str))
    ssn = [
        f"{a:03d}-{b:02d}-{c:04d}"
        for a, b, c in zip(
            rng.integers(900, 1000, n), rng.integers(1, 100, n), rng.integers(1, 10_000, n),
            strict=True,
        )
    ]
    mrn = [f"MRN{x:07d}" for x in rng.permutation(n) + 1_000_000]
    birth = pd.Timestamp("1930-01-01") + pd.to_timedelta(rng.integers(0, 365 * 75, n), unit="D")
    admitted = pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 730, n), unit="D")
    tail = [f"{x:02d}" for x in rng.integers(0, 100, n)]
    zip5 = np.char.add(rng.choice(_ZIP3, n, p=_zip_weights()), tail)
    sex = rng.choice(["F", "M"], n)
    diagnosis = rng.choice(_DIAGNOSES, n)
    phones = [f"({a}) {b}-{c:04d}" for a, b, c in zip(
        rng.integers(201, 990, n), rng.integers(200, 1000, n), rng.integers(0, 10_000, n),
        strict=True,
    )]  # fmt: skip
    with_phone = rng.random(n) < 0.706
    note = np.where(
        with_phone,
        np.char.add("Call back on ", np.asarray(phones, dtype=str)),
        "Discharged, no follow-up.",
    ).astype(object)
    df = pd.DataFrame(
        {
            "name": names.astype(object),
            "ssn": ssn,
            "mrn": mrn,
            "date_of_birth": birth.strftime("%Y-%m-%d"),
            "zip": zip5.astype(object),
            "admission_date": admitted.strftime("%m/%d/%Y"),
            "sex": sex.astype(object),
            "diagnosis": diagnosis.astype(object),
            "note": note,
        }
    )
    for col, share in (("zip", 0.004), ("sex", 0.003), ("diagnosis", 0.01)):
        df.loc[rng.random(n) < share, col] = None
    return df


def _zip_weights() -> np.ndarray:
    w = np.asarray([30, 20, 15, 10, 10, 6, 5, 4], dtype=np.float64)
    return w / w.sum()


def hospital_csv(n: int = 5_000, *, seed: int = 0) -> bytes:
    """Return :func:`hospital_table` as a latin-1 CSV file's bytes (missing cells empty)."""
    text = hospital_table(n, seed=seed).to_csv(index=False, lineterminator="\n")
    return text.encode("latin-1")
