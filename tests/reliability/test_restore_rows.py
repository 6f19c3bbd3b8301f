"""One declaration of the schema (store.SCHEMA) and a restore that checks every kept row
the way the app writes it (scorer.store_checks), through the real `restore` command."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from reliability_rig import HEAD, pattern
from test_backup import refused, scorer

from scorer import store, store_checks
from scorer.cli import backup as backup_cli
from scorer.club import Club, ClubError
from scorer.engine import (
    RuleError,
    check_name,
    check_text,
    load_game,
    name_key,
    resolve_agreements,
)


def filled(folder: Path) -> Path:
    """An instance with two host games, a rename, a merge, a season, two share links and a
    rule change from the start and its undo, all through the app's API; its file."""
    path = folder / "scorer.sqlite"
    folder.mkdir(parents=True, exist_ok=True)
    db = store.connect(path)
    store.migrate(db)
    st_ = store.Store(db)
    game = st_.create_game(HEAD, [pattern(i) for i in range(3)])
    st_.create_game({**HEAD, "players": ["Гена", "Дина", "Ева"]}, [pattern(0)])
    club = Club(db)
    club.state()
    club.rename(1, "Анна")
    club.merge(1, 4)  # Анна and Гена: never at one table
    season = club.add_season("Осень", "2026-09-01", "2026-11-30")
    club.share_token("season", season.id)
    club.share_token("player", 2)
    before = st_.stored(game.id).head["agreements"]
    after = resolve_agreements("classic", {"dark": True}).to_json()
    st_.change_agreements(game.id, after, "change", "Боря")
    st_.change_agreements(game.id, before, "undo")
    db.close()
    return path


def dump(path: Path) -> dict[str, list[tuple]]:
    """Every row of every kept table, in rowid order."""
    conn = sqlite3.connect(path)
    try:
        return {t: conn.execute(f"select * from [{t}] order by rowid").fetchall()
                for t in store.kept_tables()}
    finally:
        conn.close()


def edit(path: Path, *sql: str) -> Path:
    """Change a database file by these statements (foreign keys off, as any tool has)."""
    conn = sqlite3.connect(path)
    for statement in sql:
        conn.execute(statement)
    conn.commit()
    conn.close()
    return path


def test_every_table_of_the_migrated_schema_is_kept_or_derived(tmp_path):
    """A table a migration adds must be declared in store.SCHEMA, once, kept or derived."""
    db = store.connect(tmp_path / "s.sqlite")
    store.migrate(db)
    made = {r[0] for r in db.execute("select name from sqlite_master where type = 'table'"
                                     " and name not like 'sqlite_%'")}
    db.close()
    declared = [t.name for t in store.SCHEMA]
    assert len(declared) == len(set(declared))
    assert {t.role for t in store.SCHEMA} == {store.KEPT, store.DERIVED}
    assert set(store.kept_tables()) | set(store.derived_tables()) == set(declared)
    assert made - set(declared) == set(), "declare these tables in store.SCHEMA"
    assert set(declared) - made == set(), "store.SCHEMA names tables no migration makes"
    assert set(store_checks.CHECKS) == set(store.kept_tables()), "every kept table is checked"


def test_agreement_revisions_and_the_whole_club_survive_backup_then_restore(tmp_path):
    """A rule change from the start and its undo (2 rows), and every other kept row, come
    back from backup → restore as they were (agreement_revisions: 2 → 0 before)."""
    live = filled(tmp_path / "live")
    saved = dump(live)
    assert len(saved["agreement_revisions"]) == 2
    assert all(saved[t] for t in store.kept_tables() if t not in ("submissions", "club_games"))
    copy = tmp_path / "copy.sqlite"
    done = scorer("backup", copy, "--instance", tmp_path / "live")
    assert done.returncode == 0, done.stderr
    assert "agreement_revisions 2" in done.stdout
    edit(live, "delete from agreement_revisions", "delete from club_changes")
    done = scorer("restore", copy, "--instance", tmp_path / "live")
    assert done.returncode == 0, done.stderr
    assert dump(live) == saved
    st_ = store.Store(store.connect(live))
    try:
        assert [r["note"] for r in st_.agreement_history(1)] == ["change", "undo"]
    finally:
        st_.db.close()


def tampered(tmp_path: Path, *sql: str) -> Path:
    """A backup of the filled instance, then changed by these statements."""
    filled(tmp_path / "source")
    copy = tmp_path / "bad" / "backup.sqlite"
    copy.parent.mkdir()
    assert scorer("backup", copy, "--instance", tmp_path / "source").returncode == 0
    return edit(copy, *sql)


@pytest.mark.parametrize("sql, words", [
    (["update club_changes set kind = 'evil' where id = 1"],
     ["club_changes row 1", "kind", "count, rename, merge, relink", "evil"]),
    (["update club_changes set data = '{oops' where id = 1"],
     ["club_changes row 1", "data", "JSON"]),
    (["update club_changes set data = '{\"player\": 1}' where kind = 'rename'"],
     ["club_changes row", "data", '"before": name']),
    (["update players set merged_into = 2 where id = 1",
      "update players set merged_into = 1 where id = 2"],
     ["players", "merged_into", "loop", "1 → 2 → 1"]),
    (["update players set merged_into = id where id = 3"],
     ["players row 3", "merged_into", "itself"]),
    (["update seasons set points = '{\"3\": [1]}'"],
     ["seasons row 1", "points", "league points"]),
    (["update seasons set points = 'garbage'"], ["seasons row 1", "points", "JSON"]),
    (["update seasons set points = '[3, 1, 0]'"], ["seasons row 1", "points", "object"]),
    (["update seat_links set seat = 7 where game_id = 1 and seat = 2"],
     ["seat_links row", "(game 1)", "seat", "0 to 2", "7"]),
    (["update players set name = 'Бо' || char(8238) || 'рис' where id = 2"],
     ["players row 2", "name", "U+202E"]),
    (["update players set name = 'Бо' || char(0) || 'рис' where id = 2"],
     ["players row 2", "name", "U+0000"]),
    (["update seasons set name = 'Осень' || char(8203)"], ["seasons row 1", "name", "U+200B"]),
    (["update agreement_revisions set who = 'Б' || char(27) || '[31m' where rev = 1"],
     ["agreement_revisions row 1", "who", "U+001B"]),
    (["update agreement_revisions set after = '{\"preset\": \"nope\"}' where rev = 1"],
     ["agreement_revisions row 1", "after", "nope"]),
    (["update club_shares set kind = 'game'"], ["club_shares row 1", "kind", "game"]),
    (["update players set key = 'x' where id = 2"], ["players row 2", "key", "Борис"]),
    (["update revisions set note = 'magic' where id = 2"], ["revisions row 2", "note", "magic"]),
    (["update games set created = 'yesterday' where id = 2"],
     ["games row 2", "created", "yesterday"]),
], ids=["unknown kind", "non-JSON data", "data of another shape", "merge cycle",
        "self-merge", "points wrong shape", "points garbage", "points a list", "seat 7",
        "name with U+202E", "name with NUL", "season name with U+200B", "who with ESC",
        "unknown preset", "share kind", "wrong key", "revision note", "time"])
def test_a_tampered_backup_is_refused_naming_the_table_and_the_row(tmp_path, sql, words):
    """Exit 2, one line naming the table, the row and what is wrong (no traceback); the
    live file byte for byte as it was, no .part left."""
    live = filled(tmp_path / "live")
    before = live.read_bytes()
    bad = tampered(tmp_path, *sql)
    done = scorer("restore", bad, "--instance", tmp_path / "live", "--lang", "en")
    refused(done, "restore:", str(bad), *words)
    assert "Traceback" not in done.stderr
    assert live.read_bytes() == before
    assert not list((tmp_path / "live").glob("*.part*"))


def test_the_refusal_speaks_russian_by_default(tmp_path):
    """Without --lang the row's refusal is worded in Russian, like every other refusal."""
    filled(tmp_path / "live")
    bad = tampered(tmp_path, "update club_changes set kind = 'evil' where id = 1")
    refused(scorer("restore", bad, "--instance", tmp_path / "live"),
            "club_changes row 1", "kind", "должно быть одним из")


def test_commands_that_migrate_refuse_a_file_a_newer_version_made(tmp_path):
    """import, stats and host-key --rotate --links (which migrate the live file) refuse it
    in one line, exit 2, and leave it, and the host key, byte for byte as they were
    (before: migrated and written to; host-key: a traceback after the key was rotated)."""
    live = filled(tmp_path / "live")
    edit(live, f"PRAGMA user_version = {store.schema_version() + 1}")
    before = live.read_bytes()
    game = tmp_path / "game.json"
    game.write_text(json.dumps({**HEAD, "deals": []}), encoding="utf-8")
    refused(scorer("import", game, "--instance", tmp_path / "live", "--lang", "en"),
            "import: --instance:", "newer version", "user_version")
    refused(scorer("stats", "--instance", tmp_path / "live"), "newer version")
    assert scorer("host-key", "--instance", tmp_path / "live").returncode == 0  # its config
    config = (tmp_path / "live" / "config.py").read_bytes()
    refused(scorer("host-key", "--rotate", "--links", "--instance", tmp_path / "live"),
            "host-key: --links:", "newer version", "nothing was changed")
    assert live.read_bytes() == before
    assert (tmp_path / "live" / "config.py").read_bytes() == config


# -- a property: whatever the app writes comes back --------------------------------------

LETTERS = st.characters(codec="utf-8", categories=("L", "M", "N", "P", "S", "Zs"))


def written_name(text: str) -> str | None:
    """The name as the forms keep it, or None if the forms would refuse it."""
    text = " ".join(text.split())
    try:
        check_name(text)
    except RuleError:
        return None
    return text


def written_text(text: str, field: str) -> str | None:
    """A free text as the forms keep it, or None if they would refuse it."""
    text = " ".join(text.split())
    try:
        check_text(field, text)
    except RuleError:
        return None
    return text or None


NAMES = st.text(LETTERS, min_size=1, max_size=40).map(written_name).filter(bool)
POINTS = st.one_of(st.integers(0, 100), st.floats(0, 100, allow_nan=False))


@st.composite
def club_rows(draw: st.DrawFn) -> dict:
    """What a host may do to a club, drawn: names, a rename, a season, a rule change."""
    players = draw(st.lists(NAMES, min_size=3, max_size=3, unique_by=name_key))
    return {
        "players": players,
        "rename": draw(NAMES),
        "season": draw(st.text(LETTERS, min_size=1, max_size=80).map(
            lambda t: written_text(t, "title")).filter(bool)),
        "points": {size: draw(st.lists(POINTS, min_size=size, max_size=size))
                   for size in (2, 3, 4)},
        "who": draw(st.none() | st.text(LETTERS, min_size=1, max_size=40).map(
            lambda t: written_text(t, "who"))),
        "count": draw(st.booleans()),
    }


def run(handler, **args) -> int:
    """A database command in this process (stdout and stderr kept out of the log)."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return int(handler(argparse.Namespace(lang="en", **args)))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=club_rows())
def test_any_row_the_app_writes_survives_backup_then_restore(tmp_path_factory, rows):
    """Games, links, a rename, a season, share links, a rule change from the start, a
    counted or uncounted game: backup → restore gives every kept row back unchanged."""
    folder = tmp_path_factory.mktemp("prop")
    head = {**HEAD, "players": rows["players"]}
    path = folder / "live" / "scorer.sqlite"
    path.parent.mkdir()
    db = store.connect(path)
    store.migrate(db)
    st_ = store.Store(db)
    try:
        load_game(json.dumps(head))  # the players as a new game's form takes them
    except RuleError:
        db.close()
        assume(False)
    game = st_.create_game(head, [pattern(i) for i in range(2)])
    guest = st_.create_game({**HEAD, "players": ["Ян", "Ия", "Ося"]}, guest=True)
    club = Club(db)
    club.state()
    with contextlib.suppress(ClubError):  # another player has that name already
        club.rename(1, rows["rename"])
    club.count_game(guest.id, rows["count"])
    season = club.add_season(rows["season"], "2026-01-01", "2026-12-31", rows["points"])
    club.share_token("season", season.id)
    club.share_token("season", None)
    st_.change_agreements(game.id, resolve_agreements("classic", {"dark": True}).to_json(),
                          "change", rows["who"])
    db.close()
    saved = dump(path)
    copy = folder / "copy.sqlite"
    assert run(backup_cli.run_backup, path=str(copy), instance=str(path.parent)) == 0
    edit(path, "delete from seasons", "delete from agreement_revisions")
    assert run(backup_cli.run_restore, backup=str(copy), instance=str(path.parent)) == 0
    assert dump(path) == saved
