"""The PDF report's length: the recipe's JSON printed in two pages at most, the whole attached.

Issue 38: a recipe with an uploaded postcode hierarchy and a PRAM step made a 95-page
PDF, 83 of them the recipe's JSON row by row. The report's pages are held under
:data:`MAX_PAGES` for the hospital and the claims reports and for a recipe with a
hierarchy of thousands of rows; the printed recipe names the attached file that holds the
whole of it, and that file holds it.

WeasyPrint, pypdf, kaleido and Debian's Chromium are requirements: their absence fails
these tests, it never skips them.
"""

from __future__ import annotations

import io
import json
import re

import pandas as pd
import pytest
from pypdf import PdfReader

from riskcore.criteria import KAnonymity, KmAnonymity, Targets
from riskcore.deidentify.hierarchy import default_hierarchy, flat_hierarchy
from riskcore.deidentify.hierarchy.tables import hierarchy_from_table
from riskcore.deidentify.recipe.base import Recipe, mask_step
from riskcore.demo.claims import make_claims
from riskcore.perturb.random import pram
from riskcore.perturb.steps import record_step
from riskcore.profile import Profile
from riskcore.report._appendix import MAX_ITEMS, MAX_LINES, WIDTH, printed_json
from riskcore.report.render import ATTACHMENT_NAME, render_pdf
from riskcore.review import Review, review
from riskcore.roles import ColumnRoles
from tests.hospital import HOSPITAL_QIS, hospital_table
from tests.riskcore.figure_cases import hospital_profile

#: The stated bound (docs/guide/report.md): the hospital and claims reports, figures
#: drawn, and a report whose recipe holds a hierarchy of thousands of rows (13, 14 and 16
#: pages on 2026-12-07; 384 for the last before the recipe was abridged).
MAX_PAGES = 18

#: Postcode areas of the uploaded hierarchy: the hospital's eight and 22 more (an uploaded
#: hierarchy covers a region, not only the values of one file).
AREAS = [
    "021",
    "100",
    "606",
    "770",
    "941",
    "303",
    "981",
    "191",
    *(f"{a:03d}" for a in range(400, 422)),
]


def _postcodes(column: pd.Series) -> pd.DataFrame:
    """Return a postcode hierarchy as a user uploads it: every 5-digit code of :data:`AREAS`
    (3,000 rows), then its 4-digit district, 3-digit area and ``*``."""
    codes = [f"{a}{i:02d}" for a in AREAS for i in range(100)]
    assert set(column.dropna()) <= set(codes)
    return pd.DataFrame(
        {
            "zip": codes,
            "district": [c[:4] + "*" for c in codes],
            "area": [c[:3] + "**" for c in codes],
            "all": "*",
        }
    )


@pytest.fixture(scope="module")
def uploaded() -> tuple[Recipe, Review]:
    """Return a recipe with a 3,000-row uploaded postcode hierarchy and a PRAM step, and the
    hospital's report under it."""
    df = hospital_table()
    h = {q: default_hierarchy(df[q]) for q in HOSPITAL_QIS}
    h["zip"] = hierarchy_from_table(_postcodes(df["zip"]), df["zip"])
    step = record_step(pram(df, "diagnosis", seed=3)).to_dict()
    recipe = Recipe.of(
        h, {"date_of_birth": 2, "zip": 2, "sex": 0}, Targets.of(k=11, max_suppression=0.02),
        perturb=[step],
    )  # fmt: skip
    spec = {**hospital_profile(), "recipe": recipe.to_dict()}
    return recipe, review(df, Profile.read(spec), name="hospital.csv")


@pytest.fixture(scope="module")
def uploaded_pdf(uploaded) -> PdfReader:
    return PdfReader(io.BytesIO(render_pdf(uploaded[1])))


def _text(pdf: PdfReader) -> str:
    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in pdf.pages))


def test_a_recipe_with_a_large_uploaded_hierarchy_stays_within_the_bound(uploaded, uploaded_pdf):
    rows = uploaded[0].hierarchies["zip"]["rows"]
    assert len(rows) == 3_000
    n = len(uploaded_pdf.pages)
    assert n <= MAX_PAGES, f"{n} pages"
    # the limitations are near the end, not behind the recipe's rows
    (at,) = [i for i, p in enumerate(uploaded_pdf.pages, 1) if "Limitations\n" in p.extract_text()]
    assert at >= n - 4
    text = _text(uploaded_pdf)
    assert "... 2,997 more" in text  # the rows left out are counted
    assert rows[-1][0] not in text  # ... and not printed


def test_the_printed_recipe_names_the_attached_file_that_holds_it(uploaded, uploaded_pdf):
    text = _text(uploaded_pdf)
    named = re.findall(r"is in the file (\S+) attached to this PDF", text)
    assert named == [ATTACHMENT_NAME]
    assert 'under "remediation", then "recipe"' in text
    assert list(uploaded_pdf.attachments) == named
    (embedded,) = uploaded_pdf.attachments[named[0]]
    held = json.loads(embedded)["remediation"]["recipe"]
    assert held == json.loads(json.dumps(uploaded[0].to_dict()))  # the whole recipe
    assert len(held["hierarchies"]["zip"]["rows"]) == 3_000
    assert len(held["perturb"][0]["params"]["matrix"]) == 8


def test_the_hospital_report_stays_within_the_bound():
    df = hospital_table()
    r = review(df, Profile.read(hospital_profile()), name="hospital.csv")
    pdf = PdfReader(io.BytesIO(render_pdf(r)))
    assert len(pdf.pages) <= MAX_PAGES, f"{len(pdf.pages)} pages"
    # a short recipe is printed whole, and is the attached one
    (embedded,) = pdf.attachments[ATTACHMENT_NAME]
    assert "The same recipe, as applied, is in the file report.json" in _text(pdf)
    assert json.loads(embedded)["remediation"]["recipe"] == hospital_profile()["recipe"]


def test_the_claims_report_stays_within_the_bound():
    claims = make_claims()  # the demo's 2,500 patients
    targets = Targets(
        criteria=(KAnonymity(k=3), KmAnonymity(k=3, m=2, events=("diagnosis",))),
        max_suppression=0.1,
    )
    hier = {q: default_hierarchy(claims[q]) for q in ("sex", "age")}
    hier["diagnosis"] = flat_hierarchy(claims["diagnosis"])
    recipe = Recipe.of(
        hier, {"sex": 0, "age": 3, "diagnosis": 0}, targets, person="patient_id",
        events=("diagnosis",), masking=[mask_step("household_id", "drop")],
    )  # fmt: skip
    profile = Profile(
        roles=ColumnRoles(quasi_identifiers=("sex", "age"), persons=("patient_id",)),
        targets=targets,
        events=("diagnosis",),
        household="household_id",
        recipe=recipe,
    )
    r = review(claims, profile, name="claims.csv")
    assert r.after is not None and r.before.km_anonymity is not None
    pdf = PdfReader(io.BytesIO(render_pdf(r)))
    assert len(pdf.pages) <= MAX_PAGES, f"{len(pdf.pages)} pages"


# ------------------------------------------------------------------ the printed JSON


def _printed_lines(text: str) -> int:
    return sum(max(1, -(-len(line) // WIDTH)) for line in text.split("\n"))


def test_a_short_recipe_is_printed_whole_as_json():
    value = {"qis": ["a", "b"], "levels": [1, 0], "h": {"a": {"rows": [["x", "*"]] * MAX_ITEMS}}}
    text, abridged = printed_json(value)
    assert not abridged
    assert json.loads(text) == value


def test_a_long_list_keeps_its_first_items_and_counts_the_rest():
    text, abridged = printed_json({"rows": [[str(i), "*"] for i in range(500)]})
    assert abridged
    assert '["0", "*"]' in text and '["2", "*"]' in text and '["3", "*"]' not in text
    assert "... 497 more" in text


def test_what_runs_past_the_line_cap_is_cut_and_counted():
    # 60 columns, each with a short hierarchy of long labels: no list is long, the whole is
    many = {f"column_{i}": {"rows": [["v" * 150, "*"]] * 4} for i in range(60)}
    text, abridged = printed_json({"hierarchies": many})
    assert abridged
    assert _printed_lines(text) <= MAX_LINES
    assert re.search(r"\.\.\. [\d,]+ more lines$", text)
