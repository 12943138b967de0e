"""AppTest: a ';' upload with decimal commas reads its amounts as numbers, says so, and the
decimal mark can be changed (issue 38 item 5)."""

from __future__ import annotations

from tests.app.helpers import data_uploader, run, seen
from ui.core.state import ledger_key

CLAIMS = "\ufeffclaim_id;sex;age;amount\n" + "".join(
    f"C{i};{'FM'[i % 2]};{30 + i % 5};{i % 9 + 1}.{100 + i:03d},{i % 100:02d}\n" for i in range(60)
)


def _summary(at):
    return next(d.value for d in at.dataframe if "missing %" in d.value.columns).set_index("column")


def test_decimal_commas_are_found_said_beside_the_encoding_and_can_be_changed():
    at = run()
    data_uploader(at).set_value(("claims.csv", CLAIMS.encode(), "text/csv")).run()
    assert not at.exception, at.exception
    captions = [seen(c.value) for c in at.caption]
    at_encoding = next(i for i, c in enumerate(captions) if c.startswith("Text encoding"))
    assert captions[at_encoding + 1] == (
        "Decimal mark: comma (1.234,56 is 1234.56), found in the file's numbers; this column "
        "was read as numbers with it: amount."
    )
    assert _summary(at).loc["amount", "type"] == "float64"
    key = at.session_state["rc_dataset"]["key"]
    # the user says the file writes decimal points: the same bytes are read again
    at.selectbox(key=f"rc_decimal_{key}").set_value(".").run()
    assert not at.exception, at.exception
    assert _summary(at).loc["amount", "type"] == "str"
    captions = " ".join(seen(c.value) for c in at.caption)
    assert "Decimal mark: point (1234.56). If the file writes its numbers" in captions
    new_key = at.session_state["rc_dataset"]["key"]
    assert new_key != key and ledger_key(new_key) == key  # the same people, the same budget
    # ... and back to the comma, as chosen
    at.selectbox(key=f"rc_decimal_{new_key}").set_value(",").run()
    assert _summary(at).loc["amount", "type"] == "float64"
    assert any("comma (1.234,56 is 1234.56), as chosen" in seen(c.value) for c in at.caption)
    # the encoding was read from the byte-order mark: no encoding to choose
    assert not [s for s in at.selectbox if s.label == "Text encoding of the file"]


def test_a_comma_separated_upload_says_nothing_of_the_decimal_mark():
    at = run()
    data_uploader(at).set_value(("u.csv", b"age,amount\n30,12.5\n41,3.25\n", "text/csv")).run()
    assert not at.exception, at.exception
    assert not [c for c in at.caption if "Decimal mark" in c.value]
    assert not [s for s in at.selectbox if s.label == "Decimal mark of the numbers"]
