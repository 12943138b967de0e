"""Realistic surrogates from Faker, one per distinct value, with the lookup table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, NamedTuple

import pandas as pd

from riskcore.deidentify.masking.values import per_value

if TYPE_CHECKING:
    from faker import Faker

__all__ = ["SURROGATE_KINDS", "SURROGATE_NOUNS", "SurrogateKind", "Surrogates", "surrogates"]


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


def _draw(fake: Faker, kind: str) -> str:
    if kind == "name":  # first and last name only: no "Dr." or "DVM"
        return f"{fake.first_name()} {fake.last_name()}"
    if kind == "first_name":
        return str(fake.first_name())
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
    series: pd.Series, kind: SurrogateKind, *, seed: int, locale: str = "en_US"
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
    kind : {"name", "first_name", "last_name", "email", "phone", "address", "company", "ssn"}
    seed : int
    locale : str, default "en_US"
        A Faker locale.

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

    def draw_all(texts: list[str]) -> list[str]:
        nonlocal n_shared, n_real
        real = {fold(t) for t in texts}  # every value present in the column
        for _ in texts:
            value = _draw(fake, kind)
            for _try in range(_SURROGATE_TRIES - 1):
                if fold(value) not in real and (n_shared or value not in used):
                    break
                value = _draw(fake, kind)
            n_real += fold(value) in real
            n_shared += value in used
            used.add(value)
            table["surrogate"].append(value)
        table["original"].extend(texts)
        return table["surrogate"]

    values = per_value(series, draw_all)
    lookup = pd.DataFrame({k: pd.Series(v, dtype=object) for k, v in table.items()})
    return Surrogates(values, lookup, n_shared, n_real)
