"""Copyable text holds no invisible character: a pasted command or hash runs as shown.

Issue 38: the Saved-assessments page printed the audit head's command through
``ui.core.safe.md``, whose word joiner (U+2060) after every colon landed inside
``--expect-head 2:26f4...``; pasted, the command failed with "the expected head must
be SEQ:HASH". Commands and hashes are shown in code blocks (no markdown, copied as they
are) and no joiner, zero-width space, soft hyphen or byte-order mark is in a code block
of the page or of the report, nor inside a hash or a command-line option anywhere.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pandas as pd

from riskcore.profile import Profile
from riskcore.report.render import render_html
from riskcore.review import review
from riskcore.roles import ColumnRoles
from riskcore.store import Store
from tests.app.helpers import run

#: Invisible characters that join or break words: word joiner, zero-width space, zero-width
#: non-joiner and joiner, soft hyphen, zero-width no-break space (BOM).
INVISIBLE = "\u2060\u200b\u200c\u200d\u00ad\ufeff"
_INVISIBLE = re.compile(f"[{INVISIBLE}]")
#: What a reader copies out of running text: a hash (16 or more hex digits), SEQ:HASH, an
#: option of the command line.
_COPYABLE = re.compile(r"(?:\d+:)?[0-9a-f]{16,}|--[a-z][a-z-]+")


#: A markdown escape (``ui.core.safe.md`` escapes every ASCII punctuation character).
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


def _broken_copyables(text: str) -> list[str]:
    """Return the words of ``text`` (markdown escapes read) that read as a hash or an option
    once the invisible characters are taken out, and hold one."""
    return [
        w
        for w in _ESCAPE.sub(r"\1", text).split()
        if _INVISIBLE.search(w) and _COPYABLE.fullmatch(_INVISIBLE.sub("", w).strip("`.,;()"))
    ]


def _table() -> pd.DataFrame:
    return pd.DataFrame({"q": list("aabbbc"), "g": list("xxyyyy"), "s": list("001101")})


def _profile() -> Profile:
    return Profile(roles=ColumnRoles(quasi_identifiers=("q",), sensitive=("s",)))


def test_the_audit_head_command_is_a_code_block_that_pastes_as_it_is(database):
    s = Store(database)
    r = review(_table(), _profile(), name="t.csv")
    s.save("on q", fingerprint=r.dataset["sha256"], profile=_profile().to_dict(),
           results=r.to_dict(), user="seed")  # fmt: skip
    head = s.verify().head
    assert head is not None
    at = run("pages/saved.py")
    at.button(key="rc_saved_verify").click().run()
    assert not at.exception, at.exception
    shown = [e.value for kind in ("success", "error", "markdown", "caption", "info", "warning")
             for e in getattr(at, kind)]  # fmt: skip
    codes = [c.value for c in at.code]
    assert not [w for text in shown for w in _broken_copyables(text)]
    assert f"riskcore audit verify --expect-head {head.seq}:{head.hash}" in codes
    assert not [c for c in codes if _INVISIBLE.search(c)]


class _CodeText(HTMLParser):
    """Collects the text inside ``<code>`` and ``<pre>`` elements."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.depth += tag in ("code", "pre")

    def handle_endtag(self, tag: str) -> None:
        self.depth -= tag in ("code", "pre")

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.text.append(data)


def test_the_report_holds_no_invisible_character_in_code_hashes_or_commands():
    head = {"seq": 2, "hash": "26f4" + "0a" * 30}
    r = review(_table(), _profile(), name="t:csv", audit_head=head)
    html = render_html(r, figures=False)
    code = _CodeText()
    code.feed(html)
    assert code.text  # the fingerprint and the command
    assert not [t for t in code.text if _INVISIBLE.search(t)]
    assert not _broken_copyables(html)
    assert f"--expect-head 2:{head['hash']}" in html
