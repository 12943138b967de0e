"""A seeded generator of a realistic people table (the built-in demo data).

Fake direct identifiers (name, date of birth, an SSN-like number from the
never-issued 900-999 area range, a 5-digit ZIP with leading zeros) plus
census-like quasi-identifiers and sensitive attributes, at any size from 100
to 10,000,000 rows, vectorized (10M rows in well under a minute).

Calibration facts are the marginals of UCI Adult (Becker & Kohavi 1996,
CC BY 4.0; ``shared/data/adult.csv``, 32,561 rows): the age histogram, sex
67/33, race, marital status, education, workclass (5.6% missing),
occupation (5.7% missing) and income > 50K 24%, with the main correlations
reproduced (marital status with sex and age; occupation with sex and
education; income with education, age, sex, hours and marital status). The
diagnosis column is made up (its frequencies rise with age as chronic
conditions do). As on the real "Adult with PII" file, date of birth + ZIP
single out nearly everyone, while age + sex alone single out almost no one.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

__all__ = ["make_people"]

# UCI Adult age counts for ages 17..90 (adult.data; 89 has none, 90 is top-coded).
_AGE_COUNTS = [
    395,
    550,
    712,
    753,
    720,
    765,
    877,
    798,
    841,
    785,
    835,
    867,
    813,
    861,
    888,
    828,
    875,
    886,
    876,
    898,
    858,
    827,
    816,
    794,
    808,
    780,
    770,
    724,
    734,
    737,
    708,
    543,
    577,
    602,
    595,
    478,
    464,
    415,
    419,
    366,
    358,
    366,
    355,
    312,
    300,
    258,
    230,
    208,
    178,
    150,
    151,
    120,
    108,
    89,
    72,
    67,
    64,
    51,
    45,
    46,
    29,
    23,
    22,
    22,
    20,
    12,
    6,
    10,
    3,
    1,
    1,
    3,
    0,
    43,
]
_RACE = (
    ["White", "Black", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other"],
    [0.8543, 0.0959, 0.0319, 0.0096, 0.0083],
)
_EDUCATION = [  # (label, years as education-num, share)
    ("Preschool", 1, 0.0016),
    ("1st-4th", 2, 0.0052),
    ("5th-6th", 3, 0.0102),
    ("7th-8th", 4, 0.0198),
    ("9th", 5, 0.0158),
    ("10th", 6, 0.0287),
    ("11th", 7, 0.0361),
    ("12th", 8, 0.0133),
    ("HS-grad", 9, 0.3225),
    ("Some-college", 10, 0.2239),
    ("Assoc-voc", 11, 0.0424),
    ("Assoc-acdm", 12, 0.0328),
    ("Bachelors", 13, 0.1645),
    ("Masters", 14, 0.0529),
    ("Prof-school", 15, 0.0177),
    ("Doctorate", 16, 0.0127),
]
_WORKCLASS = (
    [
        "Private",
        "Self-emp-not-inc",
        "Local-gov",
        None,
        "State-gov",
        "Self-emp-inc",
        "Federal-gov",
        "Without-pay",
        "Never-worked",
    ],
    [0.697, 0.078, 0.0643, 0.0564, 0.0399, 0.0343, 0.0295, 0.0004, 0.0002],
)
# occupation: (label, Adult share, male effect, education effect) - log-linear model
_OCCUPATION = [
    ("Prof-specialty", 0.1271, 0.0, 0.45),
    ("Craft-repair", 0.1259, 1.6, -0.05),
    ("Exec-managerial", 0.1249, 0.3, 0.30),
    ("Adm-clerical", 0.1158, -1.0, 0.0),
    ("Sales", 0.1121, 0.1, 0.05),
    ("Other-service", 0.1012, -0.7, -0.2),
    ("Machine-op-inspct", 0.0615, 0.4, -0.2),
    (None, 0.0566, -0.3, -0.1),
    ("Transport-moving", 0.0490, 1.7, -0.15),
    ("Handlers-cleaners", 0.0421, 1.2, -0.2),
    ("Farming-fishing", 0.0305, 1.3, -0.2),
    ("Tech-support", 0.0285, 0.0, 0.15),
    ("Protective-serv", 0.0199, 1.2, 0.0),
    ("Priv-house-serv", 0.0046, -2.0, -0.3),
    ("Armed-Forces", 0.0003, 1.5, 0.0),
]
_DIAGNOSIS = [  # (label, base weight, change per decade of age)
    ("None recorded", 0.30, -0.25),
    ("Hypertension", 0.12, 0.35),
    ("Type 2 diabetes", 0.07, 0.30),
    ("Asthma", 0.08, -0.10),
    ("Depression", 0.09, -0.05),
    ("Anxiety disorder", 0.08, -0.10),
    ("Obesity", 0.07, 0.05),
    ("Back pain", 0.07, 0.05),
    ("Coronary heart disease", 0.03, 0.45),
    ("COPD", 0.02, 0.40),
    ("Migraine", 0.04, -0.10),
    ("HIV", 0.005, 0.0),
    ("Cancer", 0.02, 0.45),
    ("Arthritis", 0.035, 0.40),
]
_FIRST_M = (
    "James John Robert Michael William David Richard Joseph Thomas Charles Christopher "
    "Daniel Matthew Anthony Mark Donald Steven Paul Andrew Joshua Kenneth Kevin Brian "
    "George Timothy Ronald Edward Jason Jeffrey Ryan Jacob Gary Nicholas Eric Jonathan "
    "Stephen Larry Justin Scott Brandon Benjamin Samuel Gregory Alexander Frank Patrick "
    "Raymond Jack Dennis Jerry Tyler Aaron Jose Adam Nathan Henry Douglas Zachary Peter "
    "Kyle Ethan Walter Noah Jeremy Christian Keith Roger Terry Gerald Harold Sean Austin "
    "Carl Arthur Lawrence Dylan Jesse Jordan Bryan Billy Joe Bruce Gabriel Logan Albert "
    "Willie Alan Juan Wayne Elijah Randy Roy Vincent Ralph Eugene Russell Bobby Mason "
    "Philip Louis"
).split()
_FIRST_F = (
    "Mary Patricia Jennifer Linda Elizabeth Barbara Susan Jessica Sarah Karen Lisa Nancy "
    "Betty Margaret Sandra Ashley Kimberly Emily Donna Michelle Carol Amanda Dorothy "
    "Melissa Deborah Stephanie Rebecca Sharon Laura Cynthia Kathleen Amy Angela Shirley "
    "Anna Brenda Pamela Emma Nicole Helen Samantha Katherine Christine Debra Rachel "
    "Carolyn Janet Catherine Maria Heather Diane Ruth Julie Olivia Joyce Virginia "
    "Victoria Kelly Lauren Christina Joan Evelyn Judith Megan Andrea Cheryl Hannah "
    "Jacqueline Martha Gloria Teresa Ann Sara Madison Frances Kathryn Janice Jean Abigail "
    "Alice Judy Sophia Grace Denise Amber Doris Marilyn Danielle Beverly Isabella "
    "Theresa Diana Natalie Brittany Charlotte Marie Kayla Alexis Lori"
).split()
_LAST = (
    "Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez "
    "Lopez Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson "
    "White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott "
    "Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter "
    "Roberts Gomez Phillips Evans Turner Diaz Parker Cruz Edwards Collins Reyes Stewart "
    "Morris Morales Murphy Cook Rogers Gutierrez Ortiz Morgan Cooper Peterson Bailey Reed "
    "Kelly Howard Ramos Kim Cox Ward Richardson Watson Brooks Chavez Wood James Bennett Gray "
    "Mendoza Ruiz Hughes Price Alvarez Castillo Sanders Patel Myers Long Ross Foster Jimenez "
    "Powell Jenkins Perry Russell Sullivan Bell Coleman Butler Henderson Barnes Gonzales "
    "Fisher Vasquez Simmons Romero Jordan Patterson Alexander Hamilton Graham Reynolds "
    "Griffin Wallace Moreno West Cole Hayes Bryant Herrera Gibson Ellis Tran Medina Aguilar "
    "Stevens Murray Ford Castro Marshall Owens Harrison Fernandez McDonald Woods Washington "
    "Kennedy Wells Vargas Henry Chen Freeman Webb Tucker Guzman Burns Crawford Olson Simpson "
    "Porter Hunter Gordon Mendez Silva Shaw Snyder Mason Dixon Munoz Hunt Hicks Holmes Palmer "
    "Wagner Black Robertson Boyd Rose Stone Salazar Fox Warren Mills Meyer Rice Schmidt "
    "Garza Daniels Ferguson Nichols Stephens Soto Weaver Ryan Gardner Payne Grant Dunn "
    "Kelley Spencer Hawkins Arnold Pierce Vazquez Hansen Peters Santos Hart Bradley Knight "
    "Elliott Cunningham Duncan Armstrong Hudson Carroll Lane Riley Andrews Alvarado Ray "
    "Delgado Berry Perkins Hoffman Johnston Matthews Pena Richards Contreras Willis "
    "Carpenter Lawrence Sandoval"
).split()

_REFERENCE_DATE = np.datetime64("2026-01-01")
_INCOME_INTERCEPT = -2.6  # calibrated: 24% above 50K, as in Adult


def _choice(rng: np.random.Generator, n: int, p: Sequence[float] | np.ndarray) -> np.ndarray:
    """Draw n category codes with probabilities proportional to ``p`` (one uniform each)."""
    w = np.asarray(p, dtype=np.float64)
    cdf = np.cumsum(w / w.sum())
    cdf[-1] = 1.0
    return np.searchsorted(cdf, rng.random(n), side="right").astype(np.int32)


def _gumbel_choice(rng: np.random.Generator, logits: np.ndarray) -> np.ndarray:
    """Sample one category per row of ``logits`` (n x m) by the Gumbel-max trick."""
    g = rng.gumbel(size=logits.shape).astype(np.float32)
    return np.asarray(np.argmax(logits + g, axis=1), dtype=np.int32)


def _categorical(codes: np.ndarray, categories: Sequence[str] | pd.Index) -> pd.Categorical:
    """Build a categorical from codes into ``categories``."""
    return pd.Categorical.from_codes(np.asarray(codes), categories=pd.Index(categories))


def _cat(codes: np.ndarray, labels: Sequence[str | None]) -> pd.Categorical:
    """Build a categorical from codes; a label None marks missing."""
    present = [x for x in labels if x is not None]
    remap = np.full(len(labels), -1, dtype=np.int32)
    j = 0
    for i, x in enumerate(labels):  # a few labels
        if x is not None:
            remap[i] = j
            j += 1
    return _categorical(remap[codes], present)


def _zip_pool(rng: np.random.Generator, size: int = 6000) -> tuple[np.ndarray, np.ndarray]:
    """Return ZIP strings (many with leading zeros) and Zipf-like weights."""
    # one region, like a state's voter roll: three-digit prefixes 010-069 (New England, NY
    # and NJ), so every ZIP has a leading zero and a ZIP3 area holds hundreds of people
    prefixes = rng.integers(10, 70, size)
    zips = prefixes * 100 + rng.integers(0, 100, size)
    zips = np.unique(zips)
    rng.shuffle(zips)
    labels = np.array([f"{z:05d}" for z in zips], dtype=object)
    weights = 1.0 / np.arange(1, len(labels) + 1) ** 0.7
    return labels, weights / weights.sum()


_MARITAL = (
    "Married-civ-spouse",
    "Never-married",
    "Divorced",
    "Separated",
    "Widowed",
    "Married-spouse-absent",
    "Married-AF-spouse",
)


def make_people(n: int = 32_561, *, seed: int = 0) -> pd.DataFrame:
    """Generate a seeded, realistic people table with fake direct identifiers.

    The steps draw from one generator in a fixed order (sex and age, race,
    marital status, education, workclass, occupation and diagnosis, hours,
    income, names, SSNs, ZIPs), so the same seed and n give the same table.

    Parameters
    ----------
    n : int, default 32,561
        Number of rows, from 100 to 10,000,000 (the default matches UCI Adult).
    seed : int, default 0
        Random seed; the same seed and n give the same table.

    Returns
    -------
    pandas.DataFrame
        Columns ``name, ssn, date_of_birth, zip, age, sex, race, marital_status,
        education, workclass, occupation, hours_per_week, diagnosis, income``
        (roles from :func:`riskcore.roles.suggest_roles`, the rule used for
        uploads too). ``zip`` and ``ssn`` are text;
        ``date_of_birth`` is ISO ``YYYY-MM-DD`` text; categorical columns are
        pandas categoricals; ``workclass`` and ``occupation`` have missing
        values as in Adult.
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"n must be an integer, got {n!r}")
    if not 100 <= n <= 10_000_000:
        raise ValueError(f"n must be between 100 and 10,000,000, got {n!r}")
    rng = np.random.default_rng(seed)
    n = int(n)
    male, age, dob = _sex_age_birth(rng, n)
    race = _choice(rng, n, _RACE[1])
    a = (age.astype(np.float32) - 38.0) / 13.6  # standardized age
    marital = _marital_status(rng, male, a)
    edu_idx = _choice(rng, n, [e[2] for e in _EDUCATION])
    edu_years = np.array([e[1] for e in _EDUCATION], dtype=np.float32)[edu_idx]
    workclass = _choice(rng, n, _WORKCLASS[1])
    occupation, diag = _occupation_diagnosis(rng, male, edu_years, age)
    hours = np.clip(np.rint(rng.normal(40.0 + 3.5 * male, 11.0, n)), 1, 99).astype(np.int16)
    hours = np.where(rng.random(n) < 0.45, 40, hours).astype(np.int16)
    high_income = _high_income(rng, edu_years, marital == 0, male, hours, a)
    name = _names(rng, male)
    ssn = _ssns(rng, n)
    zips, zip_w = _zip_pool(np.random.default_rng(seed + 1_000_003))
    zip_codes = _choice(rng, n, zip_w)
    return pd.DataFrame(
        {
            "name": name,
            "ssn": ssn,
            "date_of_birth": dob,
            "zip": _categorical(zip_codes, pd.Index(zips.astype(str))),
            "age": age.astype(np.int64),
            "sex": _categorical(male.astype(np.int8), ["Female", "Male"]),
            "race": _categorical(race, _RACE[0]),
            "marital_status": _categorical(marital, _MARITAL),
            "education": _categorical(edu_idx, [e[0] for e in _EDUCATION]),
            "workclass": _cat(workclass, _WORKCLASS[0]),
            "occupation": _cat(occupation, [o[0] for o in _OCCUPATION]),
            "hours_per_week": hours.astype(np.int64),
            "diagnosis": _categorical(diag, [d[0] for d in _DIAGNOSIS]),
            "income": _categorical(high_income.astype(np.int8), ["<=50K", ">50K"]),
        }
    )


def _sex_age_birth(
    rng: np.random.Generator, n: int
) -> tuple[np.ndarray, np.ndarray, pd.Categorical]:
    """Draw sex, age (Adult's distribution) and a date of birth consistent with the age."""
    male = rng.random(n) < 0.6692
    age = (17 + _choice(rng, n, _AGE_COUNTS)).astype(np.int16)
    days_into_year = rng.integers(0, 365, n)
    back = np.floor(age.astype(np.float64) * 365.25).astype(np.int64) + days_into_year + 1
    dob = _REFERENCE_DATE - back.astype("timedelta64[D]")
    age = ((_REFERENCE_DATE - dob).astype(np.int64) // 365.25).astype(np.int16)
    uniq_days, day_codes = np.unique(dob.astype(np.int64), return_inverse=True)
    dob_cat = _categorical(
        day_codes.astype(np.int32),
        pd.Index(np.datetime_as_string(uniq_days.astype("datetime64[D]"))),
    )
    return male, age, dob_cat


def _marital_status(rng: np.random.Generator, male: np.ndarray, a: np.ndarray) -> np.ndarray:
    """Draw the marital status (codes into ``_MARITAL``), log-linear in sex and age."""
    logits = np.empty((len(male), len(_MARITAL)), dtype=np.float32)
    logits[:, 0] = np.log(0.46) + 0.9 * male - 0.9 * a**2 + 0.6 * a
    logits[:, 1] = np.log(0.33) - 1.6 * a - 0.2 * male
    logits[:, 2] = np.log(0.136) + 0.3 * a - 0.9 * male
    logits[:, 3] = np.log(0.0315) - 0.8 * male
    logits[:, 4] = np.log(0.0305) + 1.8 * a - 1.9 * male
    logits[:, 5] = np.log(0.0128)
    logits[:, 6] = np.log(0.0007)
    return _gumbel_choice(rng, logits)


def _occupation_diagnosis(
    rng: np.random.Generator, male: np.ndarray, edu_years: np.ndarray, age: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Draw occupation (log-linear in sex and education) and diagnosis (in age).

    Drawn in chunks of a million rows, which bound the memory of the n x m
    logits; within a chunk occupation is drawn before diagnosis.
    """
    n = len(male)
    occ_base = np.log(np.array([o[1] for o in _OCCUPATION], dtype=np.float32))
    occ_male = np.array([o[2] for o in _OCCUPATION], dtype=np.float32)
    occ_edu = np.array([o[3] for o in _OCCUPATION], dtype=np.float32)
    occupation = np.empty(n, dtype=np.int32)
    diag = np.empty(n, dtype=np.int32)
    d_base = np.log(np.array([d[1] for d in _DIAGNOSIS], dtype=np.float32))
    d_age = np.array([d[2] for d in _DIAGNOSIS], dtype=np.float32)
    chunk = 1_000_000
    for s in range(0, n, chunk):  # chunks of rows, not rows
        e = slice(s, min(s + chunk, n))
        m_ = (male[e].astype(np.float32) - 0.67)[:, None]
        ed = (edu_years[e] - 10.0)[:, None]
        occupation[e] = _gumbel_choice(rng, occ_base + m_ * occ_male + ed * occ_edu)
        dec = ((age[e].astype(np.float32) - 38.0) / 10.0)[:, None]
        diag[e] = _gumbel_choice(rng, d_base + dec * d_age)
    return occupation, diag


def _high_income(
    rng: np.random.Generator,
    edu_years: np.ndarray,
    married: np.ndarray,
    male: np.ndarray,
    hours: np.ndarray,
    a: np.ndarray,
) -> np.ndarray:
    """Draw income > 50K: logistic in education, age, sex, hours and being married."""
    z = (
        _INCOME_INTERCEPT
        + 0.33 * (edu_years - 10)
        + 1.4 * married
        + 0.9 * male
        + 0.03 * (hours - 40)
        + 0.25 * a
        - 0.25 * a**2
    )
    return np.asarray(rng.random(len(male)) < 1.0 / (1.0 + np.exp(-z)))


def _names(rng: np.random.Generator, male: np.ndarray) -> pd.Categorical:
    """Draw fake full names (first name by sex, last name uniform)."""
    n = len(male)
    first_m, first_f = np.array(_FIRST_M, dtype=object), np.array(_FIRST_F, dtype=object)
    firsts = np.concatenate([first_m, first_f])
    first_idx = np.where(
        male, rng.integers(0, len(first_m), n), len(first_m) + rng.integers(0, len(first_f), n)
    )
    last_idx = rng.integers(0, len(_LAST), n)
    combo = first_idx * len(_LAST) + last_idx
    uniq_combo, combo_codes = np.unique(combo, return_inverse=True)
    name_labels = pd.Index(
        firsts[uniq_combo // len(_LAST)]
        + " "
        + np.array(_LAST, dtype=object)[uniq_combo % len(_LAST)]
    )
    return _categorical(combo_codes.astype(np.int32), name_labels)


def _ssns(rng: np.random.Generator, n: int) -> np.ndarray:
    """Draw fake SSNs ``ddd-dd-dddd`` in the never-issued area 900-999."""
    ssn_num = rng.integers(0, 100 * 10_000, n) + (900 + rng.integers(0, 100, n)) * 1_000_000
    digits = pd.Series(ssn_num).astype(str)  # always 9 digits (area 900-999)
    ssn = digits.str.slice(0, 3) + "-" + digits.str.slice(3, 5) + "-" + digits.str.slice(5, 9)
    return ssn.astype("str").to_numpy()
