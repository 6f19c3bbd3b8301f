"""Floods and clean-up: imported games carry their totals, the list is paged, the host
archives and deletes games (list and CLI) with a confirmation and an undo window, and all
guests together may hold only so many games."""

from __future__ import annotations

import io
import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from reliability_rig import HEAD, Phone, csrf_of, pattern

from scorer import create_app, store
from scorer.cli import main as cli

HOST = "cleanup-host-key-0123456789"


@pytest.fixture
def app(tmp_path):
    """The app with the creation limits on: 3 guests' games in all, no rate limit to hit."""
    return create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "i"),
                       "SECRET_KEY": "s", "HOST_KEY": HOST, "CREATE_LIMITS": True,
                       "CREATE_PER_WINDOW": 100, "MAX_GUEST_GAMES": 3})


def host_of(app) -> Phone:
    """A browser holding the host key."""
    host = Phone(app)
    host.client.get("/?key=" + HOST)
    return host


def opened(app) -> store.Store:
    """The app's database, opened beside it."""
    return store.Store(store.connect(app.config["DATABASE"]))


def upload(phone: Phone, log: dict):
    """POST a game file to the import form."""
    html = phone.client.get("/").get_data(as_text=True)
    body = json.dumps(log, ensure_ascii=False).encode()
    return phone.client.post("/import", data={"csrf_token": csrf_of(html),
                                              "file": (io.BytesIO(body), "g.json")})


def test_an_imported_game_carries_its_totals_so_the_list_replays_nothing(app, monkeypatch):
    """The import stores the end totals of the game's first version (web and CLI); the
    host's first list view then replays no game at all (a flood of 100 imported 2000-deal
    games took 40 s and 508 MB to list when each was replayed)."""
    guest = Phone(app)
    assert upload(guest, {**HEAD, "deals": [pattern(i) for i in range(30)]}).status_code == 302
    st = opened(app)
    try:
        game = st.games(None)[0]
        assert st.cached_totals([game.id]) == {game.id: (1, None, [105, 105, 10])}
    finally:
        st.db.close()

    def no_replay(*_args, **_kwargs):
        raise AssertionError("the list replayed a game")

    monkeypatch.setattr("scorer.web.games.load", no_replay)
    page = host_of(app).client.get("/").get_data(as_text=True)
    assert "Аня 105" in page and "Вика 10" in page


def test_the_cli_import_stores_totals_too(app, tmp_path):
    """`import FILE` stores the totals with the game."""
    path = tmp_path / "g.json"
    path.write_text(json.dumps({**HEAD, "deals": [pattern(i) for i in range(7)]}),
                    encoding="utf-8")
    assert cli(["import", str(path), "--instance", str(tmp_path / "i")]) == 0
    st = opened(app)
    try:
        game = st.games(None)[0]
        assert st.cached_totals([game.id])[game.id][0] == 1
    finally:
        st.db.close()


def titled_games(app, count: int) -> list[store.GameRow]:
    """Store games titled G0, G1, … one second apart (G{count-1} the newest)."""
    st = opened(app)
    try:
        rows = [st.create_game({**HEAD, "title": f"G{i}"}) for i in range(count)]
        with st.writing():
            for i, row in enumerate(rows):
                stamp = (datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=i)).isoformat()
                st.db.execute("update games set updated = ? where id = ?", [stamp, row.id])
        return rows
    finally:
        st.db.close()


def titles(html: str) -> list[str]:
    """The game titles a list page shows, in order."""
    return re.findall(r"<b>(G\d+)</b>", html)


def test_the_list_is_paged_newest_first_with_plain_links(app):
    """120 games: 50 a page, newest first; «Older games» and «Newer games» are plain
    links (no JavaScript), and the last page holds the 20 oldest."""
    titled_games(app, 120)
    host = host_of(app)
    first = host.client.get("/").get_data(as_text=True)
    assert titles(first) == [f"G{i}" for i in range(119, 69, -1)]
    older = re.search(r'href="([^"]+)" rel="next"', first).group(1).replace("&amp;", "&")
    assert 'rel="prev"' not in first
    second = host.client.get(older).get_data(as_text=True)
    assert titles(second) == [f"G{i}" for i in range(69, 19, -1)]
    third = host.client.get(re.search(r'href="([^"]+)" rel="next"', second).group(1)
                            .replace("&amp;", "&")).get_data(as_text=True)
    assert titles(third) == [f"G{i}" for i in range(19, -1, -1)]
    assert 'rel="next"' not in third
    newer = re.search(r'href="([^"]+)" rel="prev"', third).group(1).replace("&amp;", "&")
    assert titles(host.client.get(newer).get_data(as_text=True)) == titles(second)


def manage(phone: Phone, game: int, action: str, **extra):
    """POST the list's manage form for one game."""
    html = phone.client.get("/").get_data(as_text=True)
    return phone.client.post("/manage", data={"csrf_token": csrf_of(html), "game": str(game),
                                              "action": action, **extra})


def test_the_host_archives_deletes_after_a_confirmation_and_undoes(app):
    """Archive lists a game apart (its link still opens); delete first asks, then the
    links answer 404 and the list shows «deleted — undo»; undo brings it all back; a
    guest may do none of it."""
    a, b = titled_games(app, 2)
    host = host_of(app)
    assert manage(host, a.id, "archive").status_code == 302
    assert titles(host.client.get("/").get_data(as_text=True)) == ["G1"]
    archived = host.client.get("/?shelf=archived").get_data(as_text=True)
    assert titles(archived) == ["G0"] and "Разархивировать" in archived
    assert "1 игра в архиве" in host.client.get("/").get_data(as_text=True)
    assert host.client.get(f"/g/{a.edit_token}").status_code == 200
    asked = manage(host, b.id, "delete")
    assert asked.status_code == 200 and "Удалить эту игру?" in asked.get_data(as_text=True)
    assert host.client.get(f"/g/{b.edit_token}").status_code == 200
    assert manage(host, b.id, "delete", confirm="yes").status_code == 302
    assert host.client.get(f"/g/{b.edit_token}").status_code == 404
    assert host.client.get(f"/v/{b.view_token}").status_code == 404
    listed = host.client.get("/").get_data(as_text=True)
    assert re.search(r"G1 — игра удалена —</span>\s*<button[^>]*>отменить</button>", listed)
    assert manage(host, b.id, "undelete").status_code == 302
    assert host.client.get(f"/g/{b.edit_token}").status_code == 200
    assert titles(host.client.get("/").get_data(as_text=True)) == ["G1"]
    guest = Phone(app)
    guest.client.get(f"/g/{b.edit_token}")
    assert manage(guest, b.id, "delete", confirm="yes").status_code == 403
    assert host.client.get(f"/g/{b.edit_token}").status_code == 200


def test_a_deleted_game_is_removed_for_good_after_its_days(app):
    """A game deleted more than DELETED_DAYS ago is purged at the host's next look at the
    list: every row of it is gone and the file gets a new generation (its id may return)."""
    a, b = titled_games(app, 2)
    host = host_of(app)
    manage(host, a.id, "delete", confirm="yes")
    manage(host, b.id, "delete", confirm="yes")
    st = opened(app)
    try:
        old = (datetime.now(UTC) - timedelta(days=store.DELETED_DAYS, hours=1)).isoformat()
        with st.writing():
            st.db.execute("update games set deleted = ? where id = ?", [old, a.id])
        generation = st.generation()
        host.client.get("/")
        assert st.game(a.id) is None and st.game(b.id) is not None
        assert st.generation() != generation
        assert st.db.execute("select count(*) from deals d left join games g on"
                             " g.id = d.game_id where g.id is null").fetchone()[0] == 0
    finally:
        st.db.close()


def start(phone: Phone):
    """POST the new-game form once."""
    html = phone.client.get("/new").get_data(as_text=True)
    return phone.client.post("/new", data={"csrf_token": csrf_of(html), "first_dealer": "0",
                                           "preset": "classic", "action": "start",
                                           "name0": "Аня", "name1": "Борис"})


def test_all_guests_together_hold_only_so_many_games(app):
    """Three guests' games (the cap set to 3), each from a new browser: the fourth guest
    is refused (429), the host is not and is told on the list; a deleted game frees its
    place."""
    for _ in range(3):
        assert start(Phone(app)).status_code == 302
    refused = start(Phone(app))
    assert refused.status_code == 429
    assert "начатых гостями" in refused.get_data(as_text=True)
    assert upload(Phone(app), {**HEAD, "deals": []}).status_code == 429
    host = host_of(app)
    assert start(host).status_code == 302
    listed = host.client.get("/").get_data(as_text=True)
    assert 'id="guest-cap"' in listed and "Гости" in listed
    st = opened(app)
    try:
        guest_game = next(r for r in st.games(None) if r.guest)
    finally:
        st.db.close()
    manage(host, guest_game.id, "delete", confirm="yes")
    assert 'id="guest-cap"' not in host.client.get("/").get_data(as_text=True)
    assert start(Phone(app)).status_code == 302


def test_every_way_to_start_a_game_counts_the_cap_in_its_write(app, monkeypatch):
    """With the early check passed by everyone (as when guests start games at the same
    moment), the form, an import and «Ещё партию» are still refused at the cap, by the
    count the store makes inside its write transaction: 429 with the cap's words, nothing
    stored past it."""
    from scorer.web import access

    keeper = Phone(app)
    first = start(keeper)
    assert first.status_code == 302
    token = first.headers["Location"].rstrip("/").rsplit("/", 1)[-1]
    for _ in range(2):
        assert start(Phone(app)).status_code == 302
    monkeypatch.setattr(access, "creation_refusal", lambda: None)
    page = keeper.client.get("/new").get_data(as_text=True)  # the session's CSRF token
    refused = [start(Phone(app)), upload(Phone(app), {**HEAD, "deals": []}),
               keeper.client.post(f"/g/{token}/again", data={"csrf_token": csrf_of(page)})]
    assert [r.status_code for r in refused] == [429] * 3
    assert all("начатых гостями" in r.get_data(as_text=True) for r in refused)
    st = opened(app)
    try:
        assert st.guest_games() == 3
    finally:
        st.db.close()


def test_the_cli_lists_archives_deletes_and_undeletes(app, tmp_path, capsys, monkeypatch):
    """`games list|archive|unarchive|delete|undelete`: delete asks first (no: nothing
    changes), the links of a deleted game answer 404, undelete brings it back."""
    a, b = titled_games(app, 2)
    where = ["--instance", str(tmp_path / "i")]
    assert cli(["games", "list", *where]) == 0
    out = capsys.readouterr().out
    assert out.index("G1") < out.index("G0") and "games: 2 not archived" in out
    assert cli(["games", "archive", str(a.id), *where]) == 0
    assert "game 1 (G0): archived" in capsys.readouterr().out
    cli(["games", "list", *where])
    assert "G0" not in capsys.readouterr().out
    cli(["games", "list", "--shelf", "archived", *where])
    assert "G0" in capsys.readouterr().out
    monkeypatch.setattr("builtins.input", lambda _prompt: "n")
    assert cli(["games", "delete", str(b.id), *where]) == 1
    assert Phone(app).client.get(f"/g/{b.edit_token}").status_code == 200
    monkeypatch.setattr("builtins.input", lambda _prompt: "y")
    assert cli(["games", "delete", str(b.id), *where]) == 0
    assert Phone(app).client.get(f"/g/{b.edit_token}").status_code == 404
    cli(["games", "list", "--shelf", "deleted", *where])
    assert "G1" in capsys.readouterr().out
    assert cli(["games", "undelete", str(b.id), *where]) == 0
    assert Phone(app).client.get(f"/g/{b.edit_token}").status_code == 200
    assert cli(["games", "unarchive", "999", *where]) == 2
