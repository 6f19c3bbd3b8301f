"""Whole database files: copy, attach, check.

``backup``, ``restore`` and ``export-all`` (``scorer.cli.backup``) work on whole SQLite
files rather than on one game: SQLite's online backup, a backup attached to a fresh
database and its kept tables (``store.SCHEMA``) copied row by row, each column's stored
types and JSON checked, the derived totals made again, every kept row read for export.
This module holds that SQL, so the command line holds none; what it refuses the command
line words (the refusals here name the table and carry SQLite's text).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from scorer import store

# The name a backup is attached under while its rows are copied.
ATTACHED = "backup"

# SQLite keeps whatever is stored, whatever the column says: the storage class each
# declared type must hold (any other declared type matches nothing, so it is refused).
_STORAGE = {"INTEGER": "integer", "TEXT": "text"}


@dataclass(frozen=True)
class Column:
    """A table column as the schema checks compare it (``PRAGMA table_info``)."""

    name: str
    kind: str  # the declared type, upper case
    not_null: bool
    primary_key: int  # 0, or the column's position in the primary key


@dataclass(frozen=True)
class StoredHead:
    """A game's row as a restore reads it: id, version and the head's JSON text."""

    id: int
    version: int
    head: str


@dataclass(frozen=True)
class StoredRevision:
    """One revision of a game's deal slot, its record as the stored text (None: deleted)."""

    seq: int
    rev: int
    record: str | None


@dataclass(frozen=True)
class RebuiltTotals:
    """A game's end totals as a restore stores them: replayed, never broken."""

    game_id: int
    version: int
    winner: int | None
    score: str  # the end scores as JSON


class CopyError(ValueError):
    """A kept table of a backup that cannot be copied into the fresh database."""

    def __init__(self, table: str, detail: str):
        super().__init__(f"{table}: {detail}")
        self.table = table


class ColumnsDiffer(CopyError):
    """The backup's table has other columns than the app's (``have``: the backup's)."""

    def __init__(self, table: str, have: list[str]):
        super().__init__(table, f"columns {', '.join(have) or '-'}")
        self.have = have


class RowsBreakSchema(CopyError):
    """SQLite refused the backup's rows (a key, NOT NULL or a foreign key)."""

    def __init__(self, table: str, error: sqlite3.IntegrityError):
        super().__init__(table, str(error))
        self.error = error


def online_copy(source: Database, target: Database) -> None:
    """Copy one open database into another with SQLite's online backup API."""
    # One step (pages=-1): the copy is one consistent snapshot of the source, even while
    # the server keeps writing to it.
    source.conn.backup(target.conn)


def table_kinds(db: Database) -> dict[str, str]:
    """{name: type} of everything in the schema (``table``, ``view``, ``index``...)."""
    return dict(db.execute("select name, type from sqlite_master").fetchall())


def tables(db: Database, schema: str = "main") -> set[str]:
    """The names of the real tables (not views) of a database or an attached one."""
    return {r[0] for r in db.execute(
        f"select name from {schema}.sqlite_master where type = 'table'")}


def kept_counts(db: Database) -> dict[str, int]:
    """How many rows each kept table (store.SCHEMA) holds, in SCHEMA's order."""
    present = tables(db)
    return {t: int(db.execute(f"select count(*) from [{t}]").fetchone()[0])
            for t in store.kept_tables() if t in present}


def columns(db: Database, table: str, schema: str = "main") -> list[Column]:
    """The columns of a table of a database or an attached one, in their order."""
    return [Column(c[1], c[2].upper(), bool(c[3]), c[5])
            for c in db.execute(f"PRAGMA {schema}.table_info([{table}])").fetchall()]


@contextmanager
def attached(db: Database, path: Path) -> Iterator[Database]:
    """The database file at path attached to db as ``backup`` while the block runs."""
    db.execute(f"ATTACH DATABASE ? AS {ATTACHED}", [str(path)])
    try:
        yield db
    finally:
        db.execute(f"DETACH DATABASE {ATTACHED}")


def copy_kept_tables(db: Database, backup: Path, required: Collection[str]) -> None:
    """Copy the kept tables' rows (store.SCHEMA) of the backup file into db, all or none
    (ColumnsDiffer, RowsBreakSchema); a kept table the backup lacks is skipped unless
    required (a backup from before one-time ids or the club were kept)."""
    with attached(db, backup):
        present = tables(db, ATTACHED)
        with db.conn:
            # A merged player may point at a player copied after it.
            db.execute("PRAGMA defer_foreign_keys = ON")
            for table in store.kept_tables():
                if table not in present and table not in required:
                    continue
                names = [c.name for c in columns(db, table)]
                have = [c.name for c in columns(db, table, ATTACHED)]
                if sorted(have) != sorted(names):
                    raise ColumnsDiffer(table, have)
                listed = ", ".join(f"[{n}]" for n in names)
                try:
                    db.execute(f"insert into main.[{table}] ({listed}) "
                               f"select {listed} from {ATTACHED}.[{table}]")
                except sqlite3.IntegrityError as exc:
                    raise RowsBreakSchema(table, exc) from None


def wrong_types(db: Database, table: str, column: Column) -> int:
    """How many rows hold a value whose storage class is not the column's (NULL allowed
    only where the column may be NULL)."""
    allowed = [_STORAGE.get(column.kind, "")] + ([] if column.not_null else ["null"])
    marks = ",".join("?" * len(allowed))
    return int(db.execute(f"select count(*) from [{table}] where typeof([{column.name}]) "
                          f"not in ({marks})", allowed).fetchone()[0])


def not_json(db: Database) -> int:
    """How many games' heads and revisions' records are not JSON (a NULL record is a
    deleted deal, not broken)."""
    broken = db.execute("select count(*) from games where not json_valid(head)").fetchone()[0]
    broken += db.execute("select count(*) from revisions"
                         " where record is not null and not json_valid(record)").fetchone()[0]
    return int(broken)


def game_heads(db: Database) -> list[StoredHead]:
    """Every game's id, version and head text, by id."""
    rows = db.execute("select id, version, head from games order by id").fetchall()
    return [StoredHead(game_id, version, head) for game_id, version, head in rows]


def revisions(db: Database, game_id: int) -> list[StoredRevision]:
    """Every revision of a game's deal slots, by slot then revision."""
    rows = db.execute(
        "select d.seq, r.rev, r.record from deals d join revisions r on r.deal_id = d.id"
        " where d.game_id = ? order by d.seq, r.rev", [game_id]).fetchall()
    return [StoredRevision(seq, rev, record) for seq, rev, record in rows]


def replace_totals(db: Database, rows: list[RebuiltTotals]) -> None:
    """Make the totals table hold exactly these rows, in one transaction."""
    with db.conn:
        db.execute("delete from totals")
        db.conn.executemany("insert into totals (game_id, version, winner, score, broken)"
                            " values (?, ?, ?, ?, 0)",
                            [(r.game_id, r.version, r.winner, r.score) for r in rows])


def unlogged_rows(db: Database) -> dict[str, list[dict[str, Any]]]:
    """{table: its rows as objects, by rowid} of the kept tables the game logs do not
    carry (store.SCHEMA), those the file has."""
    present = tables(db)
    out = {}
    for table in store.SCHEMA:
        if table.role != store.KEPT or table.logged or table.name not in present:
            continue
        cursor = db.execute(f"select * from [{table.name}] order by rowid")
        names = [d[0] for d in cursor.description]
        out[table.name] = [dict(zip(names, row, strict=True)) for row in cursor]
    return out
