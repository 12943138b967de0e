"""HIPAA Safe Harbor: the restricted ZIP areas, ages over 89, dates to year, the checklist."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from riskcore._results import dumps
from riskcore.deidentify.safe_harbor import (
    CATEGORIES,
    RESTRICTED_ZIP3,
    SafeHarborCheck,
    ages_to_90_plus,
    apply_safe_harbor,
    dates_to_year,
    safe_harbor_check,
    zip_to_zip3,
)
from riskcore.roles import ColumnRoles, suggest_roles

#: The 17 areas of the HHS guidance (2012), typed from formulas.md, not from the module.
HHS_2000 = ("036 059 063 102 203 556 692 790 821 823 830 831 878 879 884 890 893").split()


def test_restricted_list_is_the_hhs_2000_census_list():
    assert sorted(RESTRICTED_ZIP3) == HHS_2000


def test_every_restricted_prefix_becomes_000_and_its_neighbours_stay():
    zips = [p + "01" for p in HHS_2000]
    neighbours = [f"{int(p) + 1:03d}01" for p in HHS_2000 if f"{int(p) + 1:03d}" not in HHS_2000]
    out, step = zip_to_zip3(pd.Series(zips + neighbours, name="zip"))
    assert out.tolist()[: len(zips)] == ["000"] * len(zips)
    assert out.tolist()[len(zips) :] == [z[:3] for z in neighbours]
    assert step.action == "zip3" and step.column == "zip"
    assert f"{len(zips)} in the 17 areas" in step.note


def test_zip3_keeps_leading_zeros_and_pads_numbers():
    s = pd.Series(["02139", "03601-4307", None, "abc", "902101234"], name="zip")
    out, step = zip_to_zip3(s)
    assert out.tolist()[:2] == ["021", "000"]
    assert pd.isna(out.iloc[2]) and pd.isna(out.iloc[3])
    assert out.iloc[4] == "902"
    assert "1 values that are not ZIP codes became missing" in step.note
    assert "padded" not in step.note
    numeric = pd.Series([2139, 3601, 90210, 501, np.nan], name="zip")  # leading zeros lost
    out, step = zip_to_zip3(numeric)
    assert out.tolist()[:4] == ["021", "000", "902", "005"]
    assert pd.isna(out.iloc[4])
    assert "3 had lost their leading zeros" in step.note and step.n_changed == 4


def test_ages_over_89_become_one_category():
    s = pd.Series([34, 89, 90, 104, None, 89.5, 34], name="age")
    out, step = ages_to_90_plus(s)
    assert out.astype(object).where(out.notna(), None).tolist() == [
        "34",
        "89",
        "90+",
        "90+",
        None,
        "90+",
        "34",
    ]
    assert out.cat.ordered and list(out.cat.categories) == ["34", "89", "90+"]
    assert step.n_changed == 3
    bands, _ = ages_to_90_plus(pd.Series(["30-39", "95", None]))
    assert bands.tolist()[:2] == ["30-39", "90+"]


def test_dates_to_year_groups_birth_years_implying_age_over_89():
    s = pd.Series(["1987-03-14", "1930-05-01", None, "03/14/1936", "1937-01-01", "soon"])
    out, step = dates_to_year(s, birth=True, as_of=2026)
    assert out.tolist()[:2] == ["1987", "1936 or earlier"]
    assert pd.isna(out.iloc[2]) and pd.isna(out.iloc[5])
    assert out.tolist()[3:5] == ["1936 or earlier", "1937"]
    assert "2 birth years implying an age over 89 in 2026" in step.note
    assert "1 values that are not dates became missing" in step.note
    events, _ = dates_to_year(pd.to_datetime(pd.Series(["1930-05-01", None])))
    assert events.tolist()[0] == "1930" and pd.isna(events.iloc[1])
    years, _ = dates_to_year(pd.Series([1930, 1990]), birth=True, as_of=2026)
    assert years.tolist() == ["1936 or earlier", "1990"]


def _table():
    return pd.DataFrame(
        {
            "name": ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Joan Clarke"],
            "notes": ["123-45-6789", "987-65-4321", "111-22-3333", "222-33-4444"],
            "email": ["a@x.org", "g@x.org", "t@x.org", "c@x.org"],
            "zip": ["02139", "03601", "90210", "10001"],
            "zip3": ["021", "036", "902", "100"],
            "age": [34, 95, 51, 60],
            "birth_year": [1990, 1930, 1975, 1966],
            "admission": ["2020-01-05", "2021-03-01", "2020-07-07", "2022-02-02"],
            "badge": ["b1", "b2", "b3", "b4"],
            "sex": ["F", "F", "M", "F"],
            "diagnosis": ["flu", "flu", "cold", "cold"],
        }
    )


def test_checklist_lists_each_category_and_how_it_was_found():
    df = _table()
    roles = ColumnRoles(identifiers=("badge",), quasi_identifiers=("zip", "sex"))
    check = safe_harbor_check(df, roles, as_of=2026)
    assert [f.letter for f in check.findings] == list("ABCDEFGHIJKLMNOPQR")
    by = {f.letter: f for f in check.findings}
    assert by["A"].columns == ("name",)
    assert by["B"].columns == ("zip", "zip3")  # zip re-tagged as a QI is still listed
    assert "036" in by["B"].remains[1]
    assert by["C"].columns == ("age", "birth_year", "admission")
    assert "1 rows hold ages over 89" in by["C"].remains[0]
    assert by["F"].columns == ("email",)
    assert by["G"].columns == ("notes",)  # found by its values, whatever its name
    assert "sampled values" in by["G"].detected[0]
    assert by["R"].columns == ("badge",) and by["R"].detected == ("tagged as a direct identifier",)
    assert not by["P"].checkable and not by["P"].present
    assert not check.passed and len(check.remains) == 9
    assert check.verdict.startswith("Does not pass Safe Harbor: 9 columns")
    assert "(A, B, C, F, G, R)" in check.verdict
    # the detection is suggest_roles' own reason, not a second rule
    assert by["A"].detected[0] == suggest_roles(df)["name"].reason


def test_transform_then_check_passes():
    df = _table()
    roles = ColumnRoles(identifiers=("badge",))
    result = apply_safe_harbor(df, roles, as_of=2026)
    out = result.data
    assert list(out.columns) == [
        "zip",
        "zip3",
        "age",
        "birth_year",
        "admission",
        "sex",
        "diagnosis",
    ]
    assert out.zip.tolist() == ["021", "000", "902", "100"]
    assert out.zip3.tolist() == ["021", "000", "902", "100"]
    assert out.age.astype(str).tolist() == ["34", "90+", "51", "60"]
    assert out.birth_year.tolist() == ["1990", "1936 or earlier", "1975", "1966"]
    assert out.admission.tolist() == ["2020", "2021", "2020", "2022"]
    assert df.zip.tolist()[1] == "03601"  # input unchanged
    actions = {s.column: s.action for s in result.steps}
    assert actions == {
        "name": "dropped",
        "notes": "dropped",
        "email": "dropped",
        "zip": "zip3",
        "zip3": "zip3",
        "age": "age_90_plus",
        "birth_year": "date_year",
        "admission": "date_year",
        "badge": "dropped",
    }
    check = safe_harbor_check(out, roles, as_of=2026)
    assert check.passed and check.remains == ()
    assert check.verdict.startswith("Passes the Safe Harbor checklist")


def test_numeric_zip_column_is_padded_by_the_transform():
    df = pd.DataFrame({"zip": [2139, 3601, 90210, 10001], "sex": ["F", "M", "F", "M"]})
    result = apply_safe_harbor(df, as_of=2026)
    assert result.data.zip.tolist() == ["021", "000", "902", "100"]
    (step,) = result.steps
    assert "2 had lost their leading zeros" in step.note


def test_several_bands_above_89_are_not_one_category():
    df = pd.DataFrame({"age": ["80-89", "90-99", "100+", "30-39"]})
    check = safe_harbor_check(df, as_of=2026)
    assert not check.passed and check.findings[2].columns == ("age",)
    ok = safe_harbor_check(pd.DataFrame({"age": ["80-89", "90+", "30-39"]}), as_of=2026)
    assert ok.passed


def test_check_round_trips_through_json():
    check = safe_harbor_check(_table(), as_of=2026)
    again = SafeHarborCheck.from_dict(json.loads(dumps(check)))
    assert again == check and again.findings[0].category == CATEGORIES["A"]


def test_bad_year_is_refused():
    with pytest.raises(ValueError, match=r"^as_of must be a year, got 26$"):
        safe_harbor_check(_table(), as_of=26)


def test_a_column_of_areas_is_read_as_areas():
    out, step = zip_to_zip3(pd.Series([21, 36, 902, None], name="zip3"))
    assert out.tolist()[:3] == ["021", "000", "902"] and pd.isna(out.iloc[3])
    assert "3-digit ZIP areas" in step.note and "2 had lost their leading zeros" in step.note


def test_free_text_scan_without_presidio_says_how_to_install_it(monkeypatch):
    import sys

    from riskcore.errors import RiskcoreError
    from riskcore.freetext import presidio as sh

    sh._analyzer.cache_clear()
    monkeypatch.setitem(sys.modules, "presidio_analyzer", None)  # import fails as if absent
    with pytest.raises(RiskcoreError, match=r"^free-text PII detection needs the optional"):
        sh.scan_free_text(_table())
    sh._analyzer.cache_clear()


def test_free_text_scan_counts_values_per_entity(monkeypatch):
    from types import SimpleNamespace

    from riskcore.freetext import presidio as sh

    def analyze(text, language):
        hits = []
        if "@" in text:
            hits.append(SimpleNamespace(entity_type="EMAIL_ADDRESS", score=1.0))
        if "555" in text:
            hits += [SimpleNamespace(entity_type="PHONE_NUMBER", score=s) for s in (0.4, 0.75)]
        if "weak" in text:
            hits.append(SimpleNamespace(entity_type="US_SSN", score=0.05))
        return hits

    monkeypatch.setattr(sh, "_analyzer", lambda: SimpleNamespace(analyze=analyze))
    df = _table().assign(
        remarks=["mail a@x.org", "call 555-0182 or 555-0199", "a@y.org, 555-0100", "weak"]
    )
    scan = sh.scan_free_text(df)
    # every text column, whatever its role; numbers are not text
    assert scan.columns == ("name", "notes", "email", "zip", "zip3", "admission", "badge", "sex",
                            "diagnosis", "remarks")  # fmt: skip
    scan = sh.scan_free_text(df, ["remarks"])
    found = [
        (f.column, f.entity, f.n_values, f.n_sampled, f.max_score, f.letter) for f in scan.findings
    ]
    assert found == [
        ("remarks", "EMAIL_ADDRESS", 2, 4, 1.0, "F"),
        ("remarks", "PHONE_NUMBER", 2, 4, 0.75, "D"),
    ]
    assert "a@x.org" not in dumps(scan)
    assert sh.scan_free_text(df, ["remarks"], sample=1).findings[0].n_sampled == 1


def test_free_text_scan_with_presidio_when_it_is_installed_or_the_message_when_not():
    """Runs Presidio itself when importable (so a wrapper broken by Presidio fails here);
    otherwise the scan must say how to install it. Never skipped."""
    from riskcore.errors import RiskcoreError
    from riskcore.freetext import presidio as sh
    from riskcore.report.readings import pii_reading, pii_table
    from riskcore.roles import suggest_roles

    df = pd.DataFrame(
        {
            "remarks": ["write to jo@example.org", "card 4111 1111 1111 1111 on file", "none"],
            "sex": ["F", "M", "F"],
        }
    )
    sh._analyzer.cache_clear()
    if not sh.presidio_available():
        with pytest.raises(RiskcoreError, match=r"pip install 'presidio-analyzer>=2.2,<2.3'"):
            sh.scan_free_text(df)
        return
    scan = sh.scan_free_text(df, ["remarks"])
    found = {(f.entity, f.n_values, f.letter) for f in scan.findings}
    assert {("EMAIL_ADDRESS", 1, "F"), ("CREDIT_CARD", 1, "J")} <= found
    assert all(0.4 <= f.max_score <= 1 for f in scan.findings)
    table = pii_table(scan, suggest_roles(df))
    assert list(table.columns) == ["column", "entity", "score", "values", "Safe Harbor",
                                   "role rule"]  # fmt: skip
    row = table[table["entity"] == "EMAIL_ADDRESS"].iloc[0]
    assert row["values"] == "1 of 3 sampled" and row["Safe Harbor"] == "(F) E-mail addresses"
    assert row["role rule"].startswith(suggest_roles(df)["remarks"].role.replace("_", "-"))
    assert pii_reading(scan).startswith("Presidio found identifiers inside the text of 1 column")
    assert "jo@example.org" not in table.to_string()


def test_pii_table_puts_the_role_rule_beside_each_finding():
    from riskcore.freetext import PiiFinding, PiiScan
    from riskcore.report.readings import pii_reading, pii_table
    from riskcore.roles import suggest_roles

    df = pd.DataFrame({"email": ["a@b.org", "c@d.org"], "notes": ["x", "y"]})
    scan = PiiScan(
        (PiiFinding("notes", "PHONE_NUMBER", 3, 40, 0.75, "D"),
         PiiFinding("notes", "ORGANIZATION", 1, 40, 0.5, None)),
        ("notes",),
        "the note.",
    )  # fmt: skip
    t = pii_table(scan, suggest_roles(df))
    assert t[["entity", "Safe Harbor", "values", "score"]].values.tolist() == [
        ["PHONE_NUMBER", "(D) Telephone numbers", "3 of 40 sampled", 0.75],
        ["ORGANIZATION", "none of the 18", "1 of 40 sampled", 0.5],
    ]
    s = suggest_roles(df)["notes"]
    assert t["role rule"].tolist()[0] == f"{s.role.replace('_', '-')}: {s.reason}"
    assert pii_reading(scan) == (
        "Presidio found identifiers inside the text of 1 column (notes) of the 1 scanned: tag "
        "them as direct identifiers on the Data page, or mask them. the note."
    )


def test_a_birth_date_column_turned_into_years_passes_by_its_values_whatever_its_name():
    """Issue 38 item 4: after the transform a column named like a birth date holds years and
    the one category "1936 or earlier"; the check reads those values and passes, and still
    fails a year that implies an age over 89."""
    df = pd.DataFrame(
        {
            "birth_date": ["1990-05-01", "1930-02-03", "1975-07-08", "1920-01-01", None],
            "sex": ["F", "M", "F", "M", "F"],
        }
    )
    out = apply_safe_harbor(df, as_of=2026).data
    assert out.birth_date.tolist()[:4] == ["1990", "1936 or earlier", "1975", "1936 or earlier"]
    check = safe_harbor_check(out, as_of=2026)
    assert check.passed, check.verdict
    still = out.assign(birth_date=["1990", "1930", "1975", "1936 or earlier", None])
    (birth,) = [f for f in safe_harbor_check(still, as_of=2026).findings if f.present]
    assert birth.letter == "C" and birth.columns == ("birth_date",)
    assert birth.remains == (
        "1 rows hold birth years implying an age over 89 in 2026: group them as '1936 or earlier'",
    )


def test_the_verdict_names_each_column_with_its_categories():
    """Issue 38 item 4: "Does not pass Safe Harbor: 1 column ... (C)" named no column."""
    roles = ColumnRoles(identifiers=("badge",), quasi_identifiers=("zip", "sex"))
    check = safe_harbor_check(_table(), roles, as_of=2026)
    assert check.verdict == (
        "Does not pass Safe Harbor: 9 columns still hold identifiers of 6 categories "
        "(A, B, C, F, G, R): name (A), zip (B), zip3 (B), age (C), birth_year (C), "
        "admission (C), email (F), notes (G), badge (R)."
    )
    # a column of two categories is named once, with both letters; past ten, how many more
    wide = pd.DataFrame({f"ssn_{i}": ["123-45-6789", "987-65-4321"] for i in range(12)})
    wide["contact"] = ["555-867-5309 or a@b.org", "555-123-4567 or c@d.org"]
    verdict = safe_harbor_check(wide, as_of=2026).verdict
    assert verdict.startswith(
        "Does not pass Safe Harbor: 13 columns still hold identifiers of 3 categories "
        "(D, F, G): contact (D, F), ssn_0 (G), "
    ), verdict
    assert verdict.endswith(", ssn_8 (G) and 3 more."), verdict  # 10 named, 13 in all
