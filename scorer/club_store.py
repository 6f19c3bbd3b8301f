"""The club's tables in SQLite: the one place the club's rows are read and written.

The club (scorer/club/) and the web and command line above it never write SQL: they ask
this gateway, which sits in the store's layer beside scorer/store.py and answers with
typed rows (frozen dataclasses). Tables: ``players``, ``seat_links``, ``club_games``,
``club_changes``, ``seasons``, ``club_shares`` (kept: the host's own data),
``club_summaries`` (derived: each game version's figures, made again by a replay) and the
``club`` counter in ``meta``. It also reads, never writes, the games, deals and revisions
the club's figures are made of. Writes run inside the caller's transaction
(``Store.atomic``/``writing``), so one club change is stored whole or not at all.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from scorer import store
from scorer.engine import name_key

# SQLite's limit on one statement's parameters is 999 in older builds: ids go in parts.
PART = 500

# The games that count: not deleted, and counted by the host's choice or by default
# (the host's own games yes, a guest's no).
COUNTED = ("select g.id, g.version from games g left join club_games c on c.game_id = g.id"
           " where g.deleted is null and coalesce(c.counted, 1 - g.guest) = 1")


@dataclass(frozen=True)
class PlayerRow:
    """One stored player (a merged one keeps its row, marked with whom it went into)."""

    id: int
    name: str
    key: str  # the name's comparison key (engine/names.py)
    merged_into: int | None = None


@dataclass(frozen=True)
class SeatRow:
    """A seat of a game (one a player is linked to)."""

    game_id: int
    seat: int


@dataclass(frozen=True)
class ClubChange:
    """One change of the club's links or players, as the history shows it."""

    id: int
    kind: str  # "count", "rename", "merge", "relink", "add"
    data: dict[str, Any]
    created: str
    undone: str | None


@dataclass(frozen=True)
class StoredSeason:
    """One stored season: a named date range (inclusive) and its league points."""

    id: int
    name: str
    start: str
    end: str
    points: dict[int, tuple[float, ...]]  # by number of players, a value per place


@dataclass(frozen=True)
class ShareRow:
    """What one read-only share token opens: a season (ref None: all time) or a player."""

    token: str
    kind: str
    ref: int | None


@dataclass(frozen=True)
class CountedGame:
    """A game the club's figures count, at its current version."""

    id: int
    version: int


@dataclass(frozen=True)
class StoredSummary:
    """A game version's figures as kept (derived: made again when stale or missing)."""

    game_id: int
    version: int
    data: dict[str, Any]


@dataclass(frozen=True)
class GameLinks:
    """A game's edit and view tokens (the pages a figure's sources link to)."""

    id: int
    edit_token: str
    view_token: str


@dataclass(frozen=True)
class Fingerprint:
    """What names the club's data now: the file's generation, the club's change counter
    and the games' versions (a cache key: equal fingerprints, equal figures)."""

    generation: str | None
    club: str | None
    games: int
    versions: float
    weighted: float
    live: float


class ClubStore:
    """The club's rows over one sqlite-utils connection."""

    def __init__(self, db: Database):
        self.db = db
        self.store = store.Store(db)

    # -- the state -------------------------------------------------------------------

    def fingerprint(self) -> Fingerprint:
        """The club's fingerprint, in one statement (one committed state)."""
        row = self.db.execute(
            "select (select value from meta where key = 'generation'),"
            " (select value from meta where key = 'club'), count(*), total(version),"
            " total(id * version), total(id * (deleted is null)) from games").fetchone()
        return Fingerprint(*row)

    def bump(self) -> None:
        """Mark the club's data as changed (its in-process caches are keyed by this)."""
        self.db.execute("insert into meta (key, value) values ('club', '1') on conflict(key)"
                        " do update set value = cast(value as integer) + 1")

    # -- players ---------------------------------------------------------------------

    def player(self, player_id: int) -> PlayerRow | None:
        """One player, merged or not, or None."""
        row = self.db.execute("select id, name, key, merged_into from players where id = ?",
                              [player_id]).fetchone()
        return None if row is None else PlayerRow(*row)

    def players(self, *, live: bool = False) -> list[PlayerRow]:
        """Every player by id (live: only those not merged into another)."""
        where = " where merged_into is null" if live else ""
        rows = self.db.execute(f"select id, name, key, merged_into from players{where}"
                               " order by id").fetchall()
        return [PlayerRow(*r) for r in rows]

    def add_player(self, name: str, stamp: str) -> int:
        """A new player of this name; its id."""
        return store.inserted(self.db.execute(
            "insert into players (name, key, created) values (?, ?, ?)",
            [name, name_key(name), stamp]))

    def name_taken(self, name: str, other_than: int) -> bool:
        """Whether a live player other than this one goes by this name (names.py)."""
        found = self.db.execute(
            "select 1 from players where key = ? and id != ? and merged_into is null",
            [name_key(name), other_than]).fetchone()
        return found is not None

    def rename_player(self, player_id: int, name: str) -> None:
        """Give a player a name (and that name's comparison key)."""
        self.db.execute("update players set name = ?, key = ? where id = ?",
                        [name, name_key(name), player_id])

    def set_merged(self, player_id: int, into: int | None) -> None:
        """Mark a player as merged into another (None: live again)."""
        self.db.execute("update players set merged_into = ? where id = ?", [into, player_id])

    def drop_if_unused(self, player_id: int) -> bool:
        """Delete a live player no seat or merge refers to (one a count, a re-link or the
        roster's «add» made); whether it was deleted."""
        used = self.db.execute("select 1 from seat_links where player_id = ? union all"
                               " select 1 from players where merged_into = ? or (id = ? and"
                               " merged_into is not null) limit 1",
                               [player_id] * 3).fetchone()
        if used is None:
            self.db.execute("delete from players where id = ?", [player_id])
        return used is None

    def match(self, name: str) -> int | None:
        """The live player a written name means (names.py comparison), or None."""
        return store.matching_player(self.db, name_key(name))

    # -- seat links ------------------------------------------------------------------

    def links(self, game_id: int) -> dict[int, int]:
        """{seat: player id} of one game."""
        return dict(self.db.execute("select seat, player_id from seat_links"
                                    " where game_id = ?", [game_id]).fetchall())

    def all_links(self) -> dict[int, dict[int, int]]:
        """{game id: {seat: player id}} of every linked game, in one read."""
        out: dict[int, dict[int, int]] = {}
        for game_id, seat, player in self.db.execute(
                "select game_id, seat, player_id from seat_links"):
            out.setdefault(game_id, {})[seat] = player
        return out

    def seats_of(self, player_id: int) -> list[SeatRow]:
        """Every seat a player is linked to."""
        rows = self.db.execute("select game_id, seat from seat_links where player_id = ?",
                               [player_id]).fetchall()
        return [SeatRow(*r) for r in rows]

    def shared_game(self, one: int, other: int) -> int | None:
        """A game both players sat in, or None."""
        found = self.db.execute(
            "select a.game_id from seat_links a join seat_links b on a.game_id = b.game_id"
            " where a.player_id = ? and b.player_id = ? limit 1", [one, other]).fetchone()
        return None if found is None else int(found[0])

    def link_seats(self, game_id: int, names: list[str], stamp: str) -> list[int]:
        """Link each seat to the player its name matches (a new player if none); the
        player ids by seat. Seats already linked keep their link."""
        return store.link_seats(self.db, game_id, names, stamp)

    def link_host_games(self) -> int:
        """Link the seats of the host's games that have none yet; how many games."""
        return store.link_host_games(self.db)

    def add_link(self, game_id: int, seat: int, player_id: int, name: str) -> None:
        """Link a seat written with this name to a player."""
        self.db.execute("insert into seat_links (game_id, seat, player_id, key)"
                        " values (?, ?, ?, ?)", [game_id, seat, player_id, name_key(name)])

    def set_link(self, game_id: int, seat: int, player_id: int) -> None:
        """Link a linked seat to another player."""
        self.db.execute("update seat_links set player_id = ? where game_id = ? and seat = ?",
                        [player_id, game_id, seat])

    def move_links(self, gone: int, keep: int) -> None:
        """Link every seat of one player to another."""
        self.db.execute("update seat_links set player_id = ? where player_id = ?",
                        [keep, gone])

    def unlink(self, game_id: int, seat: int, player_id: int) -> None:
        """Remove a seat's link if it is still to this player."""
        self.db.execute("delete from seat_links where game_id = ? and seat = ?"
                        " and player_id = ?", [game_id, seat, player_id])

    # -- which games count -----------------------------------------------------------

    def counted_choice(self, game_id: int) -> int | None:
        """The host's choice for a game (1 counted, 0 not), or None: the default."""
        row = self.db.execute("select counted from club_games where game_id = ?",
                              [game_id]).fetchone()
        return None if row is None else int(row[0])

    def choose_counted(self, game_id: int, counted: int) -> None:
        """Store the host's choice for a game (1 counted, 0 not)."""
        self.db.execute("insert or replace into club_games (game_id, counted) values (?, ?)",
                        [game_id, counted])

    def restore_counted(self, game_id: int, before: int | None) -> None:
        """Put back the choice a game had (None: none, the default)."""
        if before is None:
            self.db.execute("delete from club_games where game_id = ?", [game_id])
        else:
            self.db.execute("update club_games set counted = ? where game_id = ?",
                            [before, game_id])

    def counted(self) -> list[CountedGame]:
        """The games the figures count, with their versions."""
        return [CountedGame(*r) for r in self.db.execute(COUNTED).fetchall()]

    def unlinked(self) -> bool:
        """Whether a counted game (a host's, or one counted) has no seat links yet."""
        found = self.db.execute(
            f"select 1 from ({COUNTED}) c where not exists"
            " (select 1 from seat_links s where s.game_id = c.id) limit 1").fetchone()
        return found is not None

    def games_apart(self) -> list[int]:
        """Games a guest made that the host has not counted, newest first."""
        return [r[0] for r in self.db.execute(
            "select g.id from games g left join club_games c on c.game_id = g.id"
            " where g.deleted is null and coalesce(c.counted, 1 - g.guest) = 0"
            " order by g.id desc")]

    # -- the history of changes ------------------------------------------------------

    def add_change(self, kind: str, data: dict[str, Any], stamp: str) -> ClubChange:
        """Write one history row."""
        change_id = store.inserted(self.db.execute(
            "insert into club_changes (kind, data, created) values (?, ?, ?)",
            [kind, json.dumps(data, ensure_ascii=False), stamp]))
        return ClubChange(change_id, kind, data, stamp, None)

    def changes(self, limit: int) -> list[ClubChange]:
        """The newest changes, newest first."""
        rows = self.db.execute("select id, kind, data, created, undone from club_changes"
                               " order by id desc limit ?", [limit]).fetchall()
        return [ClubChange(i, k, json.loads(d), c, u) for i, k, d, c, u in rows]

    def change(self, change_id: int) -> ClubChange | None:
        """One change, or None."""
        row = self.db.execute("select id, kind, data, created, undone from club_changes"
                              " where id = ?", [change_id]).fetchone()
        return None if row is None else ClubChange(row[0], row[1], json.loads(row[2]),
                                                    row[3], row[4])

    def mark_undone(self, change_id: int, stamp: str) -> None:
        """Note when a change was undone."""
        self.db.execute("update club_changes set undone = ? where id = ?", [stamp, change_id])

    # -- seasons ---------------------------------------------------------------------

    def seasons(self) -> list[StoredSeason]:
        """The named seasons, newest start first."""
        rows = self.db.execute("select id, name, start, end, points from seasons"
                               " order by start desc, id desc").fetchall()
        return [StoredSeason(i, n, s, e, {int(k): tuple(v) for k, v in json.loads(p).items()})
                for i, n, s, e, p in rows]

    def add_season(self, name: str, start: str, end: str,
                   points: dict[int, list[float]], stamp: str) -> int:
        """Store a new season; its id."""
        return store.inserted(self.db.execute(
            "insert into seasons (name, start, end, points, created) values (?, ?, ?, ?, ?)",
            [name, start, end, json.dumps(points), stamp]))

    def delete_season(self, season_id: int) -> None:
        """Remove a season and its share link."""
        self.db.execute("delete from club_shares where kind = 'season' and ref = ?",
                        [season_id])
        self.db.execute("delete from seasons where id = ?", [season_id])

    # -- read-only share links -------------------------------------------------------

    def share_of(self, kind: str, ref: int | None) -> ShareRow | None:
        """The share link of a season or a player, or None."""
        found = self.db.execute("select token, kind, ref from club_shares where kind = ?"
                                " and ref is ?", [kind, ref]).fetchone()
        return None if found is None else ShareRow(*found)

    def share(self, token: str) -> ShareRow | None:
        """What a share token opens, or None."""
        found = self.db.execute("select token, kind, ref from club_shares where token = ?",
                                [token]).fetchone()
        return None if found is None else ShareRow(*found)

    def add_share(self, share: ShareRow, stamp: str) -> None:
        """Store a share link."""
        self.db.execute("insert into club_shares (token, kind, ref, created) values"
                        " (?, ?, ?, ?)", [share.token, share.kind, share.ref, stamp])

    def drop_share(self, kind: str, ref: int | None) -> None:
        """Remove the share link of a season or a player (it opens nothing from then on)."""
        self.db.execute("delete from club_shares where kind = ? and ref is ?", [kind, ref])

    # -- kept summaries (derived) ----------------------------------------------------

    def summaries(self, game_ids: Sequence[int]) -> dict[int, StoredSummary]:
        """{game id: its kept summary} for these games (those that have one)."""
        out = {}
        for start in range(0, len(game_ids), PART):
            part = list(game_ids[start:start + PART])
            marks = ",".join("?" * len(part))
            for game_id, version, data in self.db.execute(
                    f"select game_id, version, data from club_summaries where game_id in"
                    f" ({marks})", part):
                try:
                    out[game_id] = StoredSummary(game_id, version, json.loads(data))
                except (TypeError, ValueError):
                    continue  # unreadable: as if missing, made again (derived data)
        return out

    def put_summaries(self, items: Sequence[StoredSummary]) -> None:
        """Keep summaries (best effort, like the totals): only for a still-current version."""
        if not items or self.db.conn.in_transaction:
            return
        with self.store.atomic():
            self.db.conn.executemany(
                "insert or replace into club_summaries (game_id, version, data)"
                " select ?, ?, ? where exists (select 1 from games where id = ? and version = ?)",
                [(s.game_id, s.version, json.dumps(s.data, ensure_ascii=False), s.game_id,
                  s.version) for s in items])

    def forget_summaries(self) -> None:
        """Remove every kept summary (they are made again on the next read)."""
        self.db.execute("delete from club_summaries")

    # -- what the figures are made of (games, deals and revisions, read only) ------------

    def ended(self, game_id: int) -> str:
        """When the game's last deal slot was recorded (its creation if it has none)."""
        found = self.db.execute(
            "select coalesce((select max(created) from deals where game_id = ?),"
            " (select created from games where id = ?))", [game_id, game_id]).fetchone()
        return str(found[0] or "")

    def last_deal_times(self) -> dict[int, str]:
        """{game id: when its last deal slot was recorded} of every game with deals."""
        return dict(self.db.execute("select game_id, max(created) from deals"
                                    " group by game_id").fetchall())

    def all_records(self) -> dict[int, list[store.JsonDict]]:
        """Every game's live records in order, in one query (for the full rebuild)."""
        # Every revision in slot order, the newest last: one pass keeps each slot's newest
        # (a correlated max(rev) per row costs more than reading the few older revisions).
        latest: dict[tuple[int, int], str | None] = {}
        for game_id, seq, record in self.db.execute(
                "select d.game_id, d.seq, r.record from deals d join revisions r on"
                " r.deal_id = d.id order by d.game_id, d.seq, r.rev"):
            latest[(game_id, seq)] = record
        out: dict[int, list[store.JsonDict]] = {}
        for (game_id, _seq), record in latest.items():
            if record is not None:
                out.setdefault(game_id, []).append(json.loads(record))
        return out

    def game_links(self, game_ids: Sequence[int]) -> dict[int, GameLinks]:
        """{game id: its tokens} of these games."""
        out: dict[int, GameLinks] = {}
        for start in range(0, len(game_ids), PART):
            part = list(game_ids[start:start + PART])
            marks = ",".join("?" * len(part))
            for row in self.db.execute(f"select id, edit_token, view_token from games"
                                       f" where id in ({marks})", part):
                out[row[0]] = GameLinks(*row)
        return out

