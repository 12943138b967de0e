"""AppTest: the Data page says which reading the role suggestions follow, and switches it once."""

from __future__ import annotations

import pandas as pd

from tests.app.helpers import data_uploader, roles_of, run, seen, set_roles

CLAIMS = pd.DataFrame(
    {
        "dob": [f"{1 + i % 28:02d}/{1 + i % 12:02d}/19{50 + i % 40}" for i in range(60)],
        "service_date": [f"2024-03-{1 + i % 28:02d}" for i in range(60)],
        "zip": ["02139", "10001-1234", "60601"] * 20,
        "admit_date": [f"2024-04-{1 + i % 28:02d}" for i in range(60)],
        "sex": ["F", "M", "F"] * 20,
        "icd10": ["F32.1", "B20", "Z21"] * 20,
    }
)


def test_switching_the_reading_retags_every_full_date_and_zip5_at_once():
    at = run()
    raw = CLAIMS.to_csv(index=False).encode()
    data_uploader(at).set_value(("claims.csv", raw, "text/csv")).run()
    assert not at.exception, at.exception
    roles = roles_of(at)
    four = ("dob", "service_date", "zip", "admit_date")
    assert [roles[c] for c in four] == ["identifier"] * 4
    assert roles["icd10"] == "sensitive"
    captions = " ".join(seen(c.value) for c in at.caption)
    assert "The suggestions follow Safe Harbor" in captions
    assert "these 4 columns (dob, service_date, zip, admit_date)" in captions
    # the user tags sex by hand: the switch leaves it alone
    set_roles(at, {**roles, "sex": "other"})
    radio = next(r for r in at.radio if r.label == "The suggestions follow")
    assert radio.value == "safe_harbor"
    radio.set_value("expert").run()
    assert not at.exception, at.exception
    roles = roles_of(at)
    assert [roles[c] for c in four] == ["quasi_identifier"] * 4
    assert roles["sex"] == "other" and roles["icd10"] == "sensitive"
    editor = at.dataframe[-1].value.set_index("column")
    assert list(editor.loc[list(four), "role"]) == ["quasi-identifier"] * 4
    captions = " ".join(seen(c.value) for c in at.caption)
    assert "The suggestions follow an expert determination" in captions
    # and back
    next(r for r in at.radio if r.label == "The suggestions follow").set_value("safe_harbor").run()
    assert [roles_of(at)[c] for c in four] == ["identifier"] * 4
