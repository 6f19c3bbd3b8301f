"""Durability: every SQLite connection the app and the CLI open runs in WAL mode with
synchronous=FULL and foreign keys on, so a committed deal survives a power cut."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from reliability_rig import Phone

from scorer import store
from scorer.cli import main as cli

ROOT = Path(__file__).resolve().parents[2]
PINNED = ("wal", 2, 1)  # journal_mode, synchronous (2 = FULL), foreign_keys


class Recorder:
    """Every connection opened while it is installed, with its pragmas when closed."""

    def __init__(self):
        """No connection seen yet."""
        self.seen: list[tuple] = []
        self.open: list[sqlite3.Connection] = []

    def factory(self):
        """A Connection class that reads its pragmas just before it closes."""
        recorder = self

        class Recorded(sqlite3.Connection):
            def close(self):
                """Record the pragmas, then close."""
                recorder.seen.append(pragmas(self))
                super().close()

        return Recorded


def pragmas(conn: sqlite3.Connection) -> tuple:
    """(journal_mode, synchronous, foreign_keys) of a connection."""
    return tuple(conn.execute(f"PRAGMA {name}").fetchone()[0]
                 for name in ("journal_mode", "synchronous", "foreign_keys"))


@pytest.fixture
def recorder(monkeypatch):
    """Route every sqlite3.connect in this process through a recording factory."""
    rec = Recorder()
    real = sqlite3.connect
    cls = rec.factory()

    def connect(*args, **kwargs):
        """Open a recording connection."""
        kwargs.setdefault("factory", cls)
        conn = real(*args, **kwargs)
        rec.open.append(conn)
        return conn

    monkeypatch.setattr(sqlite3, "connect", connect)
    return rec


def test_every_app_and_cli_connection_is_wal_full_with_foreign_keys(
        app, recorder, tmp_path, capsys):
    """Every connection the app and the commands open uses WAL, FULL sync and foreign keys."""
    phone = Phone(app)
    game = phone.new_game()
    for path in ("/", game, game + "/deal", game + "/rules", game + "/export.json"):
        assert phone.client.get(path).status_code == 200
    r = phone.client.post(game + "/deal", data={**phone.form(game + "/deal"),
                                                "action": "redeal"})
    assert r.status_code == 302
    app.test_cli_runner().invoke(args=["init-db"])
    inst = app.instance_path
    (tmp_path / "one.json").write_text(json.dumps({
        "format": "thousand-game/1", "players": ["A", "B"],
        "agreements": {"preset": "two-players", "overrides": {}}, "first_dealer": 0,
        "deals": []}))
    for argv in (["backup", str(tmp_path / "b.sqlite"), "--instance", inst],
                 ["export-all", str(tmp_path / "all.zip"), "--instance", inst],
                 ["import", str(tmp_path / "one.json"), "--instance", inst],
                 ["import", str(tmp_path / "all.zip"), "--instance", str(tmp_path / "i2")],
                 ["restore", str(tmp_path / "b.sqlite"), "--instance", str(tmp_path / "i2")],
                 ["pdf", "--game", "1", "--instance", inst, "-o", str(tmp_path / "s.pdf")]):
        assert cli(argv) == 0, (argv, capsys.readouterr().err)
    still_open = [c for c in recorder.open if not _closed(c)]
    recorder.seen += [pragmas(c) for c in still_open]
    assert len(recorder.seen) >= 12  # restore copies rows now: two fewer than a file copy
    assert set(recorder.seen) == {PINNED}


def _closed(conn: sqlite3.Connection) -> bool:
    """True if a connection was closed."""
    try:
        conn.execute("select 1")
    except sqlite3.ProgrammingError:
        return True
    return False


def test_only_the_store_opens_sqlite():
    """Nothing in the package opens SQLite except store.connect (which sets the pragmas)."""
    offenders = []
    for path in (ROOT / "scorer").rglob("*.py"):
        if path.name == "store.py" and path.parent.name == "scorer":
            continue
        text = path.read_text(encoding="utf-8")
        if "sqlite3.connect(" in text or "Database(" in text:
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_store_connect_sets_the_pragmas_even_on_an_old_rollback_journal_file(tmp_path):
    """connect() switches an old rollback-journal file to the pragmas too."""
    path = tmp_path / "old.sqlite"
    old = sqlite3.connect(path)
    old.execute("PRAGMA journal_mode=DELETE")
    old.execute("create table t (x)")
    old.commit()
    old.close()
    db = store.connect(path)
    try:
        assert pragmas(db.conn) == PINNED
    finally:
        db.close()
