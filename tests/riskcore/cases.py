"""Hand-worked tables shared by several test modules of riskcore."""

from __future__ import annotations

import pandas as pd

from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import flat_hierarchy, interval_hierarchy
from riskcore.deidentify.lattice import Lattice

AGES = pd.DataFrame(
    {
        "age": [20, 25, 30, 40, 40, 41],
        "sex": ["F", "F", "M", "M", "M", "F"],
        "dx": ["flu", "hiv", "flu", "flu", "flu", "hiv"],
    }
)


def ages_lattice(df: pd.DataFrame = AGES, **targets: object) -> Lattice:
    """The lattice of ``df`` (:data:`AGES`): age by 10 then 20 years, sex kept or hidden."""
    h = {
        "age": interval_hierarchy(df["age"], [10, 20]),
        "sex": flat_hierarchy(df["sex"]),
    }
    return Lattice(df, h, sensitive=["dx"], targets=Targets.of(**targets))
