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
from scorer.engine import parse_game, replay


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
            game = parse_game({**r.head, "deals": st.records(r.id)})
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
        names = zf.namelist()
        assert len(names) == len(ids)
        for name in names:
            assert json.loads(zf.read(name))["format"] == "thousand-game/1"
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
    (["import", "{tmp}/deep.json", "--instance", "{tmp}/a"], ["deep.json", "unreadable JSON"]),
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
    from scorer.paths import database, instance_folder

    monkeypatch.setenv("SCORER_INSTANCE", str(tmp_path / "env"))
    assert database() == tmp_path / "env" / "scorer.sqlite"
    assert instance_folder(tmp_path / "flag") == tmp_path / "flag"
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "HOST_KEY": "h"})
    assert app.config["DATABASE"] == str(database())
