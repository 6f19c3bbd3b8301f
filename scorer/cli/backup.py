"""``backup``, ``restore``, ``export-all`` and ``import``: the app's data from a terminal.

``backup`` copies the live database with SQLite's online backup API (a consistent
snapshot even while the server writes); ``restore`` copies such a file back, keeping
the game links. ``export-all`` writes every game as a GAME-FORMAT JSON file in a zip;
``import`` reads such files (or one JSON file) as new games with new links.
Every refusal is one line on stderr in Russian or English (--lang), shaped like the
other commands' (``COMMAND: FIELD: TEXT``), and exit status 2; nothing is half-done.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sqlite3
import sys
import zipfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlite_utils import Database

from scorer import store, store_checks, store_files
from scorer.cli.replay import InputError
from scorer.club import Club
from scorer.engine import (
    Record,
    RuleError,
    checked_parts,
    end_totals,
    game_to_json,
    load_game,
    parse_game,
    parse_record,
    replay,
)
from scorer.engine.texts import LANGUAGES, N_
from scorer.instance import database

if TYPE_CHECKING:
    from scorer.cli import Subparsers

# A game log as JSON data (docs/GAME-FORMAT.md).
Log = dict[str, Any]

# A zip member larger than this is no game log (2000 deals are well under 1 MB).
MAX_MEMBER_BYTES = 16 * 1024 * 1024
MAX_MEMBERS = 10_000
# All members together, counted from the zip's directory before anything is unpacked:
# a small zip can claim gigabytes (a zip bomb).
MAX_TOTAL_BYTES = 256 * 1024 * 1024
TABLES = {"games", "deals", "revisions"}
# The zip member of export-all that holds the kept tables the game logs do not carry
# (store.SCHEMA); import skips it.
TABLES_MEMBER = "tables.json"


def register(subparsers: Subparsers) -> None:
    """Add ``backup``, ``export-all``, ``restore`` and ``import``: one file argument each,
    plus --instance and --lang."""
    commands = (
        ("backup", "copy the database to a file (online backup)",
         "path", "the backup file to write (must not exist yet)", run_backup),
        ("export-all", "write every game as GAME-FORMAT JSON in a zip",
         "path", "the .zip file to write (must not exist yet)", run_export_all),
        ("restore", "replace the database with a backup file",
         "backup", "a file written by `backup`", run_restore),
        ("import", "add games from a GAME-FORMAT .json or a .zip",
         "file", "a thousand-game/1 JSON file, or a zip of them", run_import),
    )
    for name, about, argument, argument_help, handler in commands:
        p = subparsers.add_parser(name, help=about)
        p.add_argument(argument, help=argument_help)
        p.add_argument("--instance", metavar="DIR",
                       help="the app's data folder (default: $SCORER_INSTANCE or ./instance)")
        p.add_argument("--lang", choices=LANGUAGES, default="ru", help="language of refusals")
        p.set_defaults(func=handler)


def existing_database(instance: str | None) -> Path:
    """The app's SQLite file, which must exist."""
    path = database(instance)
    if not path.is_file():
        raise InputError("--instance", N_("no database at {path}"), path=path)
    return path


def new_file(path: str) -> Path:
    """A path to write that does not exist yet, in a folder that does."""
    target = Path(path)
    if target.exists():
        raise InputError(path, N_("already exists; choose a new file name"))
    if not target.parent.resolve().is_dir():
        raise InputError(path, N_("no such folder {folder}"), folder=target.parent)
    return target


def as_input_error(err: Exception) -> InputError:
    """Word a failure of the file system or of SQLite as a refusal (text from the OS)."""
    if isinstance(err, InputError):
        return err
    if isinstance(err, store.NewerSchemaError):
        newer = N_("written by a newer version of scorer (schema {names})")
        return InputError("--instance", newer, names=err.names)
    if isinstance(err, OSError):
        where = str(err.filename or "file")
        why = err.strerror or str(err)
        return InputError(where, N_("cannot read or write ({why})"), why=why)
    return InputError("database", N_("SQLite error: {error}"), error=err)


def fail(command: str, err: Exception, lang: str) -> int:
    """Print one line on stderr (``COMMAND: FIELD: TEXT``) and return the usage-error status."""
    if isinstance(err, RuleError):  # the engine's limit as the store met it: its own line
        print(f"{command}: {err.message(lang)}", file=sys.stderr)
        return 2
    refusal = as_input_error(err)
    text = " ".join(refusal.text(lang).split())
    print(f"{command}: {refusal.field}: {text}", file=sys.stderr)
    return 2


def copy_database(source: Path, target: Path) -> None:
    """Copy one SQLite file into another with the online backup API, then check it."""
    src = store.connect(source)
    try:
        dst = store.connect(target)
        try:
            store_files.online_copy(src, dst)
            check_integrity(dst, target)
        finally:
            dst.close()
    finally:
        src.close()


def check_integrity(db: Database, path: Path) -> None:
    """Refuse a database that fails SQLite's integrity check."""
    result = store.integrity_check(db.conn)
    if result != ["ok"]:
        found = "; ".join(result[:3])
        raise InputError(str(path), N_("integrity check failed: {found}"), found=found)


def written_atomically(target: Path, write: Callable[[Path], None]) -> None:
    """Write to a temporary name beside target, then rename: no half-written file."""
    part = target.with_name(target.name + ".part")
    for leftover in (part, Path(f"{part}-wal"), Path(f"{part}-shm")):
        leftover.unlink(missing_ok=True)
    try:
        write(part)
        os.replace(part, target)
    finally:
        part.unlink(missing_ok=True)


def run_backup(args: argparse.Namespace) -> int:
    """Copy the live database to a new file."""
    try:
        source = existing_database(args.instance)
        target = new_file(args.path)
        written_atomically(target, lambda part: copy_database(source, part))
        counts = kept_counts(target)
    except (InputError, OSError, sqlite3.Error) as err:
        return fail("backup", err, args.lang)
    print(f"backup: {counts.get('games', 0)} games copied from {source} to {target}")
    print("backup: kept rows: " + ", ".join(f"{t} {n}" for t, n in counts.items()))
    return 0


def kept_counts(path: Path) -> dict[str, int]:
    """How many rows each kept table of a database file holds (store.SCHEMA)."""
    db = store.connect(path)
    try:
        return store_files.kept_counts(db)
    finally:
        db.close()


def check_backup(path: Path) -> None:
    """Refuse at once a path that is no SQLite file (the rest is checked on a copy)."""
    if not path.is_file():
        raise InputError(str(path), N_("no such file"))
    with open(path, "rb") as f:
        if f.read(16) != b"SQLite format 3\x00":
            raise InputError(str(path),
                             N_("not an SQLite database (not a file written by `backup`)"))


def check_source(db: Database, path: Path) -> None:
    """Refuse a backup that fails SQLite's integrity check, lacks the app's tables (real
    tables, not views) or comes from a newer version of the app."""
    check_integrity(db, path)
    kinds = store_files.table_kinds(db)
    missing = sorted(t for t in TABLES if kinds.get(t) != "table")
    if missing:
        raise InputError(str(path), N_("not a scorer backup (no table {tables})"),
                         tables=", ".join(missing))
    check_schema_version(db, path)


def check_schema_version(db: Database, path: Path) -> None:
    """Refuse a backup whose schema has migrations this version does not know (a newer app)."""
    newer = store_checks.newer_schema(db)
    if newer:
        raise InputError(str(path), N_("written by a newer version of scorer (schema {names})"),
                         names=newer)


# A restore copies the kept tables of store.SCHEMA row by row. Everything else of the
# backup (its schema, indexes, triggers, views, the derived tables) is left behind: the
# rows go into a database the app has just made itself, so a trigger copied into a backup
# can never run here, and the derived tables are made again from the kept rows.


def copy_rows(db: Database, source: Path, staged: Path) -> None:
    """Copy the app's rows from the staged backup into the fresh database ``db``."""
    try:
        store_files.copy_kept_tables(db, staged, TABLES)
    except store_files.ColumnsDiffer as err:
        raise InputError(f"{source}: {err.table}", N_("not the scorer schema (columns: {have})"),
                         have=", ".join(err.have) or "-") from None
    except store_files.RowsBreakSchema as err:
        raise InputError(f"{source}: {err.table}", N_("rows break the schema ({error})"),
                         error=err.error) from None


# SQLite keeps whatever is stored, whatever the column says: a row whose value has the
# wrong type would make every page of its game fail, so the restore refuses it instead.
def check_restored_schema(db: Database, path: Path) -> None:
    """Refuse copied rows whose stored values have another type than their column's, or
    whose JSON columns do not hold JSON."""
    for table in store.kept_tables():
        for column in store_files.columns(db, table):
            bad = store_files.wrong_types(db, table, column)
            if bad:
                raise InputError(f"{path}: {table}.{column.name}",
                                 N_("{count} rows hold a value of the wrong type"), count=bad)
    broken = store_files.not_json(db)
    if broken:
        raise InputError(f"{path}: games.head", N_("{count} rows are not JSON"), count=broken)


def check_games(db: Database, path: Path) -> int:
    """Check every game as the app will read it: its head through the engine's load_game,
    every revision's record through parse_record, the live deals through a replay; then
    store the totals the list shows, recomputed. Returns the number of games."""
    games = store_files.game_heads(db)
    totals = []
    for row in games:
        where = f"{path}: game {row.id}"
        try:
            game = load_game(row.head)
            live = checked_records(db, row.id, len(game.players), where)
            protocol = replay(game.with_deals(live))
        except RuleError as err:
            raise InputError(where, "{refusal}", refusal=err) from None
        totals.append(store_files.RebuiltTotals(row.id, row.version, protocol.winner,
                                                json.dumps(list(protocol.score))))
    store_files.replace_totals(db, totals)
    return len(games)


def checked_records(db: Database, game_id: int, players: int, where: str) -> list[Record]:
    """The live records of a game's slots, each revision parsed (RuleError or InputError)."""
    latest: dict[int, Record | None] = {}
    for revision in store_files.revisions(db, game_id):
        seq, text = revision.seq, revision.record
        record = None
        if text is not None:
            try:
                data = json.loads(text)
            except (ValueError, RecursionError) as exc:
                raise InputError(where, N_("deal slot {slot}: the stored record is unreadable "
                                           "({error})"), slot=seq, error=str(exc)[:80]) from None
            record = parse_record(data, seq, players)
        latest[seq] = record
    return [r for r in latest.values() if r is not None]


def prepared_copy(source: Path, part: Path) -> int:
    """Check a backup and copy its rows into a freshly made database at part (never the
    backup file itself, which is read from a private copy); return its number of games."""
    staged = part.with_name(part.name + ".backup")
    shutil.copyfile(source, staged)
    try:
        check_source_file(staged, source)
        db = store.connect(part)
        try:
            store.migrate(db)
            copy_rows(db, source, staged)
            check_restored_schema(db, source)
            count = check_games(db, source)
            check_kept_rows(db, source)
            # The club's summaries are derived: made again, each game replayed once (the
            # host's games of a backup from before the club are linked by name first).
            try:
                Club(db).state()
            except (ValueError, TypeError, KeyError, IndexError, AttributeError,
                    RecursionError) as exc:  # a check missed something: still one line
                raise InputError(f"{source}: club", N_("the club's data does not read "
                                                       "({error})"), error=exc) from None
            check_integrity(db, source)
            return count
        finally:
            db.close()
    finally:
        staged.unlink(missing_ok=True)


def check_kept_rows(db: Database, source: Path) -> None:
    """Refuse the first kept row the app would never have written (scorer.store_checks)."""
    try:
        store_checks.check_rows(db)
    except store_checks.RowError as err:
        raise InputError(f"{source}: {err.where}", "{refusal}", refusal=err) from None


def check_source_file(staged: Path, source: Path) -> None:
    """Run check_source on the staged copy (a private copy: opening it may write to it)."""
    db = store.connect(staged)
    try:
        check_source(db, source)
    finally:
        db.close()


def run_restore(args: argparse.Namespace) -> int:
    """Replace the instance's database with a backup, keeping a copy of the old one.

    The backup is copied to a ``.part`` file beside the database, checked and migrated
    there, and only then renamed into place: on any refusal the live file is untouched.
    """
    lock = kept = None
    try:
        source = Path(args.backup)
        check_backup(source)
        target = database(args.instance)
        folder = target.parent
        folder.mkdir(parents=True, exist_ok=True)
        try:
            lock = store.hold(target, exclusive=True)
        except store.HeldError:
            raise InputError("--instance", N_("a server is running on {path}; stop it first "
                                              "(deals saved while restoring would be lost)"),
                             path=target) from None
        part = target.with_name(target.name + ".part")
        for leftover in (part, Path(f"{part}-wal"), Path(f"{part}-shm")):
            leftover.unlink(missing_ok=True)
        try:
            count = prepared_copy(source, part)
            if target.is_file():
                # Restoring over data by mistake must not lose it: keep what was there.
                stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
                kept = new_file(str(folder / f"scorer-before-restore-{stamp}.sqlite"))
                copy_database(target, kept)
            # The live file's WAL belongs to the old content: none may survive the rename.
            for stale in (Path(f"{target}-wal"), Path(f"{target}-shm")):
                stale.unlink(missing_ok=True)
            os.replace(part, target)
        finally:
            part.unlink(missing_ok=True)
    except (InputError, OSError, sqlite3.Error) as err:
        return fail("restore", err, args.lang)
    finally:
        if lock is not None:
            os.close(lock)
    print(f"restore: {count} games restored from {source} into {target}")
    if kept:
        print(f"restore: the database that was there is kept as {kept}")
    return 0


def game_logs(path: Path) -> tuple[list[tuple[int, Log]], dict[str, list[Log]]]:
    """(game id, GAME-FORMAT log) of every stored game, oldest first, and the rows of every
    kept table the logs do not carry (store.SCHEMA), from one snapshot."""
    st = store.Store(store.connect(path))
    try:
        with st.snapshot():
            rows = sorted(st.games(None), key=lambda r: r.id)
            logs = [(r.id, export_log(st.log(r.id))) for r in rows]
            return logs, store_files.unlogged_rows(st.db)
    finally:
        st.db.close()


def export_log(log: Log) -> Log:
    """A stored game's GAME-FORMAT log, normalised by the engine when it parses."""
    try:
        return game_to_json(parse_game(log))
    except RuleError:
        return log  # a log that no longer parses is still exported as it is stored


def member_name(game_id: int, log: Log) -> str:
    """A zip member name: the game id, then the title or the players."""
    label = log.get("title") or "-".join(str(p) for p in log.get("players", []))
    text = re.sub(r"[^\w-]+", "-", str(label), flags=re.UNICODE).strip("-")[:60]
    return f"game-{game_id:05d}{'-' + text if text else ''}.json"


def run_export_all(args: argparse.Namespace) -> int:
    """Write every game as a GAME-FORMAT JSON file into a new zip."""
    try:
        source = existing_database(args.instance)
        target = new_file(args.path)
        logs, tables = game_logs(source)

        def write(part: Path) -> None:
            with zipfile.ZipFile(part, "w", compression=zipfile.ZIP_DEFLATED) as zf:
                for game_id, log in logs:
                    body = json.dumps(log, ensure_ascii=False, indent=1) + "\n"
                    zf.writestr(member_name(game_id, log), body)
                zf.writestr(TABLES_MEMBER, json.dumps(tables, ensure_ascii=False, indent=1))

        written_atomically(target, write)
    except (InputError, OSError, sqlite3.Error) as err:
        return fail("export-all", err, args.lang)
    print(f"export-all: {len(logs)} games written to {target}")
    return 0


def read_documents(path: Path) -> list[tuple[str, bytes]]:
    """(name, bytes) of every JSON document in a .json file or a .zip of them."""
    if not path.is_file():
        raise InputError(str(path), N_("no such file"))
    if not zipfile.is_zipfile(path):
        if path.stat().st_size > MAX_MEMBER_BYTES:
            raise InputError(str(path), N_("too large for a game log"))
        return [(path.name, path.read_bytes())]
    try:
        with zipfile.ZipFile(path) as zf:
            # export-all's club data and rule-change history: not a game log.
            members = [i for i in zf.infolist()
                       if not i.is_dir() and i.filename != TABLES_MEMBER]
            if len(members) > MAX_MEMBERS:
                raise InputError(str(path), N_("more than {max} files"), max=MAX_MEMBERS)
            for info in members:
                if info.file_size > MAX_MEMBER_BYTES:
                    raise InputError(f"{path}: {info.filename}", N_("too large for a game log"))
            total = sum(i.file_size for i in members)
            if total > MAX_TOTAL_BYTES:
                raise InputError(str(path), N_("unpacks to {total} bytes, more than {max}"),
                                 total=total, max=MAX_TOTAL_BYTES)
            return [(info.filename, bounded_read(zf, info, path)) for info in members]
    except (zipfile.BadZipFile, RuntimeError, NotImplementedError) as exc:
        raise InputError(str(path), N_("unreadable zip ({error})"), error=exc) from None


def bounded_read(zf: zipfile.ZipFile, info: zipfile.ZipInfo, path: Path) -> bytes:
    """A member's bytes, never more than its stated size (a forged header cannot lie past
    it: reading stops one byte beyond the limit)."""
    limit = min(info.file_size, MAX_MEMBER_BYTES)
    with zf.open(info) as member:
        data = member.read(limit + 1)
    if len(data) > limit:
        raise InputError(f"{path}: {info.filename}", N_("too large for a game log"))
    return data


def checked_log(name: str, raw: bytes) -> tuple[Log, list[Log]]:
    """Parse and replay one document; return (head, records) or refuse naming the file."""
    try:  # the engine decodes, checks depth and shape, and replays every deal
        return checked_parts(load_game(raw))
    except RuleError as err:
        raise InputError(name, "{refusal}", refusal=err) from None


def run_import(args: argparse.Namespace) -> int:
    """Add every game of a JSON file or zip as new games: all of them, or none."""
    try:
        source = Path(args.file)
        logs = [checked_log(name, raw) for name, raw in read_documents(source)]
        if not logs:
            raise InputError(str(source), N_("no game logs in it"))
        target = database(args.instance)
        target.parent.mkdir(parents=True, exist_ok=True)
        db = store.connect(target)
        try:
            store.migrate(db)
            rows = store.Store(db).create_games(
                logs, totals=[end_totals(head, records) for head, records in logs])
        finally:
            db.close()
    except (InputError, OSError, sqlite3.Error, RuleError) as err:
        return fail("import", err, args.lang)
    for row in rows:
        print(f"import: game {row.id} ({' · '.join(row.head.get('players', []))}): "
              f"/g/{row.edit_token}")
    print(f"import: {len(rows)} games added to {target}")
    return 0
