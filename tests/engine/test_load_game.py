"""One door for outside JSON (``load_game``), one ``checked_parts``, one of each constant."""

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.engine import FORMAT, RuleError, checked_parts, load_game
from scorer.engine.game_log import MAX_DEPTH, _depth

LOG = {"format": FORMAT, "players": ["A", "B", "C"], "agreements": {"preset": "classic"},
       "deals": [{"type": "adjustment", "player": 0, "amount": 50, "reason": "other"}]}


@pytest.mark.parametrize("text,detail", [
    (b"{not json", "line 1 column 2"),
    (b"\xff\xfe{}", "not UTF-8 text"),
    (b"[" * 10_000 + b"]" * 10_000, "nested too deeply"),
    (json.dumps({**LOG, "title": [[[[[[[[["deep"]]]]]]]]]}), "nested too deeply"),
    ('{"a": ' + "1" * 5000 + "}", "4300 digits"),
])
def test_unreadable_json_is_one_refusal(text, detail):
    """Bad bytes, bad JSON, deep nesting, a 5000-digit number: RuleError on field json."""
    with pytest.raises(RuleError) as err:
        load_game(text)
    assert (err.value.deal, err.value.field, err.value.rule) == (None, "json", "json")
    assert detail in err.value.message("en")
    assert err.value.message("ru").startswith("игра: json: не читается как JSON")


@pytest.mark.parametrize("text, rule, words", [
    (b"[" * 100_000 + b"]" * 100_000, "json.containers", "100000"),
    (b'{"deals": [' + b",".join([b"{}"] * 30_000) + b"]}", "json.containers", "30002"),
    (b" " * (1024 * 1024 + 1), "json.size", "1024 KB"),
])
def test_a_file_larger_than_any_log_is_refused_before_decoding(text, rule, words):
    """Past 1 MB, or with more objects and lists than 2000 deals can hold: refused from the
    raw bytes (a count, no decoding), naming the rule and the numbers."""
    with pytest.raises(RuleError) as err:
        load_game(text)
    assert (err.value.field, err.value.rule) == ("json", rule)
    assert words in err.value.message("en")


def nesting(data) -> int:
    """How deeply lists and objects nest, written the plain recursive way."""
    if isinstance(data, dict | list):
        inner = data.values() if isinstance(data, dict) else data
        return 1 + max((nesting(v) for v in inner), default=0)
    return 0


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=3),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=2), inner, max_size=4),
                    max_leaves=40)


@given(JSON)
def test_the_depth_walk_agrees_with_the_recursive_definition(data):
    """The walk that keeps one iterator per open container (no entry per element) finds
    the same depth as the recursive definition, up to the point where it stops looking."""
    assert min(_depth(data), MAX_DEPTH + 1) == min(nesting(data), MAX_DEPTH + 1)


@pytest.mark.parametrize("text", ["[1, 2]", '"a log"', "3"])
def test_json_that_is_not_an_object_is_refused(text):
    """One JSON object per file, said in both languages."""
    with pytest.raises(RuleError) as err:
        load_game(text)
    assert err.value.rule == "json.object"
    assert "один объект JSON" in err.value.message("ru")


def test_a_good_log_loads_from_text_and_bytes():
    """Text, bytes and bytes with a BOM give the same game; shape errors come from parse_game."""
    text = json.dumps(LOG, ensure_ascii=False)
    game = load_game(text)
    assert load_game(text.encode()) == game == load_game(b"\xef\xbb\xbf" + text.encode())
    with pytest.raises(RuleError) as err:
        load_game(json.dumps({**LOG, "players": ["A"]}))
    assert err.value.rule == "players.count"


def test_checked_parts_replays_every_deal():
    """(head, records) normalised; a log whose deal is refused is refused whole."""
    head, records = checked_parts(load_game(json.dumps(LOG)))
    assert "deals" not in head and head["players"] == ["A", "B", "C"]
    assert records == LOG["deals"]
    assert checked_parts(LOG) == (head, records)
    bad = {**LOG, "deals": LOG["deals"] + [{"type": "adjustment", "player": 0, "amount": 0,
                                            "reason": "other"}]}
    with pytest.raises(RuleError) as err:
        checked_parts(bad)
    assert (err.value.deal, err.value.rule) == (2, "amount.zero")


SCORER = Path(__file__).resolve().parents[2] / "scorer"
Q = "[\"']"  # either quote


def _words(*words: str) -> str:
    """A tuple literal of these strings."""
    return r"\(\s*" + r",\s*".join(Q + w + Q for w in words)


ONCE = {
    "MAX_DEALS": re.compile(r"^MAX_DEALS\s*=", re.M),
    "MAX_NAME": re.compile(r"^MAX_NAME\s*=", re.M),
    "the format name": re.compile(rf"=\s*{Q}thousand-game/1|{Q}format{Q}:\s*{Q}thousand-game/1"),
    "the suits": re.compile(_words("hearts", "diamonds", "clubs", "spades")),
    "adjustment reasons": re.compile(_words("cut_nines", "four_nines", "misdeal")),
}


@pytest.mark.parametrize("what", list(ONCE))
def test_one_definition_of_each(what):
    """Each constant is written once, in scorer/engine/records.py (the text limits in
    names.py); the rest import it."""
    found = [str(p.relative_to(SCORER)) for p in SCORER.rglob("*.py")
             if ONCE[what].search(p.read_text(encoding="utf-8"))]
    home = "engine/names.py" if what == "MAX_NAME" else "engine/records.py"
    assert found == [home], found
