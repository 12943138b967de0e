"""The remediation's utility as a review holds it: value counts and a two-way table.

Plain, JSON-ready copies of :func:`riskcore.utility.tables.value_counts` and
:func:`riskcore.utility.tables.two_way` (whose tables are data frames, left out of JSON),
so that the report's JSON twin holds what its figures show; bounded by
:data:`REPORT_TOP_VALUES` and :data:`REPORT_MAX_VALUE_COLUMNS`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Self

from riskcore._results import Result
from riskcore.utility.tables import TwoWay

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "REPORT_MAX_VALUE_COLUMNS",
    "REPORT_TOP_VALUES",
    "CountTable",
    "TwoWayTable",
    "ValueCounts",
]

#: Bars a side of a column's value chart in a report (the rest summed in one
#: "other values" bar; numbers with more values counted in at most this many bins).
REPORT_TOP_VALUES = 12

#: Columns whose values a report charts at most (the quasi-identifiers first, then the
#: sensitive attributes; the rest are named). The two-way table keeps
#: :data:`~riskcore.utility.tables.TOP_TWO_WAY` values a side.
REPORT_MAX_VALUE_COLUMNS = 20


@dataclass(frozen=True)
class ValueCounts(Result):
    """One column's records per value as recorded and as released, on one axis.

    The rows of :func:`riskcore.utility.tables.value_counts`, as plain values.

    Attributes
    ----------
    column : str
        The column.
    values : tuple of str
        The labels (bins, categories, a generalized column's labels), in the chart's order.
    before, after : tuple of int
        Records of each label as recorded and as released.
    """

    column: str
    values: tuple[str, ...] = ()
    before: tuple[int, ...] = ()
    after: tuple[int, ...] = ()

    @classmethod
    def of(cls, column: str, counts: pd.DataFrame) -> Self:
        """Return the counts of :func:`~riskcore.utility.tables.value_counts` as plain values.

        Parameters
        ----------
        column : str
            The column counted.
        counts : pandas.DataFrame
            Columns ``value``, ``before``, ``after``.

        Returns
        -------
        ValueCounts
        """
        return cls(
            column=column,
            values=tuple(str(v) for v in counts["value"]),
            before=tuple(int(x) for x in counts["before"]),
            after=tuple(int(x) for x in counts["after"]),
        )

    def frame(self) -> pd.DataFrame:
        """Return the counts as :func:`~riskcore.utility.tables.value_counts` gives them.

        Returns
        -------
        pandas.DataFrame
            Columns ``value`` (str), ``before``, ``after`` (int64).
        """
        import numpy as np
        import pandas as pd

        return pd.DataFrame(
            {
                "value": pd.Series(self.values, dtype=object),
                "before": np.asarray(self.before, dtype=np.int64),
                "after": np.asarray(self.after, dtype=np.int64),
            }
        )


@dataclass(frozen=True)
class CountTable(Result):
    """A contingency table as plain values: labels down and across, records per cell.

    Attributes
    ----------
    rows, columns : tuple of str
        The labels down and across.
    counts : tuple of tuple of int
        Records per cell, one tuple per row.
    """

    rows: tuple[str, ...] = ()
    columns: tuple[str, ...] = ()
    counts: tuple[tuple[int, ...], ...] = ()

    @classmethod
    def of(cls, table: pd.DataFrame) -> Self:
        """Return a table of counts as plain values.

        Parameters
        ----------
        table : pandas.DataFrame
            Counts, labels in the index and the columns.

        Returns
        -------
        CountTable
        """
        return cls(
            rows=tuple(str(r) for r in table.index),
            columns=tuple(str(c) for c in table.columns),
            counts=tuple(tuple(int(x) for x in row) for row in table.to_numpy().tolist()),
        )

    def frame(self) -> pd.DataFrame:
        """Return the table as a data frame (labels in the index and the columns).

        Returns
        -------
        pandas.DataFrame
        """
        import numpy as np
        import pandas as pd

        values = np.asarray(self.counts, dtype=np.int64).reshape(len(self.rows), len(self.columns))
        return pd.DataFrame(values, index=list(self.rows), columns=list(self.columns))


@dataclass(frozen=True)
class TwoWayTable(Result):
    """A two-way table of two columns before and after, with its shown tables as plain values.

    Attributes
    ----------
    two_way : TwoWay
        :func:`riskcore.utility.tables.two_way`: Cramer's V before and after, cells, shapes.
    before, after : CountTable
        The tables shown (at most :data:`~riskcore.utility.tables.TOP_TWO_WAY` values a
        side, the rest in "other").
    """

    two_way: TwoWay
    before: CountTable = field(default_factory=CountTable)
    after: CountTable = field(default_factory=CountTable)

    @classmethod
    def of(cls, tw: TwoWay) -> Self:
        """Return a two-way result with its tables kept as plain values.

        Parameters
        ----------
        tw : TwoWay
            The two-way comparison (:func:`riskcore.utility.tables.two_way`).

        Returns
        -------
        TwoWayTable
        """
        return cls(two_way=tw, before=CountTable.of(tw.before), after=CountTable.of(tw.after))

    def full(self) -> TwoWay:
        """Return the :class:`~riskcore.utility.tables.TwoWay` with its tables.

        Returns
        -------
        TwoWay
            As :func:`~riskcore.utility.tables.two_way` returned it (also after JSON).
        """
        return dataclasses.replace(
            self.two_way, before=self.before.frame(), after=self.after.frame()
        )
