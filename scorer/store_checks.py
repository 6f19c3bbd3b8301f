"""Every kept row checked the way the app writes it, and the schema version of a file.

A restore copies the kept tables (``store.SCHEMA``) of a backup row by row; SQLite checks
only types and keys. Here each row is read as the app reads it: the club's kinds and the
JSON each kind is written with, seats within the game's players, merges that end at a
live player, seasons' points, link tokens, times, and every text through the same rules
as the forms (``scorer.engine``'s text rules: no U+202E, NUL, ESC, zero-width...). The
first row the app would never have written is refused, naming its table and row. The
games' heads and deal records are the engine's to check (``scorer.cli.backup``); the
start-up check of ``serve`` uses ``newer_schema`` and ``check_rows`` on the small tables.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlite_utils import Database

from scorer import store
from scorer.engine import (
    MAX_SEASON,
    MAX_WHO,
    RuleError,
    check_date,
    check_name,
    check_text,
    name_key,
    resolve_agreements,
)
from scorer.engine.texts import N_, tr

# What the app writes in the columns that hold a word from a fixed list.
NOTES = ("add", "edit", "delete", "restore")  # revisions.note
AGREEMENT_NOTES = ("change", "undo")  # agreement_revisions.note
SHARE_KINDS = ("season", "player")  # club_shares.kind (scorer.club.service)
SEASON_SIZES = (2, 3, 4)  # league points are kept for every table size
MAX_SID = 200  # a form's one-time id with the digest of its body
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,86}")  # store.new_token and the share links


@dataclass(frozen=True)
class ChangeShape:
    """The data of one kind of club change: its keys and how each value is checked."""

    shape: str  # quoted by the refusal
    keys: dict[str, Callable[[Any], bool]] = field(default_factory=dict)


def _is_int(value: Any) -> bool:
    """An integer as JSON writes one (a bool is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _is_pairs(value: Any, width: int, last_bool: bool = False) -> bool:
    """A list of lists of ``width`` integers (the last one a bool when last_bool)."""
    if not isinstance(value, list):
        return False
    for item in value:
        if not isinstance(item, list) or len(item) != width:
            return False
        ints = item[:-1] if last_bool else item
        if not all(_is_int(v) for v in ints):
            return False
        if last_bool and not isinstance(item[-1], bool):
            return False
    return True


# The keys and value shapes of each kind of club change, as scorer.club.roster writes
# them; "shape" is quoted in the refusal.
CHANGES = {
    "count": ChangeShape('{"game": int, "counted": bool, "before": null | 0 | 1, '
                         '"added": [[seat, player, bool], ...]}', {
                             "game": _is_int, "counted": lambda v: isinstance(v, bool),
                             "before": lambda v: v is None or (_is_int(v) and v in (0, 1)),
                             "added": lambda v: _is_pairs(v, 3, last_bool=True)}),
    "rename": ChangeShape('{"player": int, "before": name, "after": name}', {
        "player": _is_int, "before": lambda v: isinstance(v, str),
        "after": lambda v: isinstance(v, str)}),
    "merge": ChangeShape('{"keep": int, "gone": int, "seats": [[game, seat], ...]}', {
        "keep": _is_int, "gone": _is_int, "seats": lambda v: _is_pairs(v, 2)}),
    "relink": ChangeShape('{"game": int, "seat": int, "before": int, "after": int, '
                          '"created": bool}', {
                              "game": _is_int, "seat": _is_int, "before": _is_int,
                              "after": _is_int, "created": lambda v: isinstance(v, bool)}),
    "add": ChangeShape('{"player": int, "name": name}', {
        "player": _is_int, "name": lambda v: isinstance(v, str)}),
}


class RowError(ValueError):
    """A stored row the app would never have written: its table, row, column and why."""

    def __init__(self, table: str, row: str, column: str, msgid: str, **params: Any):
        self.table, self.row, self.column = table, row, column
        self.msgid, self.params = msgid, params
        super().__init__(self.text("en"))

    @property
    def where(self) -> str:
        """The table and the row, e.g. ``club_changes row 3``."""
        return f"{self.table} {self.row}"

    def text(self, lang: str = "en") -> str:
        """``COLUMN: WHAT IS WRONG`` in ``lang`` (an engine refusal in its own words)."""
        params = {k: v.text(lang) if isinstance(v, RuleError) else v
                  for k, v in self.params.items()}
        return f"{self.column}: {tr(lang, self.msgid).format(**params)}"


class _Bad(Exception):
    """What is wrong with one column of the row being checked (made a RowError above)."""

    def __init__(self, column: str, msgid: str, **params: Any):
        super().__init__(column)
        self.column, self.msgid, self.params = column, msgid, params


def _rule(column: str, err: RuleError) -> _Bad:
    """An engine refusal of a column's value."""
    return _Bad(column, "{refusal}", refusal=err)


# -- the schema version ------------------------------------------------------------------


def newer_schema(db: Database | sqlite3.Connection) -> str | None:
    """What says the file was made by a newer version of the app, or None (store's)."""
    return store.newer_schema(db.conn if isinstance(db, Database) else db)


# -- one column --------------------------------------------------------------------------


def _int(column: str, value: Any, least: int = 0, null: bool = False) -> None:
    """An integer of at least ``least`` (or NULL where allowed)."""
    if value is None and null:
        return
    if not _is_int(value):
        raise _rule(column, RuleError(None, column, "integer", got=value))
    if value < least:
        raise _Bad(column, N_("must be {min} or more (got {got!r})"), min=least, got=value)


def _flag(column: str, value: Any) -> None:
    """0 or 1."""
    if value not in (0, 1) or isinstance(value, bool | float):
        raise _rule(column, RuleError(None, column, "boolean", got=value))


def _one_of(column: str, value: Any, known: Iterable[str]) -> None:
    """A word from a fixed list."""
    words = tuple(known)
    if value not in words:
        raise _Bad(column, N_("must be one of {known} (got {got!r})"), known=", ".join(words),
                   got=_short(value))


def _time(column: str, value: Any, null: bool = False) -> None:
    """A time as store.now() writes it (ISO 8601)."""
    if value is None and null:
        return
    try:
        ok = isinstance(value, str) and len(value) <= 40 and bool(datetime.fromisoformat(value))
    except ValueError:
        ok = False
    if not ok:
        raise _Bad(column, N_("must be a time written YYYY-MM-DDTHH:MM:SS (got {got!r})"),
                   got=_short(value))


def _token(column: str, value: Any) -> None:
    """An unguessable link token (never quoted back: it opens a page)."""
    if not isinstance(value, str) or not TOKEN.fullmatch(value):
        raise _Bad(column, N_("must be a link token (16 to 86 letters, digits, - or _)"))


def _text(column: str, value: Any, limit: int, field: str = "") -> None:
    """A text the forms would take: at most ``limit`` characters, each one readable."""
    if not isinstance(value, str):
        raise _rule(column, RuleError(None, column, "type", expected="a string"))
    if len(value) > limit:
        raise _rule(column, RuleError(None, column, "text.long", max=limit, got=len(value)))
    try:
        check_text(field or column, value)
    except RuleError as err:
        raise _rule(column, err) from None


def _name(column: str, value: Any) -> None:
    """A player's name as the forms take it (text rules, a letter, at most MAX_NAME)."""
    if not isinstance(value, str):
        raise _rule(column, RuleError(None, column, "type", expected="a string"))
    try:
        check_name(value)
    except RuleError as err:
        raise _rule(column, err) from None


def _json(column: str, value: Any) -> Any:
    """The JSON a text column holds."""
    try:
        return json.loads(value)
    except (TypeError, ValueError, RecursionError) as exc:
        raise _rule(column, RuleError(None, column, "json", detail=str(exc)[:80])) from None


def _short(value: Any) -> Any:
    """A value fit to quote in one line."""
    return value[:40] if isinstance(value, str) else value


# -- each kept table -----------------------------------------------------------------------


@dataclass
class Context:
    """What rows of one table need from others (the players at each game's seats), and
    whether texts and name keys are checked too (``strict``).

    A restore is strict. The start of ``serve`` is not: a text an older version let
    through, or a key the confusables table of an older release made, must not keep a
    club's server from starting (no backup of it would restore either); only what breaks
    pages there (kinds, JSON shapes, seats, merge loops, points) is refused at start."""

    seats: dict[int, list[str]] = field(default_factory=dict)
    strict: bool = True


def _games(row: dict[str, Any], _ctx: Context) -> None:
    """Links, version, times, guest flag (the head is the engine's to check)."""
    _token("edit_token", row["edit_token"])
    _token("view_token", row["view_token"])
    _int("version", row["version"], 1)
    for column in ("created", "updated"):
        _time(column, row[column])
    for column in ("archived", "deleted"):
        _time(column, row.get(column), null=True)
    _flag("guest", row.get("guest", 0))


def _deals(row: dict[str, Any], _ctx: Context) -> None:
    """A slot number and a time."""
    _int("seq", row["seq"], 1)
    _time("created", row["created"])


def _revisions(row: dict[str, Any], _ctx: Context) -> None:
    """A revision number, a known note and a time (the record is the engine's)."""
    _int("rev", row["rev"], 1)
    _one_of("note", row["note"], NOTES)
    _time("created", row["created"])


def _submissions(row: dict[str, Any], _ctx: Context) -> None:
    """A one-time id, the version it left and a time."""
    _text("sid", row["sid"], MAX_SID)
    _int("version", row.get("version"), 1, null=True)
    _time("created", row["created"])


def _players(row: dict[str, Any], ctx: Context) -> None:
    """A name the forms take, its comparison key, a time (merges: see _merge_chains)."""
    if ctx.strict:
        _name("name", row["name"])
    if ctx.strict and row["key"] != name_key(row["name"]):
        raise _Bad("key", N_("is not the comparison key of {name!r}"), name=row["name"])
    _time("created", row["created"])
    _int("merged_into", row["merged_into"], 1, null=True)
    if row["merged_into"] == row["id"]:
        raise _Bad("merged_into", N_("a player cannot be merged with itself"))


def _seat_links(row: dict[str, Any], ctx: Context) -> None:
    """A seat of the game's players, keyed by the name written there."""
    names = ctx.seats.get(row["game_id"], [])
    seat = row["seat"]
    if not _is_int(seat) or not 0 <= seat < len(names):
        raise _rule("seat", RuleError(None, "seat", "seat", max=len(names) - 1, got=seat))
    if ctx.strict and row["key"] != name_key(names[seat]):
        raise _Bad("key", N_("is not the comparison key of {name!r}"), name=names[seat])


def _club_games(row: dict[str, Any], _ctx: Context) -> None:
    """Counted or not."""
    _flag("counted", row["counted"])


def _club_changes(row: dict[str, Any], ctx: Context) -> None:
    """A known kind with the data that kind is written with, and its times."""
    _one_of("kind", row["kind"], CHANGES)
    data = _json("data", row["data"])
    shape = CHANGES[row["kind"]]
    if not isinstance(data, dict) or set(data) != set(shape.keys) or \
            not all(ok(data[key]) for key, ok in shape.keys.items()):
        raise _rule("data", RuleError(None, "data", "type", expected=shape.shape))
    if row["kind"] == "rename" and ctx.strict:
        _name("data.before", data["before"])
        _name("data.after", data["after"])
    if row["kind"] == "add" and ctx.strict:
        _name("data.name", data["name"])
    if row["kind"] == "merge" and data["keep"] == data["gone"]:
        raise _Bad("data", N_("a player cannot be merged with itself"))
    _time("created", row["created"])
    _time("undone", row["undone"], null=True)


def _seasons(row: dict[str, Any], ctx: Context) -> None:
    """A name, two dates in order and league points for every table size."""
    name = row["name"]
    if not isinstance(name, str) or not name or name != " ".join(name.split()) or \
            len(name) > MAX_SEASON:
        raise _Bad("name", N_("a season needs a name of 1 to 80 characters"))
    if ctx.strict:
        _text("name", name, MAX_SEASON, "season")
    for column in ("start", "end"):
        try:
            check_date(row[column] if isinstance(row[column], str) else "")
        except RuleError as err:
            raise _rule(column, err) from None
    if row["end"] < row["start"]:
        raise _Bad("end", N_("a season ends on or after the day it starts"))
    points = _json("points", row["points"])
    if not isinstance(points, dict):
        raise _rule("points", RuleError(None, "points", "type", expected="an object"))
    for size in SEASON_SIZES:
        values = points.get(str(size))
        if not isinstance(values, list) or len(values) != size or not all(
                isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 100
                for v in values):
            raise _Bad("points", N_("league points: {size} numbers from 0 to 100 for {size} "
                                    "players"), size=size)
    extra = sorted(set(points) - {str(s) for s in SEASON_SIZES})
    if extra:
        _one_of("points", extra[0], [str(s) for s in SEASON_SIZES])
    _time("created", row["created"])


def _club_shares(row: dict[str, Any], _ctx: Context) -> None:
    """A link token, what it shares (a season, None for «всё время», or a player)."""
    _token("token", row["token"])
    _one_of("kind", row["kind"], SHARE_KINDS)
    _int("ref", row["ref"], 1, null=row["kind"] == "season")
    _time("created", row["created"])


def _agreement_revisions(row: dict[str, Any], ctx: Context) -> None:
    """A revision number, two agreement sets the catalog resolves, a note, who and when."""
    _int("rev", row["rev"], 1)
    for column in ("before", "after"):
        data = _json(column, row[column])
        if not isinstance(data, dict) or not set(data) <= {"preset", "overrides"}:
            raise _rule(column, RuleError(None, column, "type",
                                          expected='{"preset": ..., "overrides": {...}}'))
        try:
            resolve_agreements(**data)
        except RuleError as err:
            raise _rule(column, err) from None
    _one_of("note", row["note"], AGREEMENT_NOTES)
    if row["who"] is not None and ctx.strict:
        _text("who", row["who"], MAX_WHO, "who")
    _time("created", row["created"])


CHECKS: dict[str, Callable[[dict[str, Any], Context], None]] = {
    "games": _games, "deals": _deals, "revisions": _revisions, "submissions": _submissions,
    "players": _players, "seat_links": _seat_links, "club_games": _club_games,
    "club_changes": _club_changes, "seasons": _seasons, "club_shares": _club_shares,
    "agreement_revisions": _agreement_revisions,
}
# The club's tables: small (a club has hundreds of players and changes, not millions of
# rows), so serve checks them at every start as well.
CLUB_TABLES = ("players", "seat_links", "club_games", "club_changes", "seasons", "club_shares")


# -- every row -------------------------------------------------------------------------------


def _rows(conn: sqlite3.Connection, table: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(rowid, row as a dict) of every row of a table, in rowid order."""
    cursor = conn.execute(f"select rowid, * from [{table}] order by rowid")
    names = [d[0] for d in cursor.description][1:]
    for rowid, *values in cursor:
        yield rowid, dict(zip(names, values, strict=True))


def _label(table: str, rowid: int, row: dict[str, Any]) -> str:
    """How a refusal names a row: ``row N`` (with its game where the key is the game's)."""
    if table in ("seat_links", "submissions"):
        return f"row {rowid} (game {row['game_id']})"
    return f"row {rowid}"


def _seats(conn: sqlite3.Connection) -> dict[int, list[str]]:
    """Each game's player names as its head holds them (unreadable heads: none)."""
    out: dict[int, list[str]] = {}
    for game_id, head in conn.execute("select id, head from games"):
        try:
            players = json.loads(head).get("players")
        except (TypeError, ValueError, AttributeError, RecursionError):
            continue
        if isinstance(players, list):
            out[int(game_id)] = [str(p) for p in players]
    return out


def check_rows(db: Database | sqlite3.Connection, tables: Iterable[str] | None = None, *,
               strict: bool = True) -> int:
    """Check every row of these kept tables (all of them when None): RowError for the first
    one the app would never have written (texts and keys too when strict, see Context).
    Returns how many rows were checked."""
    conn = db.conn if isinstance(db, Database) else db
    present = {r[0] for r in conn.execute("select name from sqlite_master where type = 'table'")}
    wanted = [t for t in (store.kept_tables() if tables is None else tables) if t in present]
    ctx = Context(_seats(conn) if "seat_links" in wanted else {}, strict)
    count = 0
    for table in wanted:
        check = CHECKS[table]
        for rowid, row in _rows(conn, table):
            try:
                check(row, ctx)
            except _Bad as bad:
                raise RowError(table, _label(table, rowid, row), bad.column, bad.msgid,
                               **bad.params) from None
            count += 1
    if "players" in wanted:
        _merge_chains(conn)
    return count


def _merge_chains(conn: sqlite3.Connection) -> None:
    """Every merged player's chain ends at a live player: no loop (a loop sent a player's
    page from one to the other for ever)."""
    into = {int(i): m for i, m in conn.execute("select id, merged_into from players")}
    done: set[int] = set()
    for start in into:
        chain = [start]
        while (nxt := into.get(chain[-1])) is not None and nxt not in done:
            if nxt in chain:
                loop = " → ".join(str(p) for p in chain[chain.index(nxt):] + [nxt])
                raise RowError("players", f"row {start}", "merged_into",
                               N_("merged players form a loop ({chain})"), chain=loop)
            chain.append(nxt)
        done.update(chain)
