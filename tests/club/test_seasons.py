"""Seasons, league points, the records board, share links and the CSV rows."""

from __future__ import annotations

import pytest
from club_games import add, finished_logs, seated

from scorer.club import Club, ClubError
from scorer.club.league import league_points
from scorer.engine import RuleError, parse_game, replay


def test_league_points_default_and_shared_places():
    """3/1/0 for three, 3/2/1/0 for four, 2/0 for two; a shared place shares the points."""
    table = {2: (2, 0), 3: (3, 1, 0), 4: (3, 2, 1, 0)}
    assert league_points([1, 2, 3], table) == [3, 1, 0]
    assert league_points([2, 1, 3, 4], table) == [2, 3, 1, 0]
    assert league_points([1, 2], table) == [2, 0]
    assert league_points([1, 2, 2], table) == [3, 0.5, 0.5]
    assert league_points([1, 2, 2, 4], table) == [3, 1.5, 1.5, 0]


def test_a_season_holds_the_games_of_its_dates_and_sorts_by_points(st):
    """Only games dated inside the season count in it; rows are sorted by points, each
    with the games that make it; «всё время» holds every game."""
    log = next(g for g in finished_logs() if len(g["players"]) == 3)
    winner = replay(parse_game(log)).winner
    names = ["Аня", "Борис", "Вика"]
    inside = [add(st, seated(log, names, date=f"2026-09-{d:02d}")) for d in (1, 30)]
    outside = add(st, seated(log, names[1:] + names[:1], date="2026-10-01"))
    club = Club(st.db)
    autumn = club.add_season("Осень 2026", "2026-09-01", "2026-09-30")
    table = club.season_table(autumn.id)
    assert table.games == tuple(inside)
    top = table.rows[0]
    assert top.player.name == names[winner]
    assert top.points.value == 6 and top.wins.value == 2 and top.points.games == tuple(inside)
    assert [r.points.value for r in table.rows] == sorted(
        (r.points.value for r in table.rows), reverse=True)
    assert set(club.season_table().games) == {*inside, outside}
    with pytest.raises(ClubError):
        club.add_season("Зима", "2026-12-31", "2026-12-01")
    longer = club.add_season("Осень", "2026-09-01", "2026-10-31", {3: [5, 2, 0]})
    assert club.season_table(longer.id).rows[0].points.value in (10, 12, 15)
    assert set(club.season_table(longer.id).games) == {*inside, outside}


@pytest.mark.parametrize("name, rule", [
    ("Осень\u202e", "text.hidden"), ("Осень\x00", "text.hidden"), ("Осень\x1b", "text.hidden"),
    ("Осень\u200b", "text.hidden"), ("Осень\ue000", "text.unreadable"),
    ("Осень\U000e0041", "text.hidden"), ("Осень\u2800", "text.invisible"),
    ("Осень\u3164", "text.invisible")])
def test_a_season_name_goes_through_the_text_rules(st, name, rule):
    """A season's name took U+202E, NUL, ESC, zero-width, private-use and tag characters,
    U+2800 and U+3164 (and a restore refuses them): refused like a player's name, with
    nothing stored (a season is added or deleted, never edited)."""
    club = Club(st.db)
    with pytest.raises(RuleError) as found:
        club.add_season(name, "2026-09-01", "2026-09-30")
    assert found.value.rule == rule
    assert club.seasons() == []
    club.add_season("Осень", "2026-09-01", "2026-09-30")
    with pytest.raises(RuleError):
        club.add_season(name, "2026-10-01", "2026-10-31")
    assert [s.name for s in club.seasons()] == ["Осень"]


def test_records_board_names_the_holder_and_the_game(st):
    """The records come from finished games only, each with the game (and deal) it is in."""
    logs = [seated(g, ["Аня", "Борис", "Вика", "Гоша"][:len(g["players"])],
                   date="2026-10-01") for g in finished_logs()]
    ids = [add(st, log) for log in logs]
    add(st, seated(logs[0], ["Аня", "Борис"], date="2026-10-02", cut=5))  # unfinished
    club = Club(st.db)
    board = club.records()
    protocols = [replay(parse_game(log)) for log in logs]
    best = max(max(p.score) for p in protocols)
    assert board.highest_total.value == best
    assert board.longest_game.value == max(len(log["deals"]) for log in logs)
    assert board.longest_game.game_id in ids
    made = max(r.contract for p in protocols for r in p.rows if r.result == "made")
    assert board.largest_contract.value == made and board.largest_contract.deal is not None


def test_share_tokens_open_only_what_they_were_made_for(st):
    """A share token resolves to its season or player; a replaced one opens nothing."""
    add(st, seated(finished_logs()[2], ["Аня", "Борис", "Вика"], date="2026-10-01"))
    club = Club(st.db)
    player = club.roster()[0].id
    token = club.share_token("player", player)
    assert club.share_token("player", player) == token
    assert club.resolve_share(token) == ("player", player)
    everything = club.share_token("season", None)
    assert club.resolve_share(everything) == ("season", None)
    new = club.replace_share("player", player)
    assert club.resolve_share(token) is None and club.resolve_share(new) == ("player", player)
    assert club.resolve_share("made-up") is None
    with pytest.raises(ClubError):
        club.share_token("game", 1)


def test_csv_rows_of_the_table_and_of_the_results(st):
    """The season table and each game's results as rows with a header."""
    log = finished_logs()[2]
    game = add(st, seated(log, ["Аня", "Борис", "Вика"], date="2026-10-01"))
    club = Club(st.db)
    table = club.season_csv()
    assert table[0][:3] == ["place", "player", "games"] and len(table) == 4
    results = club.results_csv()
    assert len(results) == 4 and {r[0] for r in results[1:]} == {game}
    assert sorted(r[9] for r in results[1:]) == [1, 2, 3]
