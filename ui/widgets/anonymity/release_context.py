"""The Context step of the Anonymity page: the threshold chosen from the release context.

A form asks the questionnaire of :class:`riskcore.criteria.context.Context` (the release
model, the invasion of privacy, the controls, the motives and capacity, the acquaintance
and breach attacks); its submit sets the session's targets to the context's
(:meth:`Context.apply`) and keeps the answers in the profile settings (a new
:class:`ui.core.profile.SessionSettings`), so the profile, the
report and saved assessments carry them. The answers table and the why come from
:mod:`riskcore.report.readings.context`.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from riskcore.criteria.context import (
    CONTROLS_ITEMS,
    DUNBAR,
    HIMSS_BREACH_RATE,
    INVASION_ITEMS,
    LEVELS,
    MOTIVES_ITEMS,
    RELEASES,
    STRICT_CAP,
    Context,
)
from riskcore.errors import RiskcoreError
from riskcore.report.readings.context import RELEASE_LABELS, context_reading, context_rows
from ui.core import keys, profile
from ui.core.safe import md

__all__ = ["context_step", "context_summary"]

_HIMSS = "the HIMSS survey's average breach rate, as Kniola (PhUSE 2016) quotes it"
_CAPS = {"1/3": STRICT_CAP, "1/2": 0.5, "none (a plain average)": None}


def _key(name: str, value: object) -> str:
    """Return the key of the questionnaire's widget ``name``, seeded with ``value``."""
    return profile.seed(keys.target_widget("context", name, profile.settings().widget_token), value)


def _checklist(where: Any, label: str, items: dict[str, str], key: str) -> list[str]:
    """Draw one of IPC16's checklists: the items that hold, recorded with the answers."""
    chosen: list[str] = where.multiselect(
        md(label), list(items), format_func=lambda x: md(items[x]), key=key
    )
    return chosen


def _answers(now: Context | None) -> dict[str, Any]:
    """Draw the questionnaire; return its answers (all of them, whatever the release)."""

    def seed(name: str, default: object) -> str:
        value = None if now is None else getattr(now, name, None)
        if value is None or value == "":
            value = default
        return _key(name, list(value) if isinstance(value, tuple) else value)

    a: dict[str, Any] = {}
    a["release"] = st.radio(
        "The release is",
        RELEASES,
        format_func=lambda r: md(RELEASE_LABELS[r]),
        key=seed("release", "non-public"),
    )
    i1, i2 = st.columns([1, 2])
    a["invasion"] = i1.radio(
        "Invasion of privacy, were the data identified",
        LEVELS,
        horizontal=True,
        help="Sets the threshold: low 0.1, medium 0.075, high 0.05 (IPC Ontario 2016, step 3).",
        key=seed("invasion", "medium"),
    )
    a["invasion_items"] = _checklist(i2, "Considered", INVASION_ITEMS, seed("invasion_items", []))
    st.caption(
        "Non-public releases: the deliberate attack, from the controls and the recipient "
        "(IPC Ontario 2016, step 5). A semi-public release assumes low controls and high motives; "
        "a public one is assumed attacked."
    )
    c1, c2 = st.columns(2)
    a["controls"] = c1.radio(
        "Privacy and security controls", LEVELS, horizontal=True, key=seed("controls", "medium")
    )
    a["controls_items"] = _checklist(
        c1, "Controls in the agreement", CONTROLS_ITEMS, seed("controls_items", [])
    )
    a["motives"] = c2.radio(
        "Motives and capacity of the recipient",
        LEVELS,
        horizontal=True,
        key=seed("motives", "medium"),
    )
    a["motives_items"] = _checklist(c2, "Considered ", MOTIVES_ITEMS, seed("motives_items", []))
    p1, p2, p3 = st.columns(3)
    a["prevalence"] = p1.number_input(
        "Share of the population with the data's condition (p)",
        0.0,
        1.0,
        step=0.0001,
        format="%.6f",
        help="The acquaintance attack: a recipient knows someone in the data with probability "
        "1 - (1 - p)^m (IPC Ontario 2016, step 5, attack 2).",
        key=seed("prevalence", 0.001),
    )
    a["acquaintances"] = int(
        p2.number_input(
            "People one knows (m)",
            1,
            10_000,
            step=10,
            help="150, Dunbar's number, to 190 (IPC Ontario 2016).",
            key=seed("acquaintances", DUNBAR),
        )
    )
    a["breach"] = p3.number_input(
        "Pr(breach) at the recipient",
        0.0,
        1.0,
        step=0.01,
        help="The breach rate of the recipient's industry (IPC Ontario 2016, step 5, attack 3).",
        key=seed("breach", HIMSS_BREACH_RATE),
    )
    a["breach_source"] = st.text_input(
        "Source of the breach rate", key=seed("breach_source", _HIMSS), max_chars=2_000
    )
    s1, s2, s3 = st.columns([1, 1, 2])
    cap_now = STRICT_CAP if now is None else now.strict_cap
    cap = s1.selectbox(
        "Strict average: no record above",
        list(_CAPS),
        help="Non-public releases: the average risk is held to the bound, with no record's risk "
        "above this cap (1/3 often proposed, 1/2 also used: IPC Ontario 2016, step 4.2).",
        key=_key(
            "cap", next((k for k, v in _CAPS.items() if v == cap_now), "none (a plain average)")
        ),
    )
    a["strict_cap"] = _CAPS[cap]
    a["threshold"] = (
        s2.number_input(
            "Threshold (0: the table's)",
            0.0,
            1.0,
            step=0.005,
            format="%.4f",
            key=_key("threshold", float(getattr(now, "threshold", None) or 0.0)),
        )
        or None
    )
    a["threshold_reason"] = s3.text_input(
        "Why this threshold", key=seed("threshold_reason", ""), max_chars=2_000
    )
    a["note"] = st.text_area("Note", key=seed("note", ""), max_chars=2_000, height=68)
    return a


def _relevant(a: dict[str, Any]) -> dict[str, Any]:
    """The answers the release uses (a public release drops the attacks', and so on)."""
    out = dict(a)
    if a["release"] != "non-public":
        for name in ("controls", "motives", "controls_items", "motives_items", "strict_cap"):
            out.pop(name)
    if a["release"] == "public":
        for name in ("prevalence", "breach", "breach_source", "acquaintances"):
            out.pop(name)
    return out


def context_step() -> Any:
    """Draw the Context step's questionnaire; return the place its summary goes.

    The summary (the answers, the threshold and why) is drawn by :func:`context_summary`
    into that place once the targets editor has run, so that it judges the targets the
    page judges (a target changed in the editor below shows at once).

    Returns
    -------
    streamlit container
    """
    now = profile.settings().context
    with st.expander(
        "Context: the threshold from the release (El Emam; IPC Ontario 2016)",
        expanded=now is not None,
    ):
        with st.form("release-context", border=False):
            answers = _answers(now)
            b1, b2 = st.columns([2, 1])
            submit = b1.form_submit_button("Set the targets from this context", type="primary")
            clear = b2.form_submit_button("Clear the context", disabled=now is None)
        if submit:
            try:
                made = Context.from_dict(_relevant(answers))
            except RiskcoreError as exc:
                st.error(md(exc))
            else:
                profile.update(context=made, targets=made.apply(profile.targets()))
                st.rerun()
        if clear:
            profile.update(context=None)
            st.rerun()
        return st.container()


def context_summary(place: Any) -> Context | None:
    """Draw the session's context in ``place``: its answers, the threshold and why.

    Parameters
    ----------
    place : streamlit container
        What :func:`context_step` returned.

    Returns
    -------
    Context or None
        The session's context (None when none is set).
    """
    now = profile.settings().context
    if now is not None:
        with place:
            rows = context_rows(now).itertuples(index=False)  # long answers: a list, not a grid
            st.markdown("\n".join(f"- **{md(q)}**: {md(a)} (_{md(src)}_)" for q, a, src in rows))
            carried = now.carried_by(profile.targets())
            (st.info if carried else st.warning)(md(context_reading(now, carried=carried)))
    return now
