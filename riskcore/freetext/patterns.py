"""The built-in patterns of identifiers written inside text, each with its Safe Harbor category.

Every :class:`Entity` is one kind of identifier (phone number, e-mail address,
SSN ...), a regular expression for it inside longer text, and its HIPAA Safe
Harbor category letter, 45 CFR 164.514(b)(2)(i)(A)-(R), as data. The
patterns are tried in the order of :data:`ENTITIES`; what one finds is
blanked before the next runs, so an e-mail address is not also a URL, an
SSN is not also a phone number, and a phone number is not also a long
digit run. Dates and SSNs, whole columns of which are common, go first: a
value they leave empty is not read again. They are written to be precise rather than exhaustive:

- phone numbers (D): North American forms (``(212) 555-0182``,
  ``212-555-0182``, ``212.555.0182``, ``+1 212 555 0182``, ten digits),
  international forms with a ``+`` and 8 to 15 digits (``+44 20 7946
  0958``), and any number of at least 7 digits after "tel", "phone",
  "mobile" or "cell"; a fax number (E) after "fax";
- e-mail addresses (F), in any script (``fatima.lópez@gmail.com``,
  ``zoë@straße.de``); URLs starting ``http://``, ``https://``,
  ``ftp://`` or ``www.`` (N); IPv4 and IPv6 addresses (O);
- SSNs (G): ``123-45-6789`` or ``123 45 6789``, or 9 digits after "SSN";
  a ZIP+4 (``02139-4307``, 5 then 4 digits) is never one;
- dates (C): ``2024-03-14``, ``14.03.2024``, ``03/14/2024``, ``3/14/24``,
  ``14 March 2024``, ``March 14, 2024``, ``March 14``, ``March 2024``
  (month names capitalised): every element of a date except the year;
- medical-record-like numbers (H): "MRN", "record", "chart" or "patient"
  (number) followed by at least 6 digits, or 1 to 4 capital letters
  followed by at least 6 digits (``MRN1000123``, ``AB-123456``);
- payment-card numbers (J): 16 digits in groups of 4, or 4-6-5 (Amex);
- ZIP codes in text (B): a ZIP+4, or 5 digits after "ZIP" / "postal
  code" or a US state's two-letter code (``Boston, MA 02139``); a bare
  5-digit number is not read as a ZIP code inside text;
- long digit runs (R): 8 or more digits standing alone, "any other unique
  identifying number".

Names and places written in free text are not recognised by any pattern
(Presidio adds names when it is installed, :mod:`riskcore.freetext.presidio`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["ENTITIES", "PREFILTER", "Entity", "entity", "mask_example"]


@dataclass(frozen=True)
class Entity:
    """One kind of identifier found inside text.

    Attributes
    ----------
    kind : str
        Short name (``"phone"``, ``"email"`` ...).
    letter : str
        Its HIPAA Safe Harbor category, 45 CFR 164.514(b)(2)(i)(A)-(R).
    label : str
        Plural noun for sentences ("phone numbers").
    regex : str
        The pattern inside text (Python ``re`` syntax, inline flags only).
    placeholder : str
        What redaction writes in its place (``"[PHONE]"``).
    keep_last : int
        Letters and digits a masked example keeps at its end (4 for numbers
        conventionally shown by their last digits; 0 for dates, addresses).
    """

    kind: str
    letter: str
    label: str
    regex: str
    placeholder: str
    keep_last: int = 0

    def compiled(self) -> re.Pattern[str]:
        """Return the compiled pattern (cached by :mod:`re`).

        Returns
        -------
        re.Pattern[str]
            Of :attr:`regex`.
        """
        return re.compile(self.regex)


_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
_DAY = r"(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?"
_MONTH_NUM = r"(?:0?[1-9]|1[0-2])"
_DAY_NUM = r"(?:0?[1-9]|[12]\d|3[01])"
_YEAR = r"(?:1[89]|20)\d\d"
# an IPv4 octet, 0-255
_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
_H = r"[0-9A-Fa-f]{1,4}"
_STATES = (
    "AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV"
    "|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|PR"
)
# a number of at least 7 digits written with spaces, dots, dashes or brackets
_DIALLED = r"\+?\(?\d(?:[ .()-]{0,2}\d){6,}"

#: The patterns, in the order they are tried (what one finds is blanked before the next).
ENTITIES: tuple[Entity, ...] = (
    Entity(
        "date",
        "C",
        "dates",
        rf"(?<![\w/.-]){_YEAR}([-/.]){_MONTH_NUM}\1{_DAY_NUM}(?![\w]|[/.-]\d)"
        rf"|(?<![\w/.-]){_DAY_NUM}([-.]){_MONTH_NUM}\2{_YEAR}(?![\w]|[/.-]\d)"
        rf"|(?<![\w/.-]){_MONTH_NUM}([-.]){_DAY_NUM}\3{_YEAR}(?![\w]|[/.-]\d)"
        rf"|(?<![\w/.-])\d{{1,2}}/\d{{1,2}}/(?:{_YEAR}|\d\d)(?![\w]|[/.-]\d)"
        rf"|\b{_DAY}\s+{_MONTH}(?:,?\s+{_YEAR})?\b"
        rf"|\b{_MONTH}\s+{_DAY}(?:,?\s+{_YEAR})?\b"
        rf"|\b{_MONTH}\s+{_YEAR}\b",
        "[DATE]",
    ),
    Entity(
        "ssn",
        "G",
        "Social Security numbers",
        r"(?<![\w-])\d{3}([- ])\d{2}\1\d{4}(?![\w]|-\d)"
        r"|(?i:\b(?:SSN|social security(?: number| no\.?)?)\s*(?:#|:)?\s*)\d{9}\b",
        "[SSN]",
        4,
    ),
    Entity(
        "email",
        "F",
        "e-mail addresses",
        # letters of any script in the local part and the domain (RFC 6531, 5890): \w is Unicode
        r"(?<![\w.%+-])[\w.%+-]+@[\w-]+(?:\.[\w-]+)*\.[^\W\d_]{2,}\b",
        "[EMAIL]",
    ),
    Entity(
        "url",
        "N",
        "web URLs",
        r"(?i:\b(?:https?://|ftp://|www\.))[^\s<>\"']*[^\s<>\"'.,;:!?)\]]",
        "[URL]",
    ),
    Entity(
        "ip",
        "O",
        "IP addresses",
        rf"(?<![\w.]){_OCTET}(?:\.{_OCTET}){{3}}(?![\w]|\.\d)"
        # IPv6: eight groups, or fewer around one "::" (at least one group written)
        rf"|(?<![\w:])(?:(?:{_H}:){{7}}{_H}|(?:{_H}:){{1,7}}:(?:{_H}(?::{_H}){{0,5}})?"
        rf"|::{_H}(?::{_H}){{0,6}})(?![\w:])",
        "[IP]",
    ),
    Entity(
        "fax",
        "E",
        "fax numbers",
        rf"(?i:\bfax\b\.?(?:\s*(?:no\.?|number|#))?\s*:?\s*){_DIALLED}",
        "[FAX]",
        4,
    ),
    Entity(
        "phone",
        "D",
        "phone numbers",
        # North American: optional +1, area code in brackets or not, 3 + 4 digits
        r"(?<![\w+])(?:\+?1[ .-]?)?(?:\(\d{3}\)[ .-]?|\d{3}[ .-]?)\d{3}[ .-]?\d{4}(?![\w]|[.-]\d)"
        # international: a + and 8 to 15 digits in groups
        r"|(?<![\w+])\+(?=(?:[ .()-]{0,2}\d){8,15}(?![ .()-]{0,2}\d))\d{1,3}"
        r"(?:[ .()-]{0,2}\d{1,5}){1,7}(?!\w)"
        # any dialled number after a word saying it is one
        rf"|(?i:\b(?:tel|telephone|phone|ph|mobile|mob|cell)\b\.?(?:\s*(?:no\.?|number|#))?"
        rf"\s*:?\s*){_DIALLED}",
        "[PHONE]",
        4,
    ),
    Entity(
        "record_number",
        "H",
        "medical record numbers",
        r"(?i:\b(?:MRN|medical record|record|chart|patient|pt)\b\.?(?:\s*(?:no\.?|number|id|#))?"
        r"\s*[:#]?\s*)[A-Za-z]{0,3}-?\d{6,}\b"
        r"|\b[A-Z]{1,4}-?\d{6,}\b",
        "[RECORD]",
        4,
    ),
    Entity(
        "card",
        "J",
        "payment-card numbers",
        r"(?<![\w-])(?:\d{4}([ -])\d{4}\1\d{4}\1\d{4}|\d{4}([ -])\d{6}\2\d{5})(?![\w]|-\d)",
        "[CARD]",
        4,
    ),
    Entity(
        "zip",
        "B",
        "ZIP codes",
        r"(?<![\w-])\d{5}-\d{4}(?![\w]|-\d)"
        rf"|(?i:\b(?:zip(?:\s*code)?|postal\s*code|postcode)\b\.?\s*:?\s*)\d{{5}}(?:-\d{{4}})?\b"
        rf"|\b(?:{_STATES}),?\s+\d{{5}}(?:-\d{{4}})?\b",
        "[ZIP]",
    ),
    Entity(
        "digit_run",
        "R",
        "long numbers (8 or more digits)",
        r"(?<![\w.,])\d{8,}(?![\w]|[.,]\d)",
        "[NUMBER]",
        4,
    ),
)

#: Every pattern above needs a digit, an ``@`` or a ``:`` (IPv6, URLs) or ``www.``: a
#: value without any of them is not scanned further.
PREFILTER = r"[\d@:]|(?i:www\.)"

_BY_KIND = {e.kind: e for e in ENTITIES}


def entity(kind: str) -> Entity:
    """Return the built-in entity of a kind.

    Parameters
    ----------
    kind : str
        An entity's ``kind`` (of :data:`ENTITIES`).

    Returns
    -------
    Entity

    Raises
    ------
    KeyError
        For a kind that is not built in.
    """
    return _BY_KIND[kind]


_ALNUM = re.compile(r"[0-9A-Za-z]")


def mask_example(text: str, keep_last: int = 4) -> str:
    """Mask an identifier found in text so it can be shown as an example.

    Every letter and digit becomes ``*``, except the last ``keep_last`` when
    it has at least twice as many: ``"(212) 555-1292"`` becomes
    ``"(***) ***-1292"``. Punctuation stays, so the form shows.

    Parameters
    ----------
    text : str
        The identifier as found.
    keep_last : int, default 4
        The letters and digits left visible at the end.

    Returns
    -------
    str
    """
    n = len(_ALNUM.findall(text))
    keep = keep_last if n >= 2 * keep_last else 0
    out: list[str] = []
    seen = 0
    for ch in text:
        if _ALNUM.match(ch):
            seen += 1
            out.append(ch if seen > n - keep else "*")
        else:
            out.append(ch)
    return "".join(out)
