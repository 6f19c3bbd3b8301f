"""Games and deal records in SQLite (sqlite-utils), with revisions: nothing is overwritten.

A game row holds the game log's head (players, agreements, first dealer, title...).
Each deal is a slot with a fixed position in the game; what it says lives in
revisions.  Editing or deleting a deal appends a revision (a delete is a revision
whose record is NULL), so every earlier state survives and a deleted deal can be
restored.  Scores are derived by replaying the records: the truth holds none. The
`totals` and club summary tables only remember, per game version, what a replay gave
(derived data, made again when missing or old, never read as the truth).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from scorer.engine import RuleError, check_deal_count, log_with, name_key

# Writers in this process queue here first: SQLite's own busy handler sleeps with
# growing back-off, which turns a short wait into a long tail under concurrent posts.
_WRITE_LOCK = threading.Lock()

# Days a deleted game is kept (listed as «deleted — undo») before purge_deleted removes it.
DELETED_DAYS = 7

# A game's (winner seat or None, end scores), as the games list shows them.
Totals = tuple[int | None, list[int]]
# A version's end totals as the list keeps them: version, winner, scores (None when the
# log does not replay).
StoredTotals = tuple[int, int | None, list[int] | None]
# A game log's head or a deal record as JSON data (docs/GAME-FORMAT.md).
JsonDict = dict[str, Any]

migrations = Migrations("scorer")


@migrations()
def m001_games_and_deals(db: Database) -> None:
    """Create games, deal slots and their revisions."""
    db.table("games").create(
        {
            "id": int,
            "edit_token": str,
            "view_token": str,
            "head": str,  # the game log without "deals", as JSON
            "version": int,  # bumped on every change; the read-only page's ETag
            "created": str,
            "updated": str,
        },
        pk="id",
        not_null={"edit_token", "view_token", "head", "version", "created", "updated"},
    )
    db.table("games").create_index(["edit_token"], unique=True)
    db.table("games").create_index(["view_token"], unique=True)
    db.table("deals").create(
        {"id": int, "game_id": int, "seq": int, "created": str},
        pk="id",
        foreign_keys=[("game_id", "games", "id")],
        not_null={"game_id", "seq", "created"},
    )
    db.table("deals").create_index(["game_id", "seq"], unique=True)
    db.table("revisions").create(
        {"id": int, "deal_id": int, "rev": int, "record": str, "note": str, "created": str},
        pk="id",
        foreign_keys=[("deal_id", "deals", "id")],
        not_null={"deal_id", "rev", "note", "created"},
    )
    db.table("revisions").create_index(["deal_id", "rev"], unique=True)


@migrations()
def m002_totals_cache(db: Database) -> None:
    """Cached end totals per game version (derived data, never the truth) for the list."""
    db.execute(
        "create table if not exists totals (game_id integer primary key"
        " references games(id), version integer not null, winner integer,"
        " score text, broken integer not null default 0)"
    )


@migrations()
def m003_submission_ids(db: Database) -> None:
    """One row per write form already stored, so a repeated post is answered, not re-applied."""
    # A double tap or a re-sent form carries the same one-time id as the first post.
    db.table("submissions").create(
        {"game_id": int, "sid": str, "created": str},
        pk=("game_id", "sid"),
        foreign_keys=[("game_id", "games", "id")],
        not_null={"game_id", "sid", "created"},
    )


@migrations()
def m004_archive_delete_guests(db: Database) -> None:
    """When a game was archived or deleted (NULL: not), and whether a guest started it."""
    # A deleted game is kept (its links answer 404) until purge_deleted; a guest is a
    # browser without the host key, whose games count against the guests' cap (web access).
    db.execute("alter table games add column archived text")
    db.execute("alter table games add column deleted text")
    db.execute("alter table games add column guest integer not null default 0")


@migrations()
def m005_submission_versions(db: Database) -> None:
    """The game version each stored form left, so a page's chain of waiting writes can
    follow its own last write even though the form was filled in before it."""
    db.execute("alter table submissions add column version integer")


@migrations()
def m006_club_players(db: Database) -> None:
    """The club's players and the links of game seats to them (data beside the logs)."""
    # The log keeps each name as written; a link says which player sat there. ``key`` is
    # the written name's comparison key (names.py), so an old spelling still finds its
    # player after a rename or a merge. ``counted`` overrides whether a game enters the
    # host's figures (NULL: the default, the host's games yes, a guest's no).
    db.execute("create table players (id integer primary key, name text not null,"
               " key text not null, created text not null, merged_into integer"
               " references players(id))")
    db.execute("create index players_key on players (key)")
    db.execute("create table seat_links (game_id integer not null references games(id),"
               " seat integer not null, player_id integer not null references players(id),"
               " key text not null, primary key (game_id, seat))")
    db.execute("create index seat_links_player on seat_links (player_id)")
    db.execute("create index seat_links_key on seat_links (key)")
    db.execute("create table club_games (game_id integer primary key references games(id),"
               " counted integer not null)")
    link_host_games(db)


@migrations()
def m007_club_history(db: Database) -> None:
    """Every rename, merge, re-link and count of the club, with what it changed (undoable)."""
    db.execute("create table club_changes (id integer primary key, kind text not null,"
               " data text not null, created text not null, undone text)")


@migrations()
def m008_club_summaries(db: Database) -> None:
    """Each game version's per-seat figures (derived data, like totals; never the truth)."""
    db.execute("create table club_summaries (game_id integer primary key references"
               " games(id), version integer not null, data text not null)")


@migrations()
def m009_club_seasons_and_shares(db: Database) -> None:
    """Seasons (a named date range with its league points) and read-only share links."""
    db.execute("create table seasons (id integer primary key, name text not null,"
               " start text not null, end text not null, points text not null,"
               " created text not null)")
    db.execute("create table club_shares (token text primary key, kind text not null,"
               " ref integer, created text not null)")
    db.execute("create unique index club_shares_ref on club_shares (kind, ref)")


@migrations()
def m010_agreement_revisions(db: Database) -> None:
    """Changes of a game's whole agreement set (from the start): who, when, from what to
    what; an undo is one more change, back to what was before."""
    db.execute("create table agreement_revisions (id integer primary key, game_id integer"
               " not null references games(id), rev integer not null, before text not null,"
               " after text not null, note text not null, who text, created text not null)")
    db.execute("create unique index agreement_revisions_rev on agreement_revisions"
               " (game_id, rev)")


# What every table of the migrated schema is to a backup: KEPT rows are the club's data
# (``backup`` copies them, ``restore`` checks and copies them row by row, ``export-all``
# writes them); DERIVED ones are made again from the kept rows (``restore`` and ``migrate``
# fill them, so a tampered cache cannot come back with a restore). A migration that adds
# a table adds it here too: tests/reliability/test_restore_rows.py fails until then.
KEPT, DERIVED = "kept", "derived"


@dataclass(frozen=True)
class TableRole:
    """One table of the schema: kept or derived, and whether the game logs carry it."""

    name: str
    role: str  # KEPT or DERIVED
    # export-all writes it as the GAME-FORMAT logs (their live state: a deal's earlier
    # revisions and the links are only in a backup); the other kept tables go to tables.json
    logged: bool = False


SCHEMA = (
    TableRole("games", KEPT, logged=True),  # the log's head, links, shelf
    TableRole("deals", KEPT, logged=True),  # deal slots
    TableRole("revisions", KEPT, logged=True),  # every state of every deal
    TableRole("submissions", KEPT),  # one-time ids of stored forms
    TableRole("players", KEPT),
    TableRole("seat_links", KEPT),
    TableRole("club_games", KEPT),
    TableRole("club_changes", KEPT),
    TableRole("seasons", KEPT),
    TableRole("club_shares", KEPT),
    TableRole("agreement_revisions", KEPT),  # rule changes from the start, and their undo
    TableRole("totals", DERIVED),  # end totals per game version: replayed
    TableRole("club_summaries", DERIVED),  # per-seat figures per game version: replayed
    TableRole("meta", DERIVED),  # the file's generation and the club's change counter
    TableRole("_sqlite_migrations", DERIVED),  # written by migrate
)


def kept_tables() -> tuple[str, ...]:
    """The kept tables, in the order a restore copies them (a game before its deals)."""
    return tuple(t.name for t in SCHEMA if t.role == KEPT)


def derived_tables() -> tuple[str, ...]:
    """The tables a restore makes again instead of copying."""
    return tuple(t.name for t in SCHEMA if t.role == DERIVED)


def link_host_games(db: Database) -> int:
    """Link every seat of the host's games (guest = 0, not deleted) that has no link yet,
    by name: to the player an earlier seat with that name is linked to, or to the player
    of that name, or to a new player. Returns how many games were linked."""
    games = db.execute(
        "select g.id, g.head, g.created from games g where g.guest = 0 and g.deleted is null"
        " and not exists (select 1 from seat_links s where s.game_id = g.id)"
        " and not exists (select 1 from club_games c where c.game_id = g.id and c.counted = 0)"
        " order by g.id").fetchall()
    for game_id, head, created in games:
        try:
            names = json.loads(head).get("players", [])
        except ValueError:
            continue
        link_seats(db, game_id, [str(n) for n in names], created)
    return len(games)


def link_seats(db: Database, game_id: int, names: list[str], stamp: str) -> list[int]:
    """Link each seat of a game to the player its name matches (a new player if none);
    return the player ids by seat. Seats already linked keep their link."""
    linked = dict(db.execute("select seat, player_id from seat_links where game_id = ?",
                             [game_id]).fetchall())
    out = []
    for seat, name in enumerate(names):
        if seat in linked:
            out.append(int(linked[seat]))
            continue
        key = name_key(name)
        taken = set(linked.values())
        player = matching_player(db, key, taken)
        if player is None:
            player = inserted(db.execute(
                "insert into players (name, key, created) values (?, ?, ?)",
                [name, key, stamp]))
        db.execute("insert into seat_links (game_id, seat, player_id, key) values (?, ?, ?, ?)",
                   [game_id, seat, player, key])
        linked[seat] = player
        out.append(player)
    return out


def matching_player(db: Database, key: str, taken: set[int] | None = None) -> int | None:
    """The live player whose name has this comparison key, else the one a seat written so
    was last linked to (after a rename or a merge), else None; never one in ``taken``."""
    found = db.execute(
        "select id from players where key = ? and merged_into is null order by id",
        [key]).fetchall()
    found += db.execute(
        "select s.player_id from seat_links s join players p on p.id = s.player_id"
        " where s.key = ? and p.merged_into is null order by s.game_id desc", [key]).fetchall()
    for (player,) in found:
        if not taken or player not in taken:
            return int(player)
    return None


def now() -> str:
    """The current UTC time as an ISO string."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def new_token() -> str:
    """An unguessable link token: 24 random bytes, 192 bits."""
    return secrets.token_urlsafe(24)


def connect(path: str | Path) -> Database:
    """Open the database with the pragmas every connection needs."""
    conn = sqlite3.connect(str(path), timeout=10, check_same_thread=False)
    db = Database(conn)
    # WAL lets the read-only pages read while a deal is written; FULL sync makes a
    # committed deal survive a power cut, not just a killed process.
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA foreign_keys=ON")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA busy_timeout=10000")
    return db


def inspect(path: str | Path) -> sqlite3.Connection:
    """A connection that sets no pragma, so opening it writes nothing: for checking a file
    before the app uses it (serve's start-up check). Close it before connect()."""
    return sqlite3.connect(str(path), timeout=10)


def integrity_check(conn: sqlite3.Connection) -> list[str]:
    """What SQLite's ``PRAGMA integrity_check`` finds (["ok"] when sound): unlike
    quick_check it also finds an index that disagrees with its table."""
    return [str(row[0]) for row in conn.execute("PRAGMA integrity_check").fetchall()]


class NewerSchemaError(sqlite3.DatabaseError):
    """The file was made by a newer version of the app (a database error, so every command
    that reports SQLite's errors in one line reports this one too)."""

    def __init__(self, names: str):
        super().__init__(f"written by a newer version of scorer (schema {names})")
        self.names = names


def newer_schema(conn: sqlite3.Connection) -> str | None:
    """What says the file was made by a newer version of the app (migrations this one does
    not know, or a higher ``PRAGMA user_version``), or None."""
    known = {m.name for m in migrations._migrations}
    tables = {r[0] for r in conn.execute("select name from sqlite_master where type = 'table'")}
    applied: set[str] = set()
    if "_sqlite_migrations" in tables:
        applied = {str(r[0]) for r in conn.execute(
            "select name from _sqlite_migrations where migration_set = ?", [migrations.name])}
    unknown = sorted(applied - known)
    if unknown:
        return ", ".join(unknown)
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version > schema_version():
        return f"user_version {version} > {schema_version()}"
    return None


def schema_problem(path: str | Path) -> str | None:
    """Why the database file cannot serve (missing, unreadable, or its schema not current),
    or None when it opens and every migration is applied: the health check's question.

    Opened read-write without creating (a missing file stays missing) and with no pragma,
    so asking writes nothing."""
    try:
        conn = sqlite3.connect(f"file:{Path(path).resolve()}?mode=rw", uri=True, timeout=5)
    except sqlite3.Error as exc:
        return f"cannot open {Path(path).name}: {exc}"
    try:
        conn.execute("select count(*) from sqlite_master").fetchone()
        newer = newer_schema(conn)
        pending = [m.name for m in migrations.pending(Database(conn))]
    except sqlite3.Error as exc:
        return f"cannot read {Path(path).name}: {exc}"
    finally:
        conn.close()
    if newer:
        return f"schema newer than this version: {newer}"
    return f"schema not current: {', '.join(pending)} pending" if pending else None


def migrate(db: Database) -> None:
    """Apply any pending schema migrations, then start a new database generation; refuse
    (NewerSchemaError) a file a newer version made, whose schema this one cannot know."""
    newer = newer_schema(db.conn)
    if newer:
        raise NewerSchemaError(newer)
    migrations.apply(db)
    # The number of migrations, where any SQLite tool shows it: a file a newer version
    # made says so even without its _sqlite_migrations rows.
    db.execute(f"PRAGMA user_version = {schema_version()}")
    new_generation(db)


def schema_version() -> int:
    """The schema this version of the app makes: how many migrations it knows."""
    return len(migrations._migrations)


def new_generation(db: Database) -> str:
    """Give the file a fresh random generation (at every migrate, so also after a restore).

    Caches and ETags are keyed by it as well as by game id and version: a restored file
    can hold the same ids and versions with other deals, which must never show stale."""
    value = secrets.token_hex(8)
    with db.conn:
        db.execute("create table if not exists meta (key text primary key, value text)")
        db.execute("insert or replace into meta (key, value) values ('generation', ?)",
                   [value])
    return value


class HeldError(Exception):
    """The database is held by another process (a running server, or a restore)."""


def lock_path(path: str | Path) -> Path:
    """The advisory lock file beside a database file."""
    return Path(f"{path}.lock")


def hold(path: str | Path, *, exclusive: bool) -> int:
    """Take the database's advisory lock without waiting; return the open descriptor.

    A server holds it shared for its whole life (several servers may share a file);
    ``restore`` needs it exclusive, so it refuses while any server runs, and a server
    cannot start in the middle of a restore. The kernel drops the lock when the process
    dies, even on kill -9, so no stale lock file can block anybody.
    """
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock_path(path), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise HeldError(str(path)) from None
    return fd


@dataclass(frozen=True)
class GameRow:
    """One stored game: its id, link tokens, log head and change counter."""

    id: int
    edit_token: str
    view_token: str
    head: JsonDict
    version: int
    created: str
    updated: str
    archived: str | None = None  # when the host archived it
    deleted: str | None = None  # when the host deleted it (kept DELETED_DAYS, then purged)
    guest: bool = False  # started or imported by a browser without the host key


@dataclass(frozen=True)
class PlaySpan:
    """When a game was played, from its stored times: created, and its last deal stored."""

    started: str
    ended: str

    @property
    def minutes(self) -> int | None:
        """Whole minutes between the two (None when no time passed: an imported game, whose
        deals were all stored with the game)."""
        seconds = (datetime.fromisoformat(self.ended)
                   - datetime.fromisoformat(self.started)).total_seconds()
        return round(seconds / 60) if seconds >= 60 else None


@dataclass(frozen=True)
class DealSlot:
    """A deal's place in the game with its latest revision (record None = deleted).

    ``id`` is the deal's slot number within its game (1, 2, … in the order recorded, kept
    for ever, also when deals before it are deleted). The database's own row id never
    leaves the store, so no link counts the deals of other games on the server.
    """

    id: int
    seq: int
    record: JsonDict | None
    rev: int = 1  # how many revisions the slot has (its latest one's number)


@dataclass(frozen=True)
class Change:
    """One stored revision of a game's deal: its slot, what was done, the record it left."""

    slot: int
    note: str  # add, edit, delete, restore
    record: JsonDict | None


class Store:
    """Game storage over one sqlite-utils connection."""

    def __init__(self, db: Database):
        self.db = db

    def _query(self, sql: str, params: list[Any] | None = None) -> Iterator[JsonDict]:
        """Rows as dicts (plain execute: sqlite-utils' query() adds a savepoint per call)."""
        cursor = self.db.execute(sql, params or [])
        names = [d[0] for d in cursor.description]
        for row in cursor:
            yield dict(zip(names, row, strict=True))

    @contextlib.contextmanager
    def writing(self) -> Iterator[Store]:
        """A write transaction taken up front, so validation sees the final state."""
        # BEGIN IMMEDIATE takes the write lock before we read, so two scorekeepers
        # posting at once are serialised instead of one failing with SQLITE_BUSY.
        with _WRITE_LOCK:
            self.db.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self
            except BaseException:
                # A full disk or an I/O error may have rolled the transaction back already.
                if self.db.conn.in_transaction:
                    self.db.conn.execute("ROLLBACK")
                raise
            self.db.conn.execute("COMMIT")

    @contextlib.contextmanager
    def atomic(self) -> Iterator[Store]:
        """The caller's write transaction, or one of its own: a change is never half-stored."""
        if self.db.conn.in_transaction:
            yield self
            return
        with self.writing():
            yield self

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[Store]:
        """Several reads that see one committed state (a read transaction in WAL)."""
        if self.db.conn.in_transaction:  # already inside writing(): that is a snapshot
            yield self
            return
        self.db.conn.execute("BEGIN")
        try:
            yield self
        finally:
            self.db.conn.execute("COMMIT")

    # -- games ---------------------------------------------------------------

    def create_game(self, head: JsonDict, records: list[JsonDict] | None = None, *,
                    guest: bool = False, totals: Totals | None = None,
                    guest_cap: int | None = None) -> GameRow:
        """Store a new game (and optionally its deals, with their end totals) and return it."""
        return self.create_games([(head, records or [])], guest=guest,
                                 totals=None if totals is None else [totals],
                                 guest_cap=guest_cap)[0]

    def create_games(self, logs: list[tuple[JsonDict, list[JsonDict]]], *,
                     guest: bool = False, totals: list[Totals] | None = None,
                     guest_cap: int | None = None) -> list[GameRow]:
        """Store several games with their deals in one transaction: all of them or none.

        totals: each log's (winner, end scores), stored with it, so the games list never
        has to replay an imported game (a flood of them made the host's first view slow).
        guest_cap: guests' games may not grow past it (GuestCapError), counted under the
        write lock, so guests creating at once cannot all pass a check made before it."""
        stamp = now()
        with self.writing():
            if guest and guest_cap is not None and self.guest_games() + len(logs) > guest_cap:
                raise GuestCapError(guest_cap)
            ids = [self._insert_game(head, records, stamp, guest) for head, records in logs]
            for game_id, (winner, score) in zip(ids, totals or [], strict=False):
                self.db.execute(
                    "insert or replace into totals (game_id, version, winner, score, broken)"
                    " values (?, 1, ?, ?, 0)", [game_id, winner, json.dumps(score)])
        return [self.stored(game_id) for game_id in ids]

    def _insert_game(self, head: JsonDict, records: list[JsonDict], stamp: str,
                     guest: bool = False) -> int:
        """Insert one game row with fresh tokens and its deals; return its id."""
        head = {k: v for k, v in head.items() if k != "deals"}
        game_id = inserted(self.db.execute(
            "insert into games (edit_token, view_token, head, version, created, updated,"
            " guest) values (?, ?, ?, 1, ?, ?, ?)",
            [new_token(), new_token(), json.dumps(head, ensure_ascii=False), stamp, stamp,
             int(guest)],
        ))
        for record in records:
            self._append(game_id, record, stamp)
        return game_id

    def game(self, game_id: int) -> GameRow | None:
        """The game with this id, or None."""
        rows = list(self._query("select * from games where id = ?", [game_id]))
        return _game_row(rows[0]) if rows else None

    def replace_links(self, game_ids: list[int] | None = None) -> int:
        """New edit and view tokens for these games (all when None); return how many.

        The old links open nothing from then on. Each version goes up, so no page cached
        with the old links is answered again.
        """
        with self.atomic():
            if game_ids is None:
                game_ids = [r[0] for r in self.db.execute("select id from games")]
            for game_id in game_ids:
                self.db.execute(
                    "update games set edit_token = ?, view_token = ?, version = version + 1"
                    " where id = ?", [new_token(), new_token(), game_id])
        return len(game_ids)

    def stored(self, game_id: int) -> GameRow:
        """The game with this id, which must exist (KeyError if it does not)."""
        row = self.game(game_id)
        if row is None:
            raise KeyError(game_id)
        return row

    def game_by_edit_token(self, token: str) -> GameRow | None:
        """The game this edit token opens, or None (a view token opens nothing here)."""
        # One indexed lookup on the edit column only: a view token is as unknown to an
        # edit page as a made-up one, so no answer tells the two apart.
        rows = list(self._query(
            "select * from games where edit_token = ? and deleted is null", [token]))
        return _game_row(rows[0]) if rows else None

    def game_by_token(self, token: str) -> tuple[GameRow, bool] | None:
        """The game an edit or view token opens, and whether it may edit."""
        rows = list(
            self._query(
                "select * from games where (edit_token = ? or view_token = ?)"
                " and deleted is null", [token, token]
            )
        )
        if not rows:
            return None
        row = _game_row(rows[0])
        return row, secrets.compare_digest(row.edit_token, token)

    def games(self, tokens: list[str] | None, shelf: str = "all", limit: int = -1,
              skip: int = 0) -> list[GameRow]:
        """Games newest first: those whose tokens are given, or all when tokens is None.

        shelf: "all" (every game not deleted), "current" (not archived), "archived" or
        "deleted"; limit and skip take one page of them."""
        where, params = self._shelf(tokens, shelf)
        if where is None:
            return []
        rows = self._query(f"select * from games where {where}"
                           " order by updated desc, id desc limit ? offset ?",
                           [*params, limit, skip])
        return [_game_row(r) for r in rows]

    def count_games(self, tokens: list[str] | None, shelf: str = "all") -> int:
        """How many games games() would list without a limit."""
        where, params = self._shelf(tokens, shelf)
        if where is None:
            return 0
        return int(self.db.execute(f"select count(*) from games where {where}",
                                   params).fetchone()[0])

    @staticmethod
    def _shelf(tokens: list[str] | None, shelf: str) -> tuple[str | None, list[str]]:
        """The WHERE clause (None: nothing matches) and its parameters for games()."""
        where = {"all": "deleted is null", "current": "deleted is null and archived is null",
                 "archived": "deleted is null and archived is not null",
                 "deleted": "deleted is not null"}[shelf]
        if tokens is None:
            return where, []
        if not tokens:
            return None, []
        marks = ",".join("?" * len(tokens))
        return (f"{where} and (edit_token in ({marks}) or view_token in ({marks}))",
                [*tokens, *tokens])

    # -- archive, delete, purge, guests' games -------------------------------

    def set_shelf(self, game_id: int, action: str) -> bool:
        """archive, unarchive, delete or undelete a game; False if it was already so (or
        there is no such game). Neither the records nor the version change."""
        column, value = {"archive": ("archived", now()), "unarchive": ("archived", None),
                         "delete": ("deleted", now()), "undelete": ("deleted", None)}[action]
        is_set = "is null" if value is not None else "is not null"
        with self.atomic():
            done = self.db.execute(
                f"update games set {column} = ? where id = ? and {column} {is_set}",
                [value, game_id]).rowcount
        return done == 1

    def purge_deleted(self, days: int | None = None) -> int:
        """Remove for good the games deleted more than ``days`` ago (default DELETED_DAYS);
        return how many. The file then gets a new generation: a purged game's id may be
        given again, and nothing cached for it may be shown for the new game."""
        cutoff = (datetime.now(UTC) - timedelta(days=DELETED_DAYS if days is None else days)
                  ).isoformat(timespec="seconds")
        with self.atomic():
            ids = [r[0] for r in self.db.execute(
                "select id from games where deleted is not null and deleted < ?", [cutoff])]
            for game_id in ids:
                for sql in ("delete from revisions where deal_id in"
                            " (select id from deals where game_id = ?)",
                            "delete from deals where game_id = ?",
                            "delete from submissions where game_id = ?",
                            "delete from totals where game_id = ?",
                            "delete from seat_links where game_id = ?",
                            "delete from club_games where game_id = ?",
                            "delete from club_summaries where game_id = ?",
                            "delete from agreement_revisions where game_id = ?",
                            "delete from games where id = ?"):
                    self.db.execute(sql, [game_id])
        if ids:
            new_generation(self.db)
        return len(ids)

    def guest_games(self) -> int:
        """How many games not deleted were started or imported by guests."""
        return int(self.db.execute("select count(*) from games where guest = 1"
                               " and deleted is null").fetchone()[0])

    def generation(self) -> str:
        """The database file's generation (changes at migrate and restore)."""
        try:
            row = self.db.execute("select value from meta where key = 'generation'").fetchone()
        except sqlite3.OperationalError:  # a file that was never migrated
            return ""
        return row[0] if row else ""

    def version(self, game_id: int) -> int:
        """The game's change counter (cheap: used for ETags)."""
        rows = list(self._query("select version from games where id = ?", [game_id]))
        return rows[0]["version"] if rows else 0

    def version_key(self, game_id: int) -> tuple[str, int]:
        """(generation, version): what names the game's current records, in one read."""
        # One statement sees one committed state, so no transaction is needed around it.
        try:
            row = self.db.execute(
                "select (select value from meta where key = 'generation'),"
                " (select version from games where id = ?)", [game_id]).fetchone()
        except sqlite3.OperationalError:  # a file that was never migrated
            return "", self.version(game_id)
        return row[0] or "", row[1] or 0

    def shown_version_key(self, game_id: int) -> tuple[str, int] | None:
        """(generation, version) of a game its links still open (not deleted), else None:
        in one read, for a poll answered before the web app (web/polls.py)."""
        row = self.db.execute(
            "select (select value from meta where key = 'generation'),"
            " (select version from games where id = ? and deleted is null)",
            [game_id]).fetchone()
        return None if row[1] is None else (row[0] or "", row[1])

    def _touch(self, game_id: int, stamp: str, based_on: int | None = None) -> int:
        """Bump the game's version after a change; return the new version.

        With ``based_on``, refuse the change (StaleError) unless the game is still at that
        version: the check and the bump are one UPDATE, inside the write transaction.
        """
        sql, params = "update games set version = version + 1, updated = ? where id = ?", \
            [stamp, game_id]
        if based_on is not None:
            sql, params = sql + " and version = ?", [*params, based_on]
        row = self.db.execute(sql + " returning version", params).fetchone()
        if row is None and based_on is not None:
            raise StaleError(based_on, self.version(game_id))
        return row[0] if row else 0

    # -- deals ---------------------------------------------------------------

    def slots(self, game_id: int) -> list[DealSlot]:
        """Every deal slot of the game in order, with its latest revision."""
        rows = self._query(
            """
            select d.seq, r.record, r.rev from deals d
            join revisions r on r.deal_id = d.id
            where d.game_id = ? and r.rev = (
                select max(rev) from revisions where deal_id = d.id)
            order by d.seq
            """,
            [game_id],
        )
        return [
            DealSlot(r["seq"], r["seq"], json.loads(r["record"]) if r["record"] else None,
                     r["rev"])
            for r in rows
        ]

    def changes_after(self, game_id: int, seen: int, limit: int) -> list[Change]:
        """The game's deal revisions after its first ``seen`` ones (a page's count of
        them), oldest first, at most ``limit``: what was stored since that page was made.

        A game's revisions are never removed, so their count only grows; the count is the
        game's own, so it says nothing of other games on the server.
        """
        rows = self.db.execute(
            "select d.seq, r.note, r.record from revisions r join deals d on d.id = r.deal_id"
            " where d.game_id = ? order by r.id limit ? offset ?",
            [game_id, limit, seen]).fetchall()
        return [Change(int(seq), str(note), json.loads(record) if record else None)
                for seq, note, record in rows]

    def log(self, game_id: int) -> JsonDict:
        """The stored game as a docs/GAME-FORMAT.md log: its head and live records."""
        return log_with(self.stored(game_id).head, self.records(game_id))

    def records(self, game_id: int) -> list[JsonDict]:
        """The game's live deal records in order (deleted ones left out)."""
        return [s.record for s in self.slots(game_id) if s.record is not None]

    def _deal_id(self, game_id: int, slot: int) -> int:
        """The row id of the game's deal slot (KeyError if the game has no such slot)."""
        found = self.db.execute("select id from deals where game_id = ? and seq = ?",
                                [game_id, slot]).fetchone()
        if found is None:
            raise KeyError(slot)
        return int(found[0])

    def history(self, game_id: int, slot: int, limit: int = -1, skip: int = 0) -> list[JsonDict]:
        """Revisions of one deal slot, oldest first: all of them, or the ``limit`` that come
        before the newest ``skip`` (a page of a long history, counted from the newest)."""
        rows = self._query(
            "select * from (select r.rev, r.record, r.note, r.created from revisions r"
            " join deals d on d.id = r.deal_id where d.game_id = ? and d.seq = ?"
            " order by r.rev desc limit ? offset ?) order by rev",
            [game_id, slot, limit, skip],
        )
        return [
            {**r, "record": json.loads(r["record"]) if r["record"] else None} for r in rows
        ]

    def history_length(self, game_id: int, slot: int) -> int:
        """How many revisions one deal slot has."""
        return int(self.db.execute(
            "select count(*) from revisions r join deals d on d.id = r.deal_id"
            " where d.game_id = ? and d.seq = ?", [game_id, slot]).fetchone()[0])

    def _append(self, game_id: int, record: JsonDict, stamp: str) -> int:
        """Add a deal slot at the end with its first revision; return its number."""
        # Plain SQL: sqlite-utils' insert() reads the table's schema on every call. Slots
        # are never removed and seq runs 1..n, so the top seq is the count; max() reads
        # it from the (game_id, seq) index where count(*) would walk every deal.
        top = int(self.db.execute(
            "select coalesce(max(seq), 0) from deals where game_id = ?", [game_id]
        ).fetchone()[0])
        # The engine's limit (RuleError deals.limit), counted in live deals: deleted ones
        # do not count. Slots are never fewer than live deals, so while they pass the
        # live ones need no counting (a walk over every deal of the game).
        try:
            check_deal_count(top + 1)
        except RuleError:
            check_deal_count(self.live_count(game_id) + 1)
        deal_id = inserted(self.db.execute(
            "insert into deals (game_id, seq, created) values (?, ?, ?)",
            [game_id, top + 1, stamp],
        ))
        self._insert_revision(deal_id, 1, record, "add", stamp)
        return top + 1

    def span(self, game_id: int) -> PlaySpan:
        """When the game started (its row was stored) and when its last deal was stored."""
        started, ended = self.db.execute(
            "select created, coalesce((select max(created) from deals where game_id = ?),"
            " created) from games where id = ?", [game_id, game_id]).fetchone()
        return PlaySpan(str(started), str(ended))

    def live_count(self, game_id: int) -> int:
        """How many of the game's deals are live (their newest revision has a record)."""
        return int(self.db.execute(
            "select count(*) from deals d join revisions r on r.deal_id = d.id"
            " where d.game_id = ? and r.record is not null and r.rev = ("
            "select max(rev) from revisions where deal_id = d.id)", [game_id]).fetchone()[0])

    def _insert_revision(self, deal_id: int, rev: int, record: JsonDict | None, note: str,
                         stamp: str) -> None:
        """Insert one revision row."""
        self.db.execute(
            "insert into revisions (deal_id, rev, record, note, created) values (?, ?, ?, ?, ?)",
            [deal_id, rev, None if record is None else json.dumps(record, ensure_ascii=False),
             note, stamp],
        )

    def _revise(self, deal_id: int, record: JsonDict | None, note: str, stamp: str) -> None:
        """Append a revision to a deal."""
        top = self.db.execute(
            "select coalesce(max(rev), 0) from revisions where deal_id = ?", [deal_id]
        ).fetchone()[0]
        self._insert_revision(deal_id, top + 1, record, note, stamp)

    # -- the agreement set -----------------------------------------------------

    def change_agreements(self, game_id: int, agreements: JsonDict, note: str,
                          who: str | None = None, based_on: int | None = None) -> int:
        """Put a new agreement set in the game's head (``note``: "change" or "undo"),
        keeping the old one as a revision; return the game's new version."""
        stamp = now()
        with self.atomic():
            version = self._touch(game_id, stamp, based_on)
            head = self.stored(game_id).head
            top = self.db.execute("select coalesce(max(rev), 0) from agreement_revisions"
                                  " where game_id = ?", [game_id]).fetchone()[0]
            self.db.execute(
                "insert into agreement_revisions (game_id, rev, before, after, note, who,"
                " created) values (?, ?, ?, ?, ?, ?, ?)",
                [game_id, top + 1, json.dumps(head.get("agreements") or {}, ensure_ascii=False),
                 json.dumps(agreements, ensure_ascii=False), note, who, stamp])
            self.db.execute("update games set head = ? where id = ?",
                            [json.dumps({**head, "agreements": agreements},
                                        ensure_ascii=False), game_id])
            return version

    def agreement_history(self, game_id: int) -> list[JsonDict]:
        """The game's changes of its whole agreement set, oldest first."""
        rows = self._query("select rev, before, after, note, who, created from"
                           " agreement_revisions where game_id = ? order by rev", [game_id])
        return [{**r, "before": json.loads(r["before"]), "after": json.loads(r["after"])}
                for r in rows]

    def add_deal(self, game_id: int, record: JsonDict, based_on: int | None = None) -> int:
        """Append a deal record (in the caller's writing() or alone); return the game's new
        version. The new slot's number is the game's slot count (slots are never removed).

        based_on: refuse with StaleError unless the game is still at this version; a game
        that holds MAX_DEALS live deals refuses with the engine's RuleError (deals.limit).
        """
        stamp = now()
        with self.atomic():
            version = self._touch(game_id, stamp, based_on)
            self._append(game_id, record, stamp)
            return version

    def revise_deal(self, game_id: int, slot: int, record: JsonDict | None, note: str,
                    based_on: int | None = None) -> int:
        """Edit (record), delete (None) or restore a deal slot by adding a revision
        (based_on and the deal limit as for add_deal); return the game's new version."""
        stamp = now()
        with self.atomic():
            deal_id = self._deal_id(game_id, slot)
            if note == "restore":  # one more live deal: the engine's limit (RuleError)
                check_deal_count(self.live_count(game_id) + 1)
            version = self._touch(game_id, stamp, based_on)
            self._revise(deal_id, record, note, stamp)
            return version

    def changes_since_add(self, game_id: int) -> list[tuple[int, str]]:
        """(slot, note) of the edits, deletes and restores made since the game's newest deal
        was added, oldest first, each slot once (its latest change)."""
        # Flat in the game's length: the newest deal added is the top slot (slots are only
        # ever appended), its "add" its first revision (both read from their indexes), and
        # the revisions after it a range of the revisions' ids (every game's since then).
        rows = self.db.execute(
            "select d.seq, r.note from revisions r join deals d on d.id = r.deal_id"
            " where r.id > coalesce((select q.id from deals e join revisions q"
            " on q.deal_id = e.id and q.rev = 1 where e.game_id = ?"
            " order by e.seq desc limit 1), 0)"
            " and +d.game_id = ? and r.note != 'add' order by r.id",
            [game_id, game_id]).fetchall()
        latest = {int(seq): str(note) for seq, note in rows}
        return list(latest.items())

    def last_records(self, game_id: int, slots: list[int]) -> dict[int, JsonDict]:
        """The newest non-empty record of each of these deal slots, in one query."""
        if not slots:
            return {}
        marks = ",".join("?" * len(slots))
        rows = self.db.execute(
            f"select d.seq, r.record from deals d join revisions r on r.deal_id = d.id"
            f" where d.game_id = ? and d.seq in ({marks})"
            " and r.rev = (select max(rev) from revisions q where q.deal_id = d.id"
            " and q.record is not null)",
            [game_id, *slots],
        ).fetchall()
        return {slot: json.loads(record) for slot, record in rows}

    # -- cached totals (derived; a missing or old row is simply recomputed) ---

    def cached_totals(self, game_ids: list[int]) -> dict[int, StoredTotals]:
        """{game id: (version, winner, score or None if the log does not replay)}."""
        if not game_ids:
            return {}
        marks = ",".join("?" * len(game_ids))
        rows = self.db.execute(
            f"select game_id, version, winner, score, broken from totals"
            f" where game_id in ({marks})", list(game_ids),
        ).fetchall()
        return {gid: (ver, win, None if broken else json.loads(score))
                for gid, ver, win, score, broken in rows}

    def put_many_totals(self, items: list[tuple[int, *StoredTotals]]) -> None:
        """Remember several versions' end totals in one transaction (best effort); a row
        is written only if its version is still the game's current one."""
        if not items or self.db.conn.in_transaction:  # inside someone's snapshot: skip
            return
        try:
            with _WRITE_LOCK, self.db.conn:
                self.db.conn.executemany(
                    "insert or replace into totals (game_id, version, winner, score, broken)"
                    " select ?, ?, ?, ?, ? where exists (select 1 from games where id = ?"
                    " and version = ?)",
                    [(gid, ver, win, None if score is None else json.dumps(score),
                      int(score is None), gid, ver) for gid, ver, win, score in items],
                )
        except sqlite3.Error:
            pass

    # -- one-time submission ids ---------------------------------------------

    def submitted(self, game_id: int, sid: str) -> bool:
        """Whether a write form with this one-time id was already stored for the game."""
        found = self.db.execute("select 1 from submissions where game_id = ? and sid = ?",
                                [game_id, sid]).fetchone()
        return found is not None

    def note_submission(self, game_id: int, sid: str, version: int | None = None) -> None:
        """Remember a stored form's one-time id and the version it left (call inside
        writing(), with the write), for as long as the game exists.

        Never forgotten: a phone whose answer was lost may send its write again after the
        table has recorded any number of deals, and the id is what answers it as done
        (about 80 bytes a write; a purged game takes its ids with it).
        """
        self.db.execute("insert or ignore into submissions (game_id, sid, created, version)"
                        " values (?, ?, ?, ?)", [game_id, sid, now(), version])

    def submission_version(self, game_id: int, sid: str) -> int | None:
        """The version a stored form with this one-time id (any body) left, or None."""
        # Keys are "sid:digest": the bare id is a range of the primary key (";" follows
        # ":"), read from its index however many ids the game keeps.
        found = self.db.execute(
            "select version from submissions where game_id = ? and sid >= ? and sid < ?"
            " limit 1", [game_id, sid + ":", sid + ";"]).fetchone()
        return int(found[0]) if found and found[0] is not None else None

    def last_record(self, game_id: int, slot: int) -> JsonDict | None:
        """The newest non-empty record of a deal slot (what a restore brings back)."""
        rows = self._query(
            "select r.record from revisions r join deals d on d.id = r.deal_id"
            " where d.game_id = ? and d.seq = ? and r.record is not null"
            " order by r.rev desc limit 1",
            [game_id, slot],
        )
        for r in rows:
            record: JsonDict = json.loads(r["record"])
            return record
        return None

    def player_names(self, game_ids: list[int] | None) -> list[str]:
        """Names used in these games (all games when None), most recent first."""
        games = self.games(None) if game_ids is None else [
            g for g in (self.game(i) for i in game_ids) if g
        ]
        seen: dict[str, None] = {}
        for g in games:
            for name in g.head.get("players", []):
                seen.setdefault(name, None)
        return list(seen)


class GuestCapError(Exception):
    """Guests already hold the most games allowed (not deleted), all of them together."""

    def __init__(self, cap: int):
        super().__init__(f"guests hold {cap} games already")
        self.cap = cap


class StaleError(Exception):
    """A write was based on an older version of the game than the stored one."""

    def __init__(self, based_on: int | None, current: int):
        super().__init__(f"based on version {based_on}, the game is at {current}")
        self.based_on = based_on
        self.current = current


def inserted(cursor: sqlite3.Cursor) -> int:
    """The row id an INSERT has just given its row."""
    if cursor.lastrowid is None:  # only a statement that inserted nothing leaves it unset
        raise sqlite3.DatabaseError("no row was inserted")
    return cursor.lastrowid


def _game_row(row: JsonDict) -> GameRow:
    """Turn a games table row into a GameRow."""
    return GameRow(
        id=row["id"],
        edit_token=row["edit_token"],
        view_token=row["view_token"],
        head=json.loads(row["head"]),
        version=row["version"],
        created=row["created"],
        updated=row["updated"],
        archived=row.get("archived"),
        deleted=row.get("deleted"),
        guest=bool(row.get("guest")),
    )
