"""The club's stored data: players, seat links, counted games and their history.

The log keeps every name as written; which player sat at a seat is a link beside it
(``seat_links``). Every change of the links or the players (count, rename, merge,
re-link) is one row of ``club_changes`` holding what it changed, so it can be shown and
undone, and nothing is ever lost: a merged player stays, marked as merged.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from scorer import store
from scorer.club.league import Player
from scorer.engine import check_name, name_key
from scorer.engine.texts import N_, tr


class ClubError(ValueError):
    """A club change refused: a msgid (English) and its params, worded by ``text``."""

    def __init__(self, msgid: str, **params: Any):
        super().__init__(msgid.format(**params))
        self.msgid = msgid
        self.params = params

    def text(self, lang: str = "en") -> str:
        """The refusal in ``lang``."""
        return tr(lang, self.msgid).format(**self.params)


@dataclass(frozen=True)
class ClubChange:
    """One change of the club's links or players, as the history shows it."""

    id: int
    kind: str  # "count", "rename", "merge", "relink", "add"
    data: dict[str, Any]
    created: str
    undone: str | None


class Roster:
    """Players and seat links over one database (the store's write lock and transactions)."""

    def __init__(self, db: Database):
        self.db = db
        self.store = store.Store(db)

    @contextmanager
    def changing(self) -> Iterator[None]:
        """One write transaction that also marks the club's data as changed."""
        with self.store.atomic():
            yield
            bump(self.db)

    # -- reading ---------------------------------------------------------------

    def player_row(self, player_id: int) -> tuple[str, str, int | None] | None:
        """(name, key, merged into) of a player, or None."""
        row = self.db.execute("select name, key, merged_into from players where id = ?",
                              [player_id]).fetchone()
        return None if row is None else (row[0], row[1], row[2])

    def live_player(self, player_id: int) -> str:
        """A live (not merged) player's name, or ClubError."""
        row = self.player_row(player_id)
        if row is None or row[2] is not None:
            raise ClubError(N_("no player {id}"), id=player_id)
        return row[0]

    def names(self) -> dict[int, str]:
        """{player id: name} of every player, merged ones too."""
        return dict(self.db.execute("select id, name from players").fetchall())

    def links(self, game_id: int) -> dict[int, int]:
        """{seat: player id} of one game."""
        return dict(self.db.execute("select seat, player_id from seat_links where game_id = ?",
                                    [game_id]).fetchall())

    def match(self, name: str) -> int | None:
        """The live player a typed name means (names.py comparison), or None."""
        return store.matching_player(self.db, name_key(name))

    # -- linking ---------------------------------------------------------------

    def link_new_game(self, game_id: int, names: list[str]) -> list[int]:
        """Link a host's new game: each seat to the player its name matches, else a new one."""
        with self.changing():
            return store.link_seats(self.db, game_id, names, store.now())

    def count_game(self, game_id: int, counted: bool) -> ClubChange | None:
        """Put a game into the host's figures (linking its seats by name) or take it out;
        None if it already was so."""
        game = self.store.game(game_id)
        if game is None:
            raise ClubError(N_("no game {id}"), id=game_id)
        with self.changing():
            before = self.db.execute("select counted from club_games where game_id = ?",
                                     [game_id]).fetchone()
            was = bool(before[0]) if before else not game.guest
            if was == counted:
                return None
            self.db.execute("insert or replace into club_games (game_id, counted) values (?, ?)",
                            [game_id, int(counted)])
            added = []
            if counted:
                old = set(self.links(game_id))
                players_before = {r[0] for r in self.db.execute("select id from players")}
                ids = store.link_seats(self.db, game_id, list(game.head.get("players", [])),
                                       store.now())
                added = [[seat, pid, pid not in players_before]
                         for seat, pid in enumerate(ids) if seat not in old]
            data = {"game": game_id, "counted": counted,
                    "before": None if before is None else before[0], "added": added}
            return self.record("count", data)

    def rename(self, player_id: int, name: str) -> ClubChange:
        """Give a player another name (the logs keep what was written)."""
        name = " ".join(name.split())
        check_name(name)
        with self.changing():
            old = self.live_player(player_id)
            other = self.db.execute(
                "select 1 from players where key = ? and id != ? and merged_into is null",
                [name_key(name), player_id]).fetchone()
            if other:
                raise ClubError(N_("{name} is another player already: merge the two instead"),
                                name=name)
            self.db.execute("update players set name = ?, key = ? where id = ?",
                            [name, name_key(name), player_id])
            return self.record("rename", {"player": player_id, "before": old, "after": name})

    def add_player(self, name: str) -> ClubChange:
        """A new player on the roster before any game (a chip on the next new game)."""
        name = " ".join(name.split())
        check_name(name)
        with self.changing():
            if self.db.execute("select 1 from players where key = ? and merged_into is null",
                               [name_key(name)]).fetchone():
                raise ClubError(N_("{name} is a player already"), name=name)
            player = store.inserted(self.db.execute(
                "insert into players (name, key, created) values (?, ?, ?)",
                [name, name_key(name), store.now()]))
            return self.record("add", {"player": player, "name": name})

    def merge(self, keep: int, gone: int) -> ClubChange:
        """Make two players one: every seat of ``gone`` is linked to ``keep``; ``gone``
        stays, marked as merged (undo splits them again)."""
        if keep == gone:
            raise ClubError(N_("a player cannot be merged with itself"))
        with self.changing():
            self.live_player(keep)
            self.live_player(gone)
            both = self.db.execute(
                "select a.game_id from seat_links a join seat_links b on a.game_id = b.game_id"
                " where a.player_id = ? and b.player_id = ? limit 1", [keep, gone]).fetchone()
            if both:
                raise ClubError(N_("both sat at one table in game {game}: two people, not one"),
                                game=both[0])
            seats = [list(r) for r in self.db.execute(
                "select game_id, seat from seat_links where player_id = ?", [gone])]
            self.db.execute("update seat_links set player_id = ? where player_id = ?",
                            [keep, gone])
            self.db.execute("update players set merged_into = ? where id = ?", [keep, gone])
            return self.record("merge", {"keep": keep, "gone": gone, "seats": seats})

    def relink(self, game_id: int, seat: int, player_id: int | None) -> ClubChange:
        """Link one seat of a game to another player (None: a new player named as written)."""
        with self.changing():
            links = self.links(game_id)
            if seat not in links:
                raise ClubError(N_("game {game} has no linked seat {seat}"), game=game_id,
                                seat=seat)
            created = player_id is None
            if player_id is None:
                head = self.store.stored(game_id).head
                name = str(head["players"][seat])
                player_id = store.inserted(self.db.execute(
                    "insert into players (name, key, created) values (?, ?, ?)",
                    [name, name_key(name), store.now()]))
            else:
                self.live_player(player_id)
            if player_id in {p for s, p in links.items() if s != seat}:
                raise ClubError(N_("that player already sits at another seat of game {game}"),
                                game=game_id)
            self.db.execute("update seat_links set player_id = ? where game_id = ? and seat = ?",
                            [player_id, game_id, seat])
            return self.record("relink", {"game": game_id, "seat": seat, "before": links[seat],
                                          "after": player_id, "created": created})

    # -- history ---------------------------------------------------------------

    def record(self, kind: str, data: dict[str, Any]) -> ClubChange:
        """Write one history row (inside the change's transaction)."""
        stamp = store.now()
        change_id = store.inserted(self.db.execute(
            "insert into club_changes (kind, data, created) values (?, ?, ?)",
            [kind, json.dumps(data, ensure_ascii=False), stamp]))
        return ClubChange(change_id, kind, data, stamp, None)

    def history(self, limit: int = 100) -> list[ClubChange]:
        """The club's changes, newest first."""
        rows = self.db.execute("select id, kind, data, created, undone from club_changes"
                               " order by id desc limit ?", [limit]).fetchall()
        return [ClubChange(i, k, json.loads(d), c, u) for i, k, d, c, u in rows]

    def undo(self, change_id: int) -> None:
        """Undo one change, if what it changed is still as it left it (ClubError if not)."""
        row = self.db.execute("select kind, data, undone from club_changes where id = ?",
                              [change_id]).fetchone()
        if row is None:
            raise ClubError(N_("no change {id}"), id=change_id)
        if row[2] is not None:
            raise ClubError(N_("change {id} is undone already"), id=change_id)
        kind, data = row[0], json.loads(row[1])
        with self.changing():
            getattr(self, f"_undo_{kind}")(data)
            self.db.execute("update club_changes set undone = ? where id = ?",
                            [store.now(), change_id])

    def _changed_since(self) -> ClubError:
        """The refusal of an undo whose change was changed again since."""
        return ClubError(N_("changed again since: undo the later change first"))

    def _undo_add(self, data: dict[str, Any]) -> None:
        """Take back a player added by hand, if no game or merge has used them since."""
        used = self.db.execute(
            "select 1 from seat_links where player_id = ? union all"
            " select 1 from players where merged_into = ? or (id = ? and merged_into"
            " is not null) limit 1", [data["player"]] * 3).fetchone()
        if used is not None:
            raise self._changed_since()
        self.db.execute("delete from players where id = ?", [data["player"]])

    def _undo_rename(self, data: dict[str, Any]) -> None:
        """Give the player the name it had."""
        if self.live_player(data["player"]) != data["after"]:
            raise self._changed_since()
        self.db.execute("update players set name = ?, key = ? where id = ?",
                        [data["before"], name_key(data["before"]), data["player"]])

    def _undo_merge(self, data: dict[str, Any]) -> None:
        """Link the merged player's seats back to it and make it live again."""
        keep, gone = data["keep"], data["gone"]
        for game_id, seat in data["seats"]:
            if self.links(game_id).get(seat) != keep:
                raise self._changed_since()
            self.db.execute("update seat_links set player_id = ? where game_id = ? and seat = ?",
                            [gone, game_id, seat])
        self.db.execute("update players set merged_into = null where id = ?", [gone])

    def _undo_relink(self, data: dict[str, Any]) -> None:
        """Link the seat to the player it had."""
        if self.links(data["game"]).get(data["seat"]) != data["after"]:
            raise self._changed_since()
        self.db.execute("update seat_links set player_id = ? where game_id = ? and seat = ?",
                        [data["before"], data["game"], data["seat"]])
        if data["created"]:
            drop_if_unused(self.db, data["after"])

    def _undo_count(self, data: dict[str, Any]) -> None:
        """Put the game's counting back as it was, removing the links the count added."""
        game_id = data["game"]
        if data["before"] is None:
            self.db.execute("delete from club_games where game_id = ?", [game_id])
        else:
            self.db.execute("update club_games set counted = ? where game_id = ?",
                            [data["before"], game_id])
        for seat, player, created in data["added"]:
            self.db.execute("delete from seat_links where game_id = ? and seat = ?"
                            " and player_id = ?", [game_id, seat, player])
            if created:
                drop_if_unused(self.db, player)

    # -- the roster --------------------------------------------------------------

    def players(self, counted: dict[int, tuple[int, str | None]]) -> list[Player]:
        """Every live player, recent first; counted: {id: (games, last date)}."""
        rows = self.db.execute("select id, name from players where merged_into is null"
                               " order by id").fetchall()
        players = [Player(pid, name, *counted.get(pid, (0, None))) for pid, name in rows]
        return sorted(players, key=lambda p: (p.last_played or "", p.games, -p.id),
                      reverse=True)


def drop_if_unused(db: Database, player_id: int) -> None:
    """Delete a player no seat, merge or change refers to (one a count or re-link made)."""
    used = db.execute("select 1 from seat_links where player_id = ? union all"
                      " select 1 from players where merged_into = ? limit 1",
                      [player_id, player_id]).fetchone()
    if used is None:
        db.execute("delete from players where id = ?", [player_id])


def bump(db: Database) -> None:
    """Mark the club's data as changed (its in-process caches are keyed by this)."""
    db.execute("insert into meta (key, value) values ('club', '1') on conflict(key) do update"
               " set value = cast(value as integer) + 1")
