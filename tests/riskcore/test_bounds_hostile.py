"""The hostile suite of bounded work (issue 26, item 4): one entry per stated limit.

Each entry is an input that grew without bound before (a traceback, a hang, gigabytes),
now refused before the work starts with a message naming the limit and what to do, within
a few seconds and a little memory (:func:`tests.hostile_files.bounded`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from riskcore.errors import RiskcoreError
from tests.hostile_files import bounded


def _qis(m: int, n: int = 200) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    return pd.DataFrame({f"q{i}": rng.integers(0, 3, n) for i in range(m)})


# --- SUDA: the number of QIs and the MSU size -------------------------------------------


def test_suda_on_171_qis_is_refused_not_an_overflow() -> None:
    from riskcore.metrics.special_uniques import SUDA_MAX_QIS, suda

    with bounded(seconds=5, mb=200), pytest.raises(RiskcoreError, match="SUDA_MAX_QIS") as e:
        suda(_qis(171, 20), [f"q{i}" for i in range(171)])
    assert f"limit is {SUDA_MAX_QIS} quasi-identifiers" in str(e.value)


def test_suda_search_beyond_the_combination_limit_names_the_size_that_fits() -> None:
    from riskcore.metrics.special_uniques import (
        SUDA_MAX_COMBINATIONS,
        check_suda_bounds,
        largest_msu_size,
        suda,
        suda_combinations,
    )

    # 14 QIs in full: 2^14 - 1 = 16,383 combinations (15 s and 0.6 GB on 2,000 rows before)
    assert suda_combinations(14, 14) == 2**14 - 1
    assert suda_combinations(40, 2) == 40 + 780
    # the largest size within the limit, by hand: C(14,1..4) = 14+91+364+1001 = 1,470;
    # C(14,5) = 2,002 -> 3,472; C(14,6) = 3,003 -> 6,475; C(14,7) = 3,432 -> 9,907; 8 -> 12,910
    assert SUDA_MAX_COMBINATIONS == 10_000
    assert largest_msu_size(14) == 7
    assert largest_msu_size(12) == 12  # 4,095 combinations: searched in full
    with bounded(seconds=5, mb=200), pytest.raises(RiskcoreError) as e:
        suda(_qis(14), [f"q{i}" for i in range(14)])
    assert "16,383 combinations" in str(e.value)
    assert "max_size=7" in str(e.value)
    assert check_suda_bounds(14, 7) == 7
    r = suda(_qis(14), [f"q{i}" for i in range(14)], max_size=7)
    assert r.max_size == 7


def test_the_report_skips_or_caps_suda_with_a_stated_reason() -> None:
    from riskcore.metrics.special_uniques import SUDA_MAX_QIS
    from riskcore.review import suda_plan

    assert suda_plan(2_000, 60)[0] is None
    facts = suda_plan(2_000, 60)[1].to_dict()["facts"]
    assert facts == {"n_quasi_identifiers": 60, "limit": SUDA_MAX_QIS}
    size, note = suda_plan(2_000, 20)
    assert size is not None and 1 <= size < 20
    assert note is not None and note.kind == "suda-capped"
    assert math.fsum(math.comb(20, k) for k in range(1, size + 1)) <= 10_000
    assert suda_plan(2_000, 5) == (5, None)


def test_a_report_on_60_qis_stays_small_and_says_why_suda_is_missing() -> None:
    from riskcore.profile import Profile
    from riskcore.report.readings.review import limitation_text
    from riskcore.review import review
    from riskcore.roles import ColumnRoles

    data = _qis(60, 2_000)
    prof = Profile(roles=ColumnRoles(quasi_identifiers=tuple(data.columns)))
    with bounded(seconds=60, mb=1_000):  # 23 GB and killed after 244 s before
        rep = review(data, prof)
    assert rep.special_uniques is None
    said = [limitation_text(x) for x in rep.limitations]
    assert any("60 quasi-identifiers, above the limit of 40" in s for s in said), said


# --- JSON depth and size: one reader for recipes, profiles and role profiles ---------------


def test_json_depth_counts_brackets_outside_strings() -> None:
    from riskcore._json import json_depth

    assert json_depth("3") == 0
    assert json_depth('{"a": [1, "[[[{"], "b": {"c": "]"}}') == 2
    assert json_depth('["\\"[", [[]]]') == 3  # an escaped quote does not end the string


def _deep(n: int) -> str:
    return '{"a": ' * n + "1" + "}" * n


def test_a_recipe_nested_100000_deep_is_refused_by_apply(tmp_path, capsys) -> None:
    from riskcore.cli import main

    src = tmp_path / "d.csv"
    src.write_text("sex\nF\nM\n")
    recipe = tmp_path / "r.json"
    recipe.write_text(_deep(100_000))
    with bounded(seconds=10, mb=300):  # RecursionError before
        code = main(["apply", str(src), "--recipe", str(recipe), "--out", str(tmp_path / "o.csv")])
    err = capsys.readouterr().err
    assert code == 2
    assert "Traceback" not in err
    assert "nests 100,000 levels deep, beyond the limit of 64 (JSON_MAX_DEPTH)" in err


@pytest.mark.parametrize("reader", ["profile", "roles"])
def test_profiles_nested_too_deep_are_refused(reader: str) -> None:
    from riskcore.errors import RolesError
    from riskcore.profile import Profile
    from riskcore.roles import ColumnRoles

    with bounded(seconds=10, mb=300), pytest.raises(RiskcoreError, match="JSON_MAX_DEPTH") as e:
        if reader == "profile":
            Profile.read(_deep(100_000))
        else:
            ColumnRoles.from_json(_deep(100_000))
    assert reader == "profile" or isinstance(e.value, RolesError)
    assert Profile.read(Profile().to_json()) == Profile()  # what riskcore writes still reads


def test_json_beyond_the_size_limit_is_refused_before_parsing(monkeypatch) -> None:
    import riskcore._json as rj

    monkeypatch.setattr(rj, "JSON_MAX_BYTES", 100)
    with pytest.raises(RiskcoreError, match="JSON_MAX_BYTES"):
        rj.read_json("[" + "1," * 60 + "1]", what="the recipe")
    assert rj.read_json("[1, 2]", what="the recipe") == [1, 2]


# --- key files: regular files of a key's size only ------------------------------------------


def _key_file(path):
    from riskcore.cli.release import read_key as _key

    return _key(str(path), ["hmac tokens of 'ssn'"], create=False)


def test_a_fifo_as_key_file_is_refused_before_it_is_opened(tmp_path) -> None:
    import os

    fifo = tmp_path / "key.fifo"
    os.mkfifo(fifo)
    with bounded(seconds=5, mb=100), pytest.raises(RiskcoreError, match="not a regular file"):
        _key_file(fifo)  # hung for ever before


def test_dev_zero_and_a_huge_key_file_are_refused(tmp_path) -> None:
    from riskcore._files import KEY_FILE_MAX_BYTES

    with bounded(seconds=5, mb=100), pytest.raises(RiskcoreError, match="not a regular file"):
        _key_file("/dev/zero")  # MemoryError before
    big = tmp_path / "big.key"
    big.write_bytes(b"0" * (KEY_FILE_MAX_BYTES + 1))
    with pytest.raises(RiskcoreError, match=f"over the limit of {KEY_FILE_MAX_BYTES:,}"):
        _key_file(big)
    good = tmp_path / "good.key"
    good.write_text("ab" * 32 + "\n")
    assert _key_file(good) is not None
    with pytest.raises(RiskcoreError, match=r"'nothing\.key' does not exist") as e:
        _key_file(tmp_path / "nothing.key")
    assert str(tmp_path) not in str(e.value)  # the name only, not the directory


# --- the data root: relative patterns, a bounded number of files, regular files only -------


def _root(tmp_path):
    root = tmp_path / "data"
    (root / "lake").mkdir(parents=True)
    (root / "lake" / "a.parquet").write_bytes(b"x")
    return root


def test_an_absolute_pattern_outside_the_root_is_refused_before_any_walk(tmp_path, monkeypatch):
    import glob

    from riskcore.engine.select import path_under_root

    root = _root(tmp_path)
    walked: list[str] = []
    real = glob.iglob
    monkeypatch.setattr(glob, "iglob", lambda *a, **k: walked.append(a[0]) or real(*a, **k))
    for spec in ("/usr/**/*.zzz", "/**/*.zzz", str(tmp_path / "**" / "*.parquet")):
        with bounded(seconds=2, mb=50), pytest.raises(RiskcoreError, match="names no file"):
            path_under_root(spec, root)  # over 120 s before: the whole filesystem walked
    assert walked == []  # nothing outside the root was listed
    assert path_under_root(str(root / "lake" / "*.parquet"), root).endswith("lake/*.parquet")
    assert walked == ["lake/*.parquet"]  # relative to the root


def test_etc_passwd_and_a_missing_file_get_one_message(tmp_path):
    from riskcore.engine.select import path_under_root

    root = _root(tmp_path)
    said = []
    for spec in ("/etc/pass*", "/etc/nonexist*", "/etc/passwd", "/etc/nonexistent",
                 "nothing.parquet", "../data/nothing*"):  # fmt: skip
        with pytest.raises(RiskcoreError) as e:
            path_under_root(spec, root)
        said.append(str(e.value).replace(repr(spec), "SPEC"))
    assert said[:5] == [said[0]] * 5, said
    assert "'..' is not allowed" in said[5]


def test_a_pattern_naming_too_many_files_is_refused(tmp_path, monkeypatch):
    import riskcore.engine.select as sel

    root = _root(tmp_path)
    for i in range(5):
        (root / "lake" / f"p{i}.parquet").write_bytes(b"x")
    monkeypatch.setattr(sel, "DATA_ROOT_MAX_FILES", 4)
    for spec in ("lake/*.parquet", "lake", "**/*.parquet"):
        with pytest.raises(RiskcoreError, match=r"more than 4 files \(DATA_ROOT_MAX_FILES\)"):
            sel.path_under_root(spec, root)
    monkeypatch.setattr(sel, "DATA_ROOT_MAX_FILES", 6)
    assert sel.path_under_root("lake", root) == str((root / "lake").resolve())


def test_a_fifo_under_the_root_is_refused_before_it_is_opened(tmp_path):
    import os

    from riskcore.engine.select import path_under_root

    root = _root(tmp_path)
    os.mkfifo(root / "lake" / "jam.parquet")
    for spec in ("lake/jam.parquet", "lake/*.parquet", "lake"):
        with bounded(seconds=2, mb=50), pytest.raises(RiskcoreError, match="not a regular file"):
            path_under_root(spec, root)


# --- Hierarchy builders: bands, code widths, labels, distinct dates (issue 37) -------------

_AGES = pd.Series([30.0, 31.0, 47.0, 89.0, 0.3, 30.9], name="age")


@pytest.mark.parametrize(
    ("spec", "far"),
    [
        ("interval:5;start=1e300", r"from the start 1e\+300, bands of width 5 reach the value 30"),
        ("interval:1e-300", "from the start 0, bands of width 1e-300 reach the value 89"),
        ("interval:0.000001;start=1e8", "from the start 100000000, bands of width 1e-06"),
    ],
)
def test_a_band_start_too_far_or_a_width_too_fine_is_refused(spec: str, far: str) -> None:
    # start=1e300 labelled every value "[0, 5)", width 1e-300 gave "[inf, inf)"
    from riskcore.deidentify.hierarchy import hierarchy_from_spec, parse_builder
    from riskcore.deidentify.hierarchy.builders import MAX_BANDS

    assert MAX_BANDS == 1_000_000_000
    with (
        bounded(seconds=2, mb=50),
        pytest.raises(RiskcoreError, match=rf"'age': {far}.*above the limit of 1,000,000,000"),
    ):
        hierarchy_from_spec(_AGES, parse_builder(spec))


def test_more_levels_of_bands_than_the_limit_are_refused() -> None:
    from riskcore.deidentify.hierarchy import hierarchy_from_spec, parse_builder
    from riskcore.deidentify.hierarchy.builders import MAX_BAND_LEVELS

    widths = ",".join(str(2**i) for i in range(MAX_BAND_LEVELS + 1))
    with pytest.raises(RiskcoreError, match=rf"at most {MAX_BAND_LEVELS} levels of bands"):
        hierarchy_from_spec(_AGES, parse_builder(f"interval:{widths}"))


def test_a_code_width_beyond_the_limit_is_refused_before_anything_is_allocated() -> None:
    # mask:1;width=1000000000 padded every code to a billion characters (400 GB)
    from riskcore.deidentify.hierarchy import hierarchy_from_spec, parse_builder
    from riskcore.deidentify.hierarchy.builders import MAX_CODE_WIDTH

    zips = pd.Series([2139, 10001, 2139, 94110], name="zip")  # numbers: leading zeros lost
    message = rf"'zip': the code width 1,000,000,000 is not from 1 to {MAX_CODE_WIDTH} characters"
    with bounded(seconds=2, mb=50), pytest.raises(RiskcoreError, match=message):
        hierarchy_from_spec(zips, parse_builder("mask:1;width=1000000000"))
    long = pd.Series(["x" * 65, "y" * 65], name="note")
    with pytest.raises(RiskcoreError, match=r"'note': 'xxxxxxxxxxxxxxxxxxxx'\.\.\. has 65 "):
        hierarchy_from_spec(long, parse_builder("mask"))


def test_the_command_line_refuses_a_huge_mask_width_with_a_sentence(tmp_path, capsys) -> None:
    from riskcore.cli import main

    src = tmp_path / "d.csv"
    src.write_text("zip,sex\n2139,F\n10001,M\n2139,F\n10001,M\n")
    with bounded(seconds=10, mb=200):
        code = main(["anonymize", str(src), "--qi", "zip", "--k", "2", "--out",
                     str(tmp_path / "o.csv"), "--recipe-out", str(tmp_path / "r.json"),
                     "--hierarchy", "zip=mask:1;width=1000000000"])  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 2 and "Traceback" not in out + err
    assert "the code width 1,000,000,000 is not from 1 to 64 characters" in err


def test_a_hierarchy_of_more_labels_than_the_limit_is_refused_before_it_is_built(
    monkeypatch,
) -> None:
    from riskcore.deidentify.hierarchy import base, hierarchy_from_spec, parse_builder

    assert base.MAX_LABELS == 20_000_000
    monkeypatch.setattr(base, "MAX_LABELS", 11)
    codes = pd.Series(["02139", "10001", "94110"], name="zip")
    hierarchy_from_spec(codes, parse_builder("mask:2"))  # 3 values x 3 levels: 9 labels
    with pytest.raises(RiskcoreError, match=r"'zip': 3 distinct values at 4 levels make 12 "
                       r"labels, above the limit of 11 for a hierarchy"):  # fmt: skip
        hierarchy_from_spec(codes, parse_builder("mask:1,2"))


def test_a_date_hierarchy_beyond_a_million_distinct_values_is_refused_in_a_little_memory() -> None:
    # 10 million distinct dates ended in a MemoryError at 5.8 GB; 1,000,001 are refused here
    # in about a second and 65 MB (measured)
    from riskcore.deidentify.hierarchy import date_hierarchy
    from riskcore.deidentify.hierarchy.dates import MAX_DATE_VALUES

    assert MAX_DATE_VALUES == 1_000_000
    seconds = pd.to_timedelta(np.arange(MAX_DATE_VALUES + 1), unit="s")
    stamps = pd.Series(pd.Timestamp("1990-01-01") + seconds, name="seen")
    message = r"'seen' has 1,000,001 distinct values, above the limit of 1,000,000"
    with bounded(seconds=20, mb=300), pytest.raises(RiskcoreError, match=message):
        date_hierarchy(stamps)
    date_hierarchy(stamps.dt.strftime("%Y-%m-%d").head(5_000))  # days: well within


def test_the_default_hierarchy_of_dates_beyond_the_limit_is_the_value_or_star(monkeypatch) -> None:
    from riskcore.deidentify.hierarchy import dates, default_hierarchy

    monkeypatch.setattr(dates, "MAX_DATE_VALUES", 10)
    stamps = pd.Series(pd.Timestamp("1990-01-01") + pd.to_timedelta(np.arange(11), unit="h"))
    assert default_hierarchy(stamps.head(10)).kind == "date"
    assert default_hierarchy(stamps).kind == "flat"  # as text dates beyond it, not an error


def test_a_role_profile_with_two_weight_columns_is_refused() -> None:
    import json

    from riskcore.errors import RolesError
    from riskcore.profile import Profile
    from riskcore.roles import ColumnRoles

    two = {"quasi_identifiers": ["age"], "weights": ["w1", "w2"]}
    with pytest.raises(RolesError, match="'w1' and 'w2' are both tagged"):
        ColumnRoles.from_json(json.dumps(two))
    # a session's roles being edited may hold two for a moment: the weight refuses when used
    with pytest.raises(RiskcoreError, match="'w1' and 'w2' are both tagged"):
        _ = Profile.read(json.dumps(two)).roles.weight
    assert ColumnRoles.from_json(json.dumps({**two, "weights": ["w1"]})).weight == "w1"


def test_a_report_beyond_the_qi_limit_is_refused_before_any_work() -> None:
    from riskcore.profile import Profile
    from riskcore.review import review
    from riskcore.review.compute import REPORT_MAX_QIS
    from riskcore.roles import ColumnRoles

    data = _qis(REPORT_MAX_QIS + 1, 50)
    prof = Profile(roles=ColumnRoles(quasi_identifiers=tuple(data.columns)))
    with bounded(seconds=5, mb=100), pytest.raises(RiskcoreError, match="REPORT_MAX_QIS"):
        review(data, prof)


# --- perturbation: MDAV's records; a search past its time budget --------------------------


def test_mdav_on_more_records_than_its_limit_is_refused_before_grouping() -> None:
    from riskcore.perturb.microaggregation import MDAV_MAX_ROWS, microaggregate

    rng = np.random.default_rng(0)
    big = pd.DataFrame(rng.normal(size=(MDAV_MAX_ROWS + 1, 2)), columns=["a", "b"])
    with bounded(seconds=5, mb=200), pytest.raises(RiskcoreError, match="past its limit") as e:
        microaggregate(big, ["a", "b"], 3)
    assert f"{MDAV_MAX_ROWS:,}" in str(e.value) and "single-variable method" in str(e.value)


def test_a_search_past_its_deadline_stops_with_the_budget_named() -> None:
    from riskcore.criteria import Targets
    from riskcore.deidentify.hierarchy import default_hierarchy
    from riskcore.deidentify.search.lattice import Lattice
    from riskcore.deidentify.search.run import search
    from riskcore.workguard import Deadline, WorkTooLongError

    df = _qis(6, 2_000)
    lattice = Lattice(df, {q: default_hierarchy(df[q]) for q in df}, targets=Targets.of(k=50))
    deadline = Deadline(0.0, "The least-loss search", "pin some levels")
    with bounded(seconds=5, mb=200), pytest.raises(WorkTooLongError, match="budget of 0 s"):
        search(lattice, progress=deadline.watch())


def test_local_suppression_past_its_cell_limit_is_refused_and_its_rounds_see_a_deadline(
    monkeypatch,
) -> None:
    from riskcore.perturb import suppression
    from riskcore.workguard import Deadline, WorkTooLongError

    df = _qis(4, 300)
    monkeypatch.setattr(suppression, "MAX_CELLS", 1_199)
    with bounded(seconds=5, mb=200), pytest.raises(RiskcoreError, match="limit of 1,199 cells"):
        suppression.local_suppression(df, list(df), 2)
    monkeypatch.setattr(suppression, "MAX_CELLS", 1_200)
    stop = Deadline(0.0, "Local suppression", "use fewer quasi-identifiers")
    with pytest.raises(WorkTooLongError, match=r"^Local suppression was stopped"):
        suppression.local_suppression(df, list(df), 2, progress=stop.watch())
    rounds: list[tuple[int, int]] = []
    done = suppression.local_suppression(
        df, list(df), 2, progress=lambda r, n: rounds.append((r, n))
    )
    # suppression rounds report the records below k; the restoring rounds after them, then
    # the rounds of sdcMicro's own order (run too, the fewer cells kept), 0: one count, no
    # number twice
    assert rounds and rounds[0][0] == 1 and rounds[0][1] > 0
    assert [r for r, _ in rounds] == list(range(1, len(rounds) + 1))
    assert len(rounds) >= done.rounds + done.restore_rounds
    assert all(n > 0 for _, n in rounds[: done.rounds])
    assert all(n == 0 for _, n in rounds[done.rounds :])
    assert (suppression.match_counts(done.data, list(df)) >= 2).all()
