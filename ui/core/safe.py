"""Show untrusted text (column names, file names, values, messages quoting them) as plain text.

Streamlit never renders raw HTML unless told to, but its markdown (in ``st.markdown``,
``st.caption``, ``st.write``, the alert boxes, titles, every widget label and ``help``
tooltip, metric labels and values, radio and select-slider options, spinner and progress
texts) renders links, images, LaTeX, emoji and icon shortcodes from text: a column named
``![x](http://evil/x.png)`` would make the viewer's browser fetch an external image.
Every dynamic string placed in one of these goes through :func:`md`;
``tests/app/test_safe_markup.py`` reads pages/, ui/ and app.py and fails on any that does not.
"""

from __future__ import annotations

import re

__all__ = ["WORD_JOINER", "md"]

#: Every ASCII punctuation character: CommonMark lets a backslash make each one literal, so
#: no emphasis, link, image, code, HTML tag, entity, table, LaTeX or directive can start.
#: An underscore or hyphen between two ASCII letters or digits is left as it is: there
#: neither can start anything (CommonMark 6.2: an underscore both left- and right-flanking
#: between alphanumerics can neither open nor close emphasis; a hyphen makes a list item,
#: a thematic break or a setext underline only at the start of a line), and the accessible
#: name of a widget, which is its label's source, reads "date_of_birth", not
#: "date\_of\_birth".
_PUNCT = re.compile(r"(?<![A-Za-z0-9])[_-]|[_-](?![A-Za-z0-9])|[!-,./:-@\[-^`{-~]")
#: U+2060, invisible and never a line break.
WORD_JOINER = "\u2060"
#: Where an autolinker or shortcode would still match after the escapes are read (remark-gfm
#: finds ``http://``, ``https://``, ``www.`` and ``name@host.tld`` in the parsed text, so
#: escapes do not stop it; remark-emoji and Streamlit's icons read ``:name:``): after a colon
#: or an at sign followed by a character, and between ``www`` and its dot.
_LINK_POINTS = re.compile(r"(?<=[:@])(?=\S)|(?<=www)(?=\.)", re.IGNORECASE)


def md(text: object) -> str:
    """Return ``text`` for a markdown element, shown exactly as written and never as markup.

    Every ASCII punctuation character is backslash-escaped, and an invisible word joiner
    (U+2060) breaks ``scheme:``, ``www.``, ``@`` and ``:shortcode:`` so that neither
    GitHub-flavoured autolinking nor emoji or icon shortcodes apply. The reader sees the
    original characters; a copy of the text holds the joiners, so text meant to be copied
    (a command, a hash, ``SEQ:HASH``) is shown with ``st.code`` instead, never through this
    (``tests/app/test_copyable_text.py``).
    """
    joined = _LINK_POINTS.sub(WORD_JOINER, str(text))
    return _PUNCT.sub(r"\\\g<0>", joined)


_FILE_UNSAFE = re.compile(r"[^\w.-]+")


def file_stem(name: object, default: str = "table") -> str:
    """Return ``name`` made safe for a download's file name: the extension cut, every run of
    characters other than letters, digits, ``.``, ``-`` and ``_`` made ``_``, at most 60."""
    return _FILE_UNSAFE.sub("_", str(name).rsplit(".", 1)[0])[:60] or default


def file_part(name: object) -> str:
    """Return ``name`` (a column's, say) made safe inside a file name, extension kept."""
    return _FILE_UNSAFE.sub("_", str(name))
