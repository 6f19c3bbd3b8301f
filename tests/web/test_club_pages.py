"""The club's pages over a real SQLite file: the host's roster, history and seasons, a
player's page, the season table, where each figure comes from, CSV, ETags and the
read-only share links."""

from __future__ import annotations

import csv
import io
import re

import pytest
from club_web import as_host, csrf, store_club

from scorer import create_app
from scorer.club import Club
from scorer.club import service as club_service
from scorer.club_store import ClubStore
from scorer.web.db import get_store
from scorer.web.lru import clear_caches


@pytest.fixture
def host(app, client):
    """A host browser over a club of six finished games and a guest's game."""
    ids = store_club(app, guest_game=True)
    as_host(client)
    return ids


def club_of(app) -> Club:
    """The club over the app's database (inside an app context)."""
    return Club(get_store().db)


def player_id(app, name: str) -> int:
    """A live player's id by name."""
    with app.app_context():
        found = [p.id for p in club_of(app).roster() if p.name == name]
    assert found, name
    return found[0]


def text(response) -> str:
    """The answer's HTML."""
    return response.get_data(as_text=True)


def test_club_pages_are_the_hosts_only(app, client):
    """A browser without the host key opens none of the host's club pages."""
    store_club(app)
    for path in ("/club", "/club/history", "/club/seasons", "/club/table", "/club/players/1",
                 "/club/table.csv", "/club/results.csv", "/club/sources/p1.wins",
                 "/club/players/1/rating.svg", "/club/share?kind=season"):
        assert client.get(path).status_code == 403, path


def test_the_player_page_shows_every_figure_linked_to_its_games(app, client, host):
    """Every figure of docs/STATS.md is on the page, its value the club's, and each value
    with sources links to a page listing exactly those games and deals."""
    anya = player_id(app, "Аня")
    html = text(client.get(f"/club/players/{anya}"))
    with app.app_context():
        figures = club_of(app).player(anya)
    for key in ("games", "finished", "wins", "win_pct", "avg_place", "avg_total", "best_total",
                "worst_total", "longest_streak", "contracts_taken", "contracts_made",
                "made_pct", "avg_contract", "largest_made", "avg_shortfall", "raspis",
                "dark_taken", "dark_made", "golden_taken", "golden_made", "bolts",
                "bolt_penalties", "barrel_entries", "barrel_falls", "barrel_wins",
                "samosvals"):
        row = re.search(rf'<tr id="fig-{key}">(.*?)</tr>', html, re.S)
        assert row, key
        figure = figures[key]
        if figure.sources:
            assert f'/club/sources/p{anya}.{key}"' in row.group(1), key
    assert 'id="by-size"' in html and 'id="head-to-head"' in html
    assert f'/club/players/{anya}/rating.svg' in html
    # The bolts' sources page lists each game with its deals, linked to the game page.
    page = text(client.get(f"/club/sources/p{anya}.bolts"))
    for game_id, deal in figures["bolts"].sources:
        with app.app_context():
            token = get_store().game(game_id).edit_token
        assert f"/g/{token}?rows=all#row-{deal}" in page
    assert text(client.get(f"/club/sources/p{anya}.nothing")) and \
        client.get(f"/club/sources/p{anya}.nothing").status_code == 404


def test_the_season_table_links_every_cell_and_matches_the_csv(app, client, host):
    """The table is sorted by points, every counted cell links to its games, the CSV
    downloads are the club's rows."""
    html = text(client.get("/club/table"))
    with app.app_context():
        c = club_of(app)
        table = c.season_table()
        expected_csv = c.season_csv()
        results = c.results_csv()
    names = re.findall(r'<tr id="row-p(\d+)">', html)
    assert [int(n) for n in names] == [r.player.id for r in table.rows]
    for r in table.rows:
        for column in ("games", "wins", "points", "avg_place"):
            assert f"/club/sources/t{r.player.id}-{column}" in html
    cell = text(client.get(f"/club/sources/t{table.rows[0].player.id}-games"))
    assert cell.count('<li><a href="/g/') == len(table.rows[0].games.games)
    got = list(csv.reader(io.StringIO(text(client.get("/club/table.csv")))))
    assert got == [[str(v) if v is not None else "" for v in row] for row in expected_csv]
    got = list(csv.reader(io.StringIO(text(client.get("/club/results.csv")))))
    assert len(got) == len(results) and got[0] == results[0]
    assert 'id="records"' in html and 'id="record-highest_total"' in html


def test_pages_answer_304_until_the_club_changes_and_never_replay_for_a_read(
        app, client, host, monkeypatch):
    """The ETag is the club's: the same page again is a 304; a rename changes it; reading
    pages of a known state replays no game."""
    anya = player_id(app, "Аня")
    first = client.get("/club/table")
    tag = first.headers["ETag"]
    assert client.get("/club/table", headers={"If-None-Match": tag}).status_code == 304
    replays = []
    monkeypatch.setattr(club_service, "summary_from",
                        lambda *a: replays.append(a) or pytest.fail("replayed"))
    for path in (f"/club/players/{anya}", f"/club/sources/p{anya}.wins",
                 f"/club/players/{anya}/rating.svg", "/club/table.csv"):
        assert client.get(path).status_code == 200, path
    assert replays == []
    html = text(client.get("/club"))
    client.post("/club/rename", data={"csrf_token": csrf(html), "player": anya,
                                      "name": "Анна"})
    again = client.get("/club/table", headers={"If-None-Match": tag})
    assert again.status_code == 200 and "Анна" in text(again)


def test_rename_merge_relink_count_and_undo_through_the_forms(app, client, host):
    """The host renames, merges, re-links a seat and counts a stranger's game; each is in
    the history and undo brings the figures back."""
    anya, gosha = player_id(app, "Аня"), player_id(app, "Гоша")
    token = csrf(text(client.get("/club")))
    before = text(client.get("/club/table.csv"))
    # A stranger's game does not count until the host counts it.
    assert "Дина" not in before
    r = client.post(f"/club/games/{host['guest']}/count",
                    data={"csrf_token": token, "counted": "1", "back": "roster"})
    assert r.status_code == 302
    assert "Дина" in text(client.get("/club/table.csv"))
    # Rename, then a refused merge (they sat together), then a re-link.
    client.post("/club/rename", data={"csrf_token": token, "player": gosha, "name": "Георгий"})
    r = client.post("/club/merge", data={"csrf_token": token, "keep": anya, "gone": gosha},
                    follow_redirects=True)
    assert "оба сидели за одним столом" in text(r)
    seats = text(client.get(f"/club/games/{host['guest']}"))
    assert 'id="seat-0"' in seats
    dina = player_id(app, "Дина")
    r = client.post(f"/club/games/{host['guest']}/relink",
                    data={"csrf_token": token, "seat": "0", "player": str(gosha)})
    assert r.status_code == 302
    with app.app_context():
        assert club_of(app).links(host["guest"])[0] == gosha
    history = text(client.get("/club/history"))
    changes = re.findall(r'name="change" value="(\d+)"', history)
    assert "Георгий" in history and len(changes) == 3  # count, rename, re-link
    for change in changes:  # newest first: undo everything
        client.post("/club/undo", data={"csrf_token": token, "change": change})
    assert text(client.get("/club/table.csv")) == before
    with app.app_context():
        assert club_of(app).links(host["guest"]) == {}  # the count's links went too
    assert dina not in [p.id for p in club_of_roster(app)]


def club_of_roster(app):
    """The live players now."""
    with app.app_context():
        return club_of(app).roster()


def test_a_season_holds_its_dates_and_a_bad_one_is_refused(app, client, host):
    """The host names a season; its table counts only its games; a season ending before
    it starts is refused with the reason and nothing is added."""
    token = csrf(text(client.get("/club/seasons")))
    r = client.post("/club/seasons", data={"csrf_token": token, "name": "Осень 2026",
                                           "start": "2026-10-01", "end": "2026-10-31",
                                           "points3": "3/1/0"}, follow_redirects=True)
    assert "Осень 2026" in text(r)
    with app.app_context():
        season = club_of(app).seasons()[0]
    table = text(client.get(f"/club/table?season={season.id}"))
    assert "Осень 2026" in table and "Гоша" not in table.split('id="season-table"')[1] \
        .split("</table>")[0]
    r = client.post("/club/seasons", data={"csrf_token": token, "name": "Зима",
                                           "start": "2026-12-31", "end": "2026-12-01"},
                    follow_redirects=True)
    assert "сезон кончается в день начала или позже" in text(r)
    with app.app_context():
        assert [s.name for s in club_of(app).seasons()] == ["Осень 2026"]


def test_share_links_are_read_only_and_open_only_their_page(app, client, host):
    """/s/<token> shows the table (or a player) with no edit link or edit token; a
    player's link opens no other player's figures; a replaced link opens nothing."""
    anya, boris = player_id(app, "Аня"), player_id(app, "Борис")
    share = text(client.get("/club/share?kind=season"))
    url = re.search(r'id="share-url" class="url" value="[^"]*?(/s/[^"]+)"', share) or \
        re.search(r'value="http://localhost(/s/[^"]+)"', share)
    path = url.group(1)
    with app.app_context():
        rows = get_store().games(None)
    stranger = app.test_client()
    page = text(stranger.get(path))
    assert "Турнирная таблица" in page
    for row in rows:
        assert row.edit_token not in page
    assert "/g/" not in page and "/club/" not in page and "csrf" not in page
    cell = text(stranger.get(f"{path}/sources/t{anya}-wins"))
    assert "/v/" in cell and "/g/" not in cell
    assert all(row.edit_token not in cell for row in rows)
    assert stranger.get(f"{path}/table.csv").status_code == 200
    assert stranger.get(f"{path}/results.csv").status_code == 200
    assert stranger.get(f"{path}/other.csv").status_code == 404
    assert stranger.post(path).status_code in (403, 405)
    # A player's link: that player's figures only.
    share = text(client.get(f"/club/share?kind=player&ref={anya}"))
    player_path = re.search(r'value="http://localhost(/s/[^"]+)"', share).group(1)
    assert "Аня" in text(stranger.get(player_path))
    assert stranger.get(f"{player_path}/sources/p{anya}.wins").status_code == 200
    assert stranger.get(f"{player_path}/sources/p{boris}.wins").status_code == 404
    assert stranger.get(f"{player_path}/sources/t{anya}-wins").status_code == 404
    assert stranger.get(f"{player_path}/rating.svg").status_code == 200
    assert stranger.get(f"{player_path}/table.csv").status_code == 404  # a season's only
    # Replacing the link: the old one opens nothing.
    token = csrf(share)
    client.post(f"/club/share/replace?kind=player&ref={anya}", data={"csrf_token": token})
    assert stranger.get(player_path).status_code == 404


def test_an_unfinished_game_is_listed_apart_and_counts_nowhere(app, client, host):
    """A host's game without a winner is under «недоигранные партии», not in the table."""
    from club_games import add, finished_log, seated

    before = text(client.get("/club/table.csv"))
    with app.app_context():
        add(get_store(), seated(finished_log(3, 7), ["Аня", "Борис", "Дина"], "2026-11-21",
                                cut=10))
    html = text(client.get("/club/table"))
    assert 'id="unfinished"' in html and "Дина" in html.split('id="unfinished"')[1]
    assert text(client.get("/club/table.csv")) == before


def test_the_player_page_uses_the_words_of_stats_md(app, client, host):
    """Every figure's Russian word in docs/STATS.md's table is on the player's page, and
    the head-to-head, rival and nemesis words too."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "STATS.md").read_text("utf-8")
    table = doc.split("| Name | Figure | Russian |")[1].split("\n\n")[0]
    words = [line.split("|")[3].strip() for line in table.splitlines()[2:]]
    assert len(words) == 26
    html = text(client.get(f"/club/players/{player_id(app, 'Аня')}")).lower()
    missing = [w for w in words + ["выше", "ниже", "вровень", "соперник", "личные встречи"]
               if w.lower() not in html]
    assert missing == []


def test_share_tokens_stay_out_of_the_logs():
    """A /s/<token> path is cut from log lines like a game's link."""
    from scorer.web.app import redacted

    assert redacted("GET /s/abcdefghijklmnopqrstuvwx/table.csv") == "GET /s/<…>/table.csv"


def test_a_kept_club_page_equals_a_fresh_render(app, client, host):
    """Every kept page (table, player, sources, chart, CSV; the host's and a shared link's)
    in each language is byte for byte what a render with the club's memory cleared gives,
    before and after a change: the languages in turn, so a key that forgot one would
    serve another language's page."""
    anya = player_id(app, "Аня")
    share = text(client.get("/club/share?kind=season"))
    shared = re.search(r'value="http://localhost(/s/[^"]+)"', share).group(1)
    paths = ["/club/table", f"/club/players/{anya}", f"/club/sources/p{anya}.wins",
             f"/club/players/{anya}/rating.svg", "/club/table.csv", shared]

    def served(fresh: bool = False) -> list[bytes]:
        """Each page in each language, as a browser that has been here before gets it
        (fresh: with the club's memory cleared before each)."""
        pages = []
        for lang in ("ru", "uk", "pl", "en"):
            client.get(f"/lang/{lang}")
            for path in paths:
                if fresh:
                    clear_caches(app)
                answer = client.get(path)
                assert answer.status_code == 200, path
                pages.append(answer.get_data())
        return pages

    for change in (False, True):
        if change:
            html = text(client.get("/club"))
            client.post("/club/rename", data={"csrf_token": csrf(html), "player": anya,
                                              "name": "Анна"})
            client.get("/club")  # where the rename lands: its one-off message is shown there
        kept = served()  # made now or from memory
        assert first_difference(served(), kept) is None
        assert first_difference(served(fresh=True), kept) is None


def test_the_clubs_memory_is_the_apps_and_emptied_with_its_caches(app, client, host,
                                                                   monkeypatch):
    """The club's states and parsed summaries live in the app (another app on the same
    file keeps its own) and clear_caches empties them: the next page reads every summary
    from the file again, and replays none."""
    assert client.get("/club/table").status_code == 200
    states, summaries = (app.extensions[f"scorer_club_{k}"] for k in ("states", "summaries"))
    assert len(states.items) == 1 and len(summaries.items) == 6  # the counted games
    read = []
    real = ClubStore.summaries
    monkeypatch.setattr(ClubStore, "summaries", lambda self, ids: read.append(len(ids))
                        or real(self, ids))
    monkeypatch.setattr(club_service, "summary_from", lambda *a: pytest.fail("replayed"))
    assert client.get("/club/table").status_code == 200
    assert read == []  # from the app's memory
    clear_caches(app)
    assert len(states.items) == len(summaries.items) == 0
    assert client.get("/club/table").status_code == 200
    assert read == [6] and len(summaries.items) == 6
    other = create_app({"TESTING": True, "INSTANCE_PATH": app.instance_path,
                        "SECRET_KEY": "other", "HOST_KEY": "k" * 24})
    assert len(other.extensions["scorer_club_states"].items) == 0


def first_difference(pages: list[bytes], others: list[bytes]) -> tuple[int, str] | None:
    """Where two lists of answers first differ (the page's number and the text around)."""
    for n, (a, b) in enumerate(zip(pages, others, strict=True)):
        if a != b:
            i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
            return n, a[max(0, i - 120):i + 80].decode(errors="replace") + " ≠ " + \
                b[max(0, i - 120):i + 80].decode(errors="replace")
    return None


def test_the_host_adds_a_player_before_their_first_game(app, client, host):
    """«Добавить игрока» on the roster: the new player is listed and is a chip on the next
    new game; the same name twice is refused; the history can take it back."""
    roster = text(client.get("/club"))
    assert 'id="add-player"' in roster and "Добавить игрока" in roster
    token = csrf(roster)
    r = client.post("/club/add", data={"csrf_token": token, "name": "  Дина  "},
                    follow_redirects=True)
    assert "Добавлен игрок: Дина" in text(r)
    assert re.search(r'<b>Дина</b>\s*<small>0 партий', text(client.get("/club")))
    assert 'value="Дина" class="chip"' in text(client.get("/new"))
    r = client.post("/club/add", data={"csrf_token": token, "name": "Дина"},
                    follow_redirects=True)
    assert "Дина — уже игрок клуба" in text(r)
    assert text(client.get("/club")).count("<b>Дина</b>") == 1
    with app.app_context():
        added = club_of(app).history()[0]
    assert added.kind == "add"
    client.post("/club/undo", data={"csrf_token": token, "change": added.id})
    assert "<b>Дина</b>" not in text(client.get("/club"))


def test_games_are_named_as_a_person_knows_them(app, client, host):
    """A player's page, the records and the history name a game by its day and the time it
    was started (four games of one evening are told apart), never by its stored id."""
    anya = player_id(app, "Аня")
    page = text(client.get(f"/club/players/{anya}"))
    games = page.split('id="games"', 1)[1]
    labels = re.findall(r"<b>([^<]+)</b> · ", games)
    assert labels and all(re.fullmatch(r"\d{4}-\d\d-\d\d, \d\d:\d\d", x) for x in labels), labels
    records = text(client.get("/club/table")).split('id="records"', 1)[1]
    assert re.search(r"<small>\d{4}-\d\d-\d\d, \d\d:\d\d \(", records), records[:800]
    token = csrf(text(client.get("/club")))
    client.post(f"/club/games/{host['guest']}/count",
                data={"csrf_token": token, "counted": "1", "back": "roster"})
    history = text(client.get("/club/history"))
    assert re.search(r"Партия 2026-11-20, \d\d:\d\d \(Дина · Аня · Вика\) засчитана", history)
    assert not re.search(r"Партия \d+ засчитана", history)
