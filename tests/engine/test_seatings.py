"""The seatings of coming deals (scoring.seatings): what a page without a connection
follows to number and seat the deals it keeps. Walked by each record's move, they say what
the engine's own replay says next, for every prefix of every scenario game that replays."""

from __future__ import annotations

import pytest
from scenario_files import load, scenario_id, scenario_paths

from scorer.engine import RuleError, Timeline, parse_game


def move_of(record, row) -> str | None:
    """The move a record made (scoring.MOVES), or None for one that leaves the seating."""
    if record.type == "play":
        return "made" if row.result == "made" else "failed"
    if record.type == "raspis":
        return "raspis"
    if record.type == "adjustment" and record.reason == "misdeal":
        return "misdeal"
    return None


def games():
    """Every scenario game that replays (a refused one has no protocol to follow)."""
    for path in scenario_paths():
        doc = load(path)
        if "error" not in doc:
            yield pytest.param(doc["game"], id=scenario_id(path))


@pytest.mark.parametrize("log", list(games()))
def test_following_the_seatings_says_what_the_replay_says(log):
    """From the start, each record's move leads to the seating the replay shows next; a
    won game has none."""
    try:
        game = parse_game(log)
    except RuleError:
        return
    seatings = Timeline.of(game.with_deals(())).seatings()
    at = 0
    timeline = Timeline.of(game)
    for record, row in zip(game.deals, timeline.protocol.rows, strict=True):
        if record.type == "agreements":  # a new set: the page is given seatings anew
            return
        move = move_of(record, row)
        if move is not None:
            at = dict(seatings[at].then)[move]
        expected = Timeline.of(game.with_deals(game.deals[:row.n])).protocol.next
        if expected is None:  # won: nothing follows
            assert timeline.seatings() == ()
            return
        assert seatings[at].next == expected, f"after record {row.n}"

