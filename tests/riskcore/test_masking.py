"""Masking operators: values checked independently, missing values, keys never shown."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import math
import pickle

import numpy as np
import pandas as pd
import pytest

from riskcore._results import dumps
from riskcore.deidentify import masking as m
from riskcore.deidentify.masking import (
    OPERATORS,
    PLAIN_HASH_NOTE,
    SecretKey,
    drop_columns,
    enumeration_attack,
    fakes,
    hmac_tokens,
    keep_initials,
    mask_digits,
    redact,
    reverse_tokens,
    reversible_tokens,
    shift_dates,
    substitute,
    surrogates,
    token_collision_probability,
)
from riskcore.errors import RiskcoreError

KEY = bytes(range(32))
SIV_KEY = bytes(range(64))


def series(values, name="col"):
    return pd.Series(values, name=name, index=[10 + 3 * i for i in range(len(values))])


def hm(text, key=KEY):
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()


# ------------------------------------------------------------------ simple operators


def test_drop_columns():
    df = pd.DataFrame({"name": ["a"], "age": [3]})
    out = drop_columns(df, ["name"])
    assert list(out.columns) == ["age"] and list(df.columns) == ["name", "age"]
    with pytest.raises(RiskcoreError, match=r"^cannot drop column 'ssn': it is not in the table$"):
        drop_columns(df, ["ssn"])


def test_redact_keeps_missing_and_index():
    s = series(["a", None, "b", np.nan])
    out = redact(s)
    assert out.tolist()[0] == "[REDACTED]" and out.tolist()[2] == "[REDACTED]"
    assert out.isna().tolist() == [False, True, False, True]
    assert out.index.equals(s.index) and out.name == "col"
    assert redact(s, text="X").tolist()[0] == "X"


def test_mask_digits_keeps_last_four_and_separators():
    s = series(["123-45-6789", "0012345678", None, "12", 987654321])
    out = mask_digits(s)
    assert out.tolist()[:2] == ["***-**-6789", "******5678"]
    assert pd.isna(out.iloc[2])
    assert out.iloc[3] == "**"  # no more digits than kept: all hidden
    assert out.iloc[4] == "*****4321"
    assert mask_digits(series(["0012"]), keep_last=2).tolist() == ["**12"]


def test_keep_initials():
    s = series(["ada lovelace", "  Grace  Brewster Hopper ", None, "42"])
    out = keep_initials(s)
    assert out.tolist()[:2] == ["A. L.", "G. B. H."]
    assert pd.isna(out.iloc[2]) and out.iloc[3] == ""


def test_substitute_numbers_by_first_appearance():
    s = series([None, "bob", "amy", "bob", " amy", "cid"])
    out = substitute(s)
    assert pd.isna(out.iloc[0])
    # bob first, then amy (" amy" is the same trimmed text), then cid
    assert out.tolist()[1:] == [
        "Person 00001",
        "Person 00002",
        "Person 00001",
        "Person 00002",
        "Person 00003",
    ]
    assert substitute(series(["x"]), prefix="Patient", width=2).tolist() == ["Patient 01"]


@pytest.mark.parametrize(
    "op",
    [
        redact,
        mask_digits,
        keep_initials,
        substitute,
        lambda s: hmac_tokens(s, KEY),
        lambda s: reversible_tokens(s, SIV_KEY),
        lambda s: surrogates(s, "name", seed=1).values,
    ],
)
def test_every_operator_on_empty_and_all_missing(op):
    empty = pd.Series([], dtype=object, name="e")
    assert len(op(empty)) == 0
    missing = pd.Series([None, np.nan], dtype=object)
    assert op(missing).isna().all()


def test_operators_do_not_change_their_input():
    s = series(["123-45-6789", "a b"])
    before = s.copy()
    for op in (redact, mask_digits, keep_initials, substitute):
        op(s)
    hmac_tokens(s, KEY)
    assert s.equals(before)


# ------------------------------------------------------------------ HMAC tokens


def test_hmac_tokens_match_hmac_new():
    s = series(["123-45-6789", None, "00123", 123, "123-45-6789"])
    out = hmac_tokens(s, KEY)
    assert out.iloc[0] == hm("123-45-6789")[:16] == out.iloc[4]
    assert pd.isna(out.iloc[1])
    # leading zeros are part of the text: "00123" and the number 123 differ
    assert out.iloc[2] == hm("00123")[:16] != out.iloc[3] == hm("123")[:16]
    full = hmac_tokens(s, SecretKey(KEY), length=64)
    assert full.iloc[0] == hm("123-45-6789")


def test_hmac_tokens_base32():
    out = hmac_tokens(series(["x"]), KEY, length=20, encoding="base32")
    digest = hmac.new(KEY, b"x", hashlib.sha256).digest()
    assert out.iloc[0] == base64.b32encode(digest).decode().lower()[:20]


def test_hmac_token_collision_is_an_error_not_a_merge():
    # 1-hex-character tokens: 17 distinct values cannot all differ
    with pytest.raises(RiskcoreError, match=r"share a 4-bit token.*longer token"):
        hmac_tokens(series([str(i) for i in range(17)]), KEY, length=1)


def test_collision_probability_birthday_bound():
    n, b = 1_000_000, 64
    assert token_collision_probability(n, b) == pytest.approx(n * (n - 1) / 2 / 2.0**b, rel=1e-6)
    assert token_collision_probability(100_000, 32) == pytest.approx(
        1 - math.exp(-100_000 * 99_999 / 2 / 2**32)
    )
    assert token_collision_probability(1, 8) == 0.0


def test_secret_key_rejects_bad_input_without_quoting_it():
    with pytest.raises(TypeError, match=r"^key must be bytes, got str$"):
        SecretKey("hunter2-hunter2-hunter2")
    with pytest.raises(ValueError, match=r"^key must be at least 16 bytes \(128 bits\), got 5"):
        SecretKey(b"short")
    with pytest.raises(ValueError, match=r"^the key is not hexadecimal") as info:
        SecretKey.from_hex("zz" + KEY.hex())
    assert KEY.hex() not in str(info.value)
    k = SecretKey.generate()
    assert SecretKey.from_hex(k.reveal_hex()) == k and k.n_bytes == 32


def _every_text(obj):
    """Every text form a key could leak through: str, repr, JSON, pickle-free dict dumps."""
    texts = [str(obj), repr(obj)]
    if isinstance(obj, pd.Series | pd.DataFrame):
        texts.append(obj.to_csv())
        texts.append(obj.to_json())
    if hasattr(obj, "to_dict") and not isinstance(obj, pd.Series | pd.DataFrame):
        texts.append(json.dumps(obj.to_dict()))
        texts.append(dumps(obj))
    return texts


def _key_forms(raw):
    return [
        raw.hex(),
        raw.hex().upper(),
        base64.b64encode(raw).decode(),
        base64.urlsafe_b64encode(raw).decode().rstrip("="),
        base64.b32encode(raw).decode().rstrip("="),
        repr(raw),
        str(list(raw)),
    ]


def test_the_key_never_appears_in_any_output():
    raw = b"\x8f" * 8 + bytes(range(200, 224)) + b"\x11" * 32  # 64 bytes
    key = SecretKey(raw)
    people = pd.DataFrame(
        {
            "pid": ["p1", "p1", "p2"],
            "ssn": ["123-45-6789", "123-45-6789", "987-65-4321"],
            "admit": ["2020-01-01", "2020-02-01", "2021-05-05"],
        }
    )
    outputs = [
        key,
        hmac_tokens(people.ssn, key),
        hmac_tokens(people.ssn, raw[:32], length=64),
        reversible_tokens(people.ssn, key),
        shift_dates(people, person="pid", columns=["admit"], max_days=30, key=key),
        enumeration_attack(people.ssn, "ssn", max_candidates=10_000),
        [op.note for op in OPERATORS.values()],
        PLAIN_HASH_NOTE,
    ]
    errors = []
    for bad in (
        lambda: reverse_tokens(pd.Series(["AAAAAAAAAAAAAAAAAAAAAAAA"]), key),
        lambda: reverse_tokens(reversible_tokens(people.ssn, key), SecretKey.generate(64)),
        lambda: hmac_tokens(people.ssn, key, length=99),
        lambda: reversible_tokens(people.ssn, raw[:20]),
    ):
        with pytest.raises((RiskcoreError, ValueError)) as info:
            bad()
        errors.append(info.value)
    texts = [t for o in outputs for t in _every_text(o)]
    texts += [str(e) for e in errors] + [repr(e) for e in errors]
    for text in texts:
        for form in _key_forms(raw) + _key_forms(raw[:32]) + _key_forms(raw[:20]):
            assert form not in text
    # the key object pickles (a session cache may hold it) and stays hidden in repr
    assert repr(pickle.loads(pickle.dumps(key))) == "SecretKey(512 bits, hidden)"


# ------------------------------------------------------------------ reversible tokens


def test_reversible_tokens_are_aes_siv_and_round_trip():
    from cryptography.hazmat.primitives.ciphers.aead import AESSIV

    s = series(["Ada Lovelace", None, "00123", "Ada Lovelace", 7.0])
    tokens = reversible_tokens(s, SIV_KEY)
    expected = AESSIV(SIV_KEY).encrypt(b"Ada Lovelace", None)
    assert base64.urlsafe_b64decode(tokens.iloc[0] + "=" * (-len(tokens.iloc[0]) % 4)) == expected
    assert tokens.iloc[0] == tokens.iloc[3]  # deterministic
    assert pd.isna(tokens.iloc[1])
    back = reverse_tokens(tokens, SecretKey(SIV_KEY))
    assert back.tolist()[0] == "Ada Lovelace" and back.tolist()[2:] == [
        "00123",
        "Ada Lovelace",
        "7",
    ]
    assert pd.isna(back.iloc[1])
    with pytest.raises(RiskcoreError, match=r"does not decrypt with this key"):
        reverse_tokens(tokens, bytes(64))
    with pytest.raises(ValueError, match=r"^an AES-SIV key must be 32, 48 or 64 bytes, got 20"):
        reversible_tokens(s, bytes(20))


# ------------------------------------------------------------------ surrogates


@pytest.mark.parametrize("kind", m.SURROGATE_KINDS)
def test_surrogates_are_seeded_consistent_and_one_per_value(kind):
    s = series(["amy", "bob", None, "amy", "cid", "00123"])
    a = surrogates(s, kind, seed=7)
    b = surrogates(s, kind, seed=7)
    assert a.values.equals(b.values) and a.lookup.equals(b.lookup)
    assert a.values.iloc[0] == a.values.iloc[3]  # consistent per value
    assert pd.isna(a.values.iloc[2])
    assert a.lookup["original"].tolist() == ["amy", "bob", "cid", "00123"]
    assert a.lookup["surrogate"].is_unique and a.n_shared == 0
    # the lookup reverses the column
    back = a.values.map(dict(zip(a.lookup.surrogate, a.lookup.original, strict=True)))
    assert back.tolist()[:2] == ["amy", "bob"] and back.iloc[5] == "00123"
    assert not surrogates(s, kind, seed=8).values.equals(a.values)


def test_surrogate_fakes_avoid_real_contacts():
    s = series([f"v{i}" for i in range(50)])
    assert surrogates(s, "ssn", seed=1).values.str.fullmatch(r"666-\d{2}-\d{4}").all()
    assert surrogates(s, "phone", seed=1).values.str.fullmatch(r"\(\d{3}\) 555-01\d{2}").all()
    emails = surrogates(s, "email", seed=1).values
    assert emails.str.fullmatch(r"[^@]+@example\.(com|net|org)").all()


def test_surrogates_share_only_when_the_kind_runs_out(monkeypatch):
    pool = iter(["x", "y", "x", "x", "y", "z"] + ["x"] * 200)
    monkeypatch.setattr(fakes, "_draw", lambda fake, kind, *_: next(pool))
    out = surrogates(series(["a", "b", "c", "d"]), "name", seed=1)
    # a: x; b: y; c: x and x and y are taken, z is new; d: 25 draws of x, so it shares x
    assert out.lookup.surrogate.tolist() == ["x", "y", "z", "x"]
    assert out.n_shared == 1


# ------------------------------------------------------------------ date shifting


def test_shift_dates_keeps_each_persons_intervals():
    df = pd.DataFrame(
        {
            "pid": ["a", "b", "a", "c", None, "b"],
            "admit": pd.to_datetime(
                ["2020-01-01", "2021-06-15", "2020-03-01", None, "2019-01-01", "2022-01-01"]
            ),
            "discharge": [
                "2020-01-05",
                "2021-06-20",
                "2020-03-10",
                "2020-02-02",
                "2019-01-03",
                "2022-01-31",
            ],
        }
    )
    out = shift_dates(df, person="pid", columns=["admit", "discharge"], max_days=100, seed=5)
    admit0, admit1 = df.admit, out.admit
    dis0, dis1 = pd.to_datetime(df.discharge), pd.to_datetime(out.discharge)
    # within a row and across a person's rows, intervals are unchanged
    assert ((dis1 - admit1) == (dis0 - admit0)).where(admit0.notna(), True).all()
    shift = (dis1 - dis0).dt.days
    assert shift[0] == shift[2] and shift[1] == shift[5]
    assert (admit1[0] - admit1[2]) == (admit0[0] - admit0[2])
    assert ((shift.abs() >= 1) & (shift.abs() <= 100)).all()
    assert pd.isna(out.admit[3]) and out.discharge.iloc[3] == (
        pd.Timestamp("2020-02-02") + pd.Timedelta(days=int(shift[3]))
    ).strftime("%Y-%m-%d")
    assert out.admit.dtype == df.admit.dtype and df.discharge[0] == "2020-01-05"  # input unchanged
    again = shift_dates(df, person="pid", columns=["admit", "discharge"], max_days=100, seed=5)
    assert again.equals(out)


def test_shift_dates_keyed_offset_is_hmac_of_the_person():
    df = pd.DataFrame({"pid": ["a", "b"], "d": ["2020-01-01", "2020-01-01"]})
    out = shift_dates(df, person="pid", columns=["d"], max_days=30, key=KEY)
    for i, pid in enumerate("ab"):
        u = int.from_bytes(hmac.new(KEY, b"person:" + pid.encode(), "sha256").digest()[:8])
        u %= 60
        days = u - 30 if u < 30 else u - 29
        assert out.d[i] == (pd.Timestamp("2020-01-01") + pd.Timedelta(days=days)).strftime(
            "%Y-%m-%d"
        )
    # the same person in next month's file gets the same shift
    later = shift_dates(df.iloc[::-1], person="pid", columns=["d"], max_days=30, key=KEY)
    assert later.d.tolist() == out.d.tolist()[::-1]


def test_shift_dates_refuses_text_that_is_not_a_date():
    df = pd.DataFrame({"pid": ["a"], "d": ["soon"]})
    with pytest.raises(RiskcoreError, match=r"^column 'd' has 1 values that are not dates"):
        shift_dates(df, person="pid", columns=["d"], max_days=3, seed=1)
    with pytest.raises(ValueError, match=r"^give exactly one of seed and key$"):
        shift_dates(df, person="pid", columns=["d"], max_days=3)


# ------------------------------------------------------------------ scale


def test_operators_on_100000_distinct_values():
    n = 100_000
    s = pd.Series([f"{i:09d}" for i in range(n)] * 2)
    tokens = hmac_tokens(s, KEY)
    assert tokens.iloc[n] == tokens.iloc[0] == hm("000000000")[:16]
    assert tokens.iloc[:n].is_unique
    assert substitute(s).iloc[2 * n - 1] == "Person 100000"
    assert mask_digits(s).iloc[n + 12345] == "*****2345"
    rev = reversible_tokens(s, SIV_KEY)
    assert reverse_tokens(rev, SIV_KEY).equals(s.astype(object))
    fake = surrogates(s, "name", seed=1)
    assert len(fake.lookup) == n and fake.lookup.surrogate.is_unique and fake.n_shared == 0
    assert (fake.values.iloc[:n].to_numpy() == fake.values.iloc[n:].to_numpy()).all()
    df = pd.DataFrame({"pid": s, "d": pd.Timestamp("2020-01-01")})
    shifted = shift_dates(df, person="pid", columns=["d"], max_days=365, seed=1)
    assert (shifted.d.iloc[:n].to_numpy() == shifted.d.iloc[n:].to_numpy()).all()


# ------------------------------------------------------------------ enumeration attack


def test_enumeration_reverses_every_birth_date():
    s = pd.Series(["1987-03-14", "1900-01-01", None, "2025-12-31", "1987-03-14", "1899-12-31"])
    r = enumeration_attack(s, "birth_date")
    days = (pd.Timestamp("2025-12-31") - pd.Timestamp("1900-01-01")).days + 1
    assert r.space_searched == r.full_space == days == 46_021
    assert r.whole_space and r.projected_seconds == r.seconds
    assert (r.n_values, r.n_hashed, r.n_recovered, r.rows_recovered) == (5, 4, 3, 4)
    assert r.hashes_per_second > 0
    assert type(r).from_dict(json.loads(dumps(r))) == r


def test_enumeration_of_ssns_searches_known_prefixes_and_projects_the_rest():
    s = pd.Series(["123-45-6789", "123-45-0001", "987-65-4321", None, "123-45-6789"])
    r = enumeration_attack(s, "ssn", max_candidates=10_000)
    # only the commonest prefix (123-45, 3 rows) fits in 10,000 candidates
    assert r.space_searched == 10_000 and r.full_space == 10**9 and not r.whole_space
    assert (r.n_hashed, r.n_recovered, r.rows_recovered) == (3, 2, 3)
    assert r.projected_seconds == pytest.approx(10**9 / r.hashes_per_second)
    r2 = enumeration_attack(s, "ssn", max_candidates=25_000)
    assert (r2.space_searched, r2.n_recovered, r2.rows_recovered) == (20_000, 3, 4)


def test_enumeration_of_a_column_without_ssns_still_measures_the_rate():
    r = enumeration_attack(pd.Series([None, "n/a"], dtype=object), "ssn")
    assert (r.n_values, r.n_hashed, r.n_recovered, r.space_searched) == (1, 0, 0, 10_000)
    assert r.projected_seconds == pytest.approx(10**9 / r.hashes_per_second)
    empty = enumeration_attack(pd.Series([], dtype=object), "birth_date")
    assert (empty.n_hashed, empty.n_recovered, empty.space_searched) == (0, 0, 46_021)


def test_enumeration_reads_ssns_that_lost_leading_zeros():
    s = pd.Series([12_345_678, 12_345_678], dtype="int64")  # was 012-34-5678
    r = enumeration_attack(s, "ssn", max_candidates=10_000)
    assert (r.n_hashed, r.n_recovered, r.rows_recovered) == (1, 1, 2)


@pytest.mark.parametrize("kind", ["name", "last_name"])
def test_a_surrogate_is_never_another_real_persons_value(kind):
    # the column holds the very fakes this seed draws first, in another order: each value's
    # first draw is another person's real value and must be drawn again
    drawn = surrogates(series([f"v{i}" for i in range(20)]), kind, seed=3).lookup.surrogate
    real = series([*drawn.tolist()[1:], drawn.iloc[0].upper()])  # case does not hide one
    out = surrogates(real, kind, seed=3)
    folded = {v.casefold() for v in real}
    assert not any(v.casefold() in folded for v in out.values)
    assert out.n_real == 0


def test_a_real_value_left_after_every_draw_is_counted(monkeypatch):
    monkeypatch.setattr(fakes, "_draw", lambda fake, kind, *_: "Ann")
    out = surrogates(series(["Ann", "Bob"]), "name", seed=1)
    assert out.n_real == 2 and out.lookup.surrogate.tolist() == ["Ann", "Ann"]


def test_name_surrogates_follow_a_sex_column():
    from faker import Faker

    fake = Faker("en_US")
    women = set(fake.provider("faker.providers.person").first_names_female)
    men = set(fake.provider("faker.providers.person").first_names_male)
    names = series([f"person {i}" for i in range(40)])
    sex = pd.Series(["F", "male"] * 20)
    out = surrogates(names, "name", seed=5, sex=sex)
    first = out.values.str.split(" ").str[0]
    assert all(f in women for f in first[0::2]) and all(f in men for f in first[1::2])
    assert fakes.sex_of(" Female ") == "female" and fakes.sex_of("x") is None
    # through a recipe step: the column the surrogates follow is recorded
    from riskcore.deidentify.masking import get_operator
    from riskcore.deidentify.recipe.base import mask_step

    step = mask_step("name", "surrogates:name", sex="sex")
    assert step["params"]["sex"] == "sex"
    assert get_operator("surrogates").words(step["params"]).endswith("following sex)")


def test_a_sex_column_is_found_among_the_tagged_columns():
    df = pd.DataFrame({"age": [30, 40], "sex": ["F", "m"], "g": ["female", None]})
    assert fakes.find_sex_column(df, ["age", "sex"]) == "sex"
    assert fakes.find_sex_column(df, ["g"]) == "g" and fakes.find_sex_column(df, ["age"]) is None
    from riskcore.deidentify.recipe.base import mask_step

    # only name surrogates follow it
    assert "sex" not in mask_step("ssn", "surrogates:ssn", sex="sex")["params"]
