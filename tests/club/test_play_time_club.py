"""The club's game lengths: the average per size of table and the longest game by time,
from the games' stored times (the start row, the last deal)."""

from __future__ import annotations

from club_games import add, finished_log, seated

from scorer.club import Club


def timed(st, log: dict, minutes: int) -> int:
    """Store the log as if its table sat down ``minutes`` before its last deal was stored."""
    game_id = add(st, log)
    with st.db.conn:
        st.db.execute("update games set created = '2026-10-01T18:00:00+00:00' where id = ?",
                      [game_id])
        st.db.execute("update deals set created = strftime('%Y-%m-%dT%H:%M:%S+00:00',"
                      " '2026-10-01 18:00:00', ?) where game_id = ?",
                      [f"+{minutes} minutes", game_id])
    return game_id


def test_average_length_per_size_and_the_longest_game_by_time(st):
    """Two-player games of 90 and 32 minutes average 61; the three-player game of
    200 minutes holds the record; a game stored in one go (an import) has no length."""
    two, three = finished_log(2, 8), finished_log(3, 7)
    timed(st, seated(two, ["Аня", "Борис"]), 90)
    timed(st, seated(finished_log(2, 9), ["Вика", "Аня"]), 32)
    longest = timed(st, seated(three, ["Аня", "Борис", "Вика"]), 200)
    add(st, seated(three, ["Борис", "Вика", "Аня"]))  # imported: every stamp the same
    board = Club(st.db).records()
    lengths = [(g.players, g.games.value, g.minutes) for g in board.lengths]
    assert lengths == [(2, 2, 61), (3, 1, 200)]
    assert board.longest_time is not None
    assert (board.longest_time.value, board.longest_time.game_id) == (200, longest)


def test_no_timed_game_no_length(st):
    """Games with no time between start and end give no average and no time record."""
    add(st, seated(finished_log(2, 8), ["Аня", "Борис"]))
    board = Club(st.db).records()
    assert board.lengths == () and board.longest_time is None
