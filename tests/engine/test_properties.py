"""Hypothesis properties of replay over random valid games dealt from real cards."""

from __future__ import annotations

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import generated_games

from scorer.engine import RuleError, game_to_json, parse_game, replay

GAMES = generated_games(max_deals=60)
# Example counts follow the loaded profile (tests/conftest.py): "dev" and "ci" run 100 of
# the main properties and 60 of the costlier ones; HYPOTHESIS_PROFILE=thorough ten times more.
FULL = settings(max_examples=settings.default.max_examples)
FEW = settings(max_examples=max(1, settings.default.max_examples * 3 // 5))


def protocol_json(log: dict, lang: str = "en") -> dict:
    """Replay a log and return its protocol as JSON."""
    return replay(parse_game(copy.deepcopy(log))).to_json(lang=lang)


def outcome(log: dict):
    """("ok", protocol JSON) or ("error", RuleError); any other exception propagates."""
    try:
        return "ok", protocol_json(log)
    except RuleError as err:
        return "error", err


@FULL
@given(GAMES)
def test_generated_games_are_valid_by_construction(generated):
    """The engine accepts every record the generator built, and the model agrees."""
    assert generated.refused == []
    protocol = protocol_json(generated.log)
    assert len(protocol["rows"]) == len(generated.log["deals"])


@FULL
@given(GAMES)
def test_protocol_invariants(generated):
    """Scores are running sums of deltas; numbering, next and the winner are consistent."""
    log, protocol = generated.log, protocol_json(generated.log)
    players = len(log["players"])
    running = [0] * players
    for n, row in enumerate(protocol["rows"], 1):
        assert row["n"] == n
        assert row["type"] == log["deals"][n - 1]["type"]
        running = [a + b for a, b in zip(running, row["delta"], strict=True)]
        assert row["score"] == running
        assert len(row["why"]) == players
        wins = [e for e in row["events"] if e["kind"] == "win"]
        assert len(wins) == (1 if protocol["winner"] is not None and n == len(log["deals"])
                             else 0)
        if row["type"] in ("redeal", "adjustment"):
            assert row["declarer"] is None and row["contract"] is None
            assert row["result"] is None
        else:
            assert row["result"] in ("made", "failed", "raspis")
    assert protocol["score"] == running
    assert (protocol["next"] is None) == (protocol["winner"] is not None)


@FEW
@given(GAMES)
def test_replay_is_deterministic(generated):
    """Two replays (and two parses) of the same log give the same protocol, in both languages."""
    for lang in ("en", "ru"):
        assert protocol_json(generated.log, lang) == protocol_json(generated.log, lang)
    game = parse_game(copy.deepcopy(generated.log))
    assert replay(game).to_json("en") == replay(game).to_json("en")


@FEW
@given(GAMES)
def test_json_round_trip(generated):
    """game_to_json -> json.dumps -> json.loads -> parse_game gives the same protocol."""
    game = parse_game(copy.deepcopy(generated.log))
    text = json.dumps(game_to_json(game), ensure_ascii=False)
    again = parse_game(json.loads(text))
    assert replay(again).to_json("ru") == replay(game).to_json("ru")
    assert game_to_json(again) == game_to_json(game)


BAD_RECORDS = [
    {"type": "play", "declarer": 0, "contract": 95, "points": "SEATS", "marriages": {},
     "no_tricks": []},
    {"type": "play", "declarer": 0, "contract": 100, "points": "SHORT", "marriages": {},
     "no_tricks": []},
    {"type": "raspis", "declarer": 9, "contract": 100},
    {"type": "adjustment", "player": 0, "amount": 0, "reason": "other"},
    {"type": "adjustment", "player": 0, "amount": 50, "reason": "bribe"},
    {"type": "bogus"},
    "not an object",
]


def _bad(record, players: int):
    """Fill a bad record's points for the game's player count."""
    if not isinstance(record, dict) or "points" not in record:
        return record
    record = dict(record)
    record["points"] = ([120] + [0] * (players - 1) if record["points"] == "SEATS"
                        else [60] * players)  # SHORT: 60 each never sums to 120 here
    if players == 2 and record["contract"] == 100:
        record["points"] = [100, 25]  # more than 120 with 2 players
    return record


@FEW
@given(GAMES, st.sampled_from(BAD_RECORDS))
def test_appending_a_refused_record_changes_nothing(generated, bad):
    """The bad record is refused by number len+1; the earlier rows replay unchanged."""
    log = generated.log
    before = protocol_json(log)
    worse = {**copy.deepcopy(log), "deals": log["deals"] + [_bad(bad, len(log["players"]))]}
    kind, err = outcome(worse)
    assert kind == "error", "a bad record was accepted"
    assert err.deal == len(log["deals"]) + 1
    if before["winner"] is not None:  # after a win even a good record is refused
        kind, err = outcome({**copy.deepcopy(log), "deals": log["deals"] + [{"type": "redeal"}]})
        assert kind == "error" and err.rule == "after_win"
        assert err.deal == len(log["deals"]) + 1
    assert protocol_json(log) == before


@FEW
@given(GAMES, st.data())
def test_changing_record_k_keeps_rows_before_k(generated, data):
    """Replacing record k leaves rows 1..k-1 as they were; a refusal can only come at k or later."""
    log = generated.log
    if not log["deals"]:
        return
    before = protocol_json(log)["rows"]
    k = data.draw(st.integers(1, len(log["deals"])), label="k")
    players = len(log["players"])
    replacement = data.draw(st.sampled_from([
        {"type": "redeal"},
        {"type": "adjustment", "player": 0, "amount": -50, "reason": "misdeal"},
        {"type": "adjustment", "player": players - 1, "amount": 100, "reason": "other"},
    ]), label="replacement")
    deals = copy.deepcopy(log["deals"])
    deals[k - 1] = replacement
    changed = {**copy.deepcopy(log), "deals": deals}
    kind, result = outcome(changed)
    if kind == "error":
        assert result.deal is not None and result.deal > k, result.message()
        changed["deals"] = deals[:result.deal - 1]
        result = protocol_json(changed)
    assert result["rows"][:k - 1] == before[:k - 1]


MUTATIONS = ("points", "contract", "declarer", "type", "marriages", "no_tricks", "dark",
             "drop", "amount", "player", "prikup")


@FULL
@given(GAMES, st.data())
def test_mutated_logs_never_crash(generated, data):
    """Any single-field mutation gives a protocol or a RuleError at that record or later."""
    log = generated.log
    if not log["deals"]:
        return
    k = data.draw(st.integers(1, len(log["deals"])), label="k")
    record = copy.deepcopy(log["deals"][k - 1])
    players = len(log["players"])
    what = data.draw(st.sampled_from(MUTATIONS), label="mutation")
    junk = st.one_of(st.integers(-200, 400), st.none(), st.booleans(), st.text(max_size=3),
                     st.lists(st.integers(-5, 130), max_size=5))
    if what == "points" and isinstance(record.get("points"), list):
        seat = data.draw(st.integers(0, players - 1))
        record["points"][seat] = data.draw(st.one_of(st.integers(-10, 130), st.none()))
    elif what == "marriages":
        seat = data.draw(st.integers(-1, players))
        suit = data.draw(st.sampled_from(["hearts", "diamonds", "clubs", "spades", "ace",
                                          "half_hearts", "trumps"]))
        record["marriages"] = {**(record.get("marriages") or {}), str(seat): [suit]}
    elif what == "no_tricks":
        record["no_tricks"] = data.draw(st.lists(st.integers(-1, players), max_size=3))
    elif what == "type":
        record["type"] = data.draw(st.sampled_from(["play", "raspis", "redeal",
                                                    "adjustment", "bogus"]))
    elif what == "drop" and record:
        record.pop(data.draw(st.sampled_from(sorted(record))))
    elif what == "prikup":
        record["prikup"] = data.draw(st.one_of(st.none(), st.fixed_dictionaries(
            {"points": st.integers(-5, 40),
             "marriage": st.sampled_from([None, "hearts", "spades", "half_clubs", "x"]),
             "aces": st.integers(-1, 4)})))
    else:
        record[what] = data.draw(junk)
    deals = copy.deepcopy(log["deals"])
    deals[k - 1] = record
    kind, result = outcome({**copy.deepcopy(log), "deals": deals})
    if kind == "error":
        assert result.deal is not None and result.deal >= k, result.message()
        assert result.message("en").startswith(f"deal {result.deal}: ")
        assert result.message("ru").startswith(f"кон {result.deal}: ")


@FULL
@given(GAMES)
def test_engine_agrees_with_reference_model(generated):
    """Every row's delta and the winner match a second, plain reading of docs/RULES.md §4-§6."""
    from reference_model import reference_deltas

    game = parse_game(copy.deepcopy(generated.log))
    protocol = replay(game).to_json("en")
    deltas, winner = reference_deltas(generated.log, game.agreements)
    for row, expected in zip(protocol["rows"], deltas, strict=True):
        assert row["delta"] == expected, (row["n"], generated.log["deals"][row["n"] - 1], row)
    assert protocol["winner"] == winner
