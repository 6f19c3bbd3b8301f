"""`backup`, `restore`, `export-all` and `import` as a user runs them: the real command in a
subprocess (so --instance and $SCORER_INSTANCE are honoured as in a shell)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from reliability_rig import HEAD, pattern, replayable_logs, snapshot

from scorer import store
from scorer.engine import log_with, parse_game, replay


def scorer(*args, env_instance: Path | None = None) -> subprocess.CompletedProcess:
    """Run `python -m scorer ARGS`; return the finished process."""
    env = dict(os.environ)
    env.pop("SCORER_INSTANCE", None)
    if env_instance is not None:
        env["SCORER_INSTANCE"] = str(env_instance)
    return subprocess.run([sys.executable, "-m", "scorer", *map(str, args)], env=env,
                          capture_output=True, text=True, timeout=120)


def refused(proc: subprocess.CompletedProcess, *words: str) -> None:
    """Exit 2 with one line on stderr that says why."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    for word in words:
        assert word in lines[0], lines[0]


def filled_instance(folder: Path) -> list[int]:
    """An instance holding many games, one with an edit and a deleted deal; their ids."""
    folder.mkdir(parents=True)
    db = store.connect(folder / "scorer.sqlite")
    store.migrate(db)
    st = store.Store(db)
    logs = replayable_logs()
    rows = st.create_games([({k: v for k, v in g.items() if k != "deals"}, g["deals"])
                            for g in logs])
    long = st.create_game({**HEAD, "title": "Пятница у Бориса", "notes": "<b>ничья</b>"},
                          [pattern(i) for i in range(120)])
    slots = st.slots(long.id)
    with st.writing():
        st.revise_deal(long.id, slots[3].id, {**pattern(3), "points": [100, 15, 5]}, "edit")
        st.revise_deal(long.id, slots[6].id, None, "delete")
    db.close()
    assert len(rows) > 50
    return [r.id for r in rows] + [long.id]


def protocols(folder: Path) -> list[tuple[dict, dict]]:
    """(head, protocol JSON) of every game of an instance, by id."""
    db = store.connect(folder / "scorer.sqlite")
    st = store.Store(db)
    try:
        rows = sorted(st.games(None), key=lambda r: r.id)
        out = []
        for r in rows:
            game = parse_game(log_with(r.head, st.records(r.id)))
            out.append(({k: v for k, v in r.head.items()}, replay(game).to_json("ru")))
        return out
    finally:
        db.close()


def test_export_all_then_import_into_an_empty_instance_gives_the_same_protocols(tmp_path):
    """export-all then import into an empty instance gives every game's protocol back."""
    ids = filled_instance(tmp_path / "a")
    zipped = tmp_path / "all.zip"
    done = scorer("export-all", zipped, "--instance", tmp_path / "a")
    assert done.returncode == 0, done.stderr
    assert f"{len(ids)} games" in done.stdout
    with zipfile.ZipFile(zipped) as zf:
        names = [n for n in zf.namelist() if n != "tables.json"]
        assert len(names) == len(ids)
        # The kept tables the logs do not carry (store.SCHEMA), each as a list of rows.
        tables = json.loads(zf.read("tables.json"))
        assert set(tables) == {t.name for t in store.SCHEMA
                               if t.role == store.KEPT and not t.logged}
        kinds = set()
        for name in names:
            data = json.loads(zf.read(name))
            # The version rule: /2 exactly when a record changes the agreements.
            changes = any(d["type"] == "agreements" for d in data["deals"])
            assert data["format"] == ("thousand-game/2" if changes else "thousand-game/1")
            kinds.add(data["format"])
        assert kinds == {"thousand-game/1", "thousand-game/2"}  # the scenarios hold both
    done = scorer("import", zipped, env_instance=tmp_path / "b")  # $SCORER_INSTANCE
    assert done.returncode == 0, done.stderr
    assert f"{len(ids)} games added" in done.stdout
    before, after = protocols(tmp_path / "a"), protocols(tmp_path / "b")
    assert len(before) == len(after) == len(ids)
    for (head_a, prot_a), (head_b, prot_b) in zip(before, after, strict=True):
        assert prot_a == prot_b
        assert head_a["players"] == head_b["players"]
        assert head_a.get("title") == head_b.get("title")
    # A single exported file imports too.
    one = tmp_path / "one.json"
    with zipfile.ZipFile(zipped) as zf:
        one.write_bytes(zf.read(names[-1]))
    assert scorer("import", one, "--instance", tmp_path / "c").returncode == 0
    assert protocols(tmp_path / "c")[0][1] == before[-1][1]


def test_backup_and_restore_bring_back_every_revision_and_link(tmp_path):
    """backup then restore bring back every revision and link, byte for byte."""
    filled_instance(tmp_path / "a")
    copy = tmp_path / "copy.sqlite"
    done = scorer("backup", copy, "--instance", tmp_path / "a")
    assert done.returncode == 0, done.stderr

    def dump(path: Path) -> tuple:
        """Every row of the three tables, in order."""
        conn = sqlite3.connect(path)
        try:
            return snapshot(conn)
        finally:
            conn.close()

    saved = dump(tmp_path / "a" / "scorer.sqlite")
    assert dump(copy) == saved
    # Later changes, then a restore: exactly the backed-up state, links included.
    db = store.connect(tmp_path / "a" / "scorer.sqlite")
    st = store.Store(db)
    st.create_game(HEAD)
    with st.writing():
        st.add_deal(1, {"type": "redeal"})
    db.close()
    assert dump(tmp_path / "a" / "scorer.sqlite") != saved
    done = scorer("restore", copy, env_instance=tmp_path / "a")
    assert done.returncode == 0, done.stderr
    assert dump(tmp_path / "a" / "scorer.sqlite") == saved
    kept = list((tmp_path / "a").glob("scorer-before-restore-*.sqlite"))
    assert len(kept) == 1 and len(dump(kept[0])[0]) == len(saved[0]) + 1
    # Restoring into an empty instance works as well.
    assert scorer("restore", copy, "--instance", tmp_path / "fresh").returncode == 0
    assert dump(tmp_path / "fresh" / "scorer.sqlite") == saved


def test_backup_while_the_database_is_being_written(tmp_path):
    """The online backup is one consistent snapshot even with a writer in the middle."""
    filled_instance(tmp_path / "a")
    db = store.connect(tmp_path / "a" / "scorer.sqlite")
    st = store.Store(db)
    game = st.create_game(HEAD)
    proc = subprocess.Popen([sys.executable, "-m", "scorer", "backup", tmp_path / "c.sqlite",
                             "--instance", tmp_path / "a"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    for i in range(60):
        with st.writing():
            st.add_deal(game.id, pattern(i))
    assert proc.wait(120) == 0, proc.stderr.read()
    proc.stdout.close()
    proc.stderr.close()
    db.close()
    copy = store.Store(store.connect(tmp_path / "c.sqlite"))
    try:
        assert copy.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        records = copy.records(game.id)
        assert records == [pattern(i) for i in range(len(records))]
        assert copy.version(game.id) == 1 + len(records)
    finally:
        copy.db.close()


@pytest.mark.parametrize("argv, words", [
    (["backup", "{tmp}/b.sqlite", "--instance", "{tmp}/none"],
     ["backup: --instance:", "no database"]),
    (["backup", "{tmp}/exists.txt", "--instance", "{tmp}/a"], ["already exists"]),
    (["backup", "{tmp}/no/such/dir/b.sqlite", "--instance", "{tmp}/a"], ["no such folder"]),
    (["export-all", "{tmp}/x.zip", "--instance", "{tmp}/none"], ["export-all:", "no database"]),
    (["export-all", "{tmp}/exists.txt", "--instance", "{tmp}/a"], ["already exists"]),
    (["restore", "{tmp}/nothing.sqlite", "--instance", "{tmp}/a"], ["restore:", "no such file"]),
    (["restore", "{tmp}/exists.txt", "--instance", "{tmp}/a"], ["not an SQLite database"]),
    (["restore", "{tmp}/other.sqlite", "--instance", "{tmp}/a"], ["not a scorer backup"]),
    (["import", "{tmp}/nothing.json", "--instance", "{tmp}/a"], ["import:", "no such file"]),
    (["import", "{tmp}/exists.txt", "--instance", "{tmp}/a"], ["unreadable JSON"]),
    (["import", "{tmp}/bad.zip", "--instance", "{tmp}/a"], ["bad.json", "players"]),
    (["import", "{tmp}/weird.json", "--instance", "{tmp}/a"], ["weird.json", "deal 1: type"]),
    (["import", "{tmp}/deep.json", "--instance", "{tmp}/a"], ["deep.json", "objects and lists"]),
    (["import", "{tmp}/empty.zip", "--instance", "{tmp}/a"], ["no game logs"]),
])
def test_refusals_are_one_line_and_exit_2(tmp_path, argv, words):
    """Each refusal is one English line with --lang en, exit 2, and leaves the data as it was."""
    (tmp_path / "a").mkdir()
    db = store.connect(tmp_path / "a" / "scorer.sqlite")
    store.migrate(db)
    store.Store(db).create_game(HEAD, [pattern(0)])
    db.close()
    before = (tmp_path / "a" / "scorer.sqlite").read_bytes()
    (tmp_path / "exists.txt").write_text("hello")
    other = sqlite3.connect(tmp_path / "other.sqlite")
    other.execute("create table t (x)")
    other.close()
    good = json.dumps({**HEAD, "deals": [pattern(0)]})
    bad = json.dumps({**HEAD, "players": ["Аня", "Аня"], "deals": []})
    with zipfile.ZipFile(tmp_path / "bad.zip", "w") as zf:
        zf.writestr("good.json", good)  # all or nothing: the good one is not added
        zf.writestr("bad.json", bad)
    with zipfile.ZipFile(tmp_path / "empty.zip", "w"):
        pass
    (tmp_path / "weird.json").write_text(json.dumps(
        {**HEAD, "deals": [{"type": ["play"], "declarer": 0}]}))
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    done = scorer(*[a.format(tmp=tmp_path) for a in argv], "--lang", "en")
    refused(done, *words)
    assert (tmp_path / "a" / "scorer.sqlite").read_bytes() == before
    assert not list(tmp_path.glob("*.part"))


def test_every_database_command_takes_instance():
    """Every command that touches the database takes --instance."""
    from scorer.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name in ("backup", "export-all", "restore", "import", "serve", "pdf"):
        options = {s for a in sub.choices[name]._actions for s in a.option_strings}
        assert "--instance" in options, name


@pytest.mark.parametrize("argv, words", [
    (["backup", "{tmp}/b.sqlite", "--instance", "{tmp}/none"],
     ["backup: --instance:", "нет базы данных"]),
    (["restore", "{tmp}/nothing.sqlite", "--instance", "{tmp}/none"],
     ["restore:", "nothing.sqlite:", "нет такого файла"]),
    (["import", "{tmp}/bad.json", "--instance", "{tmp}/none"],
     ["import:", "bad.json:", "не читается как JSON"]),
])
def test_refusals_are_russian_by_default(tmp_path, argv, words):
    """Without --lang the database commands refuse in Russian, like replay and pdf."""
    (tmp_path / "bad.json").write_text("{oops")
    refused(scorer(*[a.format(tmp=tmp_path) for a in argv]), *words)
    assert not (tmp_path / "none").exists()


def test_server_pdf_and_backup_find_the_same_database(tmp_path, monkeypatch):
    """$SCORER_INSTANCE, --instance and the app all resolve through scorer.paths."""
    from scorer import create_app
    from scorer.instance import database, instance_folder

    monkeypatch.setenv("SCORER_INSTANCE", str(tmp_path / "env"))
    assert database() == tmp_path / "env" / "scorer.sqlite"
    assert instance_folder(tmp_path / "flag") == tmp_path / "flag"
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "HOST_KEY": "h"})
    assert app.config["DATABASE"] == str(database())


def small_instance(folder: Path) -> Path:
    """An instance with one game of three deals; its database file."""
    folder.mkdir(parents=True, exist_ok=True)
    db = store.connect(folder / "scorer.sqlite")
    store.migrate(db)
    store.Store(db).create_game(HEAD, [pattern(i) for i in range(3)])
    db.close()
    return folder / "scorer.sqlite"


def edited_backup(path: Path, *sql: str) -> Path:
    """A sound backup of a small instance, then changed by these statements."""
    small_instance(path.parent / "source")
    assert scorer("backup", path, "--instance", path.parent / "source").returncode == 0
    return _raw_database(path, *sql)


WRONG_COLUMNS = (
    "create table games (id integer primary key, name text)",
    "create table deals (id integer primary key, x text)",
    "create table revisions (id integer primary key, y text)",
    "create table _sqlite_migrations (id integer primary key, migration_set text, name text,"
    " applied_at text)",
    "insert into _sqlite_migrations (migration_set, name, applied_at)"
    " values ('scorer', 'm001_games_and_deals', '2026')",
    "insert into games values (1, 'x')",
)


@pytest.mark.parametrize("case, make, words", [
    ("wrong columns", lambda p: _raw_database(p, *WRONG_COLUMNS),
     ["games", "not the scorer schema"]),
    ("same names, no migrations", lambda p: _raw_database(p, *WRONG_COLUMNS[:3]),
     ["games", "not the scorer schema"]),
    ("wrong types", lambda p: edited_backup(p, "update games set version = 'four'"),
     ["games.version", "wrong type"]),
    ("head not JSON", lambda p: edited_backup(p, "update games set head = '{oops'"),
     ["games.head", "not JSON"]),
    ("future schema", lambda p: edited_backup(
        p, "insert into _sqlite_migrations (migration_set, name, applied_at)"
           " values ('scorer', 'm999_from_the_future', '2030')"),
     ["newer version", "m999_from_the_future"]),
    ("damaged index", lambda p: _damaged_index(edited_backup(p)), ["integrity check failed"]),
])
def test_a_refused_restore_leaves_the_live_database_untouched(tmp_path, case, make, words):
    """Wrong columns, wrong types, a newer schema or a damaged file: exit 2, live file as it was,
    no .part left, and the app still serves the old games."""
    live = small_instance(tmp_path / "live")
    before = live.read_bytes()
    bad = make(tmp_path / "bad" / "backup.sqlite")
    refused(scorer("restore", bad, "--instance", tmp_path / "live", "--lang", "en"), *words)
    assert live.read_bytes() == before
    assert not list((tmp_path / "live").glob("*.part*"))
    assert not list((tmp_path / "live").glob("scorer-before-restore-*"))
    from scorer import create_app
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "live"),
                      "SECRET_KEY": "s", "HOST_KEY": "h"})
    client = app.test_client()
    assert client.get("/?key=h").status_code == 302
    assert "Борис" in client.get("/").get_data(as_text=True)


def _raw_database(path: Path, *sql: str) -> Path:
    """An SQLite file (new, or the one there) changed by these statements."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    for statement in sql:
        conn.execute(statement)
    conn.commit()
    conn.close()
    return path


def _damaged_index(path: Path) -> Path:
    """Make the edit-token index index the view tokens: every read still works, but lookups
    by edit token find nothing; only SQLite's integrity check sees it."""
    conn = sqlite3.connect(path)
    name = conn.execute("select name from sqlite_master where type = 'index' and tbl_name ="
                        " 'games' and sql like '%(\"edit_token\")%'").fetchone()[0]
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("update sqlite_master set sql = replace(sql, ?, ?) where name = ?",
                 ['("edit_token")', '("view_token")', name])
    conn.commit()
    conn.close()
    check = sqlite3.connect(path)
    try:
        assert check.execute("PRAGMA integrity_check").fetchone()[0] != "ok"
        assert check.execute("select count(*) from games").fetchone()[0] == 1
    finally:
        check.close()
    return path


def test_restore_is_refused_while_a_server_holds_the_database(tmp_path):
    """A running server holds the database's lock: restore refuses and changes nothing; once
    the server is gone the same restore works."""
    from reliability_rig import Server

    live = small_instance(tmp_path / "live")
    assert scorer("backup", tmp_path / "b.sqlite", "--instance", tmp_path / "live").returncode == 0
    server = Server(tmp_path / "live").start()
    try:
        before = live.read_bytes()
        refused(scorer("restore", tmp_path / "b.sqlite", "--instance", tmp_path / "live",
                       "--lang", "en"), "restore: --instance:", "a server is running")
        assert live.read_bytes() == before
    finally:
        server.kill()
    done = scorer("restore", tmp_path / "b.sqlite", "--instance", tmp_path / "live")
    assert done.returncode == 0, done.stderr


def test_serve_refuses_to_start_during_a_restore(tmp_path):
    """While a restore holds the lock, serve exits 2 with one line instead of migrating."""
    live = small_instance(tmp_path / "live")
    fd = store.hold(live, exclusive=True)
    try:
        refused(scorer("serve", "--port", "0", "--host", "127.0.0.1",
                       "--instance", tmp_path / "live"), "serve: --instance:", "restore")
    finally:
        import os as _os
        _os.close(fd)


def test_backup_add_restore_delete_shows_only_the_restored_state(tmp_path):
    """Back up, add a deal, restore, then delete the added deal from a stale page: no 500,
    the pages and the export show exactly the backed-up deals."""
    from reliability_rig import Phone

    from scorer import create_app

    folder = tmp_path / "live"
    phone = Phone(create_app({"TESTING": True, "INSTANCE_PATH": str(folder),
                              "SECRET_KEY": "s", "HOST_KEY": "h"}))
    game = phone.new_game()
    phone.deal(game, action="redeal")
    assert scorer("backup", tmp_path / "b.sqlite", "--instance", folder).returncode == 0
    phone.deal(game, action="redeal")
    stale_ids = phone.slot_ids(game)
    stale_form = phone.form(f"{game}/deal/{max(stale_ids)}")
    assert len(stale_ids) == 2
    done = scorer("restore", tmp_path / "b.sqlite", "--instance", folder)
    assert done.returncode == 0, done.stderr
    # The same app and browser: whatever it cached before the restore must not show.
    r = phone.client.post(f"{game}/deal/{max(stale_ids)}/delete", data=stale_form)
    assert r.status_code in (404, 409, 422), r.status_code
    assert len(phone.slot_ids(game)) == 1
    exported = phone.client.get(game + "/export.json")
    assert exported.status_code == 200
    assert [d["type"] for d in exported.get_json()["deals"]] == ["redeal"]
    view = phone.view_path(game)
    assert phone.totals(view) == phone.totals(game)
    assert phone.client.get(view + "/export.json").get_json()["deals"] == [{"type": "redeal"}]
    assert phone.client.get(game + "/sheet.pdf").status_code == 200


def test_a_zip_bomb_is_refused_before_it_is_unpacked(tmp_path):
    """A small zip whose members unpack to 270 MB: refused from its directory, the import
    stays far below that in memory, and nothing is added."""
    bomb = tmp_path / "bomb.zip"
    zeros = b"0" * (1024 * 1024)
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for i in range(18):
            with zf.open(f"game-{i}.json", "w") as member:
                for _ in range(15):
                    member.write(zeros)
    assert bomb.stat().st_size < 2 * 1024 * 1024
    # The peak is read in a fresh parent whose only child is the import: this test
    # process's own children (a Chromium from the browser tests, say) do not count.
    probe = ("import resource, subprocess, sys\n"
             "done = subprocess.run([sys.executable, '-m', 'scorer', *sys.argv[1:]],"
             " capture_output=True, text=True)\n"
             "sys.stderr.write(done.stderr)\n"
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
             "sys.exit(done.returncode)\n")
    env = {k: v for k, v in os.environ.items() if k != "SCORER_INSTANCE"}
    proc = subprocess.run([sys.executable, "-c", probe, "import", str(bomb), "--instance",
                           str(tmp_path / "a"), "--lang", "en"], env=env,
                          capture_output=True, text=True, timeout=120)
    refused(proc, "bomb.zip", "unpacks to")
    peak_kb = int(proc.stdout.split()[-1])
    assert 0 < peak_kb < 200 * 1024, peak_kb
    assert not (tmp_path / "a" / "scorer.sqlite").exists()


def test_a_zip_member_larger_than_its_header_says_is_refused(tmp_path):
    """A member whose directory entry claims 100 bytes but unpacks to megabytes is cut off
    at its stated size and refused."""
    forged = tmp_path / "forged.zip"
    with zipfile.ZipFile(forged, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("game.json", b" " * (8 * 1024 * 1024))
    data = bytearray(forged.read_bytes())
    # The central directory's uncompressed size (offset 24 in the entry) says 100 bytes.
    central = data.rfind(b"PK\x01\x02")
    data[central + 24:central + 28] = (100).to_bytes(4, "little")
    local = data.find(b"PK\x03\x04")
    data[local + 22:local + 26] = (100).to_bytes(4, "little")
    forged.write_bytes(bytes(data))
    refused(scorer("import", forged, "--instance", tmp_path / "a", "--lang", "en"), "forged.zip")
    assert not (tmp_path / "a" / "scorer.sqlite").exists()


def test_after_a_restore_the_same_version_with_other_deals_is_not_served_stale(tmp_path):
    """Back up at version v, add deal A (v+1), restore (v), add another deal B (v+1 again):
    the same app must show B, not its cached replay, page or ETag of A."""
    if not hasattr(store.Store, "generation"):
        pytest.skip("needs the database generation the caches are keyed by (helper perf)")
    from reliability_rig import Phone

    from scorer import create_app

    folder = tmp_path / "live"
    phone = Phone(create_app({"TESTING": True, "INSTANCE_PATH": str(folder),
                              "SECRET_KEY": "s", "HOST_KEY": "h"}))
    game = phone.new_game()
    view = phone.view_path(game)
    assert scorer("backup", tmp_path / "b.sqlite", "--instance", folder).returncode == 0
    phone.deal(game, action="adjustment", player="0", amount="50", reason="other")
    assert phone.totals(game)[0] == 50
    before = phone.client.get(view)
    tag = before.headers.get("ETag")
    assert scorer("restore", tmp_path / "b.sqlite", "--instance", folder).returncode == 0
    phone.deal(game, action="adjustment", player="0", amount="70", reason="other")
    assert phone.totals(game)[0] == 70
    assert phone.totals(view)[0] == 70
    if tag:
        again = phone.client.get(view, headers={"If-None-Match": tag})
        assert again.status_code == 200 and phone.totals(view)[0] == 70
    exported = phone.client.get(game + "/export.json").get_json()
    assert [d.get("amount") for d in exported["deals"]] == [70]
