"""The club over one database: summaries kept per game version, figures kept per state.

Reading is cheap by construction. The games' versions and the club's change counter
make a fingerprint (one query); for a fingerprint already seen, every figure comes from
memory. For a new one only the games whose summary is older than their version are
replayed (one game after a deal), the rest of the summaries come from memory too, and
the ratings and tables are recomputed from summaries, never from deal logs.
"""

from __future__ import annotations

import gc
import hashlib
import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlite_utils import Database

from scorer import store
from scorer.club import league
from scorer.club.figures import SHAPE, Summary, summarize
from scorer.club.league import (
    ALL_TIME,
    DEFAULT_POINTS,
    Played,
    Player,
    PlayerFigures,
    RecordsBoard,
    Season,
    SeasonTable,
)
from scorer.club.ratings import Rating
from scorer.club.roster import ClubError, Roster, bump
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
KEEP_STATES = 8  # club states kept in memory (one per fingerprint, newest kept)
KEEP_SUMMARIES = 20_000  # parsed summaries kept in memory, by (generation, game, version)
SHARE_KINDS = ("season", "player")
BULK = 20  # more stale summaries than this are made from one read of every record

_LOCK = threading.Lock()
_STATES: OrderedDict[tuple[Any, ...], ClubState] = OrderedDict()
_SUMMARIES: OrderedDict[tuple[str, int, int], Summary] = OrderedDict()

# The games that count: not deleted, and counted by the host's choice or by default
# (the host's own games yes, a guest's no).
COUNTED = ("select g.id, g.version from games g left join club_games c on c.game_id = g.id"
           " where g.deleted is null and coalesce(c.counted, 1 - g.guest) = 1")


@dataclass
class ClubState:
    """Everything the figures are made of at one fingerprint, and what was made of it."""

    played: tuple[Played, ...]
    roster: dict[int, Player]
    seasons: dict[int, Season]
    made: dict[Any, Any] = field(default_factory=dict)

    def memo(self, key: Any, make: Any) -> Any:
        """The value made once per state under key."""
        with _LOCK:
            if key in self.made:
                return self.made[key]
        value = make()
        with _LOCK:
            return self.made.setdefault(key, value)

    def ratings(self, season: Season) -> dict[int, Rating]:
        """The season's ratings (openskill over its finished games)."""
        made: dict[int, Rating] = self.memo(("ratings", season.id),
                                            lambda: league.season_ratings(self.played, season))
        return made


class Club(Roster):
    """The club's API for the web and the command line (docs/STATS.md, notes in CLUB-API)."""

    # -- the state -----------------------------------------------------------------

    def fingerprint(self) -> tuple[Any, ...]:
        """What names the club's current data: generation, club changes, games' versions."""
        row = self.db.execute(
            "select (select value from meta where key = 'generation'),"
            " (select value from meta where key = 'club'), count(*), total(version),"
            " total(id * version), total(id * (deleted is null)) from games").fetchone()
        return tuple(row)

    def state(self) -> ClubState:
        """The club's data now: from memory when nothing changed, else brought up to date."""
        key = self.fingerprint()
        with _LOCK:
            found = _STATES.get(key)
            if found is not None:
                _STATES.move_to_end(key)
                return found
        if self.unlinked():
            with self.changing():
                store.link_host_games(self.db)
            key = self.fingerprint()
        made = self.build(key)
        with _LOCK:
            _STATES[key] = made
            while len(_STATES) > KEEP_STATES:
                _STATES.popitem(last=False)
        return made

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
        found = self.db.execute(
            f"select 1 from ({COUNTED}) c where not exists"
            " (select 1 from seat_links s where s.game_id = c.id) limit 1").fetchone()
        return found is not None

    def build(self, key: tuple[Any, ...]) -> ClubState:
        """Read (and where stale, make) the counted games' summaries and the roster."""
        generation = str(key[0] or "")
        counted = self.db.execute(COUNTED).fetchall()
        summaries = self.summaries(generation, counted)
        links: dict[int, dict[int, int]] = {}
        for game_id, seat, player in self.db.execute(
                "select game_id, seat, player_id from seat_links"):
            links.setdefault(game_id, {})[seat] = player
        played = []
        for game_id, _version in counted:
            summary, seats = summaries.get(game_id), links.get(game_id, {})
            if summary is None or summary.get("broken") or \
                    len(seats) != len(summary["players"]):
                continue
            played.append(Played(game_id, summary["date"], summary["ended"], summary,
                                 tuple(seats[s] for s in range(len(seats)))))
        return ClubState(tuple(league.ordered(played)), self.roster_of(played),
                         {s.id: s for s in self.seasons() if s.id is not None})

    def roster_of(self, played: Sequence[Played]) -> dict[int, Player]:
        """Every player (merged ones too, by id) with their counted games and last date."""
        games: dict[int, list[str]] = {}
        for p in played:
            for player in p.players:
                games.setdefault(player, []).append(p.date)
        rows = self.db.execute("select id, name, merged_into from players").fetchall()
        return {int(pid): Player(int(pid), name, len(games.get(pid, [])),
                                 max(games.get(pid, [""])) or None, merged)
                for pid, name, merged in rows}

    def summaries(self, generation: str, counted: list[tuple[int, int]]
                  ) -> dict[int, Summary]:
        """{game id: summary of its current version}; stale or missing ones made now."""
        out: dict[int, Summary] = {}
        missing = []
        with _LOCK:
            for game_id, version in counted:
                found = _SUMMARIES.get((generation, game_id, version))
                if found is None:
                    missing.append((game_id, version))
                else:
                    out[game_id] = found
        if not missing:
            return out
        stored = self.stored_summaries([g for g, _ in missing])
        stale = []
        for game_id, version in missing:
            kept = stored.get(game_id)
            if kept is not None and kept[0] == version and kept[1].get("shape") == SHAPE:
                out[game_id] = kept[1]
                remember(generation, game_id, version, kept[1])
            else:
                stale.append(game_id)
        fresh = self.made_summaries(stale)
        for game_id, version, summary in fresh:
            out[game_id] = summary
            remember(generation, game_id, version, summary)
        self.put_summaries(fresh)
        return out

    def made_summaries(self, game_ids: list[int]) -> list[tuple[int, int, Summary]]:
        """(game id, version, summary) of these games, each replayed once: one by one for
        a few, from one read of every record for many (a restore, a first look)."""
        if len(game_ids) <= BULK:
            found = [self.store.game(g) for g in game_ids]
            return [(r.id, r.version, summary_from(r, self.store.records(r.id),
                                                   self.ended(r.id))) for r in found if r]
        wanted = set(game_ids)
        rows = [r for r in self.store.games(None) if r.id in wanted]
        records = all_records(self.db)
        ended = dict(self.db.execute("select game_id, max(created) from deals group by game_id"
                                     ).fetchall())
        # Every record and summary made here lives until the end: the cyclic collector
        # would walk them all again at every threshold, for nothing to free.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return [(r.id, r.version, summary_from(r, records.get(r.id, []),
                                                   str(ended.get(r.id) or r.created)))
                    for r in rows]
        finally:
            if collecting:
                gc.enable()

    def stored_summaries(self, game_ids: list[int]) -> dict[int, tuple[int, Summary]]:
        """{game id: (version, summary)} as stored, for these games."""
        out = {}
        for start in range(0, len(game_ids), 500):
            part = game_ids[start:start + 500]
            marks = ",".join("?" * len(part))
            for game_id, version, data in self.db.execute(
                    f"select game_id, version, data from club_summaries where game_id in"
                    f" ({marks})", part):
                out[game_id] = (version, json.loads(data))
        return out

    def summary_of(self, game_id: int) -> Summary:
        """Replay one game and summarize it (a log that does not replay: broken)."""
        row = self.store.stored(game_id)
        return summary_from(row, self.store.records(game_id), self.ended(game_id))

    def ended(self, game_id: int) -> str:
        """When the game's last deal slot was recorded (its creation if it has none)."""
        found = self.db.execute(
            "select coalesce((select max(created) from deals where game_id = ?),"
            " (select created from games where id = ?))", [game_id, game_id]).fetchone()
        return str(found[0] or "")

    def put_summaries(self, items: list[tuple[int, int, Summary]]) -> None:
        """Store summaries (best effort, like the totals): only for a still-current version."""
        if not items or self.db.conn.in_transaction:
            return
        with self.store.atomic():
            self.db.conn.executemany(
                "insert or replace into club_summaries (game_id, version, data)"
                " select ?, ?, ? where exists (select 1 from games where id = ? and version = ?)",
                [(g, v, json.dumps(s, ensure_ascii=False), g, v) for g, v, s in items])

    def refresh(self, game_id: int) -> None:
        """Bring one game's summary up to its current version now (after a change)."""
        row = self.store.game(game_id)
        if row is None:
            return
        summary = self.summary_of(game_id)
        self.put_summaries([(game_id, row.version, summary)])
        remember(self.store.generation(), game_id, row.version, summary)

    def rebuild(self) -> int:
        """Forget every summary and make each counted game's again, replaying each once
        (after a restore); return how many games were summarized."""
        with self.store.atomic():
            self.db.execute("delete from club_summaries")
            bump(self.db)
        fresh = self.made_summaries([g for g, _ in self.db.execute(COUNTED).fetchall()])
        self.put_summaries(fresh)
        generation = self.store.generation()
        for game_id, version, summary in fresh:
            remember(generation, game_id, version, summary)
        return len(fresh)

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
            league.player_figures(state.played, who, season, state.ratings(season),
                                  state.roster)))
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

    def games_apart(self) -> list[int]:
        """Games a guest made that the host has not counted (for «count this game»)."""
        return [r[0] for r in self.db.execute(
            "select g.id from games g left join club_games c on c.game_id = g.id"
            " where g.deleted is null and coalesce(c.counted, 1 - g.guest) = 0"
            " order by g.id desc")]

    # -- seasons ---------------------------------------------------------------------

    def seasons(self) -> list[Season]:
        """The named seasons, newest start first («всё время» is not among them)."""
        rows = self.db.execute("select id, name, start, end, points from seasons"
                               " order by start desc, id desc").fetchall()
        return [Season(i, n, s, e, {int(k): tuple(v) for k, v in json.loads(p).items()})
                for i, n, s, e, p in rows]

    def add_season(self, name: str, start: str, end: str,
                   points: dict[int, Sequence[float]] | None = None) -> Season:
        """Name a season by its first and last day (inclusive) and its league points."""
        name, table = checked_season(name, start, end, points)
        with self.changing():
            season_id = store.inserted(self.db.execute(
                "insert into seasons (name, start, end, points, created) values (?, ?, ?, ?, ?)",
                [name, start, end, json.dumps(table), store.now()]))
        return Season(season_id, name, start, end, {k: tuple(v) for k, v in table.items()})

    def edit_season(self, season_id: int, name: str, start: str, end: str,
                    points: dict[int, Sequence[float]] | None = None) -> None:
        """Change a season's name, dates or points."""
        name, table = checked_season(name, start, end, points)
        with self.changing():
            done = self.db.execute("update seasons set name = ?, start = ?, end = ?, points = ?"
                                   " where id = ?", [name, start, end, json.dumps(table),
                                                     season_id]).rowcount
        if not done:
            raise ClubError(N_("no season {id}"), id=season_id)

    def delete_season(self, season_id: int) -> None:
        """Remove a season (the games stay; only the named range goes) and its share link."""
        with self.changing():
            self.db.execute("delete from club_shares where kind = 'season' and ref = ?",
                            [season_id])
            self.db.execute("delete from seasons where id = ?", [season_id])

    # -- read-only share links -------------------------------------------------------

    def share_token(self, kind: str, ref: int | None) -> str:
        """The read-only link token of a season (ref None: «всё время») or a player."""
        if kind not in SHARE_KINDS:
            raise ClubError(N_("nothing to share as {kind}"), kind=kind)
        found = self.db.execute("select token from club_shares where kind = ? and ref is ?",
                                [kind, ref]).fetchone()
        if found:
            return str(found[0])
        token = secrets.token_urlsafe(24)
        with self.store.atomic():
            self.db.execute("insert into club_shares (token, kind, ref, created) values"
                            " (?, ?, ?, ?)", [token, kind, ref, store.now()])
        return token

    def replace_share(self, kind: str, ref: int | None) -> str:
        """A new token for a share link (the old link opens nothing from then on)."""
        with self.store.atomic():
            self.db.execute("delete from club_shares where kind = ? and ref is ?", [kind, ref])
        return self.share_token(kind, ref)

    def resolve_share(self, token: str) -> tuple[str, int | None] | None:
        """(kind, id) a share token opens, or None: nothing else, no edit right."""
        found = self.db.execute("select kind, ref from club_shares where token = ?",
                                [token]).fetchone()
        return None if found is None else (str(found[0]), found[1])

    # -- CSV -------------------------------------------------------------------------

    def season_csv(self, season_id: int | None = None) -> list[list[Any]]:
        """The season table as CSV rows (a header first)."""
        table = self.season_table(season_id)
        rows: list[list[Any]] = [["place", "player", "games", "wins", "points", "avg_place",
                                  "rating", "rated_games"]]
        for place, r in enumerate(table.rows, 1):
            rows.append([place, r.player.name, r.games.value, r.wins.value, r.points.value,
                         r.avg_place.value, r.rating, r.rated_games])
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
            points = league.league_points(s["places"], season.points) if p.finished else None
            for seat, pid in enumerate(p.players):
                rows.append([p.game_id, p.date, int(p.finished), s["deals"], seat,
                             s["players"][seat], pid, state.roster[pid].name, s["score"][seat],
                             s["places"][seat] if p.finished else None,
                             int(s["winner"] == seat), points[seat] if points else None])
        return rows


def remember(generation: str, game_id: int, version: int, summary: Summary) -> None:
    """Keep a parsed summary in memory."""
    with _LOCK:
        _SUMMARIES[(generation, game_id, version)] = summary
        while len(_SUMMARIES) > KEEP_SUMMARIES:
            _SUMMARIES.popitem(last=False)


def summary_from(row: store.GameRow, records: list[dict[str, Any]], ended: str) -> Summary:
    """One game's summary from its stored head and live records (broken if they do not
    replay), with the date it counts on and when it ended."""
    date = str(row.head.get("date") or row.created[:10])
    try:
        game = parse_game(log_with(row.head, records))
        summary = summarize(game, replay(game))
    except (RuleError, ValueError, TypeError, KeyError):
        return {"shape": SHAPE, "broken": True, "date": date, "ended": ended}
    return {**summary, "date": date, "ended": ended}


def all_records(db: Database) -> dict[int, list[dict[str, Any]]]:
    """Every game's live records in order, in one query (for the full rebuild)."""
    # Every revision in slot order, the newest last: one pass keeps each slot's newest
    # (a correlated max(rev) per row costs more than reading the few older revisions).
    latest: dict[tuple[int, int], str | None] = {}
    for game_id, seq, record in db.execute(
            "select d.game_id, d.seq, r.record from deals d join revisions r on"
            " r.deal_id = d.id order by d.game_id, d.seq, r.rev"):
        latest[(game_id, seq)] = record
    out: dict[int, list[dict[str, Any]]] = {}
    for (game_id, _seq), record in latest.items():
        if record is not None:
            out.setdefault(game_id, []).append(json.loads(record))
    return out


def checked_season(name: str, start: str, end: str, points: dict[int, Sequence[float]] | None
                   ) -> tuple[str, dict[int, list[float]]]:
    """A season's name and points, checked (ClubError or RuleError naming what is wrong)."""
    name = " ".join(name.split())
    if not name or len(name) > MAX_SEASON:
        raise ClubError(N_("a season needs a name of 1 to 80 characters"))
    check_text("season", name)  # the text rules of every name (RuleError on field "season")
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

    def __init__(self, db: Database):
        super().__init__(db)
        self._key: tuple[Any, ...] | None = None
        self._state: ClubState | None = None

    def fingerprint(self) -> tuple[Any, ...]:
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
