"""Show untrusted text (column names, file names, values) safely in markdown elements.

Streamlit never renders raw HTML unless told to, but its markdown renders
links, images, LaTeX and autolinks from text: a column named
``![x](http://evil/x.png)`` would make the browser fetch an external image.
Every dynamic string placed in a markdown element goes through :func:`md`.
"""

from __future__ import annotations

import re

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$&:@%=])")


def md(text: object) -> str:
    """Return ``text`` with every markdown-special character backslash-escaped."""
    return _MD_SPECIAL.sub(r"\\\1", str(text))
