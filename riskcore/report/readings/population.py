"""Readings of population uniqueness (estimated from a sample)."""

from __future__ import annotations

from riskcore.metrics.population import PopulationUniqueness

__all__ = ["population_reading"]


def population_reading(pu: PopulationUniqueness) -> str:
    """Return the reading of the population-uniqueness estimates (all four models).

    Parameters
    ----------
    pu : PopulationUniqueness
        The population-uniqueness estimates.

    Returns
    -------
    str
    """
    return (
        f"Population uniques estimated with the {pu.model} model (Dankar et al. 2012 rule): "
        f"{pu.uniques:,.0f} of about {pu.population_size:,.0f} people ({pu.uniqueness:.2%}); "
        f"Zayatz {pu.zayatz:,.0f}, Pitman {pu.pitman:,.0f}, SNB {pu.snb:,.0f}. These are "
        "model-based estimates, not counts: the models disagree, and at small sampling "
        "fractions any of them can be off by a factor of two or more."
    )
