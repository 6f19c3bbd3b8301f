"""Incremental scoring: start, advance and resume give exactly a full replay."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from strategies import generated_games

from scorer.engine import (
    Adjustment,
    Redeal,
    RuleError,
    advance,
    parse_game,
    replay,
    replay_state,
    resolve_agreements,
    start,
)

GAMES = generated_games(max_deals=60)
# Every prefix of a game is replayed in full here (quadratic), so fewer examples.
FEW = settings(max_examples=max(1, settings.default.max_examples * 3 // 5))


def _game(log: dict):
    """A parsed copy of a generated log."""
    return parse_game(copy.deepcopy(log))


@FEW
@given(GAMES)
def test_advance_equals_full_replay_at_every_prefix(generated):
    """After k advances the state's protocol is the full replay of the first k records."""
    game = _game(generated.log)
    state = start(game)
    states = [state]
    for record in game.deals:
        state = advance(state, record)
        states.append(state)
    for k, kept in enumerate(states):
        prefix = game.with_deals(game.deals[:k])
        assert kept.deals == k
        assert kept.protocol() == replay(prefix)
        assert kept.protocol().to_json("ru") == replay(prefix).to_json("ru")
        assert replay_state(prefix) == kept


@FEW
@given(GAMES)
def test_resuming_from_any_prefix_equals_full_replay(generated):
    """``replay(game, resume=state)`` from any kept state gives the full game's protocol."""
    game = _game(generated.log)
    full = replay(game)
    state = start(game)
    for record in (*game.deals, None):
        assert replay(game, resume=state) == full
        if record is not None:
            state = advance(state, record)
    assert state.protocol() == full


@FEW
@given(GAMES)
def test_advance_never_changes_the_given_state(generated):
    """Advancing twice from one state gives equal states; the state itself stays as it was."""
    game = _game(generated.log)
    state = start(game)
    for record in game.deals:
        before = (repr(state), state.protocol().to_json("en"), dict(state.ag))
        first, second = advance(state, record), advance(state, record)
        assert first == second
        assert first is not second
        assert (repr(state), state.protocol().to_json("en"), dict(state.ag)) == before
        state = first


def test_a_refused_record_leaves_the_state_usable():
    """A refusal raises RuleError with the next deal's number; the state scores on afterwards."""
    game = parse_game({"format": "thousand-game/1", "players": ["A", "B", "C"],
                       "agreements": {"preset": "classic"}, "deals": []})
    state = advance(start(game), Adjustment(player=0, amount=120, reason="other"))
    with pytest.raises(RuleError) as err:
        advance(state, Adjustment(player=0, amount=0, reason="other"))
    assert err.value.deal == 2
    after = advance(state, Redeal())
    assert after.protocol().score == (120, 0, 0)
    assert state.protocol().score == (120, 0, 0) and state.deals == 1


def test_resume_refuses_a_state_of_another_game():
    """A state of other players or other agreements cannot be resumed."""
    log = {"format": "thousand-game/1", "players": ["A", "B", "C"],
           "agreements": {"preset": "classic"}, "deals": [{"type": "redeal"}]}
    game = parse_game(log)
    state = replay_state(game)
    other = parse_game({**log, "players": ["A", "B", "D"]})
    with pytest.raises(ValueError, match="another game"):
        replay(other, resume=state)
    changed = game.__class__(players=game.players,
                             agreements=resolve_agreements("classic", {"samosval": 0}),
                             deals=game.deals)
    with pytest.raises(ValueError, match="another game"):
        replay(changed, resume=state)
    with pytest.raises(ValueError, match="another game"):
        replay(game.with_deals(()), resume=state)
