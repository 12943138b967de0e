"""Untrusted text never becomes markup: the ``ui.core.safe.md`` helper and the check that every
markdown-rendering call in pages/, ui/ and app.py gets only authored text, numbers or ``md(...)``.

Streamlit renders markdown (links, images, autolinked URLs, emoji and icon shortcodes) in
``st.markdown``, ``st.caption``, ``st.write``, the alert boxes, titles, ``st.table``'s
cells (``ui.core.tables.escaped``), every widget label and
``help`` tooltip, metric labels, values and deltas, radio and select-slider options, tab and
expander labels, spinner and progress texts. A column name such as
``![p](http://host/px.png)`` in any of them makes the viewer's browser fetch ``host``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.conftest import ROOT
from ui.core.safe import md

# ------------------------------------------------------------------ the helper

#: CommonMark: a backslash before any ASCII punctuation character makes it literal.
_UNESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
#: The autolink literals of remark-gfm as Streamlit 1.67's bundle has them
#: (mdast-util-gfm-autolink-literal, run on the text after parsing, so escapes do not stop
#: it): protocol and www links, and e-mail addresses. JavaScript's \w is ASCII.
_GFM_URL = re.compile(r"(https?://|www(?=\.))([-.\w]+)([^ \t\r\n]*)", re.IGNORECASE | re.ASCII)
_GFM_EMAIL = re.compile(r"([-.\w+]+)@([-\w]+(?:\.[-\w]+)+)", re.ASCII)
#: remark-emoji and Streamlit's icons: ":smile:", ":material/home:".
_SHORTCODE = re.compile(r":[\w+/-]+:", re.ASCII)

HOSTILE = [
    "![p](http://127.0.0.9/px.png)",
    "[x](http://127.0.0.9/a)",
    "http://127.0.0.9/b",
    "HTTPS://127.0.0.9/b",
    "see www.example.org now",
    "mail bob@example.org",
    "<img src=http://127.0.0.9/c>",
    "<script>alert(1)</script>",
    "<a href='http://127.0.0.9/d'>d</a>",
    "**bold** _it_ ~~s~~ `code` $x^2$ # h | t | :red[r] :smile: :material/home:",
    "&lt;img&gt; &#60;",
    "\u05e9\u05dc\u05d5\u05dd \u202eevil \U0001f600",
]


def _rendered_text(source: str) -> str:
    """What the markdown parser leaves as text once the escapes are read."""
    return _UNESCAPE.sub(r"\1", source)


@pytest.mark.parametrize("text", HOSTILE)
def test_md_leaves_no_markdown_no_html_and_no_autolink(text):
    out = md(text)
    # every ASCII punctuation character is escaped (an underscore or hyphen between two
    # letters or digits aside, where neither can start anything): no markdown or HTML
    # construct can start
    unescaped = re.sub(r"\\[!-/:-@\[-`{-~]", "", out)
    unescaped = re.sub(r"(?<=[A-Za-z0-9])[_-](?=[A-Za-z0-9])", "", unescaped)
    assert not re.search(r"[!-/:-@\[-`{-~]", unescaped), out
    seen = _rendered_text(out)
    assert not _GFM_URL.search(seen), seen
    assert not _GFM_EMAIL.search(seen), seen
    assert not _SHORTCODE.search(seen), seen
    # and only invisible word joiners were added: the reader sees the text as it was
    assert seen.replace("\u2060", "") == text


def test_md_keeps_ordinary_text_readable():
    assert md("age, sex and zip") == "age\\, sex and zip"
    # a widget's accessible name is its label's source: no escape inside a word
    assert md("date_of_birth") == "date_of_birth" and md("length-of-stay") == "length-of-stay"
    assert md("_it_ __b__ x__y a- -b") == "\\_it\\_ \\_\\_b\\_\\_ x\\_\\_y a\\- \\-b"
    assert _rendered_text(md("Privacy leak: 12.5% of n")) == "Privacy leak: 12.5% of n"


def test_escaped_makes_every_cell_header_and_index_label_of_a_table_plain_text():
    """st.table renders cells, headers and index labels as markdown: ui.core.tables.escaped
    passes each through md (a missing value stays blank; a default index is left hidden)."""
    import pandas as pd

    from ui.core.tables import escaped

    df = pd.DataFrame({h: [h, None] for h in HOSTILE}, index=pd.Index(["<b>", "[x](y)"], name="*"))
    out = escaped(df)
    assert list(out.columns) == [md(h) for h in HOSTILE]
    assert list(out.index) == [md("<b>"), md("[x](y)")] and out.index.name == md("*")
    assert out.iloc[0].tolist() == [md(h) for h in HOSTILE] and set(out.iloc[1]) == {""}
    assert isinstance(escaped(df.reset_index(drop=True)).index, pd.RangeIndex)


# ------------------------------------------------------------------ the check

#: Calls whose every positional argument is rendered as markdown.
BODY_CALLS = {
    "markdown", "caption", "write", "info", "warning", "error", "success", "toast",
    "title", "header", "subheader", "spinner", "exception", "badge",
    "table",  # st.table: every cell, header and index label (ui.core.tables.escaped)
}  # fmt: skip
#: Calls whose first positional argument (the label) is rendered as markdown.
LABEL_CALLS = {
    "button", "download_button", "link_button", "form_submit_button", "checkbox", "toggle",
    "selectbox", "multiselect", "number_input", "text_input", "text_area", "slider",
    "date_input", "time_input", "color_picker", "file_uploader", "camera_input",
    "expander", "popover", "status", "feedback", "chat_input",
    "Download",  # ui.core.downloads: a row's label and help, drawn by download_buttons
}  # fmt: skip
#: The fields of a ``Download`` row that ``download_buttons`` passes to the widget: checked
#: where the row is built (``Download`` is a label call above).
CHECKED_WHERE_BUILT = {"file.label", "file.help"}
#: Widgets whose options (second argument) are rendered as markdown, with their format_func.
OPTION_CALLS = {"radio", "select_slider", "pills", "segmented_control"}
#: Keywords rendered as markdown wherever they appear on these calls.
MARKDOWN_KEYWORDS = {"body", "label", "help", "text", "captions", "options", "format_func"}
#: Functions that return a number or a number's text (never a string from the data).
NUMERIC_FORMATTERS = {"format_number", "len", "int", "float", "round", "abs", "min", "max"}
#: Readings whose text is authored markdown around numbers alone (checked by
#: test_numbers_only_readings_quote_no_text below); the guided demo's story is generated data.
NUMBERS_ONLY = {"roles_reading", "upload_limit_note", "s.intro"}
#: Numeric format specs: a type that refuses a string, or grouping.
_NUMERIC_SPEC = re.compile(r"[,_]|[bdeEfFgGnoxX%]$")


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _constant_name(name: str) -> bool:
    return name.isupper() or (name.startswith("_") and name[1:].isupper())


def safe(node: ast.expr | None) -> bool:
    """True when ``node`` can only hold authored text, numbers, or text escaped by md()."""
    if node is None or isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Name):
        return node.id == "md" or _constant_name(node.id)
    if isinstance(node, ast.Attribute) and ast.unparse(node) in CHECKED_WHERE_BUILT:
        return True
    if isinstance(node, ast.Attribute):  # ui.core.formats' escaped labels return md(...)
        from ui.core.formats import ESCAPED

        formats = isinstance(node.value, ast.Name) and node.value.id == "formats"
        return (formats and node.attr in ESCAPED) or _constant_name(node.attr)
    if isinstance(node, ast.Subscript):  # a lookup in a constant table: TITLES[step]
        return safe(node.value)
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return all(safe(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(safe(k) for k in node.keys) and all(safe(v) for v in node.values)
    if isinstance(node, ast.Starred):
        return safe(node.value)
    if isinstance(node, ast.Lambda):
        return safe(node.body)
    if isinstance(node, ast.IfExp):
        return safe(node.body) and safe(node.orelse)
    if isinstance(node, ast.BoolOp):
        return all(safe(v) for v in node.values)
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Add):
            return safe(node.left) and safe(node.right)
        return isinstance(node.op, (ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Pow))
    if isinstance(node, (ast.GeneratorExp, ast.ListComp)):
        return safe(node.elt)
    if isinstance(node, ast.JoinedStr):
        return all(
            safe(v.value) or (v.format_spec is not None and _numeric_spec(v.format_spec))
            for v in node.values
            if isinstance(v, ast.FormattedValue)
        )
    if isinstance(node, ast.Call):
        name = _name(node.func)
        if (
            name in ("md", "escaped")
            or name in NUMERIC_FORMATTERS
            or (ast.unparse(node.func) in NUMBERS_ONLY)
        ):  # ui.core.tables.escaped: a table's every cell, header and index label through md
            return True
        if name == "partial" and node.args and safe(node.args[0]):
            return True  # functools.partial(formats.level_of, height)
        if any(k.arg == "escape" and _name(k.value) == "md" for k in node.keywords):
            return True  # a reading that escapes the data it quotes: f(..., escape=md)
        if name in ("list", "tuple", "sorted") or (
            isinstance(node.func, ast.Attribute) and name in ("values", "keys", "join", "format")
        ):
            receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
            return (
                safe(receiver)
                and all(safe(a) for a in node.args)
                and all(safe(k.value) for k in node.keywords)
            )
        return False
    return False


def _numeric_spec(spec: ast.expr) -> bool:
    return (
        isinstance(spec, ast.JoinedStr)
        and all(isinstance(v, ast.Constant) for v in spec.values)
        and bool(_NUMERIC_SPEC.search("".join(str(v.value) for v in spec.values)))  # type: ignore[attr-defined]
    )


def markdown_arguments(call: ast.Call) -> list[ast.expr]:
    """The arguments of ``call`` that Streamlit renders as markdown."""
    name = _name(call.func)
    keywords = MARKDOWN_KEYWORDS - {"options", "format_func"}
    if name in BODY_CALLS:
        args = list(call.args)
    elif name == "metric":
        args = list(call.args[:3])
        keywords |= {"value", "delta"}
    elif name in OPTION_CALLS:  # the shown text is format_func(option), else the option
        args = list(call.args[:1])
        if any(k.arg == "format_func" for k in call.keywords):
            keywords |= {"format_func"}
        else:
            args += call.args[1:2]
            keywords |= {"options"}
    elif name in LABEL_CALLS or name == "tabs" or ("Column" in name and name[0].isupper()):
        args = list(call.args[:1])  # st.column_config.*Column: its label and help
    elif name in ("progress", "page_link"):
        args = list(call.args[1:2])
    else:
        return []
    return args + [k.value for k in call.keywords if k.arg in keywords]


def unsafe_markdown(source: str, filename: str) -> list[str]:
    """Return "file:line: code" for every markdown argument that may hold untrusted text."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Call):
            for arg in markdown_arguments(node):
                if not safe(arg):
                    found.append(f"{filename}:{arg.lineno}: {ast.unparse(arg)[:90]}")
    return found


def _scanned() -> list[Path]:
    files = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py"))]
    return files + sorted((ROOT / "ui").rglob("*.py"))


def test_no_untrusted_text_reaches_markdown():
    found = []
    for path in _scanned():
        found += unsafe_markdown(path.read_text(), str(path.relative_to(ROOT)))
    assert not found, "wrap these in ui.core.safe.md (or pass escape=md):\n" + "\n".join(found)


def test_a_download_row_is_checked_where_it_is_built():
    """A ``Download`` row's label and help are widget text: a column name there is flagged."""
    assert unsafe_markdown('Download(name, b"", "x.csv", "k")', "p.py")
    assert unsafe_markdown('Download("Get it", b"", "x.csv", "k", help=name)', "p.py")
    assert not unsafe_markdown('Download(md(name), b"", "x.csv", "k", help="Why.")', "p.py")


def test_numbers_only_readings_quote_no_text():
    """The allow-listed readings, given a table whose every name is hostile, quote none."""
    from riskcore.demo.story import guided_story
    from riskcore.report.readings import failing_reading, roles_reading, upload_limit_note
    from riskcore.roles import ColumnRoles

    hostile = ColumnRoles.from_mapping(
        {
            "[x](http://h/a)": "quasi_identifier",
            "<b>": "sensitive",
            "![i](http://h/i)": "identifier",
        }
    )
    texts = [roles_reading(hostile), upload_limit_note(5)]
    # failing_reading names the targets, and so a column: the page passes escape=md
    from ui.core.safe import md

    named = failing_reading(3, targets=["distinct l-diversity of [x](http://h/a)"], escape=md)
    assert "](" not in named
    texts += [guided_story(2_000, 0).intro(step) for step in range(6)]
    for text in texts:
        assert not re.search(r"\]\(|<|http", text), text


@pytest.mark.parametrize(
    "code",
    [
        "st.error(str(exc))",
        'st.warning(f"Privacy leak: {message}")',
        'x.number_input(f"Target accuracy +/- ({unit})", key="k")',
        'st.metric(f"Released: {rel.query.describe()}", "1")',
        'st.metric("Released", shown)',
        'st.caption("The table is " + name)',
        'st.markdown("{} rows".format(name))',
        'st.info("\\n".join(f"- {line}" for line in lines))',
        'st.selectbox("Pick", cols, help=f"from {name}")',
        'st.radio("Pick", cols)',
        'st.radio("Pick", cols, format_func=lambda c: c.upper())',
        'st.tabs([name, "b"])',
        'st.spinner(f"Reading {name} ...")',
        'bar.progress(0.5, text=f"{name}")',
        'st.page_link("pages/x.py", label=name)',
        "st.write(reading(a))",
        'st.subheader(f"{name!r}")',
        'st.caption(f"{name:>10}")',
        'st.table(comparison_table(c).set_index("figure"))',
    ],
)
def test_the_check_catches(code):
    assert unsafe_markdown(code, "x.py"), code


@pytest.mark.parametrize(
    "code",
    [
        "st.error(md(exc))",
        'st.warning(f"Privacy leak: {md(message)}")',
        'x.number_input(f"Target accuracy +/- ({md(unit)})", key="k")',
        'st.metric(md(f"Released: {rel.query.describe()}"), format_number(x))',
        'st.metric("k", f"{a.k:,}", f"{share:.1%} of records")',
        'st.caption("The table is " + md(name))',
        'st.info("\\n".join(f"- {md(line)}" for line in lines))',
        'st.radio("Pick", cols, format_func=md)',
        'st.radio("Pick", ["a", "b"], format_func=lambda s: {"a": "A", "b": "B"}[s])',
        'st.select_slider("d", options=[1e-9, 1e-6], format_func=lambda d: f"{d:g}")',
        'st.selectbox("Pick", cols)',  # selectbox options are plain text in the browser
        'st.tabs(["a", "b"])',
        "st.write(classes_intro(qis, escape=md))",
        "st.caption(STORY_CAPTION)",
        "st.subheader(TITLES[step])",
        "st.text(name)",
        "st.code(name)",
        "st.table(escaped(figures_side_by_side(report)), hide_index=True)",
    ],
)
def test_the_check_lets_pass(code):
    assert not unsafe_markdown(code, "x.py"), code


def test_every_widget_label_of_ui_formats_is_escaped():
    """The check above trusts ui.core.formats' ESCAPED labels because each returns md(...)."""
    import inspect

    from ui.core import formats

    hostile = "![p](http://127.0.0.9/p.png)"
    formats.CANDIDATE_SOURCES[hostile] = hostile  # a label that would be markup unescaped
    try:
        assert formats.candidate_source(hostile) == md(hostile)
    finally:
        del formats.CANDIDATE_SOURCES[hostile]
    for name in formats.ESCAPED:
        assert "md(" in inspect.getsource(getattr(formats, name)), f"{name} is not escaped"
