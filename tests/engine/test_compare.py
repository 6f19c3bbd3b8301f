"""«А если бы…»: the comparison equals two independent replays, and stops where it must."""

from __future__ import annotations

import copy
from dataclasses import replace

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from strategies import agreement_sets, generated_games

from scorer.engine import RuleError, compare, parse_game, replay, resolve_agreements

FEW = settings(max_examples=max(1, settings.default.max_examples // 2), deadline=None)


def _other(preset: str, overrides: dict):
    """An agreement set, or None when the drawn values do not go together."""
    try:
        return resolve_agreements(preset, overrides)
    except RuleError:
        return None


@FEW
@given(generated_games(max_deals=40), agreement_sets(), st.sampled_from([None, 100, 200, 300]))
def test_comparison_equals_two_independent_replays(generated, drawn, target):
    """Base is the game's replay; other is the other set's replay of the same records,
    up to its refusal or its win; first_difference is the first differing common row.
    A low target without the barrel makes early wins common."""
    game = parse_game(copy.deepcopy(generated.log))
    preset, overrides = drawn
    if target is not None:
        overrides = {**overrides, "target": target, "barrel": False}
    other_set = _other(preset, overrides)
    assume(other_set is not None)
    result = compare(game, other_set)
    assert result.base == replay(game)
    other_game = replace(game, agreements=other_set)
    kept = len(result.other.rows)
    assert result.other == replay(other_game.with_deals(game.deals[:kept]))
    if result.refused is not None:
        assert result.ended_at is None
        assert result.refused.deal == kept + 1
        try:
            replay(other_game.with_deals(game.deals[:kept + 1]))
        except RuleError as err:
            assert err.message("en") == result.refused.message("en")
        else:
            raise AssertionError("the other set accepts the deal the comparison refused")
    elif result.ended_at is not None:
        assert result.ended_at == kept < len(game.deals)
        assert result.other.winner is not None
    else:
        assert kept == len(game.deals)
    pairs = zip(result.base.rows, result.other.rows, strict=False)
    expected = [a.n for a, b in pairs if (a.delta, a.score) != (b.delta, b.score)]
    assert list(result.differing) == expected
    assert result.first_difference == (expected[0] if expected else None)


@settings(max_examples=20, deadline=None)
@given(generated_games(max_deals=30))
def test_the_game_compared_with_its_own_set_differs_nowhere(generated):
    """Under its own agreements nothing differs, nothing is refused, nothing ends early."""
    game = parse_game(copy.deepcopy(generated.log))
    result = compare(game, game.agreements)
    assert result.other == result.base
    assert (result.refused, result.ended_at, result.first_difference) == (None, None, None)


GAME = {
    "format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"],
    "agreements": {"preset": "classic"},
    "deals": [
        {"type": "play", "declarer": 0, "contract": 100, "points": [60, 30, 30],
         "marriages": {"0": ["hearts"]}},
        {"type": "raspis", "declarer": 1, "contract": 110},
        {"type": "play", "declarer": 2, "contract": 100, "points": [20, 20, 80],
         "marriages": {}},
    ],
}


def test_a_deal_the_other_set_refuses_stops_the_other_replay():
    """Concession off: deal 2 is refused, naming Борис and the agreement's title."""
    result = compare(parse_game(copy.deepcopy(GAME)), resolve_agreements("classic",
                                                                         {"raspis": False}))
    assert result.refused is not None and result.refused.deal == 2
    assert result.refused.agreement == "raspis"
    assert result.ended_at is None
    assert len(result.other.rows) == 1
    assert result.refusal_message("ru") == "кон 2: Борис: роспись не принята — Роспись разрешена"
    assert "Concession allowed" in result.refusal_message("en")
    assert "Борис" in result.refusal_message("en")


def test_a_game_won_earlier_under_the_other_set_ends_there_without_a_refusal():
    """To 100 without a barrel Аня wins on deal 1: ended_at 1, no refusal."""
    result = compare(parse_game(copy.deepcopy(GAME)),
                     resolve_agreements("classic", {"target": 100, "barrel": False}))
    assert result.ended_at == 1
    assert result.refused is None and result.refusal_message() is None
    assert result.other.winner == 0
    assert [r.n for r in result.other.rows] == [1]


def test_rows_that_differ_are_listed_from_the_first():
    """Barrel at 100: the scores part from deal 2 on."""
    result = compare(parse_game(copy.deepcopy(GAME)),
                     resolve_agreements("classic", {"target": 100, "barrel_threshold": 100}))
    assert result.first_difference == 2
    assert result.differing == (2, 3)
    base, other = result.pair(2)
    assert base.score != other.score


def test_a_game_that_does_not_replay_is_refused_as_it_is():
    """compare never hides the game's own refusal."""
    bad = copy.deepcopy(GAME)
    bad["deals"][0]["points"] = [60, 30, 31]
    try:
        compare(parse_game(bad), resolve_agreements("classic"))
    except RuleError as err:
        assert err.deal == 1
    else:
        raise AssertionError("a bad log was compared")


def test_the_logs_changes_apply_on_top_of_the_other_set():
    """RULES.md §11 «Comparing»: the other set replaces the head only; a change record
    puts in its values on top of it from the same record on (payout 60, then half)."""
    log = {"format": "thousand-game/2", "players": ["Аня", "Борис", "Вика"],
           "agreements": {"preset": "classic", "overrides": {}},
           "deals": [{"type": "raspis", "declarer": 0, "contract": 160},
                     {"type": "agreements", "changes": {"raspis_payout": "half"}},
                     {"type": "raspis", "declarer": 1, "contract": 160}]}
    result = compare(parse_game(log), resolve_agreements("classic", {"raspis_payout": "sixty"}))
    assert result.refused is None
    assert [row.delta for row in result.other.rows] == [(-160, 60, 60), (0, 0, 0),
                                                        (80, -160, 80)]
    assert [row.delta for row in result.base.rows] == [(-160, 80, 80), (0, 0, 0),
                                                       (80, -160, 80)]
    assert result.differing == (1, 2, 3)  # the scores part at deal 1 and stay apart
