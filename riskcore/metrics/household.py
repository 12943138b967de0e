"""Household risk: a household is re-identified when any of its members is.

For the members i of a household h with individual risks r_i, taken as
independent events (sdcMicro's assumption),

    r_h = 1 - prod_{i in h} (1 - r_i),

the chance that at least one member is re-identified, and every member
carries r_h (``formulas.md``, "Many rows per person"). The global figures are
sdcMicro's: the expected number of re-identifications with the household
structure, sum over members of r_h (``hier_risk_ER``), and its share of the
members (``hier_risk``; ``hier_risk_pct`` is 100 times it).

What sdcMicro does (``R/measure_risk.R``, ``measure_riskWORK``, and
``src/Measure_Hierarchical.h``, read at sdcMicro 5.8.1, commit ``cf32510``
of ``sdcTools/sdcMicro``): with ``hid`` and the default ``fast_hier = TRUE``
it groups the records by the household id and takes
``by(risk, hid, function(x) 1 - prod(1 - x))``, merged back onto every
record; ``hier_risk_ER`` is the sum of that column over the records
(``na.rm = TRUE``) and ``hier_risk`` divides it by the number of records.
With ``fast_hier = FALSE`` the C++ routine ``measure_hierachical`` sums
Boole's inclusion-exclusion formula over the members (equal to the product
form; it holds at most 256 records per household in a fixed buffer, and its
cost grows as 2^size).

What riskcore does, and where it differs:

- The product form for every household, in log space for accuracy when
  risks are small: r_h = -expm1(sum_i log1p(-r_i)), one ``bincount`` over
  the members; no limit on a household's size.
- A record whose household is missing is a household of its own (r_h = its
  r_i); with a person column, a person's records without a household take
  the household of their other records, and a person with none is a
  household of their own. sdcMicro's ``by`` drops a missing ``hid``: such a record gets NA,
  adds nothing to ``hier_risk_ER`` and still counts in the divisor.
- Members are records, as in sdcMicro, unless a person column is given:
  then a household's members are its distinct people, each counted once with
  their person-level risk (a patient with ten claims is one member, not ten
  independent ones), and the global figures count people. A person must
  belong to one household (sdcMicro's model nests individuals in
  households); a person found in two is refused.

References
----------
.. [TKM15] M. Templ, A. Kowarik, B. Meindl, "Statistical disclosure control
   for micro-data using the R package sdcMicro", Journal of Statistical
   Software 67(4), 2015 (``measure_risk``, hierarchical risk).
.. [FP04] L. Franconi, S. Polettini, "Individual risk estimation in
   mu-Argus: a review", Privacy in Statistical Databases, LNCS 3050, 2004
   (the household risk of mu-Argus, 1 minus the chance that no member is
   re-identified).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import numpy as np

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore._results import NOT_IN_JSON, Result
from riskcore._validation import check_one_of, check_unit_interval
from riskcore.engine import EncodedColumn, EncodedTable
from riskcore.engine.people import person_codes
from riskcore.errors import RiskcoreError, RolesError

__all__ = ["SDCMICRO_VERSION", "HouseholdRisk", "combine_risks", "household_risk"]

PersonRisk = Literal["constant", "highest"]

#: The sdcMicro version whose ``measure_risk`` this follows.
SDCMICRO_VERSION = "5.8.1"

_no_floats = np.zeros(0, dtype=np.float64)


def combine_risks(group: np.ndarray, risk: np.ndarray, n_groups: int) -> np.ndarray:
    """Return 1 - prod(1 - r_i) over the members of each group.

    Computed as -expm1(sum log1p(-r_i)) with one ``bincount``: exact to a
    few units in the last place even when every r_i is tiny (where
    ``1 - prod`` would lose the digits), and 1 when a member's risk is 1.

    Parameters
    ----------
    group : numpy.ndarray
        int64 group of each member, in ``[0, n_groups)``.
    risk : numpy.ndarray
        float64 risk of each member, in [0, 1].
    n_groups : int
        The number of groups (a group without members has risk 0).

    Returns
    -------
    numpy.ndarray
        float64 risk per group.

    Examples
    --------
    >>> combine_risks(np.array([0, 0, 1]), np.array([0.5, 0.2, 0.1]), 2).tolist()
    [0.6, 0.1]
    """
    with np.errstate(divide="ignore"):  # log1p(-1) = -inf: a certain member
        keep = np.bincount(group, weights=np.log1p(-risk), minlength=n_groups)
    out: np.ndarray = -np.expm1(keep)
    return out


@dataclass(frozen=True)
class HouseholdRisk(Result):
    """Household risk of every record and sdcMicro's global household figures.

    Attributes
    ----------
    household : str
        The household column.
    person : str or None
        The person column (members are people), or None (members are records).
    person_risk : {"constant", "highest"}
        How a person's risk is read from their records' risks.
    n_records : int
    n_members : int
        Records, or distinct people with a person column.
    n_households : int
        Households (a record, or person, without a household is one alone).
    largest_household : int
        The most members of one household.
    expected_reidentifications : float
        sum over members of r_h, sdcMicro's ``hier_risk_ER`` (lower is safer).
    global_risk : float
        expected_reidentifications / n_members, sdcMicro's ``hier_risk``.
    individual_expected : float
        sum over members of r_i: the expected re-identifications without
        the households (sdcMicro's ``global_risk_ER`` when members are
        records).
    highest_risk : float
        max over households of r_h.
    threshold : float
        The risk threshold tau members are judged against.
    members_above : int
        Members whose household risk is above tau.
    share_above : float
        members_above / n_members.
    risk : numpy.ndarray
        r_h of every record (not in JSON).
    member_risk : numpy.ndarray
        r_i of every record: the record's, or its person's (not in JSON).
    household_size : numpy.ndarray
        The members of every record's household (not in JSON).
    """

    household: str
    person: str | None
    person_risk: str
    n_records: int
    n_members: int
    n_households: int
    largest_household: int
    expected_reidentifications: float
    global_risk: float
    individual_expected: float
    highest_risk: float
    threshold: float
    members_above: int
    share_above: float
    risk: np.ndarray = field(
        default_factory=lambda: _no_floats, repr=False, compare=False, metadata=NOT_IN_JSON
    )
    member_risk: np.ndarray = field(
        default_factory=lambda: _no_floats, repr=False, compare=False, metadata=NOT_IN_JSON
    )
    household_size: np.ndarray = field(
        default_factory=lambda: np.zeros(0, dtype=np.int64),
        repr=False,
        compare=False,
        metadata=NOT_IN_JSON,
    )


def _risks(risk: object, n: int) -> np.ndarray:
    """Return one checked risk per record (finite, in [0, 1])."""
    values = risk.to_numpy() if isinstance(risk, pd.Series) else risk
    try:
        r = np.asarray(values, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise RiskcoreError("the individual risks must be numbers, one per record") from None
    if len(r) != n:
        raise RiskcoreError(
            f"give one individual risk per record: {len(r):,} risks for {n:,} records"
        )
    bad = ~((r >= 0) & (r <= 1))  # NaN is bad too
    if bad.any():
        i = int(np.argmax(bad))
        raise RiskcoreError(
            f"{int(bad.sum()):,} individual risk(s) are not between 0 and 1 (record {i + 1:,}: "
            f"{float(r[i]):g}); a risk is a probability"
        )
    return r


def _codes(column: EncodedColumn) -> tuple[np.ndarray, int]:
    """Return dense numbers of a column's values, each row with a missing value on its own."""
    return person_codes(column.codes, column.n_values - 1 if column.n_missing else None)


def _person_risk(
    person: np.ndarray, n_people: int, r: np.ndarray, how: str, column: EncodedColumn
) -> np.ndarray:
    """Return each person's risk from their records' risks (equal, or the highest)."""
    high = np.full(n_people, -np.inf)
    np.maximum.at(high, person, r)
    if how == "highest":
        return high
    low = np.full(n_people, np.inf)
    np.minimum.at(low, person, r)
    differ = high - low > 1e-12
    if differ.any():
        p = int(np.argmax(differ))
        row = int(np.argmax(person == p))
        who = column.labels[column.codes[row]]
        raise RiskcoreError(
            f"{int(differ.sum()):,} people have records with different individual risks "
            f"(the person of record {row + 1:,}, {who!r}: from {low[p]:.6g} to {high[p]:.6g}); "
            "give each person one risk (a person-level risk) or take the highest of their "
            "records' (person_risk='highest')"
        )
    return high


def household_risk(
    data: EncodedTable | pd.DataFrame,
    household: str,
    risk: np.ndarray | pd.Series | Sequence[float],
    *,
    person: str | None = None,
    person_risk: PersonRisk = "constant",
    threshold: float = 1 / 11,
) -> HouseholdRisk:
    """Compute every record's household risk, r_h = 1 - prod_{i in h} (1 - r_i).

    sdcMicro's hierarchical risk (``measure_risk`` with ``hid``, sdcMicro
    5.8.1): the members i of household h are independent, each re-identified
    with their individual risk r_i; the household is re-identified when one
    of them is, and every member carries r_h. The expected number of
    re-identifications is sum over members of r_h (``hier_risk_ER``), the
    global risk its share of the members (``hier_risk``). With ``person``,
    the members are the household's distinct people, each with one risk.
    Where riskcore differs from sdcMicro (a missing household, people) is
    stated in the module.

    Parameters
    ----------
    data : EncodedTable or pandas.DataFrame
        The table (codes reused from an EncodedTable).
    household : str
        The household column.
    risk : array-like or pandas.Series
        One individual risk per record, in row order (a Series is read by
        position): e.g. :attr:`riskcore.metrics.records.IndividualRisk.risk`,
        or a person-level risk repeated on each of the person's records.
    person : str, optional
        The person column: members are then people, not records.
    person_risk : {"constant", "highest"}, default "constant"
        With ``person``: a person's records must carry one risk
        ("constant"), or the person takes the highest of them ("highest":
        the record an attacker would pick).
    threshold : float, default 1/11
        Members whose household risk is above it are counted.

    Returns
    -------
    HouseholdRisk

    Raises
    ------
    RolesError
        For an unknown column, a household column that is the person
        column, or a person in two households.
    RiskcoreError
        For an empty table, risks that are not one probability per record,
        or a person whose records differ in risk under "constant".

    Examples
    --------
    Household H1 has members at risks 0.5 and 0.2, H2 one at 0.1:

    >>> import pandas as pd
    >>> df = pd.DataFrame({"hh": ["H1", "H1", "H2"]})
    >>> r = household_risk(df, "hh", [0.5, 0.2, 0.1])
    >>> r.risk.round(6).tolist(), round(r.expected_reidentifications, 6)
    ([0.6, 0.6, 0.1], 1.3)
    """
    table = data if isinstance(data, EncodedTable) else EncodedTable(data)
    check_one_of("person_risk", person_risk, ("constant", "highest"))
    tau = check_unit_interval("threshold", threshold)
    if household not in table.columns:
        raise RolesError(f"the table has no household column {household!r}")
    if person is not None and person not in table.columns:
        raise RolesError(f"the table has no person column {person!r}")
    if person == household:
        raise RolesError(f"{household!r} cannot be both the household and the person column")
    n = table.n_records
    if n == 0:
        raise RiskcoreError("the table has no records")
    r = _risks(risk, n)
    hcol = table.column(household)
    if person is None:
        member, n_members = np.arange(n, dtype=np.int64), n
        r_member = r
    else:
        pcol = table.column(person)
        member, n_members = _codes(pcol)
        r_member = _person_risk(member, n_members, r, person_risk, pcol)
    # a member's household: a missing household is the member's own
    missing = hcol.codes == hcol.n_values - 1 if hcol.n_missing else np.zeros(n, dtype=bool)
    raw = np.where(missing, hcol.n_values + member, hcol.codes)
    base = hcol.n_values + n_members
    pair = np.sort(member * base + raw)  # the distinct (member, household) pairs
    pair = pair[np.r_[True, pair[1:] != pair[:-1]]]
    # a person's records without a household take the household of their other records
    several = np.bincount(pair // base, minlength=n_members) > 1
    pair = pair[~(several[pair // base] & (pair % base >= hcol.n_values))]
    pair_member = pair // base
    if len(pair) != n_members:
        twice = np.flatnonzero(np.bincount(pair_member, minlength=n_members) > 1)
        row = int(np.argmax(member == twice[0]))
        raise RolesError(
            f"{len(twice):,} people belong to more than one household (the person of record "
            f"{row + 1:,} among them); a person's records must all name one household"
        )
    hh_of_member = np.empty(n_members, dtype=np.int64)
    _, hh_dense = np.unique(pair % base, return_inverse=True)
    hh_of_member[pair_member] = hh_dense.reshape(-1)
    n_households = int(hh_of_member.max()) + 1
    r_h = combine_risks(hh_of_member, r_member, n_households)
    size = np.bincount(hh_of_member, minlength=n_households).astype(np.int64)
    member_hh_risk = r_h[hh_of_member]
    er = float(member_hh_risk.sum())
    above = int((member_hh_risk > tau).sum())
    row_hh = hh_of_member[member]
    return HouseholdRisk(
        household=household,
        person=person,
        person_risk=person_risk,
        n_records=n,
        n_members=n_members,
        n_households=n_households,
        largest_household=int(size.max()),
        expected_reidentifications=er,
        global_risk=er / n_members,
        individual_expected=float(r_member.sum()),
        highest_risk=float(r_h.max()),
        threshold=tau,
        members_above=above,
        share_above=above / n_members,
        risk=r_h[row_hh],
        member_risk=r_member[member],
        household_size=size[row_hh],
    )
