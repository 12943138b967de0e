"""An independent, deliberately naive implementation of the published definitions.

Used only by the tests: plain Python over dictionaries, written straight from
``shared/notes/formulas.md`` without the sparse tricks of riskcore, so the two
can be compared on random tables.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence

import numpy as np
import pandas as pd

from riskcore.engine import ClassTable, Contingency, Tabulation


def _key(v):
    return ("<missing>",) if pd.isna(v) else (v,)


def classes(df: pd.DataFrame, qis: list[str]) -> dict[tuple, list[int]]:
    out: dict[tuple, list[int]] = defaultdict(list)
    for pos in range(len(df)):
        out[tuple(_key(df[q].iloc[pos]) for q in qis)].append(pos)
    return out


def _ordered_distance(p, q, values):
    """(1/(m-1)) sum_i |sum_{j<=i} (p_j - q_j)| over ``values`` in rank order."""
    acc, tot = 0.0, 0.0
    for v in values:
        acc += p[v] - q[v]
        tot += abs(acc)
    return tot / (len(values) - 1) if len(values) > 1 else 0.0


def reference_assessment(df, qis, sensitive, c=2.0, threshold=1 / 11, ordered=()):
    """Assess by brute force; ``ordered`` maps an attribute to its order (None: by value).

    A tuple of names means each is ordered by value. Missing values under the
    ordered distance are ranked first and last, and the larger distance kept.
    """
    if not isinstance(ordered, dict):
        ordered = dict.fromkeys(ordered)
    cls = classes(df, qis)
    sizes = [len(v) for v in cls.values()]
    n = len(df)
    res = {
        "n_records": n,
        "n_classes": len(cls),
        "k": min(sizes),
        "unique_records": sum(1 for s in sizes if s == 1),
        "prosecutor": {
            "highest_risk": 1 / min(sizes),
            "records_at_risk": sum(s for s in sizes if 1 / s > threshold) / n,
            "success_rate": len(cls) / n,
        },
        "sensitive": {},
    }
    for s in sensitive:
        col = [_key(v) for v in df[s]]
        total = Counter(col)
        values = list(total)
        missing = [v for v in values if v == ("<missing>",)]
        ranked = []
        if s in ordered:
            given = ordered[s]
            ranked = sorted(
                (v for v in values if v not in missing),
                key=lambda t, g=given: t[0] if g is None else list(g).index(t[0]),
            )
        q = {v: total[v] / n for v in values}
        dl, el, rl, tt = [], [], [], []
        for members in cls.values():
            cnt = Counter(col[i] for i in members)
            f = len(members)
            dl.append(len(cnt))
            h = -sum((x / f) * math.log(x / f) for x in cnt.values())
            el.append(h)
            r = sorted(cnt.values(), reverse=True)
            best = 1
            for l in range(1, len(r) + 1):  # noqa: E741
                if r[0] < c * sum(r[l - 1 :]):
                    best = l
            rl.append(best)
            p = {v: cnt.get(v, 0) / f for v in values}
            if s in ordered:
                tt.append(
                    max(
                        _ordered_distance(p, q, missing + ranked),
                        _ordered_distance(p, q, ranked + missing),
                    )
                )
            else:
                tt.append(0.5 * sum(abs(p[v] - q[v]) for v in values))
        res["sensitive"][s] = {
            "distinct_l": min(dl),
            "entropy_l": math.exp(min(el)),
            "recursive_l": min(rl),
            "t_closeness": max(tt),
        }
    return res


class GroupbyEngine:
    """A second engine written independently with pandas groupby (a test oracle)."""

    name = "groupby"

    def __init__(self, df: pd.DataFrame) -> None:
        self.df = df.reset_index(drop=True)

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(self.df.columns)

    @property
    def n_records(self) -> int:
        return len(self.df)

    def class_sizes(self, quasi_identifiers: Sequence[str]) -> np.ndarray:
        return self.df.groupby(list(quasi_identifiers), dropna=False).size().to_numpy()

    def tabulate(
        self,
        quasi_identifiers: Sequence[str],
        sensitive: Sequence[str] = (),
        *,
        ordered: dict[str, bool | None] | None = None,
    ) -> Tabulation:
        qis = list(quasi_identifiers)
        g = self.df.groupby(qis, dropna=False, sort=True)
        class_of = g.ngroup().to_numpy()
        sizes = g.size().to_numpy().astype(np.int64)
        keys_df = g.size().reset_index()[qis]
        keys, labels = [], []
        for q in qis:
            codes, uniq = pd.factorize(keys_df[q], use_na_sentinel=False)
            keys.append(codes.astype(np.int64))
            labels.append(np.asarray(uniq, dtype=object))
        tables = {}
        for s in sensitive:
            is_num = pd.api.types.is_numeric_dtype(self.df[s])
            codes, uniq = pd.factorize(self.df[s], sort=bool(is_num), use_na_sentinel=False)
            cells = pd.DataFrame({"c": class_of, "v": codes}).value_counts().reset_index()
            tables[s] = Contingency.from_cells(
                s,
                cells["c"],
                cells["v"],
                cells["count"],
                n_classes=len(sizes),
                labels=uniq,
                ordered=bool(is_num),
            )
        return Tabulation(
            ClassTable(tuple(qis), sizes, tuple(keys), tuple(labels)), tables, self.name
        )


def negbin_expected_inverse(f: int, p: float) -> float:
    """E[1/F | f] under F - f ~ NegBin(f, p): the series sum_{h >= f} (1/h) C(h-1, f-1) p^f q^(h-f).

    Summed directly in log space (Benedetti and Franconi 1998); p = 1 gives 1/f.
    """
    from scipy import special

    if p >= 1:
        return 1.0 / f
    q = 1 - p
    h = np.arange(f, f + int(80 * f / p) + 5000, dtype=np.float64)
    log_terms = (
        special.gammaln(h)
        - special.gammaln(f)
        - special.gammaln(h - f + 1)
        + f * math.log(p)
        + (h - f) * math.log(q)
        - np.log(h)
    )
    return float(np.exp(log_terms).sum())
