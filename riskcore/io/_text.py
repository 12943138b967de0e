"""Text-level helpers of the CSV reader: encoding, delimiter, header.

The CSV parser (pyarrow) reads UTF-8 only, so every other encoding is
transcoded here first. The encoding is chosen by one rule, in this order:

1. a byte-order mark says it: UTF-8 (the mark is dropped) or UTF-16;
2. every byte is valid UTF-8: UTF-8;
3. otherwise Windows-1252 (cp1252), the Western European code page that
   Excel and Windows save in, which reads latin-1 (ISO-8859-1) text the
   same except for the bytes 0x80-0x9F; if the file holds one of the five
   bytes cp1252 leaves undefined (0x81 0x8D 0x8F 0x90 0x9D), latin-1.

No other code page is ever guessed: a statistical guess (charset
detection) read latin-1 names as Central European cp1250 ("Muñoz" became
"Muńoz"), silently changing quasi-identifier values. A caller who knows the
encoding passes it (``load_table(..., encoding="cp1251")``; the Data page
offers :data:`TEXT_ENCODINGS`), and the file is then decoded with exactly
that codec.
"""

from __future__ import annotations

import codecs
import csv
import io
import itertools
import re

from riskcore.errors import DataLoadError
from riskcore.io._source import Raw
from riskcore.io.table import MISSING_MARKERS

#: Bytes of the file's start used to sniff the delimiter and read the header.
HEAD_BYTES = 1 << 20
_SNIFF_CHARS = 65536

#: Encodings a caller may choose (the Data page's list): codec name -> what it is.
TEXT_ENCODINGS: dict[str, str] = {
    "utf-8": "UTF-8 (Unicode)",
    "utf-16": "UTF-16 (Unicode)",
    "cp1252": "Windows-1252 (Western European)",
    "latin-1": "ISO-8859-1, latin-1 (Western European)",
    "iso-8859-15": "ISO-8859-15 (Western European, with the euro sign)",
    "mac-roman": "Mac OS Roman (Western European)",
    "cp1250": "Windows-1250 (Central European)",
    "cp1251": "Windows-1251 (Cyrillic)",
    "cp1253": "Windows-1253 (Greek)",
    "cp1254": "Windows-1254 (Turkish)",
    "cp1257": "Windows-1257 (Baltic)",
    "shift_jis": "Shift JIS (Japanese)",
    "gb18030": "GB 18030 (Chinese)",
    "big5": "Big5 (Traditional Chinese)",
    "euc-kr": "EUC-KR (Korean)",
}
#: Control characters a text table does not hold (all but tab, LF, form feed, CR, 0x1A, ESC).
_CONTROLS = dict.fromkeys(c for c in range(1, 32) if c not in (9, 10, 12, 13, 26, 27))
#: The bytes Windows-1252 leaves undefined: a file holding one is read as latin-1.
_CP1252_UNDEFINED = (0x81, 0x8D, 0x8F, 0x90, 0x9D)


def utf8_body(raw: Raw, name: str, encoding: str | None = None) -> tuple[Raw, str, str]:
    """Return the file as UTF-8 bytes without BOM, the encoding name, and its head as text.

    Without ``encoding``, plain files are not decoded in full here: the head
    is checked, and the CSV parser checks the rest (a failure there calls
    :func:`transcode`).

    Parameters
    ----------
    raw : bytes or mmap.mmap
        The file.
    name : str
        File name for messages.
    encoding : str, optional
        The file's encoding, when the caller knows it; default: the rule of
        this module (byte-order mark, UTF-8, cp1252, latin-1).

    Returns
    -------
    body : bytes or mmap.mmap
        UTF-8 bytes to parse.
    encoding : str
        "utf-8", "utf-8-sig", "utf-16", "cp1252", "latin-1" or the one given.
    head : str
        The decoded start of the file (up to about 1 MB).

    Raises
    ------
    DataLoadError
        On binary data, bytes the given encoding cannot read, an unknown encoding.
    """
    if encoding is not None:
        return _decode_as(raw, name, encoding)
    start = raw[:3]
    if start == b"\xef\xbb\xbf":
        body = raw[3:]
        head = _utf8_head(body)
        if head is None:
            raise DataLoadError(
                f"{name} starts with a UTF-8 marker but is not UTF-8; save it again as UTF-8"
            )
        return body, "utf-8-sig", head
    if start.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            text = str(raw, "utf-16")
        except UnicodeDecodeError:
            raise DataLoadError(f"{name} starts with a UTF-16 marker but is not UTF-16") from None
        _refuse_binary(text[:65536], name)
        return text.encode("utf-8"), "utf-16", text[:HEAD_BYTES]
    _refuse_binary(raw[:65536], name)
    head = _utf8_head(raw)
    if head is None:
        return transcode(raw, name)
    return raw, "utf-8", head


def _refuse_binary(start: bytes | str, name: str) -> None:
    """Refuse a file whose start holds a NUL, or control characters beyond 1%: binary data.

    Text tables hold tab, newline, carriage return and, rarely, form feed,
    end-of-file (0x1A) or escape; any other control character in more than
    one in a hundred characters (and more than 8) means an image, an
    executable or other binary data, which cp1252 would otherwise "read".
    """
    text = start.decode("latin-1") if isinstance(start, bytes) else start
    if "\x00" in text:
        raise DataLoadError(
            f"{name} contains binary data (NUL bytes): it is not a text table. "
            "Load a CSV, Parquet or .xlsx file."
        )
    controls = len(text) - len(text.translate(_CONTROLS))
    if controls > max(8, len(text) // 100):
        raise DataLoadError(
            f"{name} contains binary data ({controls:,} control characters in its first "
            f"{len(text):,}): it is not a text table. Load a CSV, Parquet or .xlsx file."
        )


def _decode_as(raw: Raw, name: str, encoding: str) -> tuple[Raw, str, str]:
    """Decode the whole file with the encoding the caller chose (see :func:`utf8_body`)."""
    if not isinstance(encoding, str):
        raise TypeError(f"encoding must be a string, got {type(encoding).__name__}")
    try:
        codec = codecs.lookup(encoding).name
    except LookupError:
        raise DataLoadError(f"{encoding!r} is not a text encoding Python knows") from None
    # UTF-8 and UTF-16 as the caller means them: a byte-order mark, if any, is not text
    codec = {"utf-8": "utf-8-sig"}.get(codec, codec)
    try:
        text = str(raw, codec)
    except UnicodeDecodeError as exc:
        raise DataLoadError(
            f"{name} is not {encoding}: byte {exc.start:,} (0x{raw[exc.start]:02X}) cannot be "
            "read in it; choose another encoding"
        ) from None
    _refuse_binary(text[:65536], name)
    return text.encode("utf-8"), encoding, text[:HEAD_BYTES]


def _utf8_head(body: Raw) -> str | None:
    """Return the decoded first megabyte, or None when it is not UTF-8."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        return decoder.decode(body[:HEAD_BYTES], final=len(body) <= HEAD_BYTES)
    except UnicodeDecodeError:
        return None


def transcode(raw: Raw, name: str) -> tuple[Raw, str, str]:
    """Read a file that is not UTF-8 as cp1252, or latin-1 when cp1252 cannot, as UTF-8.

    Parameters
    ----------
    raw : bytes or mmap.mmap
        The file (a UTF-8 BOM, if any, is checked and kept out).
    name : str
        File name for messages.

    Returns
    -------
    body, encoding, head
        As :func:`utf8_body`; the encoding is "cp1252" or "latin-1".

    Raises
    ------
    DataLoadError
        When the file starts with a UTF-8 BOM but is not UTF-8.
    """
    if raw[:3] == b"\xef\xbb\xbf":
        try:
            str(raw[3:], "utf-8")
        except UnicodeDecodeError as exc:
            raise DataLoadError(
                f"{name} starts with a UTF-8 marker but byte {exc.start + 3} is not UTF-8; "
                "save it again as UTF-8"
            ) from None
    undefined = any(raw.find(bytes([b])) >= 0 for b in _CP1252_UNDEFINED)
    encoding = "latin-1" if undefined else "cp1252"
    text = str(raw, encoding)  # every byte has a character in both: this cannot fail
    return text.encode("utf-8"), encoding, text[:HEAD_BYTES]


def is_guess(encoding: str) -> bool:
    """Return True for an encoding this module assumed rather than read from the file."""
    return encoding in ("cp1252", "latin-1")


def sniff_delimiter(head: str) -> str:
    """Return the field delimiter of a table's first lines: , ; tab or |.

    Each candidate is tried by parsing the first records as CSV: the one
    giving every record the same number of fields, and the most fields,
    wins (ties go to Python's sniffer's choice, then , ; tab |). Python's
    sniffer alone judges by the characters around quotes, so a comma file
    with a value such as ``"A;"";0"`` was read as semicolon-separated. A
    file where no candidate fits (a ragged row) keeps the sniffer's choice,
    so that its error names the line.
    """
    sample = head[:_SNIFF_CHARS]
    lines = [ln for ln in sample.splitlines() if ln.strip()][:50]
    if not lines:
        return ","
    try:
        sniffed = csv.Sniffer().sniff("\n".join(lines), delimiters=",;\t|").delimiter
    except csv.Error:
        counts = {d: lines[0].count(d) for d in ",;\t|"}
        best = max(counts, key=lambda d: counts[d])
        sniffed = best if counts[best] else ","
    if not sample.endswith(("\n", "\r")):  # the last record may be cut: leave it out
        sample = sample[: max(sample.rfind("\n"), sample.rfind("\r")) + 1]
    order = [sniffed, *(d for d in ",;\t|" if d != sniffed)]
    fits = {d: n for d in order if (n := _constant_fields(sample, d)) > 1}
    return max(fits, key=lambda d: (fits[d], -order.index(d))) if fits else sniffed


#: A number written with a decimal comma (and, optionally, dots between thousands): 1.234,56.
DECIMAL_COMMA = r"^\s*[+-]?(\d{1,3}(\.\d{3})+|\d+),\d+\s*$"
#: A number as a decimal-comma file writes it: with the comma, or whole (1.234 is 1234).
COMMA_NUMBER = r"^\s*[+-]?(\d{1,3}(\.\d{3})+|\d+)(,\d+)?\s*$"
_MISSING = frozenset(MISSING_MARKERS)
_DIGIT_COMMA_DIGIT = re.compile(r"\d,\d")
#: Records of the file's start read to find the decimal comma.
DECIMAL_SAMPLE = 200


def sniff_decimal(head: str, delimiter: str) -> str:
    """Return the decimal mark of a delimited file's numbers: "," or ".".

    A comma is the decimal mark when the delimiter is not a comma (a ``;``
    file is the usual sign) and, in the first :data:`DECIMAL_SAMPLE` records
    after the header, one column at least has 90% or more of its values
    written as numbers of that form (:data:`COMMA_NUMBER`) and half or more
    with a digit, a comma and a digit (:data:`DECIMAL_COMMA`). In a
    comma-separated file a comma is the delimiter, and ``1,234`` a thousands
    separator, never a decimal comma. A column of codes such as ``12,5`` in
    a ``;`` file decides it only when most of its values are of that form.
    Only the file's first 64 KB are read, and only when they hold a digit,
    a comma and a digit: other files cost one regular-expression search.

    Parameters
    ----------
    head : str
        The file's start (decoded text).
    delimiter : str
        The field delimiter.

    Returns
    -------
    str
        "," or ".".
    """
    sample = head[:_SNIFF_CHARS]
    if delimiter == "," or not _DIGIT_COMMA_DIGIT.search(sample):
        return "."
    comma, number = re.compile(DECIMAL_COMMA), re.compile(COMMA_NUMBER)
    values: dict[int, list[str]] = {}
    try:
        reader = csv.reader(io.StringIO(sample), delimiter=delimiter)
        records = itertools.islice((r for r in reader if r), 1, DECIMAL_SAMPLE + 1)
        for record in records:
            for i, v in enumerate(record):
                if v.strip() and v.strip() not in _MISSING:
                    values.setdefault(i, []).append(v)
    except csv.Error:
        return "."
    for found in values.values():
        n = len(found)
        if sum(bool(comma.match(v)) for v in found) >= 0.5 * n and (
            sum(bool(number.match(v)) for v in found) >= 0.9 * n
        ):
            return ","
    return "."


def _constant_fields(sample: str, delimiter: str) -> int:
    """Return the number of fields of every record of the first 50, or 0 if they differ."""
    counts = set()
    try:
        reader = csv.reader(io.StringIO(sample), delimiter=delimiter, strict=True)
        for record in itertools.islice((r for r in reader if r), 50):
            counts.add(len(record))
    except csv.Error:
        return 0
    return counts.pop() if len(counts) == 1 else 0


def read_header(head: str, delimiter: str, name: str) -> tuple[list[str], int]:
    """Return the header's fields and the number of empty lines before it.

    The header is parsed as a CSV record, not taken as the first physical
    line, so a quoted name may hold the delimiter or a newline (``"x\\ny",sex``).
    """
    blank = 0
    pos = 0
    while True:
        end = head.find("\n", pos)
        if end < 0 or head[pos:end].strip("\r"):
            break
        blank += 1
        pos = end + 1
    try:
        return next(csv.reader(io.StringIO(head[pos:]), delimiter=delimiter)), blank
    except (StopIteration, csv.Error):
        raise DataLoadError(f"{name} has no readable header row") from None


def dedupe_header(cols: list[str]) -> tuple[list[str], list[str]]:
    """Name unnamed columns and rename repeated names; return names and notes."""
    out: list[str] = []
    notes: list[str] = []
    seen: dict[str, int] = {}
    for i, c in enumerate(cols):
        c = str(c).strip()
        if c == "" or c.startswith("Unnamed:"):
            c = f"column {i + 1}"
            notes.append(f"column {i + 1} has no name in the header; it is called {c!r}")
        if c in seen:
            seen[c] += 1
            new = f"{c} ({seen[c]})"
            while new in seen:
                seen[c] += 1
                new = f"{c} ({seen[c]})"
            notes.append(f"the header names {c!r} more than once; copy {seen[c]} is called {new!r}")
            seen[new] = 1
            out.append(new)
        else:
            seen[c] = 1
            out.append(c)
    return out, notes
