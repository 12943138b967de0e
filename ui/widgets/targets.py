"""The targets editor: one set of privacy models for every page (Anonymity and Remediate).

It reads and writes the session's :class:`riskcore.criteria.Targets`
(:func:`ui.core.profile.targets`): a preset (k = 3, 5, 11 or 20, each with the
exact record-risk threshold 1/k) or custom k and threshold, l-diversity of a
chosen kind, t-closeness, basic or enhanced beta-likeness, delta-disclosure privacy,
and the share of records a remediation may
suppress. Both pages draw the same editor, so a target changed on one is the
target of the other.
"""

from __future__ import annotations

import secrets
from typing import Any

import streamlit as st

from riskcore.criteria import (
    RISK_PRESETS,
    AverageRisk,
    Criterion,
    KAnonymity,
    PopulationUniqueness,
    RecordRisk,
    SampleUniqueness,
    Targets,
)
from riskcore.report.readings.criteria import (
    MODEL_GUIDE,
    model_guide_table,
    preset_target_text,
    targets_summary,
)
from ui.core import keys, profile
from ui.core.safe import md
from ui.core.tables import escaped

__all__ = ["targets_editor"]

_CUSTOM = "custom"
_NONE = "none"
#: Targets a profile may hold that the editor does not draw (kept as they are).
_NOT_DRAWN = frozenset({"k-map", "delta-presence"})
_L_KINDS = {"distinct": "distinct", "entropy": "entropy", "recursive": "recursive (c,l)"}
_KIND_OF = {
    "distinct-l-diversity": "distinct",
    "entropy-l-diversity": "entropy",
    "recursive-cl-diversity": "recursive",
}


def _preset_of(t: Targets) -> str:
    k = t.find("k-anonymity")
    risk = t.find("record-risk")
    if isinstance(k, KAnonymity) and isinstance(risk, RecordRisk) and risk.model == "prosecutor":
        if k.k in RISK_PRESETS and abs(risk.threshold - 1 / k.k) < 1e-12:
            return f"k = {k.k}"
    if k is None and risk is None:
        return _NONE
    return _CUSTOM


def _seeded(page: str, name: str, value: object) -> str:
    """Return a widget key seeded from the session's targets (widgets forget on a page switch).

    The key names the page (a widget keyed alike on two pages is two widgets, and the second
    would not take the first's value) and carries the settings' token
    (:func:`ui.core.profile.seed`): after a reset, a reopened assessment or a change made
    elsewhere, the widgets start again from the targets.
    """
    return profile.seed(keys.target_widget(page, name, profile.settings().widget_token), value)


def _threshold_of(
    col: Any,
    page: str,
    t: Targets,
    kind: str,
    name: str,
    labels: tuple[str, str],
    *,
    low: float,
    step: float,
    default: float,
) -> float | None:
    """Draw the toggle of the whole-release model ``kind`` and, when on, its threshold.

    ``labels`` are the toggle's and the threshold's (literal text); ``name`` keys the widgets.
    """
    now = t.find(kind)
    on = col.toggle(md(labels[0]), key=_seeded(page, f"use_{name}", now is not None),
                    help=MODEL_GUIDE[kind][2])  # fmt: skip
    if not on:
        return None
    first = float(getattr(now, "threshold", default))
    value = col.number_input(md(labels[1]), low, 1.0, step=step, format="%.4f",
                             key=_seeded(page, name, first))  # fmt: skip
    return float(value)


def _risk_models(page: str, t: Targets) -> tuple[Criterion, ...]:
    """Draw every privacy model under ARX's name; return the whole-release risk models chosen.

    The average risk, sample uniqueness and population uniqueness (ARX's risk-based
    criteria) are chosen here; the table names every model with what it protects against
    (:data:`riskcore.report.readings.criteria.MODEL_GUIDE`).
    """
    out: list[Criterion] = []
    with st.expander("Every privacy model (ARX's names) and the risk models of the release"):
        # not a frame: checks first; its cells are markdown (a target names a column)
        st.table(escaped(model_guide_table(t).set_index("model")))
        a1, a2, a3 = st.columns(3)
        avg = _threshold_of(a1, page, t, "average-risk", "avg",
                            ("average risk", "highest average risk"),
                            low=0.0001, step=0.01, default=0.05)  # fmt: skip
        if avg is not None:
            out.append(AverageRisk(threshold=avg))
        su = _threshold_of(a2, page, t, "sample-uniqueness", "su",
                           ("sample uniqueness", "highest share unique"),
                           low=0.0, step=0.005, default=0.01)  # fmt: skip
        if su is not None:
            out.append(SampleUniqueness(threshold=su))
        pu_now = t.find("population-uniqueness")
        value = _threshold_of(a3, page, t, "population-uniqueness", "pu",
                              ("population uniqueness", "highest share of the population unique"),
                              low=0.0, step=0.001, default=0.01)  # fmt: skip
        if value is not None:
            model = a3.selectbox(
                "estimator", ["dankar", "pitman", "zayatz", "snb"],
                key=_seeded(page, "pu_model", getattr(pu_now, "model", "dankar")),
            )  # fmt: skip
            fraction = getattr(pu_now, "sampling_fraction", None)
            if fraction is not None:  # a profile's sampling fraction: N = n / pi, kept
                a3.caption(md(f"Population: the table's records / {fraction:g}."))
                crit = PopulationUniqueness(
                    threshold=float(value), sampling_fraction=fraction, model=model
                )
            else:
                size_now = float(getattr(pu_now, "population_size", 1e6))
                size = a3.number_input(
                    "population size", 1.0, 1e10, step=1000.0, format="%.0f",
                    key=_seeded(page, "pu_size", size_now),
                )  # fmt: skip
                crit = PopulationUniqueness(
                    threshold=float(value), population_size=float(size), model=model
                )
            out.append(crit)
    return tuple(out)


def targets_editor(
    *, page: str, sensitive: tuple[str, ...], suppression: bool = True, person: str | None = None
) -> Targets:
    """Draw the targets editor; return the session's targets after the user's changes.

    Parameters
    ----------
    page : str
        The page drawing it ("anonymity", "remediate"): part of the widgets' keys.
    sensitive : tuple of str
        The sensitive attributes (the l and t targets need one).
    suppression : bool, default True
        Show the suppression limit (the Remediate page's; the Anonymity page
        judges the table as it is).
    person : str, optional
        The column linking the rows of one person: a class, and the suppression limit,
        count people.

    Returns
    -------
    Targets
    """
    tg = profile.settings()
    t = tg.targets
    if tg.drawn is not None and tg.drawn != t:
        # the targets changed outside the editor (a reopened assessment, a reset): the widgets
        # start again from them
        profile.update(widget_token=secrets.token_hex(4))
    presets = [f"k = {k}" for k in RISK_PRESETS] + [_CUSTOM, _NONE]
    labels = {f"k = {k}": words for k, words in RISK_PRESETS.items()}  # "k = 11: US public ..."
    labels[_CUSTOM] = "custom k and record-risk threshold"
    labels[_NONE] = "no k-anonymity or record-risk target"
    preset = st.selectbox(  # a row of its own: the preset's words are long
        "Targets",
        presets,
        format_func=labels.__getitem__,
        help="A preset sets k and the highest record risk 1/k together: a class of exactly k "
        "records meets it (El Emam 2013).",
        key=_seeded(page, "preset", _preset_of(t)),
    )
    k_now = t.find("k-anonymity")
    risk_now = t.find("record-risk")
    k: int | None
    threshold: float | None
    if preset == _CUSTOM:
        c2, c3 = st.columns(2)
        k = (
            int(
                c2.number_input(
                    "k (smallest class; 0: none)",
                    0,
                    100_000,
                    step=1,
                    key=_seeded(page, "k", int(getattr(k_now, "k", 0))),
                )
            )
            or None
        )
        threshold = (
            float(
                c3.number_input(
                    "highest record risk (0: none)",
                    0.0,
                    1.0,
                    step=0.01,
                    format="%.4f",
                    help="A record passes when its re-identification risk is at most this (1/k "
                    "accepts a class of k).",
                    key=_seeded(page, "threshold", float(getattr(risk_now, "threshold", 0.0))),
                )
            )
            or None
        )
    elif preset == _NONE:
        k = threshold = None
    else:
        k = int(preset.split("=")[1])
        threshold = 1 / k
        # k and 1/k: one idea, said together
        st.markdown(md(preset_target_text(k, people=person is not None)))
    model = st.radio(
        "record-risk attacker",
        ["prosecutor", "journalist"],
        horizontal=True,
        help="Prosecutor: the attacker knows the person is in the table (risk 1/class size). "
        "Journalist: the risk against the population (needs a sampling fraction or weights).",
        key=_seeded(page, "model", getattr(risk_now, "model", "prosecutor")),
    )
    l1, l2, l3, l4 = st.columns(4)
    l_now = next((c for c in t.criteria if c.kind.endswith("l-diversity")), None)
    use_l = l1.toggle(
        "l-diversity", key=_seeded(page, "use_l", l_now is not None), disabled=not sensitive
    )
    kind_now = _KIND_OF.get(getattr(l_now, "kind", ""), "distinct")
    l_kind = l2.selectbox(
        "kind", list(_L_KINDS), format_func=_L_KINDS.__getitem__,
        key=_seeded(page, "l_kind", kind_now), disabled=not use_l,
    )  # fmt: skip
    l_value = l3.number_input(
        "l", 1.0, 100.0, step=1.0, format="%g",
        key=_seeded(page, "l", float(getattr(l_now, "l", 2))), disabled=not use_l,
    )  # fmt: skip
    c_value = l4.number_input(
        "c", 0.1, 100.0, step=0.5, key=_seeded(page, "c", float(getattr(l_now, "c", 2.0))),
        disabled=not (use_l and l_kind == "recursive"),
    )  # fmt: skip
    t1, t2, t3 = st.columns([1, 1, 2])
    t_now = t.find("t-closeness")
    use_t = t1.toggle(
        "t-closeness", key=_seeded(page, "use_t", t_now is not None), disabled=not sensitive
    )
    t_value = t2.number_input(
        "t", 0.0, 1.0, step=0.05, key=_seeded(page, "t", float(getattr(t_now, "t", 0.2))),
        disabled=not use_t,
    )  # fmt: skip
    b1, b2, b3 = st.columns(3)
    b_now = t.find("beta-likeness")
    use_b = b1.toggle(
        "beta-likeness", key=_seeded(page, "use_beta", b_now is not None),
        disabled=not sensitive,
        help="No class raises the share of a sensitive value it holds by more than beta, "
        "relative to the table: (p - q) / q <= beta (Cao and Karras 2012; ARX's "
        "BasicBLikeness). Enhanced: a common value may gain at most -ln q.",
    )  # fmt: skip
    b_kind = b2.selectbox(
        "likeness", ["basic", "enhanced"],
        key=_seeded(page, "beta_kind", getattr(b_now, "variant", "basic")), disabled=not use_b,
    )  # fmt: skip
    b_value = b3.number_input(
        "beta", 0.01, 1000.0, step=0.5, format="%g",
        key=_seeded(page, "beta", float(getattr(b_now, "beta", 1.0))), disabled=not use_b,
    )  # fmt: skip
    d1, d2, _ = st.columns(3)
    d_now = t.find("delta-disclosure")
    use_d = d1.toggle(
        "delta-disclosure", key=_seeded(page, "use_dd", d_now is not None),
        disabled=not sensitive,
        help="No class moves the belief in a value it holds by a factor of 2^delta or more: "
        "|log2(p / q)| < delta (Brickell and Shmatikov 2008; ARX's DDisclosurePrivacy).",
    )  # fmt: skip
    d_value = d2.number_input(
        "delta", 0.01, 100.0, step=0.25, format="%g",
        key=_seeded(page, "dd", float(getattr(d_now, "delta", 1.0))), disabled=not use_d,
    )  # fmt: skip
    risk_models = _risk_models(page, t)
    limit = t.max_suppression
    if suppression:
        limit = (
            t3.slider(
                "Records a remediation may suppress (%)"
                if person is None
                else "People a remediation may suppress (%)",
                0.0,
                20.0,
                step=0.5,
                help="Records of classes that still break a target are removed from the "
                "release, up to this share (ARX's suppression)."
                if person is None
                else "People of classes that still break a target are removed from the "
                "release with all of their rows, up to this share of the people (ARX's "
                "suppression).",
                key=_seeded(page, "suppression", round(100 * t.max_suppression, 1)),
            )
            / 100.0
        )
    drawn = Targets.of(
        k=k,
        threshold=threshold,
        risk_model=model,
        l=(float(l_value) if l_kind == "entropy" else round(float(l_value)))
        if use_l and sensitive
        else None,
        l_kind=l_kind,
        c=float(c_value),
        t=float(t_value) if use_t and sensitive else None,
        distance=getattr(t_now, "distance", None),
        beta=float(b_value) if use_b and sensitive else None,
        beta_kind=b_kind,
        delta_disclosure=float(d_value) if use_d and sensitive else None,
        # ARX's rule (--likeness-reference input) of a reopened profile is kept, as t's distance
        likeness_reference=getattr(b_now, "reference", None)
        or getattr(d_now, "reference", "release"),
        max_suppression=float(limit),
    )
    # the targets this editor does not draw (set by a reopened profile) are kept
    kept = tuple(c for c in t.criteria if c.kind in _NOT_DRAWN)
    new = Targets(
        criteria=drawn.criteria + risk_models + kept, max_suppression=drawn.max_suppression
    )
    profile.update(targets=new, drawn=new)
    st.caption(md("Judged everywhere: " + targets_summary(new, people=person is not None) + "."))
    return new
