"""The club over one database: summaries kept per game version, figures kept per state.

Reading is cheap by construction. The games' versions and the club's change counter
make a fingerprint (one query); for a fingerprint already seen, every figure comes from
the club's memory. For a new one only the games whose summary is older than their
version are replayed (one game after a deal), the rest of the summaries come from memory
too, and the ratings and tables are recomputed from summaries, never from deal logs.

The memory belongs to whoever makes the club: the web app keeps one for all its requests
(two of its caches, emptied with the others); a club made without one keeps its own for
as long as it lives (a command's run).
"""

from __future__ import annotations

import gc
import hashlib
import secrets
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from sqlite_utils import Database

from scorer import club_store, store
from scorer.club import league
from scorer.club.figures import Summary, broken, summarize
from scorer.club.league import (
    ALL_TIME,
    COLUMNS,
    DEFAULT_POINTS,
    Played,
    Player,
    RecordsBoard,
    Season,
    SeasonTable,
)
from scorer.club.player_figures import PlayerFigures, player_figures
from scorer.club.ratings import Rating
from scorer.club.roster import ClubError, Roster
from scorer.club_store import CountedGame, Fingerprint, GameLinks, StoredSummary
from scorer.engine import (
    MAX_SEASON,
    RuleError,
    check_date,
    check_text,
    log_with,
    parse_game,
    replay,
)
from scorer.engine.texts import N_

T = TypeVar("T")
K = TypeVar("K", contravariant=True)
V = TypeVar("V")
KEEP_STATES = 8  # club states kept in memory (one per fingerprint, newest kept)
KEEP_SUMMARIES = 20_000  # parsed summaries kept in memory, by (generation, game, version)
SHARE_KINDS = ("season", "player")
BULK = 20  # more stale summaries than this are made from one read of every record
SummaryKey = tuple[str, int, int]  # (the file's generation, game id, version)


class Cache(Protocol[K, V]):
    """What the club keeps things in (the web's Lru is one)."""

    def get(self, key: K, /) -> V | None:
        """The entry, or None."""

    def put(self, key: K, value: V, /) -> V:
        """Remember an entry; return it."""


class Kept(Generic[V]):
    """A cache that keeps everything: a club made without a memory, for one command."""

    def __init__(self) -> None:
        self.items: dict[Any, V] = {}

    def get(self, key: Any, /) -> V | None:
        """The entry, or None."""
        return self.items.get(key)

    def put(self, key: Any, value: V, /) -> V:
        """Remember an entry; return it."""
        self.items[key] = value
        return value


@dataclass(frozen=True)
class Memory:
    """What a club keeps between reads: its states by fingerprint (KEEP_STATES of them)
    and the parsed summaries (KEEP_SUMMARIES)."""

    states: Cache[Fingerprint, ClubState] = field(default_factory=Kept)
    summaries: Cache[SummaryKey, Summary] = field(default_factory=Kept)


@dataclass
class ClubState:
    """Everything the figures are made of at one fingerprint, and what was made of it."""

    played: tuple[Played, ...]
    roster: dict[int, Player]
    seasons: dict[int, Season]
    made: dict[Any, Any] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def memo(self, key: Any, make: Any) -> Any:
        """The value made once per state under key."""
        with self.lock:
            if key in self.made:
                return self.made[key]
        value = make()
        with self.lock:
            return self.made.setdefault(key, value)

    def ratings(self, season: Season) -> dict[int, Rating]:
        """The season's ratings (openskill over its finished games)."""
        made: dict[int, Rating] = self.memo(("ratings", season.id),
                                            lambda: league.season_ratings(self.played, season))
        return made


class Club(Roster):
    """The club's API for the web and the command line (docs/STATS.md)."""

    def __init__(self, db: Database, memory: Memory | None = None):
        super().__init__(db)
        self.memory = memory or Memory()

    # -- the state -----------------------------------------------------------------

    def fingerprint(self) -> Fingerprint:
        """What names the club's current data: generation, club changes, games' versions."""
        return self.rows.fingerprint()

    def state(self) -> ClubState:
        """The club's data now: from memory when nothing changed, else brought up to date."""
        key = self.fingerprint()
        found = self.memory.states.get(key)
        if found is not None:
            return found
        if self.unlinked():
            with self.changing():
                self.rows.link_host_games()
            key = self.fingerprint()
        return self.memory.states.put(key, self.build(key))

    def cached(self, key: Any, make: Callable[[], T]) -> T:
        """What make() returns, made once per club state (e.g. a rendered page, keyed by
        its route and language): the same figures give the same bytes."""
        made: T = self.state().memo(("page", key), make)
        return made

    def etag(self) -> str:
        """A short name of the club's current data, for a page's ETag."""
        return hashlib.sha256(repr(self.fingerprint()).encode()).hexdigest()[:20]

    def unlinked(self) -> bool:
        """Whether a host's game (or a counted one) has no seat links yet."""
        return self.rows.unlinked()

    def build(self, key: Fingerprint) -> ClubState:
        """Read (and where stale, make) the counted games' summaries and the roster."""
        generation = str(key.generation or "")
        counted = self.rows.counted()
        summaries = self.summaries(generation, counted)
        links = self.rows.all_links()
        played = []
        for game_id in (c.id for c in counted):
            summary, seats = summaries.get(game_id), links.get(game_id, {})
            if summary is None or summary.broken or len(seats) != len(summary.players):
                continue
            played.append(Played(game_id, summary.date, summary.ended, summary,
                                 tuple(seats[s] for s in range(len(seats)))))
        return ClubState(tuple(league.ordered(played)), self.roster_of(played),
                         {s.id: s for s in self.seasons() if s.id is not None})

    def roster_of(self, played: Sequence[Played]) -> dict[int, Player]:
        """Every player (merged ones too, by id) with their counted games and last date."""
        games: dict[int, list[str]] = {}
        for p in played:
            for player in p.players:
                games.setdefault(player, []).append(p.date)
        return {p.id: Player(p.id, p.name, len(games.get(p.id, [])),
                             max(games.get(p.id, [""])) or None, p.merged_into)
                for p in self.rows.players()}

    def summaries(self, generation: str, counted: list[CountedGame]) -> dict[int, Summary]:
        """{game id: summary of its current version}; stale or missing ones made now."""
        out: dict[int, Summary] = {}
        missing = []
        for game in counted:
            found = self.memory.summaries.get((generation, game.id, game.version))
            if found is None:
                missing.append(game)
            else:
                out[game.id] = found
        if not missing:
            return out
        stored = self.rows.summaries([g.id for g in missing])
        stale = []
        for game in missing:
            kept = stored.get(game.id)
            # Another shape, or one that does not read: stale, made again (never an error).
            summary = Summary.read(kept.data) if kept and kept.version == game.version \
                else None
            if summary is None:
                stale.append(game.id)
            else:
                out[game.id] = self.memory.summaries.put(
                    (generation, game.id, game.version), summary)
        fresh = self.made_summaries(stale)
        for game_id, version, summary in fresh:
            out[game_id] = self.memory.summaries.put((generation, game_id, version), summary)
        self.rows.put_summaries([StoredSummary(g, v, s.data()) for g, v, s in fresh])
        return out

    def made_summaries(self, game_ids: list[int]) -> list[tuple[int, int, Summary]]:
        """(game id, version, summary) of these games, each replayed once: one by one for
        a few, from one read of every record for many (a restore, a first look)."""
        if len(game_ids) <= BULK:
            found = [self.store.game(g) for g in game_ids]
            return [(r.id, r.version, summary_from(r, self.store.records(r.id),
                                                   self.rows.ended(r.id))) for r in found if r]
        wanted = set(game_ids)
        rows = [r for r in self.store.games(None) if r.id in wanted]
        records = self.rows.all_records()
        ended = self.rows.last_deal_times()
        # Every record and summary made here lives until the end: the cyclic collector
        # would walk them all again at every threshold, for nothing to free.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return [(r.id, r.version, summary_from(
                r, records.get(r.id, []), str(ended.get(r.id) or r.created))) for r in rows]
        finally:
            if collecting:
                gc.enable()

    # -- what the pages show ---------------------------------------------------------

    def roster(self) -> list[Player]:
        """Every live player, most recently played first."""
        state = self.state()
        counted = {p.id: (p.games, p.last_played) for p in state.roster.values()}
        return self.players(counted)

    def season(self, season_id: int | None) -> Season:
        """A season by id (None: «всё время»), or ClubError."""
        if season_id is None:
            return ALL_TIME
        found = self.state().seasons.get(season_id)
        if found is None:
            raise ClubError(N_("no season {id}"), id=season_id)
        return found

    def player(self, player_id: int, season_id: int | None = None) -> PlayerFigures:
        """Every figure of one player over a season (ClubError for an unknown player)."""
        state = self.state()
        who = state.roster.get(player_id)
        if who is None:
            raise ClubError(N_("no player {id}"), id=player_id)
        season = self.season(season_id)
        figures: PlayerFigures = state.memo(("player", player_id, season_id), lambda: (
            player_figures(state.played, who, season, state.ratings(season), state.roster)))
        return figures

    def season_table(self, season_id: int | None = None) -> SeasonTable:
        """The league table of a season (None: «всё время»)."""
        state = self.state()
        season = self.season(season_id)
        table: SeasonTable = state.memo(("table", season_id), lambda: league.season_table(
            state.played, season, state.ratings(season), state.roster))
        return table

    def records(self, season_id: int | None = None) -> RecordsBoard:
        """The records board of a season (None: «всё время»)."""
        state = self.state()
        season = self.season(season_id)
        board: RecordsBoard = state.memo(("records", season_id), lambda: league.records_board(
            state.played, season, state.roster))
        return board

    def game_links(self, game_ids: Sequence[int]) -> dict[int, GameLinks]:
        """{game id: its edit and view tokens} of these games (a figure's sources)."""
        return self.rows.game_links(game_ids)

    def games_apart(self) -> list[int]:
        """Games a guest made that the host has not counted (for «count this game»)."""
        return self.rows.games_apart()

    # -- seasons ---------------------------------------------------------------------

    def seasons(self) -> list[Season]:
        """The named seasons, newest start first («всё время» is not among them)."""
        return [Season(s.id, s.name, s.start, s.end, s.points) for s in self.rows.seasons()]

    def add_season(self, name: str, start: str, end: str,
                   points: dict[int, Sequence[float]] | None = None) -> Season:
        """Name a season by its first and last day (inclusive) and its league points."""
        name, table = checked_season(name, start, end, points)
        with self.changing():
            season_id = self.rows.add_season(name, start, end, table, store.now())
        return Season(season_id, name, start, end, {k: tuple(v) for k, v in table.items()})

    def delete_season(self, season_id: int) -> None:
        """Remove a season (the games stay; only the named range goes) and its share link."""
        with self.changing():
            self.rows.delete_season(season_id)

    # -- read-only share links -------------------------------------------------------

    def share_token(self, kind: str, ref: int | None) -> str:
        """The read-only link token of a season (ref None: «всё время») or a player."""
        if kind not in SHARE_KINDS:
            raise ClubError(N_("nothing to share as {kind}"), kind=kind)
        found = self.rows.share_of(kind, ref)
        if found:
            return found.token
        made = club_store.ShareRow(secrets.token_urlsafe(24), kind, ref)
        with self.store.atomic():
            self.rows.add_share(made, store.now())
        return made.token

    def replace_share(self, kind: str, ref: int | None) -> str:
        """A new token for a share link (the old link opens nothing from then on)."""
        with self.store.atomic():
            self.rows.drop_share(kind, ref)
        return self.share_token(kind, ref)

    def resolve_share(self, token: str) -> tuple[str, int | None] | None:
        """(kind, id) a share token opens, or None: nothing else, no edit right."""
        found = self.rows.share(token)
        return None if found is None else (found.kind, found.ref)

    # -- CSV -------------------------------------------------------------------------

    def season_csv(self, season_id: int | None = None) -> list[list[Any]]:
        """The season table as CSV rows (a header first)."""
        table = self.season_table(season_id)
        rows: list[list[Any]] = [["place", "player", *(name for name, _l in COLUMNS),
                                  "rating", "rated_games"]]
        for place, r in enumerate(table.rows, 1):
            rows.append([place, r.player.name, *(getattr(r, name).value for name, _l in COLUMNS),
                         r.rating, r.rated_games])
        return rows

    def results_csv(self, season_id: int | None = None) -> list[list[Any]]:
        """Every counted game's result per seat as CSV rows (a header first)."""
        state = self.state()
        season = self.season(season_id)
        rows: list[list[Any]] = [["game", "date", "finished", "deals", "seat", "name_written",
                                  "player_id", "player", "total", "place", "won",
                                  "league_points"]]
        for p in state.played:
            if not season.holds(p.date):
                continue
            s = p.summary
            points = league.league_points(s.places, season.points) if p.finished else None
            for seat, pid in enumerate(p.players):
                rows.append([p.game_id, p.date, int(p.finished), s.deals, seat,
                             s.players[seat], pid, state.roster[pid].name, s.score[seat],
                             s.places[seat] if p.finished else None,
                             int(s.winner == seat), points[seat] if points else None])
        return rows


def summary_from(row: store.GameRow, records: list[dict[str, Any]], ended: str) -> Summary:
    """One game's summary from its stored head and live records (broken if they do not
    replay), with the date it counts on and when it ended."""
    date = str(row.head.get("date") or row.created[:10])
    try:
        game = parse_game(log_with(row.head, records))
        return summarize(game, replay(game), date, ended, row.created)
    except (RuleError, ValueError, TypeError, KeyError):
        return broken(date, ended, row.created)


def checked_season(name: str, start: str, end: str, points: dict[int, Sequence[float]] | None
                   ) -> tuple[str, dict[int, list[float]]]:
    """A season's name and points, checked (ClubError or RuleError naming what is wrong)."""
    name = " ".join(name.split())
    if not name or len(name) > MAX_SEASON:
        raise ClubError(N_("a season needs a name of 1 to 80 characters"))
    check_text("season", name)  # the forms' text rules: a restore refuses what they refuse
    check_date(start)
    check_date(end)
    if end < start:
        raise ClubError(N_("a season ends on or after the day it starts"))
    table = {size: list(DEFAULT_POINTS[size]) for size in DEFAULT_POINTS}
    for size, values in (points or {}).items():
        if size not in DEFAULT_POINTS or len(values) != size or \
                any(not 0 <= float(v) <= 100 for v in values):
            raise ClubError(N_("league points: {size} numbers from 0 to 100 for {size} "
                               "players"), size=size)
        table[size] = [float(v) for v in values]
    return name, table


class Reading(Club):
    """The club for one read-only request. A season page asks for the club's state three
    or four times (the table, the records, the ETag, the kept page): here the
    fingerprint query runs once, and the state is found once. A write through it (linking
    a host's new games) asks again."""

    def __init__(self, db: Database, memory: Memory | None = None):
        super().__init__(db, memory)
        self._key: Fingerprint | None = None
        self._state: ClubState | None = None

    def fingerprint(self) -> Fingerprint:
        """The club's fingerprint, read once per request."""
        if self._key is None:
            self._key = super().fingerprint()
        return self._key

    @contextmanager
    def changing(self) -> Iterator[None]:
        """A write: the fingerprint is read again after it."""
        with super().changing():
            yield
        self._key = None

    def state(self) -> ClubState:
        """The club's data, found once per request."""
        if self._state is None:
            self._state = super().state()
        return self._state
