"""How long a game was played: from the game's stored time to its last deal's.

The span is read from the real SQLite file's stamps, moved back by hand the way an
evening's clock would have moved them; the words come from the one catalog, with plurals.
"""

from __future__ import annotations

import pytest

from scorer import store
from scorer.engine.texts import duration_text, played_for


def backdate(app, minutes: int) -> None:
    """Move every game's start back by ``minutes`` (as if the table sat down earlier)."""
    db = store.connect(app.config["DATABASE"])
    with db.conn:
        db.execute("update games set created = strftime('%Y-%m-%dT%H:%M:%S+00:00',"
                   " 'now', ?)", [f"-{minutes} minutes"])
    db.close()


def finished_game(table, app, minutes: int) -> str:
    """A two-player game to 200, started ``minutes`` ago and won by its second deal."""
    game = table.new_game(names=("Аня", "Борис"), preset="two-players", target=200)
    backdate(app, minutes)
    for _ in range(2):
        table.deal(game, declarer="0", contract="120", points_0="120", points_1="0", nt_1="1")
    return game


@pytest.mark.parametrize(("minutes", "lang", "short", "text"), [
    (160, "ru", True, "Играли 2 ч 40 мин"),
    (160, "ru", False, "Играли 2 часа 40 минут"),
    (61, "ru", False, "Играли 1 час 1 минута"),
    (300, "ru", False, "Играли 5 часов"),
    (22, "ru", False, "Играли 22 минуты"),
    (125, "uk", False, "Грали 2 години 5 хвилин"),
    (125, "uk", True, "Грали 2 год 5 хв"),
    (300, "pl", False, "Grano 5 godzin"),
    (62, "pl", False, "Grano 1 godzina 2 minuty"),
    (160, "pl", True, "Grano 2 godz. 40 min"),
    (61, "en", False, "Played for 1 hour 1 minute"),
    (160, "en", True, "Played for 2 h 40 min"),
])
def test_the_length_reads_with_plurals(minutes, lang, short, text):
    """Hours and minutes take each language's plural form; the sheet's short form too."""
    assert played_for(minutes, lang, short) == text


def test_under_an_hour_says_only_minutes_and_zero_says_zero():
    """No «0 h»; a whole hour has no «0 min»."""
    assert duration_text(45, "ru") == "45 минут"
    assert duration_text(120, "ru", short=True) == "2 ч"


def test_a_finished_game_says_when_it_started_ended_and_how_long(table, app):
    """The page of a finished game says how long they played, from the stored times."""
    game = finished_game(table, app, 160)
    html = table.client.get(game).get_data(as_text=True)
    assert 'id="played"' in html
    assert "Играли 2 часа 40 минут" in html
    view = table.client.get(table.view_path(game)).get_data(as_text=True)
    assert "Играли 2 часа 40 минут" in view


def test_an_unfinished_game_and_an_instant_one_say_nothing(table, app):
    """No length before the end; none for a game whose stamps are all one (an import)."""
    game = table.new_game(names=("Аня", "Борис"), preset="two-players", target=200)
    backdate(app, 30)
    table.deal(game, declarer="0", contract="120", points_0="120", points_1="0", nt_1="1")
    assert 'id="played"' not in table.client.get(game).get_data(as_text=True)
    s = store.Store(store.connect(app.config["DATABASE"]))
    row = s.create_game(s.stored(1).head, s.records(1) * 2)
    assert s.span(row.id).minutes is None
    assert s.span(1).minutes == 30


def test_the_club_table_shows_the_longest_game_and_the_average_length(table, app):
    """The records board has the longest game by time; the averages follow it per size."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from club_web import as_host

    as_host(table.client)
    finished_game(table, app, 160)
    html = table.client.get("/club/table").get_data(as_text=True)
    assert 'id="record-longest_time"' in html
    record = html.split('id="record-longest_time"')[1].split("</tr>")[0]
    assert "самая долгая партия (по времени)" in record and "2 часа 40 минут" in record
    assert "2 игрока: 2 часа 40 минут (1 партия)" in html
