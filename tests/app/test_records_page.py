"""AppTest: the Records page against riskcore's SUDA and per-record risk on the same table."""

from __future__ import annotations

from riskcore.criteria import Targets
from riskcore.criteria.records import record_table
from riskcore.demo import make_people
from riskcore.metrics.special_uniques import suda
from riskcore.roles import suggest_roles
from tests.app.helpers import metrics, run, seen


def test_records_page_counts_special_uniques_and_explains_the_riskiest_record():
    at = run("pages/records.py")
    df = make_people(32_561, seed=0)
    qis = list(suggest_roles(df).roles.quasi_identifiers)
    s = suda(df, qis)
    m = metrics(at)
    assert m["Special uniques"] == f"{s.special_uniques:,}"
    assert m["Minimal sample uniques"] == f"{s.n_msus:,}"
    table = at.dataframe[0].value
    expected = record_table(df, qis, targets=Targets.of(k=11, threshold=1 / 11), suda_result=s)
    riskiest = expected.sort_values(
        ["prosecutor_risk", "dis_suda", "row"], ascending=[False, False, True], kind="stable"
    )
    assert table["row"].tolist() == riskiest["row"].head(200).tolist()
    # the explanation is of the riskiest record, its smallest MSU named
    first = int(riskiest["row"].iloc[0])
    assert at.number_input(key="rc_rec_row").value == first
    assert any(seen(x.value).startswith(f"Row {first:,} is the only record") for x in at.markdown)
    at.number_input(key="rc_rec_row").set_value(1).run()
    assert not at.exception
    assert any(seen(x.value).startswith("Row 1 ") for x in at.markdown)


def test_dis_suda_uses_the_sampling_fraction_set_with_the_targets():
    """The Records page's DIS-SUDA takes the profile's n/N as the report does, and sdcMicro's
    0.01 only when none is set (it used 0.01 whatever was set)."""
    at = run("pages/records.py")
    text = " ".join(seen(m.value) for m in at.markdown)
    assert "(sampling fraction 0.01: the n/N set with the targets, else sdcMicro's" in text
    at.switch_page("pages/anonymity.py").run()
    box = next(n for n in at.number_input if n.label.startswith("sampling fraction"))
    box.set_value(0.05).run()
    at.switch_page("pages/records.py").run()
    assert not at.exception, at.exception
    text = " ".join(seen(m.value) for m in at.markdown)
    assert "(sampling fraction 0.05: the n/N set with the targets" in text
