"""The role rule's patterns: column names and whole values, each rule with its role and kind.

A rule recognising a direct identifier carries its HIPAA Safe Harbor category
letter as data (45 CFR 164.514(b)(2)(i)(A)-(R)), and its reason sentence is
derived from that letter (:func:`safe_harbor_reason`); nothing reads the
letter back out of the sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

__all__ = [
    "CARD_RE",
    "HEALTH_CODE_RULES",
    "ICD9_MARK",
    "LATE_VALUE_RULES",
    "NAME_RULES",
    "NAME_VALUE_RE",
    "NOT_MINIMAL",
    "VALUE_RULES",
    "YEAR_RE",
    "ZIP3_RE",
    "Rule",
    "expert_reason",
    "luhn_valid",
    "matches",
    "normalise_name",
    "safe_harbor_reason",
    "share",
]

#: What each Safe Harbor category is called in a reason, where one name serves every rule.
_WHAT = {
    "A": "name",
    "B": "geographic subdivision smaller than a state",
    "C": "all elements of dates except the year",
    "D": "telephone number",
    "F": "e-mail address",
    "G": "Social Security number",
    "H": "record number",
    "J": "account number",
    "R": "any other unique identifying number",
}


def safe_harbor_reason(letter: str, what: str | None = None) -> str:
    """Return the reason phrase citing a Safe Harbor category.

    ``safe_harbor_reason("G", "Social Security number")`` is "HIPAA Safe
    Harbor identifier (45 CFR 164.514(b)(2)(i)(G) Social Security number)".

    Parameters
    ----------
    letter : str
        The category's paragraph letter, ``"A"`` to ``"R"``.
    what : str, optional
        Its name in the sentence; default the usual one for the letter.

    Returns
    -------
    str
    """
    return (
        f"HIPAA Safe Harbor identifier (45 CFR 164.514(b)(2)(i)({letter}) {what or _WHAT[letter]})"
    )


def expert_reason(letter: str) -> str:
    """Return the reason phrase of a Safe Harbor identifier read as a quasi-identifier.

    Under an expert determination (45 CFR 164.514(b)(1)) full dates and
    5-digit ZIP codes are not removed by rule: they are quasi-identifiers,
    generalised until the measured risk is very small. The phrase replaces
    :func:`safe_harbor_reason` in a suggestion read that way.

    Parameters
    ----------
    letter : str
        The Safe Harbor category's paragraph letter (``"B"`` or ``"C"``).

    Returns
    -------
    str
    """
    return (
        "a quasi-identifier for an expert determination (45 CFR 164.514(b)(1)), generalised "
        f"and measured; Safe Harbor would remove it ((i)({letter}) {_WHAT[letter]})"
    )


@dataclass(frozen=True)
class Rule:
    """One rule of :func:`riskcore.roles.suggest_roles`.

    Attributes
    ----------
    pattern : re.Pattern
        Matched against the normalised column name (name rules) or each
        sampled value (value rules).
    role : str
        The role it suggests.
    kind : str
        What the column holds ("ssn", "zip", "age" ...).
    reason : str
        The sentence shown beside the suggestion (for an identifier, derived
        from ``letter``).
    letter : str or None
        The HIPAA Safe Harbor category of a direct identifier; None otherwise.
    """

    pattern: re.Pattern[str]
    role: str
    kind: str
    reason: str
    letter: str | None = None


def _rule(
    pattern: str, role: str, kind: str, text: str, *, letter: str | None = None,
    what: str | None = None,
) -> Rule:  # fmt: skip
    """Build a rule; an identifier's reason is ``text`` followed by its category's phrase."""
    reason = f"{text}: {safe_harbor_reason(letter, what)}" if letter is not None else text
    return Rule(re.compile(pattern), role, kind, reason, letter)


NOT_MINIMAL = (
    "outside the smallest quasi-identifier set (Sweeney: date of birth, sex, ZIP; "
    "HIPAA Safe Harbor); tag it to model a better-informed attacker"
)

#: Rules on the normalised column name (step 2); the first match wins.
NAME_RULES: tuple[Rule, ...] = (
    _rule(
        r"^(ssn|social ?security( ?number| ?no)?|sin|nino|national ?(id|insurance)( ?number)?)$",
        "identifier",
        "ssn",
        "a national identification number",
        letter="G",
        what="Social Security number",
    ),
    _rule(
        r"(^|\b)(e ?mail|email ?address)(\b|$)",
        "identifier",
        "email",
        "e-mail addresses",
        letter="F",
        what="e-mail address",
    ),
    _rule(
        r"(^|\b)(phone|telephone|mobile|cell|fax)( ?(number|no))?(\b|$)",
        "identifier",
        "phone",
        "phone numbers",
        letter="D",
        what="telephone number",
    ),
    _rule(
        r"(^|\b)(credit ?card|card ?number|cc ?num(ber)?|iban|account ?(number|no))(\b|$)",
        "identifier",
        "account",
        "account or card numbers",
        letter="J",
        what="account number",
    ),
    _rule(
        r"(^|\b)(ip|ip ?address)(\b|$)",
        "identifier",
        "ip",
        "IP addresses",
        letter="O",
        what="IP address",
    ),
    _rule(
        r"(^|\b)(url|website|web ?page)(\b|$)",
        "identifier",
        "url",
        "URLs",
        letter="N",
        what="web URL",
    ),
    _rule(
        r"^(full ?name|name|first ?name|last ?name|surname|given ?name|family ?name|patient ?name"
        r"|person ?name|forename|middle ?name)$",
        "identifier",
        "name",
        "person names",
        letter="A",
        what="name",
    ),
    _rule(
        r"(^|\b)(mrn|medical ?record( ?number)?|record ?(id|number|no)|patient ?id|person ?id"
        r"|customer ?id|member ?id|employee ?id|license ?(number|no)|licence ?(number|no)"
        r"|passport( ?number)?|hashed ?name|id|uuid|guid)(\b|$)",
        "identifier",
        "record_id",
        "a record number or identifier",
        letter="H",
        what="record number",
    ),
    _rule(
        r"^(birth ?year|year ?of ?birth|yob)$",
        "quasi_identifier",
        "birth_year",
        "year of birth: a demographic quasi-identifier; Safe Harbor keeps the year",
    ),
    _rule(
        r"(^|\b)(dob|date ?of ?birth|birth ?date|birthdate|birthday|born)(\b|$)",
        "identifier",
        "dob",
        "full date of birth",
        letter="C",
    ),
    _rule(
        r"^(zip ?3|3 ?digit ?zip( ?code)?|zip ?(code ?)?prefix)$",
        "quasi_identifier",
        "zip3",
        "3-digit ZIP area: a geographic quasi-identifier (Safe Harbor keeps it where the area "
        "holds more than 20,000 people)",
    ),
    _rule(
        r"(^|\b)(zip|zip ?code|zipcode|postcode|postal ?code|post ?code|plz|postal)(\b|$)",
        "identifier",
        "zip",
        "5-digit ZIP / postcode",
        letter="B",
    ),
    _rule(
        r"(^|\b)(street|address|addr|city|town|county|district|municipality|precinct"
        r"|neighbou?rhood|geo ?code|geo|latitude|longitude|lat|lon|lng|census ?tract|tract"
        r"|block ?group)(\b|$)",
        "identifier",
        "geo_fine",
        "a place smaller than a state",
        letter="B",
    ),
    _rule(
        r"^(age|age ?years|age ?at ?.*|years ?old|age ?(group|band|range|bracket|class|cat"
        r"|category))$",
        "quasi_identifier",
        "age",
        "age: a demographic quasi-identifier (Sweeney; El Emam); Safe Harbor keeps it, with "
        "ages over 89 grouped",
    ),
    _rule(
        r"^(sex|gender)$",
        "quasi_identifier",
        "sex",
        "sex / gender: a demographic quasi-identifier (Sweeney: ZIP, date of birth and sex "
        "single out most Americans)",
    ),
    _rule(
        r"(^|\b)(race|ethnicity|ethnic ?group|ancestry)(\b|$)",
        "quasi_identifier",
        "race",
        "race / ethnicity: a demographic quasi-identifier, published in census tables",
    ),
    _rule(
        r"(^|\b)(marital( ?status)?|civil ?status)(\b|$)",
        "quasi_identifier",
        "marital",
        "marital status: a demographic quasi-identifier, public in many records",
    ),
    _rule(
        r"(^|\b)(education|degree|school)(\b|$)",
        "quasi_identifier",
        "education",
        "education: a demographic quasi-identifier, often public (professional profiles)",
    ),
    _rule(
        r"(^|\b)(state|province|region|country|native ?country|nationality|citizenship"
        r"|country ?of ?birth|birthplace)(\b|$)",
        "quasi_identifier",
        "geo",
        "geography of a state or larger: a quasi-identifier Safe Harbor keeps",
    ),
    _rule(
        r"(^|\b)(relationship|household ?role)(\b|$)",
        "other",
        "relationship",
        "household relationship (husband, own child ...): it follows largely from marital "
        "status and sex; " + NOT_MINIMAL,
    ),
    _rule(
        r"(^|\b)(occupation|job|job ?title|title|profession|employer|workclass|work ?class"
        r"|industry|job ?code)(\b|$)",
        "other",
        "occupation",
        "occupation / employment: colleagues may know it, but it is " + NOT_MINIMAL,
    ),
    _rule(
        r"(^|\b)(date|admission|discharge|visit|death|dod|service ?date)(\b|$)",
        "identifier",
        "date",
        "dates of events",
        letter="C",
    ),
    _rule(
        r"(^|\b)(diagnosis|diagnoses|dx|icd|condition|disease|problem|illness|medication|drug"
        r"|treatment|procedure|hiv|test ?result|result|symptom|disability|iq|bmi|mobility)(\b|$)"
        # code systems, also with a number glued on (icd10, dx1, cpt4)
        r"|(^|\b)(icd|dx|diag|cpt|hcpcs|ndc|drg|proc) ?\d{0,2}( ?cm| ?pcs)?( ?codes?)?(\b|$)",
        "sensitive",
        "health",
        "health information is sensitive",
    ),
    _rule(
        r"(^|\b)(income|salary|wage|wages|earnings|pay|capital ?gain|capital ?loss|target"
        r"|class|net ?worth|debt|credit ?score)(\b|$)",
        "sensitive",
        "financial",
        "financial information is sensitive",
    ),
    _rule(
        r"(^|\b)(religion|sexual ?orientation|political|union|criminal|conviction|sexuality)(\b|$)",
        "sensitive",
        "special_category",
        "a special category of personal data (GDPR art. 9)",
    ),
    _rule(
        r"^(fnlwgt|final ?weight|weight|wgt|[a-z]* ?wgt|survey ?weight|sampling ?weight"
        r"|sample ?weight|design ?weight|person ?weight|weights?)$",
        "weight",
        "weight",
        "a sampling weight: each record stands for this many people of the population, used to "
        "estimate population class sizes for the individual risk (sdcMicro's weightVar), never "
        "a quasi-identifier; tag it other if it is a measurement such as body weight",
    ),
    _rule(
        r"^(hours|hrs|hours ?per ?week|hours ?worked)$",
        "other",
        "measurement",
        "a measurement (hours) an outside attacker rarely knows exactly: not a quasi-identifier",
    ),
)

#: Value patterns of direct identifiers, tried before the column name (step 1).
VALUE_RULES: tuple[Rule, ...] = (
    _rule(
        r"^\d{3}-\d{2}-\d{4}$",
        "identifier",
        "ssn",
        "values look like US Social Security numbers",
        letter="G",
        what="Social Security number",
    ),
    _rule(
        r"^[\w.%+-]+@[\w.-]+\.[^\W\d_]{2,}$",  # letters of any script (RFC 6531)
        "identifier",
        "email",
        "values look like e-mail addresses",
        letter="F",
        what="e-mail address",
    ),
    _rule(
        r"^(https?://|www\.)\S+$",
        "identifier",
        "url",
        "values look like URLs",
        letter="N",
        what="web URL",
    ),
    _rule(
        r"^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$",
        "identifier",
        "ip",
        "values look like IPv4 addresses",
        letter="O",
        what="IP address",
    ),
    _rule(
        r"^(\+?1[ .-]?)?\(?\d{3}\)?[ .-]?\d{3}[ .-]?\d{4}$|^\+\d{1,3}[ .-]?\d[\d .-]{6,14}\d$",
        "identifier",
        "phone",
        "values look like phone numbers",
        letter="D",
        what="telephone number",
    ),
)
#: Value patterns tried after the column name (step 3); ZIP codes only in text columns.
LATE_VALUE_RULES: tuple[Rule, ...] = (
    _rule(
        r"^\d{5}(-\d{4})?$",
        "identifier",
        "zip",
        "values look like 5-digit ZIP codes",
        letter="B",
    ),
    _rule(
        r"^\d{1,2}/\d{1,2}/\d{4}$|^\d{4}-\d{2}-\d{2}([ T].*)?$|^\d{1,2}\.\d{1,2}\.\d{4}$",
        "identifier",
        "date",
        "values look like full dates",
        letter="C",
    ),
)

#: Value patterns of diagnosis, procedure and drug codes (step 3, text columns, after ZIP codes
#: and dates): health information, so sensitive. The first that matches 90% of the sampled
#: values wins; ``ICD9_MARK`` must match one value at least for ICD-9 (a column of bare 3-digit
#: numbers is not read as ICD-9 codes).
HEALTH_CODE_RULES: tuple[Rule, ...] = (
    _rule(
        # ICD-10 / ICD-10-CM: letter (not U), digit, digit or A/B, then a dot and 1-4 characters
        # (WHO ICD-10 2019; CMS ICD-10-CM code set): F32.1, B20, Z21, S72.001A
        r"^[A-TV-Z]\d[0-9AB](\.[0-9A-Z]{1,4})?$",
        "sensitive",
        "icd10",
        "values look like ICD-10 diagnosis codes (F32.1, B20): health information is sensitive",
    ),
    _rule(
        # NDC, the 10-digit FDA forms 4-4-2, 5-3-2, 5-4-1 and the 11-digit 5-4-2 billing form
        r"^(\d{4}-\d{4}-\d{2}|\d{5}-\d{3}-\d{2}|\d{5}-\d{4}-\d{1,2})$",
        "sensitive",
        "ndc",
        "values look like National Drug Codes (0002-3227-30): health information is sensitive",
    ),
    _rule(
        # CPT category I (5 digits), II / III (4 digits and F or T), HCPCS level II (a letter
        # and 4 digits), with an optional 2-character modifier (AMA CPT; CMS HCPCS)
        r"^(\d{5}|\d{4}[FT]|[A-V]\d{4})([- ]?[0-9A-Z]{2})?$",
        "sensitive",
        "cpt",
        "values look like CPT / HCPCS procedure codes (99213, J1100): health information is "
        "sensitive",
    ),
    _rule(
        # ICD-10 written without its dot (F321, E119), as claims often carry it
        r"^[A-TV-Z]\d[0-9AB][0-9A-Z]{0,4}$",
        "sensitive",
        "icd10",
        "values look like ICD-10 diagnosis codes written without the dot (F321, E119): health "
        "information is sensitive",
    ),
    _rule(
        # ICD-9-CM: 3 digits with 1-2 decimals, V codes, E codes (CMS ICD-9-CM code set)
        r"^(\d{3}(\.\d{1,2})?|V\d{2}(\.\d{1,2})?|E\d{3}(\.\d)?)$",
        "sensitive",
        "icd9",
        "values look like ICD-9 diagnosis codes (250.00, V22.0): health information is sensitive",
    ),
)
ICD9_MARK = re.compile(r"^(\d{3}\.|[VE]\d)")

#: Values that are years only (a date column Safe Harbor lets through), with the one category
#: of birth years implying an age over 89 ("1936 or earlier", the label of
#: :func:`riskcore.deidentify.safe_harbor.transforms.birth_year_label`), and 3-digit ZIP areas.
YEAR_RE = re.compile(r"^(1[89]|20)\d\d(\.0)?( or earlier)?$")
ZIP3_RE = re.compile(r"^\d{1,3}(\.0)?$")
CARD_RE = re.compile(r"^\d(?:[ -]?\d){12,18}$")
NAME_VALUE_RE = re.compile(r"^[A-Z][a-z'\-]+(?: [A-Z][a-z'\-]+){1,2}$")


def luhn_valid(number: str) -> bool:
    """Return True when a digit string passes the Luhn checksum (ISO/IEC 7812-1).

    Parameters
    ----------
    number : str
        The text; characters other than digits are ignored.

    Returns
    -------
    bool
        False for fewer than two digits.
    """
    digits = [int(ch) for ch in str(number) if ch.isdigit()]
    if len(digits) < 2:
        return False
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def normalise_name(name: str) -> str:
    """Return a column name in lower case, words split at case changes and punctuation.

    Parameters
    ----------
    name : str
        A column name (``"dateOfBirth"``, ``"ZIP_code"``).

    Returns
    -------
    str
        Words separated by one space, no leading or trailing space (``"date of birth"``).
    """
    s = re.sub(r"([a-z])([A-Z])", r"\1 \2", str(name))
    s = re.sub(r"[^0-9A-Za-z]+", " ", s).strip().lower()
    return s


def share(values: pd.Series, pattern: re.Pattern[str]) -> float:
    """Return the share of text values matching a pattern from their start (0 when empty).

    Parameters
    ----------
    values : pandas.Series
        The column's values.
    pattern : re.Pattern[str]
        Matched with :meth:`re.Pattern.match` (from the start, not the whole value).

    Returns
    -------
    float
        In [0, 1].
    """
    if values.empty:
        return 0.0
    return float(matches(values, pattern).mean())


def matches(values: pd.Series, pattern: re.Pattern[str]) -> np.ndarray:
    """Return, per value, whether a pattern matches it from its start.

    Each distinct value is matched once (a sample of a column repeats its values).

    Parameters
    ----------
    values : pandas.Series
        Text values.
    pattern : re.Pattern[str]
        A rule's compiled value pattern, matched with ``re.match``.

    Returns
    -------
    numpy.ndarray
        One bool per value, in order.
    """
    codes, distinct = pd.factorize(values, use_na_sentinel=False)
    hit = np.fromiter((bool(pattern.match(v)) for v in distinct), dtype=bool, count=len(distinct))
    out: np.ndarray = hit[codes]
    return out
