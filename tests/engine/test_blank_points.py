"""blank_points: the card points of a field left blank are 120 minus the others, exactly
when replay takes the deal so completed; a refusal is about a typed seat, never the blank."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.engine import RuleError, Timeline, blank_points, parse_game

EMPTY = Timeline.of(parse_game({
    "format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"],
    "agreements": {"preset": "classic"}, "first_dealer": 0, "deals": []}))


def completed(points: list[int | None], blank: int) -> list[int]:
    """The points with the blank seat given 120 minus the others."""
    left = 120 - sum(p for p in points if p is not None)
    return [left if s == blank else p for s, p in enumerate(points)]


@given(typed=st.lists(st.integers(-5, 125), min_size=2, max_size=2), blank=st.integers(0, 2))
def test_blank_points_fills_what_replay_takes(typed, blank):
    """Filled: replay takes the completed deal. Refused: replay refuses it for its points,
    and the refusal names a typed seat."""
    points: list[int | None] = list(typed)
    points.insert(blank, None)
    whole = completed(points, blank)
    record = {"type": "play", "declarer": 0, "contract": 100, "points": whole}
    try:
        left = blank_points(points, (0, 1, 2), blank, 1)
    except RuleError as err:
        assert err.field == "points" and err.deal == 1
        assert err.seat is not None and err.seat != blank
        with pytest.raises(RuleError) as replayed:
            EMPTY.append(record)
        assert replayed.value.field == "points"
        return
    assert left == whole[blank]
    assert len(EMPTY.append(record).protocol.rows) == 1  # taken (made or failed)


@pytest.mark.parametrize("typed, rule, seat", [
    ([None, 125, 0], "points.range", 1),
    ([None, 60, 119], "points.one", 2),
    ([None, 60, 70], "points.over", 1),
    ([None, 60, 59], "points.left", 1),
    ([None, 0, 1], "points.one", 2),
])
def test_each_refusal_names_its_rule_and_the_typed_seat(typed, rule, seat):
    """The typed value's own rule first; a sum over 120 or leaving 1 or 119 after it."""
    with pytest.raises(RuleError) as refused:
        blank_points(typed, (0, 1, 2), 0, 7)
    assert (refused.value.rule, refused.value.seat, refused.value.deal) == (rule, seat, 7)


def test_the_sum_refusals_quote_the_typed_and_the_blank_seats():
    """points.over and points.left say what the others took and what that leaves."""
    with pytest.raises(RuleError) as refused:
        blank_points([None, 60, 59], (0, 1, 2), 0, 3)
    assert refused.value.params == {"blank": 0, "others": (1, 2), "sum": 119, "left": 1}
    assert str(refused.value) == (
        "deal 3: points: the seats other than 0 took 119 card points together, which leaves "
        "1 for seat 0, and no card is worth 1 point")
    assert refused.value.message("ru") == (
        "кон 3: points: места, кроме 0, вместе взяли 119 очков: месту 0 остаётся 1, "
        "а карты в 1 очко нет")
