"""A damaged database at start-up, against the real `serve` command: it refuses with one
line naming the file and what was found, pointing at backup and restore, and writes
nothing; a sound file starts and says how long its check took."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from reliability_rig import HEAD, Server, pattern

from scorer import store

PAGE = 4096


def instance(folder: Path, games: int = 30) -> Path:
    """An instance that has run (config.py written) with games of 40 deals each; its
    database file, checkpointed and closed (no WAL left beside it)."""
    from scorer.web.app import ensure_instance

    ensure_instance(str(folder))
    db = store.connect(folder / "scorer.sqlite")
    store.migrate(db)
    st = store.Store(db)
    st.create_games([(HEAD, [pattern(i) for i in range(40)]) for _ in range(games)])
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("PRAGMA journal_mode=DELETE")
    db.close()
    return folder / "scorer.sqlite"


def page_size(path: Path) -> int:
    """The file's page size, from its header."""
    raw = path.read_bytes()[16:18]
    size = int.from_bytes(raw, "big")
    return 65536 if size == 1 else size


def garble_page(path: Path, number: int) -> None:
    """Overwrite page ``number`` (1-based) with bytes no b-tree page can hold."""
    size = page_size(path)
    with open(path, "r+b") as f:
        f.seek((number - 1) * size)
        f.write(bytes([0x0D, 0xFF, 0xFF, 0xFF]) + os.urandom(size - 4))


def index_root(path: Path, name: str) -> int:
    """The root page of an index."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute("select rootpage from sqlite_master where name = ?",
                            [name]).fetchone()[0]
    finally:
        conn.close()


def damage_index(path: Path) -> None:
    """The root page of the edit-token index: links stop finding their game."""
    garble_page(path, index_root(path, "idx_games_edit_token"))


def damage_last_page(path: Path) -> None:
    """The file's last page (where the newest deals are)."""
    garble_page(path, path.stat().st_size // page_size(path))


def damage_header(path: Path) -> None:
    """The first bytes: no longer "SQLite format 3"."""
    with open(path, "r+b") as f:
        f.write(b"garbage header!!")


def empty(path: Path) -> None:
    """Zero bytes, as a failed copy or a full disk can leave a file."""
    path.write_bytes(b"")


def serve(folder: Path) -> subprocess.CompletedProcess:
    """Start the real command; a refusal exits by itself (a start is stopped after 20 s)."""
    env = {k: v for k, v in os.environ.items() if k != "SCORER_INSTANCE"}
    return subprocess.run([sys.executable, "-m", "scorer", "serve", "--host", "127.0.0.1",
                           "--port", "0", "--instance", str(folder)], env=env,
                          capture_output=True, text=True, timeout=20)


@pytest.mark.parametrize("damage, words", [
    (damage_index, ["malformed"]),  # integrity_check stops at the garbled root page
    (damage_last_page, ["malformed"]),
    (damage_header, ["file is not a database"]),
    (empty, ["empty (0 bytes)"]),
], ids=["index page", "last page", "header", "zero length"])
def test_serve_refuses_a_damaged_database(tmp_path, damage, words):
    """Exit 2, one line naming the file, what was found, backup and restore; the file is
    byte for byte as damaged (nothing migrated or written into it)."""
    path = instance(tmp_path / "live")
    damage(path)
    before = path.read_bytes()
    done = serve(tmp_path / "live")
    assert done.returncode == 2, (done.returncode, done.stdout[-500:], done.stderr[-2000:])
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    print(f"\n{lines[0]}")
    for word in (str(path), "damaged", "restore", "backup", *words):
        assert word in lines[0], lines[0]
    assert path.read_bytes() == before
    assert "Traceback" not in done.stderr


def test_a_new_instance_may_start_from_an_empty_file(tmp_path):
    """An empty file in a folder that never ran (no config.py) is a new instance."""
    folder = tmp_path / "new"
    folder.mkdir()
    (folder / "scorer.sqlite").write_bytes(b"")
    server = Server(folder).start()
    server.kill()
    assert (folder / "scorer.sqlite").stat().st_size > 0


def test_a_sound_database_starts_and_says_how_long_the_check_took(tmp_path):
    """30 games of 40 deals: started, with the check's time on its own line."""
    instance(tmp_path / "live")
    server = Server(tmp_path / "live").start()
    server.kill()
    line = next(x for x in server.banner.splitlines() if x.startswith("check:"))
    print(f"\n{line}")
    assert "integrity_check" in line and " ms)" in line


def stale_index(path: Path) -> None:
    """The edit-token index made to index the view tokens (its SQL rewritten through
    writable_schema): every page reads, quick_check passes, a game's link finds nothing."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("update sqlite_master set sql = replace(sql, '(\"edit_token\")',"
                 " '(\"view_token\")') where name = 'idx_games_edit_token'")
    conn.commit()
    conn.close()
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA quick_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok"
    finally:
        conn.close()


def tamper(path: Path, sql: str) -> None:
    """Write one statement into the file behind the app's back."""
    conn = sqlite3.connect(path)
    conn.execute(sql)
    conn.commit()
    conn.close()


def newer_user_version(path: Path) -> None:
    """PRAGMA user_version past the migrations this version knows (a newer app's file)."""
    tamper(path, f"PRAGMA user_version = {store.schema_version() + 1}")


def newer_migration(path: Path) -> None:
    """A migration this version does not know, as restore refuses it."""
    tamper(path, "insert into _sqlite_migrations (migration_set, name, applied_at)"
                 " values ('scorer', 'm999_from_the_future', '2030')")


def merge_loop(path: Path) -> None:
    """Two players merged into each other (their pages redirected for ever)."""
    tamper(path, "insert into players (id, name, key, created, merged_into) values"
                 " (1, 'Аня', 'Аня', '2026-01-01', 2), (2, 'Боря', 'Боря', '2026-01-01', 1)")


@pytest.mark.parametrize("change, words", [
    (stale_index, ["damaged", "integrity_check found", "missing from index",
                   "restore", "backup"]),
    (newer_user_version, ["newer version", f"user_version {store.schema_version() + 1}",
                          "restore"]),
    (newer_migration, ["newer version", "m999_from_the_future", "restore"]),
    (merge_loop, ["players row 1", "merged_into", "loop", "restore"]),
], ids=["stale index", "newer user_version", "newer migration", "merge loop"])
def test_serve_starts_as_strictly_as_restore(tmp_path, change, words):
    """What restore refuses, serve refuses too: exit 2, one line naming the file and what
    was found; the file byte for byte as it was (nothing migrated into it)."""
    path = instance(tmp_path / "live", games=3)
    change(path)
    before = path.read_bytes()
    done = serve(tmp_path / "live")
    assert done.returncode == 2, (done.returncode, done.stdout[-500:], done.stderr[-2000:])
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    print(f"\n{lines[0]}")
    for word in (str(path), *words):
        assert word in lines[0], lines[0]
    assert path.read_bytes() == before
    assert "Traceback" not in done.stderr


def test_a_text_an_older_version_let_through_does_not_stop_a_start(tmp_path):
    """A season named with U+200B (the season form took it before the text rules): the
    server starts (a restore of the file would name the row)."""
    path = instance(tmp_path / "live", games=2)
    conn = sqlite3.connect(path)
    conn.execute("insert into seasons (name, start, end, points, created) values"
                 " ('Осень' || char(8203), '2026-01-01', '2026-12-31',"
                 " '{\"2\": [2, 0], \"3\": [3, 1, 0], \"4\": [3, 2, 1, 0]}', '2026-01-01')")
    conn.commit()
    conn.close()
    server = Server(tmp_path / "live").start()
    server.kill()
