"""Ratings: openskill over the finished games in the order they ended, and what an edit of
an old game changes (the games after it, nothing before)."""

from __future__ import annotations

import itertools

from club_games import CLUB, add, finished_logs, seated
from openskill.models import PlackettLuce

from scorer.club import MIN_GAMES, Club, places
from scorer.engine import parse_game, replay


def evening_logs(count: int = 9) -> list[dict]:
    """Finished games of 2-4 of the club's players, one a day, seats rotating."""
    pool = finished_logs()
    logs = []
    for day, log in zip(range(count), itertools.cycle(pool), strict=False):
        size = len(log["players"])
        names = [CLUB[(day + i) % len(CLUB)] for i in range(size)]
        logs.append(seated(log, names, date=f"2026-10-{day + 1:02d}"))
    return logs


def direct_ratings(logs: list[dict]) -> dict[str, tuple[float, float, int]]:
    """(μ, σ, games) per name from openskill called directly, game by game in date order."""
    model = PlackettLuce()
    ratings: dict[str, object] = {}
    games: dict[str, int] = {}
    for log in sorted(logs, key=lambda g: g["date"]):
        protocol = replay(parse_game(log))
        ranks = places(protocol.score, protocol.winner)
        teams = [[ratings.get(n) or model.rating()] for n in log["players"]]
        for name, team in zip(log["players"], model.rate(teams, ranks=ranks), strict=True):
            ratings[name] = team[0]
            games[name] = games.get(name, 0) + 1
    return {n: (r.mu, r.sigma, games[n]) for n, r in ratings.items()}


def test_ratings_equal_openskill_called_directly(st):
    """Every player's μ-based shown rating equals openskill's on the same standings in the
    same order; a rating is shown only after MIN_GAMES rated games."""
    logs = evening_logs()
    for log in reversed(logs):  # stored in another order than they were played
        add(st, log)
    club = Club(st.db)
    expected = direct_ratings(logs)
    for player in club.roster():
        figures = club.player(player.id)
        mu, sigma, games = expected[player.name]
        assert figures.rated_games == games
        shown = round(40 * (mu - 3 * sigma))
        assert figures.rating == (shown if games >= MIN_GAMES else None)
        assert figures.rating_steps[-1].after == shown
        assert sum(s.change for s in figures.rating_steps) == shown


def test_an_edit_of_an_old_game_changes_what_follows_and_nothing_before(st):
    """Deleting the last deal of the third game (so it is unfinished) keeps the rating
    steps of the first two games and changes the ratings after it."""
    logs = evening_logs()
    ids = [add(st, log) for log in logs]
    club = Club(st.db)
    before = {p.id: club.player(p.id) for p in club.roster()}
    last = st.slots(ids[2])[-1].id
    st.revise_deal(ids[2], last, None, "delete")
    after = {p.id: club.player(p.id) for p in club.roster()}
    changed = False
    for pid, old in before.items():
        new = after[pid]
        early = [s for s in old.rating_steps if s.game_id in ids[:2]]
        assert early == [s for s in new.rating_steps if s.game_id in ids[:2]]
        assert ids[2] not in [s.game_id for s in new.rating_steps]
        changed |= old.rating_steps != new.rating_steps
    assert changed
    third = set(logs[2]["players"])
    for pid, old in before.items():
        if old.player.name in third:
            assert after[pid]["finished"].value == old["finished"].value - 1
            assert ids[2] in [g.game_id for g in after[pid].unfinished]
    expected = direct_ratings([log for i, log in enumerate(logs) if i != 2])
    for new in after.values():
        mu, sigma, _games = expected[new.player.name]
        assert new.rating_steps[-1].after == round(40 * (mu - 3 * sigma))
