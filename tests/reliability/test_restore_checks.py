"""`restore` copies rows into a database the app makes itself and checks every game with
the engine: a backup that would brick the app is refused in one line, and one whose
derived data, triggers or indexes were tampered with comes back clean."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from reliability_rig import Browser, Server, csrf_of, form_fields, pattern, version_of
from test_backup import edited_backup, refused, scorer, small_instance

from scorer import create_app, store
from scorer.engine import parse_game, replay

HUGE = '{"type": "adjustment", "player": 0, "amount": ' + "9" * 5000 + ', "reason": "other"}'


def third_record(path: Path, text: str) -> Path:
    """Put this text as the stored record of the game's third deal."""
    conn = sqlite3.connect(path)
    conn.execute("update revisions set record = ? where id = 3", [text])
    conn.commit()
    conn.close()
    return path


@pytest.mark.parametrize("case, make, words", [
    ("head is a list", lambda p: edited_backup(p, "update games set head = '[1,2]'"),
     ["game 1", "JSON object"]),
    ("players: 5", lambda p: edited_backup(p, "update games set head = json_set(head, "
                                              "'$.players', 5)"), ["game 1", "players"]),
    ("five players", lambda p: edited_backup(
        p, "update games set head = json_set(head, '$.players', json(?))".replace(
            "?", "'" + json.dumps(list("abcde")) + "'")),
     ["game 1", "players", "5"]),
    ("5000-digit number", lambda p: third_record(edited_backup(p), HUGE),
     ["game 1", "deal slot 3", "unreadable"]),
    ("400-digit amount", lambda p: third_record(edited_backup(p), HUGE.replace("9" * 5000,
                                                                               "9" * 400)),
     ["game 1", "deal 3", "amount"]),
    ("a record the rules refuse", lambda p: third_record(
        edited_backup(p), '{"type": "play", "declarer": 0, "contract": 95, "points": '
                          '[110, 5, 5]}'), ["game 1", "deal 3", "contract"]),
    ("a seat key written twice", lambda p: third_record(
        edited_backup(p), '{"type": "play", "declarer": 0, "contract": 100, "points": '
                          '[110, 5, 5], "marriages": {"0": ["hearts"], "00": ["spades"]}}'),
     ["game 1", "marriages"]),
    ("duplicate edit tokens without their index", lambda p: edited_backup(
        p, "drop index idx_games_edit_token",
        "insert into games (edit_token, view_token, head, version, created, updated)"
        " select edit_token, 'other', head, 1, created, updated from games"),
     ["games", "UNIQUE"]),
    ("games is a view", lambda p: edited_backup(
        p, "alter table games rename to old_games",
        "create view games as select * from old_games"), ["no table games"]),
])
def test_a_backup_that_would_brick_the_app_is_refused(tmp_path, case, make, words):
    """Each refused with exit 2 and one line naming the game and what is wrong; the live
    database stays byte for byte as it was."""
    live = small_instance(tmp_path / "live")
    before = live.read_bytes()
    bad = make(tmp_path / "bad" / "backup.sqlite")
    refused(scorer("restore", bad, "--instance", tmp_path / "live", "--lang", "en"), *words)
    assert live.read_bytes() == before
    assert not list((tmp_path / "live").glob("*.part*"))


def restored(tmp_path: Path, *sql: str) -> sqlite3.Connection:
    """Restore a small instance's backup changed by these statements into a new instance;
    an open connection to the result."""
    bad = edited_backup(tmp_path / "bad" / "backup.sqlite", *sql)
    done = scorer("restore", bad, "--instance", tmp_path / "live")
    assert done.returncode == 0, done.stderr
    return sqlite3.connect(tmp_path / "live" / "scorer.sqlite")


def true_score(conn: sqlite3.Connection) -> list[int]:
    """The end score of game 1, replayed from its stored records."""
    st = store.Store(store.connect(conn.execute("PRAGMA database_list").fetchone()[2]))
    try:
        return list(replay(parse_game(st.log(1))).score)
    finally:
        st.db.close()


def list_page(folder: Path) -> str:
    """The host's games list of the instance."""
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(folder), "SECRET_KEY": "s",
                      "HOST_KEY": "h"})
    client = app.test_client()
    client.get("/?key=h")
    answer = client.get("/")
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


@pytest.mark.parametrize("score", ["'garbage'", "'[999, 0, 0]'"], ids=["garbage", "fake"])
def test_tampered_totals_are_recomputed(tmp_path, score):
    """totals.score = 'garbage' (the list was a 500 for ever) or fake totals for the current
    version (shown as they were): the restore drops them and stores the replayed ones."""
    conn = restored(tmp_path, "insert or replace into totals (game_id, version, winner, score,"
                              f" broken) select id, version, null, {score}, 0 from games")
    try:
        stored = conn.execute("select version, score from totals where game_id = 1").fetchone()
        assert stored[0] == conn.execute("select version from games where id = 1").fetchone()[0]
        assert json.loads(stored[1]) == true_score(conn) != [999, 0, 0]
    finally:
        conn.close()
    page = list_page(tmp_path / "live")
    # The words and numbers shown, not the markup: a hashed asset's name may hold «999».
    shown = re.sub(r"<[^>]*>", " ", page.split("</head>", 1)[1])
    assert not re.search(r"\b999\b", shown)


def test_a_before_update_trigger_is_left_behind(tmp_path):
    """A BEFORE UPDATE trigger that made every write fail: not in the restored database,
    and a deal can be added."""
    conn = restored(tmp_path, "create trigger stop before update on games"
                              " begin select raise(abort, 'no'); end")
    try:
        assert conn.execute("select count(*) from sqlite_master where type in "
                            "('trigger', 'view')").fetchone()[0] == 0
    finally:
        conn.close()
    st = store.Store(store.connect(tmp_path / "live" / "scorer.sqlite"))
    try:
        st.add_deal(1, pattern(3))
        assert len(st.records(1)) == 4
    finally:
        st.db.close()


def test_a_missing_unique_index_comes_back(tmp_path):
    """The backup lost the unique index on edit_token: the restored database has the app's
    own, so a second game can never share a link."""
    conn = restored(tmp_path, "drop index idx_games_edit_token")
    try:
        indexes = {row[1]: row[2] for row in conn.execute("PRAGMA index_list(games)")}
        assert indexes.get("idx_games_edit_token") == 1
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute("insert into games (edit_token, view_token, head, version, created,"
                         " updated) select edit_token, 'x', head, 1, created, updated"
                         " from games")
    finally:
        conn.close()


def test_an_after_insert_trigger_cannot_eat_new_deals(tmp_path):
    """A backup carrying an AFTER INSERT trigger that deletes revisions (three deals were
    acknowledged, then gone after a restart): restored, then served for real; three
    deals posted, the server killed and restarted: all three are there."""
    conn = restored(tmp_path, "create trigger eat after insert on revisions"
                              " begin delete from revisions where id = new.id; end")
    token = conn.execute("select edit_token from games where id = 1").fetchone()[0]
    conn.close()
    server = Server(tmp_path / "live").start()
    try:
        browser, game = Browser(server.base), f"/g/{token}"
        for n in range(3, 6):
            _s, html, _h = browser.request(game + "/deal")
            status, _b, _h = browser.request(game + "/deal", {
                "csrf_token": csrf_of(html), "version": version_of(html),
                **form_fields(pattern(n))})
            assert status == 302
        server.kill()
        server.start()
        status, _b, _h = Browser(server.base).request(game)
        assert status == 200
    finally:
        server.kill()
    st = store.Store(store.connect(tmp_path / "live" / "scorer.sqlite"))
    try:
        assert st.records(1) == [pattern(n) for n in range(6)]
    finally:
        st.db.close()
