"""Identifiers written inside free text: the built-in patterns, the scan, its limit, redaction."""

from __future__ import annotations

import json
import re
import sys

import numpy as np
import pandas as pd
import pytest

from riskcore._results import dumps
from riskcore.errors import RiskcoreError
from riskcore.freetext import (
    ENTITIES,
    ColumnScan,
    TextScan,
    mask_example,
    redact_found,
    scan_text,
    text_columns,
)
from riskcore.freetext.scan import find_in_values
from tests.hospital import hospital_table

#: The Safe Harbor paragraph letter of each kind, typed from 45 CFR 164.514(b)(2)(i), not from
#: the module: (B) geography, (C) dates, (D) telephone, (E) fax, (F) e-mail, (G) SSN,
#: (H) medical record numbers, (J) account numbers, (N) URLs, (O) IP addresses, (R) other.
LETTERS = {
    "zip": "B", "date": "C", "phone": "D", "fax": "E", "email": "F", "ssn": "G",
    "record_number": "H", "card": "J", "url": "N", "ip": "O", "digit_run": "R",
}  # fmt: skip


def kinds(text: str) -> set[str]:
    """Return the kinds the built-in patterns find in one text."""
    counts, _, _ = find_in_values(pd.Series([text], dtype=object))
    return {k for k, n in counts.items() if n[0]}


def test_every_entity_carries_its_safe_harbor_letter_as_data():
    assert {e.kind: e.letter for e in ENTITIES} == LETTERS
    assert len({e.placeholder for e in ENTITIES}) == len(ENTITIES)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # phone numbers, US and international
        ("Call back on (212) 555-0182 today", {"phone"}),
        ("212-555-0182", {"phone"}),
        ("212.555.0182", {"phone"}),
        ("+1 212 555 0182", {"phone"}),
        ("1-800-555-0199", {"phone"}),
        ("+44 20 7946 0958", {"phone"}),
        ("+33 1 23 45 67 89", {"phone"}),
        ("+91-9876543210", {"phone"}),
        ("Tel. 030 1234567", {"phone"}),
        ("fax: 212 555 0100", {"fax"}),
        # e-mail, URLs, IP addresses
        ("write to jo.smith+tag@mail.co.uk", {"email"}),
        ("see https://example.org/a?b=1.", {"url"}),
        ("www.example.com", {"url"}),
        ("from 192.168.1.20 ok", {"ip"}),
        ("host fe80::1 answered", {"ip"}),
        ("2001:0db8:85a3:0000:0000:8a2e:0370:7334", {"ip"}),
        # SSNs, dates, record numbers, cards, ZIP codes, long numbers
        ("SSN 123-45-6789", {"ssn"}),
        ("123 45 6789", {"ssn"}),
        ("ssn: 123456789", {"ssn"}),
        ("seen 2024-03-14", {"date"}),
        ("on 14.03.2024", {"date"}),
        ("03/14/2024", {"date"}),
        ("3/14/24", {"date"}),
        ("14 March 2024", {"date"}),
        ("March 14, 2024", {"date"}),
        ("in March 2024", {"date"}),
        ("MRN1000123", {"record_number"}),
        ("MRN: 1234567", {"record_number"}),
        ("record no. 12345678", {"record_number"}),
        ("card 4111 1111 1111 1111", {"card"}),
        ("ZIP 02139-4307", {"zip"}),
        ("02139-4307", {"zip"}),
        ("Boston, MA 02139", {"zip"}),
        ("account 123456789012", {"digit_run"}),
        ("jo@x.org, (212) 555-0182, 2024-03-14", {"email", "phone", "date"}),
    ],
)
def test_patterns_find_identifiers_in_text(text, expected):
    assert kinds(text) == expected


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("the 2024 budget", "a year alone is not a date element Safe Harbor removes"),
        ("1/2 tablet", "a fraction is not a date"),
        ("BP 120/80", "a blood pressure is not a date"),
        ("version 1.2.3", "a version number is not an IP address"),
        ("256.1.1.1", "an octet above 255 is not an IPv4 address"),
        ("at 10:30:45", "a time is not an IPv6 address"),
        ("ratio 3:1", "a ratio is not an IPv6 address"),
        ("not an email @ all", "an at sign alone is not an e-mail address"),
        ("http is a protocol", "the word http is not a URL"),
        ("12345 steps", "a bare 5-digit number in text is not read as a ZIP code"),
        ("amount 1500000.50", "a decimal amount is not a long identifying number"),
        ("1,234,567,890", "a number with thousands separators is not an identifier"),
        ("COVID-19 and ICD10", "short codes are not record numbers"),
        ("ref 12345", "a 5-digit reference is not a long number"),
        ("Discharged, no follow-up.", "plain text"),
    ],
)
def test_patterns_leave_look_alikes(text, why):
    assert kinds(text) == set(), why


def test_a_date_is_not_a_phone_and_a_zip_plus_4_is_not_an_ssn():
    assert kinds("2024-03-14") == {"date"}
    assert kinds("14.03.2024") == {"date"}
    assert kinds("02139-4307") == {"zip"}  # 5 + 4 digits
    assert kinds("123-45-6789") == {"ssn"}  # 3 + 2 + 4 digits
    assert kinds("(212) 555-0182") == {"phone"}  # not a date
    assert kinds("20240314") == {"digit_run"}  # 8 digits, no form: any other number (R)


def test_hospital_phone_numbers_are_found_without_presidio(monkeypatch):
    monkeypatch.setitem(sys.modules, "presidio_analyzer", None)  # as if absent
    df = hospital_table()
    scan = scan_text(df)
    note = scan.get("note")
    assert note is not None and note.status == "found" and note.checked
    # independently: the generator writes "Call back on (ddd) ddd-dddd" or a fixed sentence
    with_phone = df["note"].str.startswith("Call back on (")
    assert 0.65 < with_phone.mean() < 0.75
    (phone,) = note.findings
    assert (phone.kind, phone.letter) == ("phone", "D")
    assert phone.n_found == phone.n_cells == int(with_phone.sum())
    assert phone.n_values == df.loc[with_phone, "note"].nunique()
    assert note.n_cells == len(df) and note.n_values == df["note"].nunique()
    assert re.fullmatch(r"\(\*\*\*\) \*\*\*-\d{4}", phone.example)
    # every text column is scanned, whatever its role
    assert [c.column for c in scan.columns] == list(df.columns)
    status = {c.column: c.status for c in scan.columns}
    assert status["diagnosis"] == status["sex"] == status["name"] == "clean"
    assert {f.kind for f in scan.get("ssn").findings} == {"ssn"}


def test_counts_of_cells_and_distinct_values():
    s = pd.Series(["call 212-555-0182", "call 212-555-0182", "x", None, "mail a@b.org or c@d.org"])
    (col,) = scan_text(pd.DataFrame({"t": s})).columns
    by = {f.kind: f for f in col.findings}
    assert (by["phone"].n_found, by["phone"].n_cells, by["phone"].n_values) == (2, 2, 1)
    assert (by["email"].n_found, by["email"].n_cells, by["email"].n_values) == (2, 1, 1)
    assert (col.n_cells, col.n_values, col.letters) == (4, 3, ("D", "F"))


def test_the_scan_does_not_depend_on_row_order_or_index():
    df = hospital_table(400, seed=3)
    shuffled = df.sample(frac=1, random_state=1)
    shuffled.index = np.arange(10_000, 10_400)[::-1]
    a, b = scan_text(df).get("note"), scan_text(shuffled).get("note")
    assert (a.findings[0].n_found, a.findings[0].n_values) == (
        b.findings[0].n_found,
        b.findings[0].n_values,
    )


def test_text_columns_are_object_string_or_categorical_text():
    df = pd.DataFrame(
        {
            "obj": pd.Series(["a", "b"], dtype=object),
            "str": pd.Series(["a", "b"], dtype="string"),
            "cat": pd.Categorical(["a", "b"]),
            "catnum": pd.Categorical([1, 2]),
            "num": [1, 2],
            "flag": [True, False],
            "when": pd.to_datetime(["2024-01-01", "2024-01-02"]),
        }
    )
    assert text_columns(df) == ["obj", "str", "cat"]
    cat = pd.DataFrame({"note": pd.Categorical(["call 212-555-0182", "ok", "ok"])})
    assert scan_text(cat).get("note").findings[0].n_cells == 1
    # unused categories and missing cells: counted from the codes of the values present
    unused = pd.Categorical(
        ["ok", "call 212-555-0182", None, "ok", "ok"],
        categories=["mail jo@x.org", "call 212-555-0182", "ok"],
    )
    note = scan_text(pd.DataFrame({"note": unused})).get("note")
    assert (note.n_cells, note.n_values, note.letters) == (4, 2, ("D",))
    (phone,) = note.findings
    assert (phone.n_found, phone.n_cells, phone.n_values) == (1, 1, 1)


def test_a_column_beyond_the_limit_is_scanned_partly_and_unchecked():
    values = [f"note {i}: call 212-555-{i:04d}" for i in range(100)]
    df = pd.DataFrame({"note": values * 2, "sex": ["F", "M"] * 100})
    first_20 = sum(len(v) for v in values[:20])
    scan = scan_text(df, max_chars=first_20)
    note = scan.get("note")
    assert note.status == "partial" and not note.checked
    assert (note.n_values_scanned, note.n_values) == (20, 100)
    assert note.n_cells_scanned == 40 and note.n_chars_scanned == first_20
    assert note.findings[0].n_found == 40  # what the scanned part holds, no more
    assert note.n_chars == sum(map(len, values))
    assert "the limit is" in note.why
    assert scan.get("sex").status == "clean"
    assert [c.column for c in scan.unchecked] == ["note"]
    # nothing read at all: not scanned, never clean
    none = scan_text(df, max_chars=0)
    assert {c.status for c in none.columns} == {"not_scanned"}
    assert none.get("sex").n_values == 2 and not none.get("sex").checked


def test_scan_round_trips_through_json_without_the_text():
    scan = scan_text(hospital_table(300, seed=1))
    text = dumps(scan)
    again = TextScan.from_dict(json.loads(text))
    assert again == scan
    assert "Call back on" not in text and "***" not in text  # no value, no masked example
    assert all(f.example == "" for f in again.findings)
    assert any(f.example for f in scan.findings)  # the page can show one


def test_bad_input_is_refused_with_a_sentence():
    with pytest.raises(TypeError, match=r"^data must be a pandas DataFrame, got list$"):
        scan_text([1, 2])
    with pytest.raises(ValueError, match=r"^max_chars must be at least 0, got -1$"):
        scan_text(pd.DataFrame({"a": ["x"]}), max_chars=-1)
    with pytest.raises(RiskcoreError, match=r"^column 'b' is not in the table$"):
        scan_text(pd.DataFrame({"a": ["x"]}), ["b"])
    with pytest.raises(ValueError, match=r"^status must be one of"):
        ColumnScan("a", "fine")


def test_redaction_replaces_what_was_found_and_keeps_the_rest():
    s = pd.Series(
        ["Call back on (212) 555-0182", None, "Seen 2024-03-14, mail jo@x.org", "fine"],
        index=[7, 3, 5, 1],
        name="note",
    )
    out, counts = redact_found(s)
    assert out.tolist()[0] == "Call back on [PHONE]"
    assert pd.isna(out.loc[3]) and out.loc[1] == "fine"
    assert out.loc[5] == "Seen [DATE], mail [EMAIL]"
    assert list(out.index) == [7, 3, 5, 1] and out.name == "note"
    assert counts == {"phone": 1, "date": 1, "email": 1}
    assert scan_text(pd.DataFrame({"note": out})).get("note").status == "clean"


def test_masked_examples_keep_the_form_and_at_most_four_characters():
    assert mask_example("(212) 555-1292") == "(***) ***-1292"
    assert mask_example("jo@x.org", 0) == "**@*.***"
    assert mask_example("10.0.0.1") == "**.*.*.*"  # fewer than 8 characters: all masked


def test_presidio_adds_what_the_patterns_skip(monkeypatch):
    from types import SimpleNamespace

    from riskcore.freetext import presidio

    def analyze(text, language):
        hits = []
        if "Ada" in text:
            hits.append(SimpleNamespace(entity_type="PERSON", score=0.85))
        if "555" in text:  # the patterns find phone numbers themselves, in every value
            hits.append(SimpleNamespace(entity_type="PHONE_NUMBER", score=0.75))
        return hits

    monkeypatch.setattr(presidio, "_analyzer", lambda: SimpleNamespace(analyze=analyze))
    df = pd.DataFrame({"note": ["Ada called", "Ada called", "ring (212) 555-0182", "ok"]})
    scan = scan_text(df, presidio=True)
    note = scan.get("note")
    found = {(f.kind, f.letter, f.source, f.n_cells, f.n_values) for f in note.findings}
    assert found == {("phone", "D", "built-in", 1, 1), ("person", "A", "presidio", 2, 1)}
    assert scan.presidio and note.letters == ("A", "D")
    clean = scan_text(pd.DataFrame({"note": ["Ada called", "ok"]}), presidio=True)
    assert clean.get("note").status == "found"  # a name makes a clean column hold identifiers


@pytest.mark.parametrize(
    "address",
    [
        "fatima.lópez52@gmail.com",  # issue 38: an accent in the local part
        "zoë@example.org",
        "müller.jörg@straße.de",  # an internationalised domain name
        "josé_núñez@correo.es",
        "李雷@例子.中国",
    ],
)
def test_unicode_email_addresses_are_found_and_redacted_whole(address):
    note = f"Patient wrote from {address}, reply soon."
    assert kinds(note) == {"email"}
    redacted, counts = redact_found(pd.Series([note], dtype=object))
    assert counts == {"email": 1}
    assert redacted.iloc[0] == "Patient wrote from [EMAIL], reply soon."


def test_a_categorical_column_is_counted_from_its_codes_as_its_text_is():
    # issue 38, item 20: a categorical's cells per distinct value come from one count of its
    # codes (unused categories and missing cells left out), the same as the per-row path
    from riskcore.freetext.findings import distinct_texts as _distinct
    from riskcore.freetext.scan import _distinct_cells

    values = ["b", None, "a", "b", "=c", "b", None, "a"]
    col = pd.Series(pd.Categorical(values, categories=["z", "a", "b", "=c", "unused"]))
    cells, texts = _distinct_cells(col)
    codes, expected = _distinct(col)
    assert texts.tolist() == expected.tolist() == ["a", "b", "=c"]
    assert texts.dtype == object
    assert cells.tolist() == np.bincount(codes[codes >= 0]).tolist() == [2, 3, 1]
    plain = _distinct_cells(pd.Series(values, dtype=object))
    assert dict(zip(plain[1], plain[0].tolist(), strict=True)) == {"b": 3, "a": 2, "=c": 1}
