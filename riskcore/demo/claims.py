"""A seeded generator of an outpatient claims table: many rows per person.

Expert determinations are mostly made on claims, encounters and prescriptions,
where one person is several rows. This table is the demo and test data of
that case: each patient of :func:`riskcore.demo.make_people` (fake names,
SSN-like numbers from the never-issued 900-999 area, dates of birth, ZIP
codes) has 1 to ``max_visits`` visits (a geometric number of visits, mean
about 3.2, truncated), each a row with its own claim number, visit date,
provider, diagnosis code and billed amount. The patient's demographics repeat
on every row; the age at the visit is computed from the date of birth, so it
changes between a patient's visits across a birthday (a person whose
quasi-identifiers change between rows). Patients are grouped into households
of 1 to 4 people sharing a ZIP code.

Rows are sorted by visit date, so a patient's rows are spread through the
file, as in an extract; nothing about the generator is read by the metrics.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from riskcore.demo.people import make_people

__all__ = ["CLAIM_DIAGNOSES", "make_claims"]

#: Diagnosis codes of the claims (ICD-10-CM three-character categories) and their weights.
CLAIM_DIAGNOSES: tuple[tuple[str, float], ...] = (
    ("I10", 0.16),  # essential hypertension
    ("E11", 0.12),  # type 2 diabetes
    ("J06", 0.11),  # acute upper respiratory infection
    ("M54", 0.10),  # dorsalgia
    ("Z00", 0.10),  # general examination
    ("F32", 0.07),  # depressive episode
    ("E78", 0.07),  # lipid disorders
    ("J45", 0.06),  # asthma
    ("K21", 0.05),  # reflux
    ("N39", 0.05),  # urinary disorders
    ("F41", 0.04),  # anxiety
    ("C50", 0.02),  # breast cancer
    ("B20", 0.01),  # HIV disease
    ("O80", 0.04),  # delivery
)

_START = np.datetime64("2023-01-01")
_DAYS = 731  # 2023-01-01 .. 2024-12-31


def make_claims(n_patients: int = 2_500, *, seed: int = 0, max_visits: int = 10) -> pd.DataFrame:
    """Generate a seeded outpatient claims table with 1 to ``max_visits`` rows per patient.

    Parameters
    ----------
    n_patients : int, default 2,500
        Number of patients, from 100 to 2,000,000.
    seed : int, default 0
        Random seed; the same arguments give the same table.
    max_visits : int, default 10
        Most visits of one patient (at least 1).

    Returns
    -------
    pandas.DataFrame
        One row per visit, sorted by visit date. Columns ``claim_id`` (unique
        per row), ``patient_id`` (``P`` and 7 digits, repeated on each of a
        patient's rows), ``household_id``, ``name``, ``ssn``,
        ``date_of_birth`` (ISO text), ``zip`` (text), ``sex``, ``race``,
        ``age`` (at the visit), ``visit_date`` (ISO text), ``provider``,
        ``diagnosis`` (ICD-10-CM category) and ``amount`` (billed, dollars).

    Raises
    ------
    ValueError
        When ``n_patients`` or ``max_visits`` is out of range.

    Examples
    --------
    >>> df = make_claims(200, seed=1)
    >>> int(df["patient_id"].nunique()), bool(len(df) > 200)
    (200, True)
    >>> int(df.groupby("patient_id").size().max()) <= 10
    True
    """
    if isinstance(n_patients, bool) or not isinstance(n_patients, (int, np.integer)):
        raise TypeError(f"n_patients must be an integer, got {n_patients!r}")
    if not 100 <= n_patients <= 2_000_000:
        raise ValueError(f"n_patients must be between 100 and 2,000,000, got {n_patients!r}")
    if isinstance(max_visits, bool) or not isinstance(max_visits, (int, np.integer)):
        raise TypeError(f"max_visits must be an integer, got {max_visits!r}")
    if not 1 <= max_visits <= 1_000:
        raise ValueError(f"max_visits must be between 1 and 1,000, got {max_visits!r}")
    n_patients, max_visits = int(n_patients), int(max_visits)
    people = make_people(n_patients, seed=seed)
    rng = np.random.default_rng([seed, 36])
    visits = np.minimum(rng.geometric(0.29, n_patients), max_visits).astype(np.int64)
    person = np.repeat(np.arange(n_patients, dtype=np.int64), visits)
    n = len(person)
    day = rng.integers(0, _DAYS, n)
    visit = _START + day.astype("timedelta64[D]")
    dob = pd.to_datetime(people["date_of_birth"]).to_numpy().astype("datetime64[D]")[person]
    age = _age_at(dob, visit)
    # each patient has a usual provider (70% of visits) among 60 of skewed sizes
    providers = np.array([f"PRV{i:03d}" for i in range(60)])
    weight = 1.0 / np.arange(1, 61) ** 0.8
    usual = rng.choice(60, n_patients, p=weight / weight.sum())[person]
    other = rng.choice(60, n, p=weight / weight.sum())
    provider = np.where(rng.random(n) < 0.7, usual, other)
    # a chronic condition per patient (half its visits), the rest drawn anew
    codes = np.array([c for c, _ in CLAIM_DIAGNOSES])
    p = np.array([w for _, w in CLAIM_DIAGNOSES])
    chronic = rng.choice(len(codes), n_patients, p=p / p.sum())[person]
    fresh = rng.choice(len(codes), n, p=p / p.sum())
    diagnosis = np.where(rng.random(n) < 0.5, chronic, fresh)
    amount = np.round(np.exp(rng.normal(4.6, 0.8, n)), 2)
    # households of 1-4 patients in patient order, sharing the first member's ZIP
    size = rng.choice([1, 2, 3, 4], n_patients, p=[0.45, 0.30, 0.15, 0.10])
    household = np.repeat(np.arange(n_patients), size)[:n_patients]
    head = np.flatnonzero(np.r_[True, household[1:] != household[:-1]])
    zips = people["zip"].astype(str).to_numpy()
    zips = zips[head][household]
    ids = rng.permutation(np.arange(1_000_000, 1_000_000 + n_patients))
    out = pd.DataFrame(
        {
            "claim_id": [f"C{i:08d}" for i in rng.permutation(n) + 10_000_000],
            "patient_id": [f"P{i:07d}" for i in ids[person]],
            "household_id": [f"H{i:07d}" for i in household[person] + 2_000_000],
            "name": people["name"].to_numpy()[person],
            "ssn": people["ssn"].to_numpy()[person],
            "date_of_birth": people["date_of_birth"].to_numpy()[person],
            "zip": zips[person],
            "sex": people["sex"].to_numpy()[person],
            "race": people["race"].to_numpy()[person],
            "age": age,
            "visit_date": np.datetime_as_string(visit, unit="D"),
            "provider": pd.Categorical(providers[provider]),
            "diagnosis": pd.Categorical(codes[diagnosis], categories=list(codes)),
            "amount": amount,
        }
    )
    order = np.argsort(day, kind="stable")
    return out.iloc[order].reset_index(drop=True)


def _age_at(dob: np.ndarray, when: np.ndarray) -> np.ndarray:
    """Return whole years from each date of birth to each date (ages at the visits)."""
    by = dob.astype("datetime64[Y]").astype(np.int64)
    wy = when.astype("datetime64[Y]").astype(np.int64)
    bd = (dob - dob.astype("datetime64[Y]")).astype(np.int64)  # day of the year
    wd = (when - when.astype("datetime64[Y]")).astype(np.int64)
    out: np.ndarray = (wy - by - (wd < bd)).astype(np.int64)
    return out
