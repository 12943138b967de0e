"""Realistic surrogates from Faker, one per distinct value, with the lookup table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, NamedTuple

import numpy as np
import pandas as pd

from riskcore.deidentify.masking.values import distinct_text, per_value

if TYPE_CHECKING:
    from faker import Faker

__all__ = [
    "SEXED_KINDS",
    "SURROGATE_KINDS",
    "SURROGATE_NOUNS",
    "SurrogateKind",
    "Surrogates",
    "find_sex_column",
    "sex_of",
    "surrogates",
]


SurrogateKind = Literal[
    "name", "first_name", "last_name", "email", "phone", "address", "company", "ssn"
]
#: Each kind of realistic surrogate :func:`surrogates` makes, with its noun (one, several).
SURROGATE_NOUNS: dict[str, tuple[str, str]] = {
    "name": ("name", "names"),
    "first_name": ("first name", "first names"),
    "last_name": ("last name", "last names"),
    "email": ("e-mail address", "e-mail addresses"),
    "phone": ("phone number", "phone numbers"),
    "address": ("postal address", "postal addresses"),
    "company": ("company name", "company names"),
    "ssn": ("SSN", "SSNs"),
}
#: Kinds of realistic surrogate :func:`surrogates` makes.
SURROGATE_KINDS: tuple[str, ...] = tuple(SURROGATE_NOUNS)


#: Kinds whose surrogates can follow a sex column (a first name is female or male).
SEXED_KINDS: tuple[str, ...] = ("name", "first_name")
_FEMALE = frozenset({"f", "female", "w", "woman", "girl", "fem"})
_MALE = frozenset({"m", "male", "man", "boy", "masc"})


def sex_of(value: object) -> str | None:
    """Return "female", "male" or None (unknown) for a sex column's value ("F", "male").

    Parameters
    ----------
    value : object
        A value of a sex column.

    Returns
    -------
    str or None
    """
    if not isinstance(value, str):
        return None
    text = value.strip().casefold()
    return "female" if text in _FEMALE else "male" if text in _MALE else None


def find_sex_column(data: pd.DataFrame, candidates: list[str] | tuple[str, ...]) -> str | None:
    """Return the first of ``candidates`` that is a sex column, or None.

    A sex column's known values are nearly all (95%) read as female or male by
    :func:`sex_of` ("F", "M", "female", "male").

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    candidates : list of str or tuple of str
        Column names, in the order tried.

    Returns
    -------
    str or None
    """
    for c in candidates:
        if c not in data.columns:
            continue
        known = data[c].dropna()
        if len(known) and known.map(sex_of).notna().mean() >= 0.95:
            return str(c)
    return None


def _first(fake: Faker, sex: str | None) -> str:
    if sex == "female":
        return str(fake.first_name_female())
    if sex == "male":
        return str(fake.first_name_male())
    return str(fake.first_name())


def _draw(fake: Faker, kind: str, sex: str | None = None) -> str:
    if kind == "name":  # first and last name only: no "Dr." or "DVM"
        return f"{_first(fake, sex)} {fake.last_name()}"
    if kind == "first_name":
        return _first(fake, sex)
    if kind == "last_name":
        return str(fake.last_name())
    if kind == "email":
        return str(fake.email(safe=True))  # example.com / .net / .org only
    if kind == "phone":
        return str(fake.numerify("(%##) 555-01##"))  # 555-0100..0199: fictional numbers
    if kind == "address":
        return str(fake.address()).replace("\n", ", ")
    if kind == "company":
        return str(fake.company())
    return str(fake.numerify("666-##-####"))  # area 666 is never issued as an SSN


class Surrogates(NamedTuple):
    """Surrogate values and the lookup table that reverses them.

    Attributes
    ----------
    values : pandas.Series
        The column with each value replaced by its surrogate.
    lookup : pandas.DataFrame
        Columns ``original`` and ``surrogate``, one row per distinct value in
        order of first appearance: the re-identification code of Safe Harbor
        (164.514(c)). Keep it apart from the released data.
    n_shared : int
        Distinct values that had to share a surrogate with another value
        (the kind has too few fakes, e.g. last names); 0 means one-to-one.
    n_real : int
        Surrogates equal to a value present in the column (another real person's
        value), left after 25 draws avoided them: 0 unless the kind ran out of fakes.
    """

    values: pd.Series
    lookup: pd.DataFrame
    n_shared: int
    n_real: int = 0


#: Draws tried for a surrogate not already used before one is shared.
_SURROGATE_TRIES = 25


def surrogates(
    series: pd.Series,
    kind: SurrogateKind,
    *,
    seed: int,
    locale: str = "en_US",
    sex: pd.Series | None = None,
) -> Surrogates:
    """Replace each distinct value by a realistic fake one from Faker.

    One surrogate per distinct value, drawn in order of first appearance from
    a Faker generator seeded with ``seed``: the same column, seed, locale and
    Faker version (pinned in requirements.txt) give the same surrogates.
    A surrogate equal to a value present in the column (compared trimmed and
    case-folded) is drawn again (up to 25 tries): a fake must never be another real
    person's value (``n_real`` counts those left). A surrogate already given to
    another value is drawn again too, so surrogates are one-to-one unless the kind
    has too few fakes (``n_shared`` counts those; after the first shared one, the
    kind is taken as used up and only real values are avoided). Surrogates are
    random, not derived from the values, so with the lookup table kept apart they
    are a Safe Harbor re-identification code (164.514(c)).

    Values are drawn uniformly from Faker's lists (``use_weighting=False``,
    ten times faster than frequency weighting: 100,000 names take about 2 s),
    so a rare first name is as likely as a common one. Fakes avoid real
    contact details: e-mails use example.com / .net / .org,
    phones the fictional 555-0100 to 555-0199 range, SSN-like values the
    area 666, which the SSA never issues.

    Parameters
    ----------
    series : pandas.Series
        The column's values.
    kind : {"name", "first_name", "last_name", "email", "phone", "address", "company", "ssn"}
        The kind of fake value drawn.
    seed : int
        Seed of the random generator.
    locale : str, default "en_US"
        A Faker locale.
    sex : pandas.Series, optional
        A sex column of the same rows: a name's surrogate then has a first name of
        the sex of the value's first row (:func:`sex_of`: "F", "female", "M", "male";
        other values draw from both). Only for the kinds in :data:`SEXED_KINDS`.

    Returns
    -------
    Surrogates
        ``values``, the separate ``lookup`` table and ``n_shared``.
    """
    if kind not in SURROGATE_KINDS:
        raise ValueError(f"kind must be one of {', '.join(SURROGATE_KINDS)}, got {kind!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an integer, got {seed!r}")
    from faker import Faker

    fake = Faker(locale, use_weighting=False)
    fake.seed_instance(seed)
    used: set[str] = set()
    n_shared = n_real = 0
    table: dict[str, list[str]] = {"original": [], "surrogate": []}

    def fold(text: str) -> str:
        return text.strip().casefold()

    sexes: dict[str, str | None] = {}
    if sex is not None and kind in SEXED_KINDS:
        if len(sex) != len(series):
            raise ValueError("the sex column must have one value per row of the column")
        # the sex of each value's first row (its text as per_value reads it)
        codes, distinct = distinct_text(series)
        found, rows = np.unique(codes, return_index=True)
        of_row = sex.to_numpy(dtype=object)
        sexes = {
            distinct[int(c)]: sex_of(of_row[int(r)])
            for c, r in zip(found, rows, strict=True)
            if c >= 0
        }

    def draw_all(texts: list[str]) -> list[str]:
        nonlocal n_shared, n_real
        real = {fold(t) for t in texts}  # every value present in the column
        for text in texts:
            who = sexes.get(text)
            value = _draw(fake, kind, who)
            for _try in range(_SURROGATE_TRIES - 1):
                if fold(value) not in real and (n_shared or value not in used):
                    break
                value = _draw(fake, kind, who)
            n_real += fold(value) in real
            n_shared += value in used
            used.add(value)
            table["surrogate"].append(value)
        table["original"].extend(texts)
        return table["surrogate"]

    values = per_value(series, draw_all)
    lookup = pd.DataFrame({k: pd.Series(v, dtype=object) for k, v in table.items()})
    return Surrogates(values, lookup, n_shared, n_real)
