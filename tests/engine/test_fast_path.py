"""The replay's shortcuts change nothing: the quick check refuses exactly as the rules do.

``validation._plain`` passes a common played deal at once and sends anything else through
the rules one by one; with it switched off every record takes the long way. Both ways must
give the same protocol, or the same refusal (deal, field, rule, seat and params).
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import build_game, generated_games

from scorer.engine import RuleError, parse_game, replay, validation

# What a played deal's numbers are bent into: the edges of every rule the quick check covers.
POINTS = st.sampled_from([-5, 0, 1, 2, 60, 118, 119, 120, 121, None])
CONTRACTS = st.sampled_from([95, 100, 103, 105, 110, 120, 125, 300, 305, 400])


def _outcome(log: dict):
    """The protocol's JSON, or the refusal's parts."""
    try:
        return replay(parse_game(copy.deepcopy(log))).to_json("en")
    except RuleError as err:
        return (err.deal, err.field, err.rule, err.seat, err.params)


def _both(log: dict):
    """The outcome with the quick check, and with every record checked rule by rule."""
    fast = _outcome(log)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(validation, "_plain", lambda *args: False)
        slow = _outcome(log)
    return fast, slow


@settings(deadline=None)
@given(generated_games(max_deals=20), st.data())
def test_a_bent_played_deal_is_refused_as_by_the_rules(generated, data):
    """One played deal's points, contract or declarer bent: both ways agree."""
    log = generated.log
    plays = [i for i, r in enumerate(log["deals"]) if r["type"] == "play"]
    if not plays:
        return
    record = log["deals"][data.draw(st.sampled_from(plays))]
    seats = len(log["players"])
    what = data.draw(st.sampled_from(["points", "shift", "contract", "declarer", "dark",
                                      "all"]))
    points = record["points"]
    if what in ("points", "all"):
        seat = data.draw(st.integers(0, seats - 1))
        points[seat] = data.draw(POINTS)
    if what == "shift":  # the total kept: one seat's points moved to another
        a, b = data.draw(st.permutations(range(seats)))[:2]
        value = data.draw(POINTS.filter(lambda v: v is not None))
        if points[a] is not None and points[b] is not None:
            points[a], points[b] = value, points[b] + points[a] - value
    if what in ("contract", "all"):
        record["contract"] = data.draw(CONTRACTS)
    if what in ("declarer", "all"):
        record["declarer"] = data.draw(st.integers(0, seats - 1))
    if what == "dark":
        record["dark"] = not record.get("dark", False)
    fast, slow = _both(log)
    assert fast == slow


@settings(deadline=None)
@given(generated_games(max_deals=40))
def test_valid_games_score_the_same_both_ways(generated):
    """Whole valid games: the same protocol with and without the quick check."""
    fast, slow = _both(generated.log)
    assert fast == slow
    assert not isinstance(fast, tuple)


EDGES = (-1, 0, 1, 2, 118, 119, 120, 121)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_edge_of_the_points_is_refused_as_by_the_rules(players):
    """Each seat pair of the first played deals given edge points, the total kept: both agree."""
    log = build_game(7, players, "classic", {"golden": False}, length=12).log
    plays = [i for i, r in enumerate(log["deals"]) if r["type"] == "play"][:3]
    assert plays
    tried = 0
    for index in plays:
        for a in range(players):
            for b in range(players):
                for value in EDGES:
                    bent = copy.deepcopy(log)
                    del bent["deals"][index + 1:]
                    points = bent["deals"][index]["points"]
                    if a == b or points[a] is None or points[b] is None:
                        continue
                    points[a], points[b] = value, points[a] + points[b] - value
                    fast, slow = _both(bent)
                    assert fast == slow, (index, a, b, value)
                    tried += 1
    assert tried
