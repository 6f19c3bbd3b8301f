"""The edges of the club's figures that STATS.md states in words: ties and thresholds."""

from __future__ import annotations

from scorer.club.figures import SeatCounts, Summary
from scorer.club.league import Figure, HeadToHead, Played, Player, nemesis_of, streak

ME = 1


def won(game_id: int, winner: bool) -> Played:
    """A finished 3-player game with player ME at seat 0, won or lost by ME."""
    summary = Summary(("Я", "Боря", "Вика"), 10, 0 if winner else 1, (1000, 500, 300),
                      (1, 2, 3) if winner else (2, 1, 3), (SeatCounts(),) * 3)
    return Played(game_id, "2026-12-01", f"2026-12-01T20:{game_id:02d}", summary, (ME, 2, 3))


def test_a_tied_streak_is_the_first_run_of_wins():
    """Two runs of two wins: the streak is 2 and links the first run's games."""
    games = [won(1, True), won(2, True), won(3, False), won(4, True), won(5, True)]
    figure = streak(games, ME)
    assert figure.value == 2 and figure.games == (1, 2)


def h2h(name: str, shared: int, below: int) -> HeadToHead:
    """An opponent with ``shared`` games, of which the opponent finished above in ``below``."""
    return HeadToHead(Player(len(name), name), Figure(shared), Figure(shared - below),
                      Figure(below), Figure(0))


def test_a_nemesis_finished_above_in_more_than_half():
    """Exactly half is not enough; one more game is; fewer than three shared never counts."""
    assert nemesis_of([h2h("Вика", 4, 2)]) is None
    assert nemesis_of([h2h("Вика", 2, 2)]) is None
    assert nemesis_of([h2h("Вика", 4, 2), h2h("Глеб", 5, 3)]).opponent.name == "Глеб"
