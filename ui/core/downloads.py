"""Download buttons laid out a few a row, from a table of the files offered.

A page lists what it offers as :class:`Download` rows and :func:`download_buttons` draws
them: two a row by default, because at 1024 px three or four a row cut every label ("Download
the twin's signat...", "Download the profile (reproduc..."); each is written when clicked
(``on_click="ignore"``: the page does not rerun) and waits while the page's result is stale.

A row's ``label`` and ``help`` are rendered as markdown like any widget label: they are
checked where the row is built (``tests/app/test_safe_markup.py`` reads ``Download(...)`` as
a labelled call), so they are authored text or go through :func:`ui.core.safe.md`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import streamlit as st

__all__ = ["MEDIA_TYPES", "Download", "download_buttons"]

#: What a download button accepts: the file's bytes or text, or a function writing them
#: when the button is clicked (nothing is written on a rerun).
Data = bytes | str | Callable[[], bytes | str]

#: The media type of each file the app offers, by the file name's extension.
MEDIA_TYPES = {
    "csv": "text/csv",
    "html": "text/html",
    "json": "application/json",
    "pdf": "application/pdf",
    "p7s": "application/pkcs7-signature",
    "sh": "text/x-shellscript",
}


@dataclass(frozen=True)
class Download:
    """One file offered for download: its button's label, the data and the file's name.

    Parameters
    ----------
    label : str
        The button's label (authored text, or escaped by ``md``).
    data : bytes, str or callable
        The file's content, or a function returning it when clicked.
    file_name : str
        The name the browser saves it under; its extension tells the media type
        (:data:`MEDIA_TYPES`).
    key : str
        The widget key (from ``ui.core.keys``).
    help : str, optional
        The button's tooltip.
    disabled : bool, default False
        This button waits (for a reason of its own; a stale page disables every button).
    wrap : bool, optional
        Wrap the label instead of cutting it (Streamlit's default when None).
    """

    label: str
    data: Data
    file_name: str
    key: str
    help: str | None = None
    disabled: bool = False
    wrap: bool | None = None

    @property
    def mime(self) -> str:
        """Return the file's media type, told by its extension (a generic one if unknown).

        Returns
        -------
        str
            A value of :data:`MEDIA_TYPES`, or ``application/octet-stream``.
        """
        extension = self.file_name.rsplit(".", 1)[-1].lower()
        return MEDIA_TYPES.get(extension, "application/octet-stream")


def download_buttons(
    files: Sequence[Download],
    *,
    per_row: int = 2,
    disabled: bool = False,
    width: Literal["content", "stretch"] = "content",
) -> None:
    """Draw one download button per file, ``per_row`` in each row of columns.

    Parameters
    ----------
    files : sequence of Download
        The files, in reading order.
    per_row : int, default 2
        Buttons in a row (a last row may be shorter; its other columns stay empty).
    disabled : bool, default False
        Every button waits (the page's result is stale).
    width : {"content", "stretch"}, default "content"
        A button's width: its label's, or its column's.
    """
    for start in range(0, len(files), per_row):
        row = files[start : start + per_row]
        for column, file in zip(st.columns(per_row), row, strict=False):
            column.download_button(
                file.label,
                file.data,
                file_name=file.file_name,
                mime=file.mime,
                key=file.key,
                help=file.help,
                on_click="ignore",
                disabled=disabled or file.disabled,
                width=width,
                wrap=file.wrap,
            )
