"""The report document's CSS (:mod:`riskcore.report.render`): on screen and on the PDF page."""

__all__ = ["CSS", "PRINT_CSS"]

#: The document's style: the HTML's, and the PDF's before :data:`PRINT_CSS`; the verdict
#: banner's colours by state: green ``pass``, amber ``hold``, red ``fail``.
CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:62rem;margin:2rem auto;
padding:0 1rem;color:#1b1b1b;line-height:1.45}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.2rem;border-bottom:1px solid #ccc;
margin-top:2rem}table{border-collapse:collapse;margin:.6rem 0;font-size:.9rem}
td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f2f2f2}.num{text-align:right;font-variant-numeric:tabular-nums}
.pass{color:#1a7f37;font-weight:600}.fail{color:#b42318;font-weight:600}
.hold{color:#b54708;font-weight:600}
.verdict{padding:.6rem 1rem;border:2px solid;border-radius:.4rem;margin:1rem 0;font-weight:400}
.verdict.pass{background:#f0faf2}.verdict.hold{background:#fffaeb}.verdict.fail{background:#fef3f2}
code,.mono{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85rem;
white-space:pre-wrap;overflow-wrap:anywhere}
.field{border-bottom:1px solid #888;min-height:1.6rem;margin:.4rem 0 1rem}
.small{color:#555;font-size:.85rem}
@media print{.plot{page-break-inside:avoid}}
"""

#: The PDF's page (A4, running heads with the dataset's SHA-256, page numbers): a
#: :meth:`str.format` template of ``sha``.
PRINT_CSS = """
@page{{size:A4;margin:20mm 14mm 18mm;
@top-left{{content:"Re-identification risk report";font-size:7.5pt;color:#555}}
@top-right{{content:"SHA-256 {sha}";font-size:6.5pt;color:#555;font-family:monospace}}
@bottom-center{{content:"page " counter(page) " of " counter(pages);font-size:8pt;color:#555}}}}
body{{max-width:none;margin:0;padding:0;font-size:9.5pt}}
table{{font-size:8pt}}.plot img{{width:100%}}details{{display:block}}
h2{{page-break-after:avoid}}table,.plot{{page-break-inside:avoid}}
"""
