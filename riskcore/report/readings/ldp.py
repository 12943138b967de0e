"""Readings of local differential privacy beyond randomized response (see :mod:`.dp`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from riskcore.dp.local import LaplaceLdpResult

__all__ = ["ldp_intro", "local_laplace_reading"]


def ldp_intro() -> str:
    """Return the Local differential privacy page's opening paragraph.

    Returns
    -------
    str
    """
    return (
        "In local DP nobody, not even the data collector, sees a true answer: each person's "
        "device randomizes it before sending. The collector then corrects the totals for the "
        "known randomization. The reports below are a seeded simulation of what the devices "
        "would send."
    )


def local_laplace_reading(r: LaplaceLdpResult) -> str:
    """Return the reading of a local-Laplace survey: noise per report and the mean's accuracy.

    Parameters
    ----------
    r : LaplaceLdpResult
        The local-Laplace simulation.

    Returns
    -------
    str
    """
    lo, hi = r.bounds
    # with a person column a person sends up to c reports: count reports, not people
    sent = (
        f"Each of {r.n:,} reports is one row's {r.column} clipped to [{lo:g}, {hi:g}] plus "
        if r.unit.is_person
        else f"Each of {r.n:,} people clips their {r.column} to [{lo:g}, {hi:g}] and adds "
    )
    return (
        f"{sent}Laplace noise of scale {r.scale:,.4g}, so a single report says almost "
        f"nothing; the average of all reports is {r.estimated_mean:,.4g} +/- "
        f"{r.half_width:,.3g} (95%) for a clipped mean of {r.clipped_mean:,.4g}."
    )
