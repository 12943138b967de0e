"""Text-level helpers of the CSV reader: encoding, delimiter, header.

The CSV parser (pyarrow) reads UTF-8 only, so every other encoding is
transcoded here first: UTF-8 with a BOM loses the BOM, UTF-16 (with a BOM)
and latin-1 / cp1252 (detected) are decoded and encoded again as UTF-8.
"""

from __future__ import annotations

import codecs
import csv
import io

from riskcore.errors import DataLoadError
from riskcore.io._source import Raw

#: Bytes of the file's start used to sniff the delimiter and read the header.
HEAD_BYTES = 1 << 20
_SNIFF_CHARS = 65536


def utf8_body(raw: Raw, name: str) -> tuple[Raw, str, str]:
    """Return the file as UTF-8 bytes without BOM, the encoding name, and its head as text.

    Plain files are not decoded in full here: the head is checked, and the
    CSV parser checks the rest (a failure there calls :func:`transcode`).

    Parameters
    ----------
    raw : bytes or mmap.mmap
        The file.
    name : str
        File name for messages.

    Returns
    -------
    body : bytes or mmap.mmap
        UTF-8 bytes to parse.
    encoding : str
        "utf-8", "utf-8-sig", "utf-16" or a detected encoding.
    head : str
        The decoded start of the file (up to about 1 MB).

    Raises
    ------
    DataLoadError
        On binary data or an encoding that cannot be recognised.
    """
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
        return text.encode("utf-8"), "utf-16", text[:HEAD_BYTES]
    if b"\x00" in raw[:65536]:
        raise DataLoadError(
            f"{name} contains binary data (NUL bytes): it is not a text table. "
            "Load a CSV, Parquet or .xlsx file."
        )
    head = _utf8_head(raw)
    if head is None:
        return transcode(raw, name)
    return raw, "utf-8", head


def _utf8_head(body: Raw) -> str | None:
    """Return the decoded first megabyte, or None when it is not UTF-8."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        return decoder.decode(body[:HEAD_BYTES], final=len(body) <= HEAD_BYTES)
    except UnicodeDecodeError:
        return None


def transcode(raw: Raw, name: str) -> tuple[Raw, str, str]:
    """Detect the encoding of a file that is not UTF-8 and return it as UTF-8.

    Parameters
    ----------
    raw : bytes or mmap.mmap
        The file (a UTF-8 BOM, if any, is checked and kept out).
    name : str
        File name for messages.

    Returns
    -------
    body, encoding, head
        As :func:`utf8_body`.

    Raises
    ------
    DataLoadError
        When the file is UTF-8 after a UTF-8 BOM check failed, or no encoding fits.
    """
    if raw[:3] == b"\xef\xbb\xbf":
        try:
            str(raw[3:], "utf-8")
        except UnicodeDecodeError as exc:
            raise DataLoadError(
                f"{name} starts with a UTF-8 marker but byte {exc.start + 3} is not UTF-8; "
                "save it again as UTF-8"
            ) from None
    try:
        from charset_normalizer import from_bytes

        best = from_bytes(raw[:1_000_000]).best()
        enc = best.encoding if best is not None else None
    except Exception:  # pragma: no cover - detection is best effort
        enc = None
    for candidate in [e for e in (enc, "cp1252", "latin-1") if e and e != "utf_8"]:
        try:
            text = str(raw, candidate)
        except (UnicodeDecodeError, LookupError):
            continue
        return text.encode("utf-8"), candidate, text[:HEAD_BYTES]
    raise DataLoadError(f"{name} is not UTF-8 and its text encoding could not be recognised")


def sniff_delimiter(head: str) -> str:
    """Return the field delimiter of a table's first lines: , ; tab or |."""
    lines = [ln for ln in head[:_SNIFF_CHARS].splitlines() if ln.strip()][:50]
    if not lines:
        return ","
    try:
        return csv.Sniffer().sniff("\n".join(lines), delimiters=",;\t|").delimiter
    except csv.Error:
        counts = {d: lines[0].count(d) for d in ",;\t|"}
        best = max(counts, key=lambda d: counts[d])
        return best if counts[best] else ","


def read_header(head: str, delimiter: str, name: str) -> list[str]:
    """Return the fields of the first line."""
    try:
        return next(csv.reader(io.StringIO(head.split("\n", 1)[0]), delimiter=delimiter))
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
