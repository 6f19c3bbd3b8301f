"""The new-game form with the club's players as chips, typed names linked to known
players, and «Ещё партию с теми же» at a game's end (Flask client, real SQLite)."""

from __future__ import annotations

import re

from club_web import as_host, csrf, store_club

from scorer.club import Club
from scorer.web.db import get_store


def chip_names(html: str) -> list[str]:
    """The chips on the form, in order."""
    block = html.split('id="player-chips"')[1].split("</div>")[0]
    return re.findall(r'class="chip" aria-pressed="\w+">([^<]+)</button>', block)


def field(html: str, n: int) -> str:
    """The value of name field n."""
    found = re.search(rf'id="name{n}" name="name{n}" value="([^"]*)"', html)
    assert found
    return found.group(1)


def test_the_host_sees_known_players_as_chips_recent_first(app, client):
    """Chips list the roster, most recently played first; a guest sees none."""
    store_club(app)
    guest = app.test_client()
    assert 'id="player-chips"' not in guest.get("/new").get_data(as_text=True)
    as_host(client)
    chips = chip_names(client.get("/new").get_data(as_text=True))
    # The last game (2026-11-14) had Гоша, Аня and Борис; Вика last played on 11-07.
    assert chips[-1] == "Вика" and set(chips) == {"Аня", "Борис", "Вика", "Гоша"}


def test_a_chip_works_without_javascript(app, client):
    """A chip is a submit button: it fills the first empty field, a second tap empties it,
    and nothing is created until «Start»."""
    store_club(app)
    as_host(client)
    html = client.get("/new").get_data(as_text=True)
    token = csrf(html)
    base = {"csrf_token": token, "preset": "classic", "first_dealer": "0",
            "name0": "Дина", "name1": "", "name2": "", "name3": ""}
    r = client.post("/new", data={**base, "chip": "Аня"})
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and field(page, 0) == "Дина" and field(page, 1) == "Аня"
    assert 'aria-pressed="true">Аня<' in page
    r = client.post("/new", data={**base, "name1": "Аня", "chip": "Аня"})
    assert field(r.get_data(as_text=True), 1) == ""
    with app.app_context():
        assert len(get_store().games(None)) == 6


def test_a_typed_name_matching_a_known_player_links_to_them(app, client):
    """A name typed with a Latin «A» for the Cyrillic one is the same player; a new name
    makes a new player; a guest's game links nobody."""
    store_club(app)
    as_host(client)
    token = csrf(client.get("/new").get_data(as_text=True))
    r = client.post("/new", data={"csrf_token": token, "preset": "classic", "first_dealer": "0",
                                  "name0": "Aня", "name1": "Борис", "name2": "Ева",
                                  "action": "start"})
    assert r.status_code == 302
    with app.app_context():
        c = Club(get_store().db)
        game = max(g.id for g in get_store().games(None))
        links = c.links(game)
        names = c.names()
        assert [names[links[s]] for s in range(3)] == ["Аня", "Борис", "Ева"]
        assert c.match("Аня") == links[0]
    guest = app.test_client()
    token = csrf(guest.get("/new").get_data(as_text=True))
    r = guest.post("/new", data={"csrf_token": token, "preset": "classic", "first_dealer": "0",
                                 "name0": "Аня", "name1": "Зоя", "action": "start"})
    assert r.status_code == 302
    with app.app_context():
        c = Club(get_store().db)
        game = max(g.id for g in get_store().games(None))
        assert c.links(game) == {} and game in c.games_apart()


def test_another_game_with_the_same_players(app, client):
    """At a finished game's end: a new game with the same players and agreements, the
    first dealer moved on, each seat linked to the same player (a re-linked one too)."""
    ids = store_club(app)
    as_host(client)
    first = ids["Аня"]
    with app.app_context():
        c = Club(get_store().db)
        c.roster()  # the host's games get their links
        row = get_store().game(first)
        gosha = c.match("Гоша")
        c.relink(first, 2, gosha)  # «Вика» at seat 2 was Гоша that evening
    page = client.get(f"/g/{row.edit_token}").get_data(as_text=True)
    assert 'id="again"' in page
    r = client.post(f"/g/{row.edit_token}/again", data={"csrf_token": csrf(page)})
    assert r.status_code == 302
    token = r.headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        made = get_store().game_by_edit_token(token)
        assert made.head["players"] == row.head["players"]
        assert made.head["agreements"] == row.head["agreements"]
        assert made.head["first_dealer"] == (row.head["first_dealer"] + 1) % 3
        c = Club(get_store().db)
        assert c.links(made.id) == c.links(first) and c.links(made.id)[2] == gosha


def test_an_unfinished_game_offers_no_again(app, client, table):
    """«Ещё партию» waits for the end of the game."""
    as_host(client)
    path = table.new_game()
    assert 'id="again"' not in client.get(path).get_data(as_text=True)
