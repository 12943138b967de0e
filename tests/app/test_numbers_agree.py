"""AppTest: figures that must agree across pages, or say why not, on the hospital upload.

The issue's walk: 'n/a: nothing released' instead of nan on Remediate, and the Uniqueness
page's unique people against the Records page's special uniques (SUDA ignores missing values).
"""

from __future__ import annotations

from riskcore.engine import EncodedTable
from riskcore.metrics import suda
from tests.app.helpers import hospital_app, metrics, seen
from tests.hospital import HOSPITAL_QIS, hospital_table


def _texts(at) -> list[str]:
    return [seen(e.value) for e in list(at.caption) + list(at.markdown)]


def test_remediate_at_the_default_levels_shows_no_nan():
    at = hospital_app()
    at.switch_page("pages/remediate.py").run()
    assert not at.exception, at.exception
    # every record breaks k = 11 as recorded: nothing is released at level 0
    assert seen(metrics(at)["Average re-identification risk"]) == "n/a: nothing released"
    (table,) = [d.value for d in at.dataframe if "figure" in d.value.columns]
    cells = table["generalized"].tolist()
    assert not any("nan" in str(c) for c in cells), cells
    assert cells.count("n/a: nothing released") >= 2


def test_unique_people_and_special_uniques_say_why_they_differ():
    df = hospital_table()
    s = suda(EncodedTable(df), HOSPITAL_QIS)
    gap = s.sample_uniques - s.special_uniques
    assert gap > 0 and s.unique_missing == gap  # every QI searched: only missing values skip
    at = hospital_app()
    at.switch_page("pages/uniqueness.py").run()
    assert not at.exception, at.exception
    assert metrics(at)["Unique people"] == f"{s.sample_uniques:,}"
    assert any(f"{gap:,} of them are not special uniques there" in t for t in _texts(at))
    at.switch_page("pages/records.py").run()
    assert not at.exception, at.exception
    assert metrics(at)["Special uniques"] == f"{s.special_uniques:,}"
    assert any(
        t.startswith(f"{s.sample_uniques:,} records are unique on all the quasi-identifiers")
        and f"{gap:,} have a missing value, which SUDA never uses" in t
        for t in _texts(at)
    )


def test_the_attacker_of_the_remediated_view_knows_true_values_matched_into_the_bands():
    import pandas as pd

    from riskcore.deidentify.recipe.apply import apply_recipe
    from tests.hospital import hospital_csv

    at = hospital_app()
    at.switch_page("pages/remediate.py").run()
    at.button(key="rc_rem_search").click().run()
    at.button(key="rc_rem_use").click().run()
    at.switch_page("pages/attacks.py").run()
    assert not at.exception, at.exception
    # every person of the file is a target, the suppressed ones too (they match nobody)
    raw = pd.read_csv(pd.io.common.BytesIO(hospital_csv()), encoding="latin-1", dtype=str)
    release = apply_recipe(raw, at.session_state["rc_remediation"]["recipe"]).data
    m = metrics(at)
    assert m["Targets"] == f"{len(raw):,}" and len(release) < len(raw)
    # error-free: each released class of f records gives its f people 1/f each
    classes = release.groupby(list(HOSPITAL_QIS), dropna=False, sort=False).ngroups
    assert m["Expected correct, random pick"] == f"{classes / len(raw):.1%}"
    texts = _texts(at)
    assert any("drawn from the table as recorded" in t for t in texts)
    assert any("matches them into the released bands" in t for t in texts)
    assert not any("knows everyone's values without error" in t for t in texts)


def _remediated_hospital():
    at = hospital_app()
    at.switch_page("pages/remediate.py").run()
    at.button(key="rc_rem_search").click().run()
    at.button(key="rc_rem_use").click().run()
    assert not at.exception, at.exception
    return at


def test_the_remediated_view_keeps_the_file_row_numbers_and_names_every_page_it_reaches():
    import re

    import pandas as pd

    from riskcore.deidentify.recipe.apply import apply_recipe
    from tests.conftest import ROOT
    from tests.hospital import hospital_csv

    at = _remediated_hospital()
    raw = pd.read_csv(pd.io.common.BytesIO(hospital_csv()), encoding="latin-1", dtype=str)
    kept = apply_recipe(raw, at.session_state["rc_remediation"]["recipe"]).data.index + 1
    suppressed = sorted(set(range(1, len(raw) + 1)) - set(kept))
    assert suppressed
    at.switch_page("pages/records.py").run()
    assert not at.exception, at.exception
    (table,) = [d.value for d in at.dataframe if "row" in d.value.columns]
    # file rows: a suppressed row never shows, and the rows go beyond the released count
    assert set(table["row"]) <= set(kept) and not set(table["row"]) & set(suppressed)
    banner = next(seen(i.value) for i in at.info if "generalized table" in seen(i.value))
    # every page that calls context() without as_recorded, and the Report, is named
    app = (ROOT / "app.py").read_text()
    follow = [
        title
        for path, title in re.findall(r'st\.Page\("(pages/\w+\.py)", title="([^"]+)"', app)
        if re.search(r"\bcontext\(\)", (ROOT / path).read_text())
    ]
    for title in [*follow, "Report"]:
        assert title.split(" (")[0] in banner, title
    # the explorer by row number: a suppressed file row is said to be suppressed
    at.number_input(key="rc_rec_row").set_value(suppressed[0]).run()
    assert any(f"Row {suppressed[0]:,} of the file is suppressed" in seen(i.value)
               for i in at.info)  # fmt: skip
    first_kept = int(kept[0])
    at.number_input(key="rc_rec_row").set_value(first_kept).run()
    assert any(seen(m.value).startswith(f"Row {first_kept:,} ") for m in at.markdown)


def test_anonymity_says_k_and_its_threshold_together_and_the_missing_values_once():
    at = hospital_app()
    at.switch_page("pages/anonymity.py").run()
    assert not at.exception, at.exception
    texts = _texts(at)
    assert sum(t.startswith("Missing values") for t in texts) == 1
    assert any(
        t.startswith("k = 11 and highest record risk 1/11 (0.09091): one target") for t in texts
    )
    labels = set(metrics(at))
    assert "target k" not in labels and "target highest record risk" not in labels


def test_remediate_and_attacks_metrics_sit_two_in_a_row_so_their_labels_fit():
    from tests.app.helpers import run

    def weights(at, labels):
        out = {}
        for col in at.columns:
            for m in col.get("metric"):
                if seen(m.label) in labels:
                    out[seen(m.label)] = col.weight
        return out

    at = run("pages/remediate.py")
    shown = {"Smallest released class", "Records suppressed", "Average re-identification risk",
             "Information lost (NCP)"}  # fmt: skip
    assert weights(at, shown) == dict.fromkeys(shown, 0.5)
    at.switch_page("pages/attacks.py").run()
    shown = {"Targets", "Re-identified uniquely", "Re-identified correctly",
             "Expected correct, random pick"}  # fmt: skip
    assert weights(at, shown) == dict.fromkeys(shown, 0.5)
