"""The PDF report: PDF/A-3b, the JSON twin embedded, page number and fingerprint on every page.

WeasyPrint, pypdf and (for the figures) kaleido with Debian's Chromium are
requirements: their absence fails these tests, it never skips them.
"""

from __future__ import annotations

import io
import json
import re

import pytest
from pypdf import PdfReader

from riskcore.demo import make_people
from riskcore.errors import RiskcoreError
from riskcore.profile import Profile
from riskcore.report import render
from riskcore.report.render import ATTACHMENT_NAME, render_pdf
from riskcore.review import review

PROFILE = {
    "identifiers": ["name", "ssn"],
    "quasi_identifiers": ["age", "sex", "race"],
    "sensitive": ["diagnosis"],
    "targets": {"k": 5, "l": 2},
}


@pytest.fixture(scope="module")
def demo():
    """Return the demo people and their report."""
    people = make_people(1200)
    return people, review(people, Profile.read(PROFILE), name="demo:1200")


@pytest.fixture(scope="module")
def report(demo):
    return demo[1]


@pytest.fixture(scope="module")
def pdf(report) -> PdfReader:
    return PdfReader(io.BytesIO(render_pdf(report)))


def test_the_embedded_json_equals_the_twin(report, pdf):
    assert list(pdf.attachments) == [ATTACHMENT_NAME]
    (embedded,) = pdf.attachments[ATTACHMENT_NAME]
    assert json.loads(embedded) == json.loads(report.to_json())


def test_every_page_has_its_number_and_the_fingerprint(report, pdf):
    n = len(pdf.pages)
    assert n >= 3
    sha = report.dataset["sha256"]
    for i, page in enumerate(pdf.pages, start=1):
        text = page.extract_text()
        assert f"page {i} of {n}" in text
        assert sha in re.sub(r"\s+", "", text)


def test_it_declares_pdf_a_3b(pdf):
    xmp = pdf.trailer["/Root"]["/Metadata"].get_object().get_data().decode("utf-8")
    assert re.search(r"pdfaid:part(>|=\")3", xmp)
    assert re.search(r"pdfaid:conformance(>|=\")B", xmp)


def test_the_figures_are_drawn_as_svg(report):
    svgs = render.figure_svgs(report)
    assert len(svgs) == 2
    assert all(s.lstrip().startswith(b"<svg") for s in svgs)
    assert b"Records by equivalence-class size" in svgs[0]
    # no recipe: the figures are of the table as recorded, and say so (in a title that may
    # wrap: its lines are joined back with a space)
    joined = [re.sub(rb"</tspan><tspan[^>]*>", b" ", s) for s in svgs]
    assert all(b"(as recorded)" in s for s in joined)


def test_the_pdf_states_its_verdict_build_and_limitations(report, pdf):
    import riskcore

    text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in pdf.pages))
    built = report.built_at.replace("T", " ").rstrip("Z")
    assert f"built {built} (UTC)" in text and f"riskcore {riskcore.__version__}" in text
    assert "FAIL The table as recorded does not meet" in text
    assert "Limitations" in text and "Attacker model:" in text


def test_no_direct_identifier_is_in_the_pdf(demo, pdf):
    people = demo[0]
    text = "\n".join(p.extract_text() for p in pdf.pages)
    for column in ("name", "ssn"):
        for value in people[column].astype(str).unique()[:300]:
            assert value not in text


@pytest.mark.parametrize("url", ["http://127.0.0.9/p.png", "file:///etc/passwd"])
def test_the_fetcher_refuses_anything_but_data_urls(report, monkeypatch, url):
    real = render._render

    def leaky(rep, *, head, figures, css, **rest):
        return real(rep, head=head, figures=[*figures, f'<img src="{url}">'], css=css, **rest)

    monkeypatch.setattr(render, "_render", leaky)
    with pytest.raises(RiskcoreError, match=f'data: URLs only, refused: Error fetching "{url}"'):
        render_pdf(report, figures=False)


def test_a_data_url_is_allowed(report, monkeypatch):
    real = render._render
    pixel = (
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
        "YPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
    )

    def with_image(rep, *, head, figures, css, **rest):
        return real(rep, head=head, figures=[*figures, f'<img src="{pixel}">'], css=css, **rest)

    monkeypatch.setattr(render, "_render", with_image)
    assert render_pdf(report, figures=False).startswith(b"%PDF-")


def test_a_bad_fingerprint_cannot_reach_the_css(report):
    from dataclasses import replace

    bad = replace(report, dataset={**report.dataset, "sha256": '"};body{display:none'})
    with pytest.raises(RiskcoreError, match="hex SHA-256"):
        render_pdf(bad, figures=False)


def test_the_pdf_holds_the_attacks(report, pdf):
    text = " ".join(p.extract_text() for p in pdf.pages)
    assert "Attacks on the table as recorded" in re.sub(r"\s+", " ", text)
    (embedded,) = pdf.attachments[ATTACHMENT_NAME]
    assert json.loads(embedded)["attacks_before"]["linkage"]["unique"]["ci95"]
