"""The 18 identifier categories of HIPAA Safe Harbor and the restricted 3-digit ZIP areas."""

from __future__ import annotations

__all__ = ["CATEGORIES", "RESTRICTED_ZIP3", "RESTRICTED_ZIP3_YEAR", "UNSEEN"]

#: The 18 identifier categories of 45 CFR 164.514(b)(2)(i), by paragraph letter.
CATEGORIES: dict[str, str] = {
    "A": "Names",
    "B": "Geographic subdivisions smaller than a state (street, city, county, ZIP code; "
    "the first 3 ZIP digits may stay where the area holds more than 20,000 people)",
    "C": "All elements of dates (except year) related to an individual, and ages over 89 "
    "(grouped as 90 or older)",
    "D": "Telephone numbers",
    "E": "Fax numbers",
    "F": "E-mail addresses",
    "G": "Social Security numbers",
    "H": "Medical record numbers",
    "I": "Health plan beneficiary numbers",
    "J": "Account numbers",
    "K": "Certificate / license numbers",
    "L": "Vehicle identifiers and serial numbers, including license plates",
    "M": "Device identifiers and serial numbers",
    "N": "Web URLs",
    "O": "IP addresses",
    "P": "Biometric identifiers, including finger and voice prints",
    "Q": "Full-face photographs and comparable images",
    "R": "Any other unique identifying number, characteristic or code",
}

#: Three-digit ZIP areas (ZCTAs) of 20,000 people or fewer in the 2000 Census, whose
#: first 3 digits Safe Harbor replaces by ``000``. Source: U.S. Department of Health and
#: Human Services, Office for Civil Rights, "Guidance Regarding Methods for
#: De-identification of Protected Health Information in Accordance with the HIPAA
#: Privacy Rule" (26 November 2012), "When can ZIP codes be included in de-identified
#: information?" (2000 Census; the guidance asks for more current Census data when
#: published).
RESTRICTED_ZIP3: frozenset[str] = frozenset(
    {
        "036",
        "059",
        "063",
        "102",
        "203",
        "556",
        "692",
        "790",
        "821",
        "823",
        "830",
        "831",
        "878",
        "879",
        "884",
        "890",
        "893",
    }
)
#: Census year of :data:`RESTRICTED_ZIP3`.
RESTRICTED_ZIP3_YEAR = 2000

#: Categories neither the role rule nor the free-text patterns recognise from names or values
#: alone (found only by a column's name matching a rule, or the user's tags).
UNSEEN = ("I", "K", "L", "M", "P", "Q")
