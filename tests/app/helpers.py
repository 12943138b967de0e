"""Helpers of the AppTest tests: run the app, read what a page shows.

The fixture that clears Streamlit's caches around each test is in ``tests/app/conftest.py``.
"""

from __future__ import annotations

import base64
import dataclasses
import re

import numpy as np
import pandas as pd
from streamlit.testing.v1 import AppTest

from riskcore.demo import make_people
from riskcore.roles import ColumnRoles
from tests.conftest import ROOT
from tests.hospital import hospital_csv
from ui.core.profile import SessionSettings
from ui.core.safe import WORD_JOINER

APP = str(ROOT / "app.py")


def set_roles(at: AppTest, roles: dict[str, str]) -> None:
    """Make ``roles`` ({column: role}) the session's roles, as the Data page's role editor
    does (:func:`ui.core.profile.set_roles`); the dataset they are for (``rc_roles_for``)
    is left as it is."""
    at.session_state["rc_roles"] = ColumnRoles.from_mapping(roles)


def roles_of(at: AppTest) -> dict[str, str]:
    """Return the session's roles as {column: role}."""
    return at.session_state["rc_roles"].to_mapping()


def settings_of(at: AppTest) -> SessionSettings:
    """Return the session's profile settings (targets, policy, fraction, distances ...)."""
    found = at.session_state["rc_targets"]
    assert isinstance(found, SessionSettings), type(found)
    return found


def set_settings(at: AppTest, **changes) -> None:
    """Replace the session's profile settings by a copy with ``changes``, as a widget does
    (:func:`ui.core.profile.update`)."""
    at.session_state["rc_targets"] = dataclasses.replace(settings_of(at), **changes)


def run(page: str | None = None, roles: dict | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    if roles is not None:
        set_roles(at, roles)
        at.session_state["rc_roles_for"] = at.session_state["rc_dataset"]["key"]
    if page:
        at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def plotly_values(v) -> list:
    """Decode a plotly array (a list, or a typed array {"dtype", "bdata"})."""
    if isinstance(v, dict) and "bdata" in v:
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=np.dtype(v["dtype"])).tolist()
    return list(v)


def seen(source: str) -> str:
    """Return what a reader sees of a markdown ``source`` made by ``ui.core.safe.md``: the
    backslash escapes read and the invisible word joiners dropped."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", source).replace(WORD_JOINER, "")


def static_table(at: AppTest, column: str) -> pd.DataFrame:
    """Return the page's static table (``st.table``) with a column ``column``, as a reader
    sees it: its cells, column names and index labels escaped by ``ui.core.tables.escaped``
    read back with :func:`seen`."""
    for t in at.table:
        df = t.value.map(lambda v: seen(v) if isinstance(v, str) else v)
        df.columns = [seen(str(c)) for c in df.columns]
        if not isinstance(df.index, pd.RangeIndex):
            name = df.index.name
            df.index = pd.Index([seen(str(i)) for i in df.index], name=name and seen(name))
        if column in df.columns:
            return df
    raise AssertionError(f"no static table with a column {column!r}")


def metrics(at: AppTest) -> dict[str, str]:
    """Return {label as seen: value} of the page's metrics."""
    return {seen(m.label): m.value for m in at.metric}


def data_uploader(at: AppTest):
    """Return the Data page's table uploader (its key changes after each successful read)."""
    return next(u for u in at.get("file_uploader") if u.label.startswith("Upload a table"))


def demo_roles(qis, sens=()):
    df = make_people(32_561, seed=0)
    roles = {c: "other" for c in df.columns}
    roles.update({q: "quasi_identifier" for q in qis})
    roles.update({s: "sensitive" for s in sens})
    return roles


HOSPITAL_ROLES = {
    "name": "identifier",
    "ssn": "identifier",
    "mrn": "identifier",
    "date_of_birth": "quasi_identifier",
    "zip": "quasi_identifier",
    "sex": "quasi_identifier",
    "diagnosis": "sensitive",
    "admission_date": "other",
    "note": "other",
}


def hospital_app() -> AppTest:
    """Return the app with the hospital table uploaded and its roles set."""
    at = run()
    at.file_uploader(key="rc_upload").set_value(("hospital.csv", hospital_csv(), "text/csv"))
    at.run()
    assert not at.exception, at.exception
    set_roles(at, dict(HOSPITAL_ROLES))
    at.session_state["rc_roles_for"] = at.session_state["rc_dataset"]["key"]
    return at
