"""Changing agreements in a running game: the "agreements" record (docs/RULES.md §11)."""

from __future__ import annotations

import copy
import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import _choices, build_game, generated_games

from scorer.engine import (
    FORMAT,
    FORMAT_2,
    RuleError,
    Timeline,
    catalog,
    current_agreements,
    game_to_json,
    load_game,
    parse_game,
    replay,
    replay_state,
)

FEW = settings(max_examples=max(1, settings.default.max_examples * 3 // 5))
CHANGEABLE = sorted(id for id, spec in catalog().agreements.items() if spec.changeable)


def changed_log(log: dict, k: int, changes: dict) -> dict:
    """``log`` with an agreements record put in after its first ``k`` records."""
    out = copy.deepcopy(log)
    out["deals"].insert(k, {"type": "agreements", "changes": changes})
    out["format"] = FORMAT_2
    return out


def independent_tail(log: dict, k: int, changes: dict):
    """Rows after k as a replay under the new set, started from the old set's state at k.

    The carry-over rules of §11 written out here on their own: scores, dealer, golden
    round, bolts, falls and concessions carry over; the barrel empties when switched off.
    """
    old = parse_game(log)
    state = replay_state(old.with_deals(old.deals[:k]))
    new = parse_game({**log, "agreements": {
        "preset": old.agreements.preset, "overrides": {**old.agreements.overrides, **changes}}})
    carried = replace(state, agreements=new.agreements, ag=dict(new.agreements),
                      opening=new.agreements,
                      barrel=() if old.agreements["barrel"] and not new.agreements["barrel"]
                      else state.barrel)
    return replay_state(new, resume=carried).rows[k:]


@st.composite
def changes_of(draw) -> dict:
    """One to three changeable agreements with values drawn from the catalog."""
    ids = draw(st.lists(st.sampled_from(CHANGEABLE), min_size=1, max_size=3, unique=True))
    return {id: draw(st.sampled_from(_choices(catalog().agreements[id]))) for id in ids}


@FEW
@given(generated_games(max_deals=40), st.data())
def test_change_at_k_is_old_rows_then_a_replay_under_the_new_set(generated, data):
    """Rows before k are the old set's; rows after are the new set's from the state at k."""
    log = generated.log
    k = data.draw(st.integers(0, len(log["deals"])), label="k")
    changes = data.draw(changes_of(), label="changes")
    old_rows = replay(parse_game(copy.deepcopy(log))).rows
    try:
        expected = independent_tail(copy.deepcopy(log), k, changes)
        expected_error = None
    except RuleError as err:
        expected, expected_error = None, err
    try:
        rows = replay(parse_game(changed_log(log, k, changes))).rows
    except RuleError as err:
        if err.deal == k + 1:  # the change itself refused: only these reasons may do it
            assert err.rule in ("after_win", "agreements.target")
            return
        assert expected_error is not None, f"refused only with the change: {err}"
        assert (err.deal, err.rule) == (expected_error.deal + 1, expected_error.rule)
        return
    assert expected_error is None, f"the independent replay refused: {expected_error}"
    assert rows[:k] == old_rows[:k]
    assert rows[k].type == "agreements" and rows[k].delta == (0,) * len(log["players"])
    assert [r._replace(n=r.n + 1) for r in expected] == list(rows[k + 1:])


@FEW
@given(generated_games(max_deals=30), st.data())
def test_timeline_edits_around_a_change_equal_a_full_replay(generated, data):
    """Appending, editing and deleting with a change record in the log match replay(), and
    the set in force the Timeline keeps matches current_agreements()."""
    log = generated.log
    changes = data.draw(changes_of(), label="changes")
    k = len(log["deals"]) // 2
    try:
        game = parse_game(changed_log(log, k, changes))
        timeline = Timeline.of(game)
    except RuleError:
        return
    assert timeline.protocol == replay(game)
    # The set in force the end state keeps is the one a walk over the records finds.
    assert timeline.agreements == current_agreements(game)
    shorter = timeline.replace(k, None)  # the change deleted: the old game again
    assert shorter.protocol == replay(parse_game(copy.deepcopy(log)))
    assert shorter.agreements == current_agreements(shorter.game) == game.agreements
    try:
        longer = timeline.append({"type": "agreements", "changes": changes})
    except RuleError:  # after the win, or a value the set in force refuses
        return
    assert longer.agreements == current_agreements(longer.game)


def three_players(deals: list, **overrides) -> dict:
    """A 3-player log (format /2) with the given records."""
    return {"format": FORMAT_2, "players": ["Аня", "Борис", "Вика"],
            "agreements": {"preset": "classic", "overrides": overrides}, "deals": deals}


PLAY = {"type": "play", "declarer": 1, "contract": 100, "points": [20, 80, 20]}


def refusal(log: dict) -> RuleError:
    """The RuleError replaying ``log`` raises."""
    with pytest.raises(RuleError) as caught:
        replay(parse_game(log))
    return caught.value


@pytest.mark.parametrize("changes,rule", [
    ({"golden": True}, "agreements.fixed"),
    ({"no_such_rule": 1}, "agreements.unknown"),
    ({"penalty": 3}, "agreements.value"),
    ({"rounding": "nearest7"}, "agreements.value"),
    ({}, "type"),
])
def test_a_bad_change_is_refused_naming_deal_and_agreement(changes, rule):
    """Unknown, unchangeable or invalid values are refused at the record's deal."""
    err = refusal(three_players([PLAY, {"type": "agreements", "changes": changes}]))
    assert (err.deal, err.field, err.rule) == (2, "changes", rule)
    if rule == "agreements.fixed":
        assert err.agreement == "golden" and "[golden]" not in err.message("en")


def test_a_target_at_or_below_a_score_is_refused():
    """The game may not be won by a change of the target: it stays above every score."""
    up = {"type": "adjustment", "player": 2, "amount": 300, "reason": "other"}
    err = refusal(three_players([up, {"type": "agreements", "changes": {"target": 300}}]))
    assert (err.deal, err.rule, err.agreement) == (2, "agreements.target", "target")
    assert "300" in err.message("en")


def test_a_change_after_the_win_is_refused():
    """Nothing follows the winning deal, a change of rules neither."""
    log = three_players([{"type": "adjustment", "player": 0, "amount": 1000,
                          "reason": "other"},
                         {"type": "agreements", "changes": {"penalty": 100}}],
                        barrel=False)
    assert refusal(log).rule == "after_win"


def test_format_1_may_not_hold_an_agreements_record():
    """The version rule: an agreements record needs thousand-game/2."""
    log = {**three_players([{"type": "agreements", "changes": {"penalty": 100}}]),
           "format": FORMAT}
    with pytest.raises(RuleError) as caught:
        parse_game(log)
    assert (caught.value.deal, caught.value.rule) == (1, "format.version")


def test_the_change_takes_effect_from_the_next_deal():
    """A raspis before the change pays half; after it, 60 (raspis_payout = sixty)."""
    raspis = {"type": "raspis", "declarer": 0, "contract": 160}
    protocol = replay(parse_game(three_players([
        raspis, {"type": "agreements", "changes": {"raspis_payout": "sixty"}}, raspis])))
    assert [r.type for r in protocol.rows] == ["raspis", "agreements", "raspis"]
    assert protocol.rows[0].delta[1] == 80 and protocol.rows[2].delta[1] == 60
    assert protocol.rows[1].changes == (("raspis_payout", "half", "sixty"),)
    assert protocol.rows[1].to_json()["changes"] == [
        {"id": "raspis_payout", "from": "half", "to": "sixty"}]


def test_bolts_falls_and_dealer_carry_over():
    """Bolt counts, the dealer and every score stay as they were across a change."""
    bolt = {"type": "play", "declarer": 1, "contract": 100, "points": [0, 100, 20],
            "no_tricks": [0]}
    game = parse_game(three_players([bolt, bolt, {"type": "agreements",
                                                  "changes": {"penalty": 100}}, bolt]))
    rows = replay(game).rows
    assert rows[2].score == rows[1].score and rows[2].dealer == rows[1].dealer + 1
    assert rows[3].dealer == rows[2].dealer  # the change passed no deal on
    assert rows[3].delta[0] == -100  # the third bolt, at the new penalty


def test_switching_the_barrel_off_empties_it():
    """Who sat on the barrel leaves it, keeping the score; it is said in the row."""
    up = {"type": "adjustment", "player": 0, "amount": 900, "reason": "other"}
    protocol = replay(parse_game(three_players(
        [up, {"type": "agreements", "changes": {"barrel": False}}])))
    assert protocol.rows[0].barrel and not protocol.rows[1].barrel
    assert protocol.score[0] == 880
    assert "barrel_off" in [r.code for r in protocol.rows[1].why[0]]


def test_the_golden_round_goes_on_under_the_new_values():
    """The golden round's position carries over; its doubling rules are the new ones."""
    golden = {"type": "play", "declarer": 1, "contract": 120, "points": [0, 120, 0],
              "no_tricks": [0, 2]}
    second = {**golden, "declarer": 2, "points": [0, 0, 120], "no_tricks": [0, 1]}
    log = three_players([golden, {"type": "agreements",
                                  "changes": {"golden_double_bolts": True}}, second],
                        golden=True)
    rows = replay(parse_game(log)).rows
    assert rows[0].golden and rows[2].golden
    weights = [e.extra.get("weight", 1) for e in rows[2].events if e.kind == "bolt"]
    assert weights == [2, 2]


def test_current_agreements_fold_every_change():
    """The set in force is the game's with each change applied in order."""
    game = parse_game(three_players([
        {"type": "agreements", "changes": {"penalty": 100, "dark": True}}, PLAY,
        {"type": "agreements", "changes": {"penalty": 150}}]))
    now = current_agreements(game)
    assert (now["penalty"], now["dark"], now.preset) == (150, True, "classic")
    assert game.agreements["penalty"] == 120


def test_export_import_round_trip_keeps_change_records():
    """game_to_json → JSON text → load_game gives the same game and the same protocol."""
    log = changed_log(build_game(7, 3, length=30).log, 12, {"penalty": 100,
                                                            "rounding": "nearest10"})
    game = parse_game(log)
    exported = game_to_json(game)
    assert exported["format"] == FORMAT_2
    again = load_game(json.dumps(exported, ensure_ascii=False))
    assert again == game and replay(again) == replay(game)
    plain = game_to_json(game.with_deals(
        [d for d in game.deals if d.type != "agreements"]))
    assert plain["format"] == FORMAT  # a log without changes stays readable by /1 readers
