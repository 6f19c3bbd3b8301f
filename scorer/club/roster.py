"""The club's stored data: players, seat links, counted games and their history.

The log keeps every name as written; which player sat at a seat is a link beside it
(``seat_links``). Every change of the links or the players (count, rename, merge,
re-link) is one row of ``club_changes`` holding what it changed, so it can be shown and
undone, and nothing is ever lost: a merged player stays, marked as merged.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlite_utils import Database

from scorer import store
from scorer.club.league import Player
from scorer.club_store import ClubChange, ClubStore, PlayerRow
from scorer.engine import check_name
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


class Roster:
    """Players and seat links over one database (the store's write lock and transactions);
    every row is read and written through the club's gateway (scorer/club_store.py)."""

    def __init__(self, db: Database):
        self.db = db
        self.rows = ClubStore(db)
        self.store = self.rows.store

    @contextmanager
    def changing(self) -> Iterator[None]:
        """One write transaction that also marks the club's data as changed."""
        with self.store.atomic():
            yield
            self.rows.bump()

    # -- reading ---------------------------------------------------------------

    def player_row(self, player_id: int) -> PlayerRow | None:
        """A player as stored (merged ones too), or None."""
        return self.rows.player(player_id)

    def live_player(self, player_id: int) -> str:
        """A live (not merged) player's name, or ClubError."""
        row = self.player_row(player_id)
        if row is None or row.merged_into is not None:
            raise ClubError(N_("no player {id}"), id=player_id)
        return row.name

    def names(self) -> dict[int, str]:
        """{player id: name} of every player, merged ones too."""
        return {p.id: p.name for p in self.rows.players()}

    def links(self, game_id: int) -> dict[int, int]:
        """{seat: player id} of one game."""
        return self.rows.links(game_id)

    def match(self, name: str) -> int | None:
        """The live player a typed name means (names.py comparison), or None."""
        return self.rows.match(name)

    # -- linking ---------------------------------------------------------------

    def link_new_game(self, game_id: int, names: list[str]) -> list[int]:
        """Link a host's new game: each seat to the player its name matches, else a new one."""
        with self.changing():
            return self.rows.link_seats(game_id, names, store.now())

    def copy_links(self, old: int, new: int, names: list[str]) -> None:
        """Link a new game's seats to the players of an old one's (each seat that exists
        in both and whose player is still stored)."""
        with self.changing():
            for seat, player in self.links(old).items():
                if seat < len(names) and self.player_row(player) is not None:
                    self.rows.add_link(new, seat, player, names[seat])

    def count_game(self, game_id: int, counted: bool) -> ClubChange | None:
        """Put a game into the host's figures (linking its seats by name) or take it out;
        None if it already was so."""
        game = self.store.game(game_id)
        if game is None:
            raise ClubError(N_("no game {id}"), id=game_id)
        with self.changing():
            before = self.rows.counted_choice(game_id)
            was = bool(before) if before is not None else not game.guest
            if was == counted:
                return None
            self.rows.choose_counted(game_id, int(counted))
            added = []
            if counted:
                old = set(self.links(game_id))
                players_before = {p.id for p in self.rows.players()}
                ids = self.rows.link_seats(game_id, list(game.head.get("players", [])),
                                           store.now())
                added = [[seat, pid, pid not in players_before]
                         for seat, pid in enumerate(ids) if seat not in old]
            data = {"game": game_id, "counted": counted, "before": before, "added": added}
            return self.record("count", data)

    def rename(self, player_id: int, name: str) -> ClubChange:
        """Give a player another name (the logs keep what was written)."""
        name = " ".join(name.split())
        check_name(name)
        with self.changing():
            old = self.live_player(player_id)
            if self.rows.name_taken(name, player_id):
                raise ClubError(N_("{name} is another player already: merge the two instead"),
                                name=name)
            self.rows.rename_player(player_id, name)
            return self.record("rename", {"player": player_id, "before": old, "after": name})

    def add_player(self, name: str) -> ClubChange:
        """A new player on the roster before any game (a chip on the next new game)."""
        name = " ".join(name.split())
        check_name(name)
        with self.changing():
            if self.rows.name_taken(name, 0):
                raise ClubError(N_("{name} is a player already"), name=name)
            player = self.rows.add_player(name, store.now())
            return self.record("add", {"player": player, "name": name})

    def merge(self, keep: int, gone: int) -> ClubChange:
        """Make two players one: every seat of ``gone`` is linked to ``keep``; ``gone``
        stays, marked as merged (undo splits them again)."""
        if keep == gone:
            raise ClubError(N_("a player cannot be merged with itself"))
        with self.changing():
            self.live_player(keep)
            self.live_player(gone)
            both = self.rows.shared_game(keep, gone)
            if both is not None:
                raise ClubError(N_("both sat at one table in game {game}: two people, not one"),
                                game=both)
            seats = [[s.game_id, s.seat] for s in self.rows.seats_of(gone)]
            self.rows.move_links(gone, keep)
            self.rows.set_merged(gone, keep)
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
                player_id = self.rows.add_player(str(head["players"][seat]), store.now())
            else:
                self.live_player(player_id)
            if player_id in {p for s, p in links.items() if s != seat}:
                raise ClubError(N_("that player already sits at another seat of game {game}"),
                                game=game_id)
            self.rows.set_link(game_id, seat, player_id)
            return self.record("relink", {"game": game_id, "seat": seat, "before": links[seat],
                                          "after": player_id, "created": created})

    # -- history ---------------------------------------------------------------

    def record(self, kind: str, data: dict[str, Any]) -> ClubChange:
        """Write one history row (inside the change's transaction)."""
        return self.rows.add_change(kind, data, store.now())

    def history(self, limit: int = 100) -> list[ClubChange]:
        """The club's changes, newest first."""
        return self.rows.changes(limit)

    def undo(self, change_id: int) -> None:
        """Undo one change, if what it changed is still as it left it (ClubError if not)."""
        change = self.rows.change(change_id)
        if change is None:
            raise ClubError(N_("no change {id}"), id=change_id)
        if change.undone is not None:
            raise ClubError(N_("change {id} is undone already"), id=change_id)
        with self.changing():
            getattr(self, f"_undo_{change.kind}")(change.data)
            self.rows.mark_undone(change_id, store.now())

    def _changed_since(self) -> ClubError:
        """The refusal of an undo whose change was changed again since."""
        return ClubError(N_("changed again since: undo the later change first"))

    def _undo_add(self, data: dict[str, Any]) -> None:
        """Take back a player added by hand, if no game or merge has used them since."""
        if not self.rows.drop_if_unused(data["player"]):
            raise self._changed_since()

    def _undo_rename(self, data: dict[str, Any]) -> None:
        """Give the player the name it had."""
        if self.live_player(data["player"]) != data["after"]:
            raise self._changed_since()
        self.rows.rename_player(data["player"], data["before"])

    def _undo_merge(self, data: dict[str, Any]) -> None:
        """Link the merged player's seats back to it and make it live again."""
        keep, gone = data["keep"], data["gone"]
        for game_id, seat in data["seats"]:
            if self.links(game_id).get(seat) != keep:
                raise self._changed_since()
            self.rows.set_link(game_id, seat, gone)
        self.rows.set_merged(gone, None)

    def _undo_relink(self, data: dict[str, Any]) -> None:
        """Link the seat to the player it had."""
        if self.links(data["game"]).get(data["seat"]) != data["after"]:
            raise self._changed_since()
        self.rows.set_link(data["game"], data["seat"], data["before"])
        if data["created"]:
            self.rows.drop_if_unused(data["after"])

    def _undo_count(self, data: dict[str, Any]) -> None:
        """Put the game's counting back as it was, removing the links the count added."""
        game_id = data["game"]
        self.rows.restore_counted(game_id, data["before"])
        for seat, player, created in data["added"]:
            self.rows.unlink(game_id, seat, player)
            if created:
                self.rows.drop_if_unused(player)

    # -- the roster --------------------------------------------------------------

    def players(self, counted: dict[int, tuple[int, str | None]]) -> list[Player]:
        """Every live player, recent first; counted: {id: (games, last date)}."""
        players = [Player(p.id, p.name, *counted.get(p.id, (0, None)))
                   for p in self.rows.players(live=True)]
        return sorted(players, key=lambda p: (p.last_played or "", p.games, -p.id),
                      reverse=True)
