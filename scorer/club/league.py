"""The club's figures aggregated from per-game summaries: player pages, season tables,
the records board and head-to-head (docs/STATS.md defines every figure).

Pure: it reads ``Played`` games (a summary with its seats' player ids) and returns frozen
dataclasses. Every figure carries its sources: (game id, deal number or None).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorer.club.figures import Summary
from scorer.club.ratings import MIN_GAMES, RatedGame, Rating, rate
from scorer.engine.texts import N_
from scorer.store import PlaySpan

# Where a figure comes from: a game id and a deal number (None: the whole game).
Source = tuple[int, int | None]
# League points per place, by number of players (docs/STATS.md, «League points»).
DEFAULT_POINTS: dict[int, tuple[float, ...]] = {2: (2, 0), 3: (3, 1, 0), 4: (3, 2, 1, 0)}
SIZES = (2, 3, 4)


@dataclass(frozen=True)
class Figure:
    """One number and the games or deals it is made of."""

    value: float | None
    sources: tuple[Source, ...] = ()

    @property
    def games(self) -> tuple[int, ...]:
        """The distinct game ids of the sources, in order."""
        return tuple(dict.fromkeys(g for g, _ in self.sources))


@dataclass(frozen=True)
class Player:
    """A player of the club's roster."""

    id: int
    name: str
    games: int = 0  # counted games sat in (finished or not)
    last_played: str | None = None  # the date of the latest counted game
    merged_into: int | None = None  # the player it was merged into (its page: that one's)


@dataclass(frozen=True)
class Played:
    """A counted game as the figures see it: its summary and each seat's player id."""

    game_id: int
    date: str  # YYYY-MM-DD: the log's date, else the day it was created
    ended: str  # when its last deal was recorded (ISO time): the order games ended in
    summary: Summary
    players: tuple[int, ...]

    @property
    def finished(self) -> bool:
        """Whether the game has a winner."""
        return self.summary.finished

    def seat_of(self, player: int) -> int | None:
        """The seat the player sat at, or None."""
        return self.players.index(player) if player in self.players else None

    @property
    def minutes(self) -> int | None:
        """How long it was played: from its start to its last deal (None when unknown)."""
        started = self.summary.started
        return PlaySpan(started, self.ended).minutes if started and self.ended else None


@dataclass(frozen=True)
class Season:
    """A named date range (inclusive) with its league points per number of players;
    id None is «all time», every game (its name a msgid, to be translated when shown)."""

    id: int | None
    name: str
    start: str | None = None
    end: str | None = None
    points: dict[int, tuple[float, ...]] = field(default_factory=lambda: dict(DEFAULT_POINTS))

    def holds(self, date: str) -> bool:
        """Whether a game of this date belongs to the season."""
        return (self.start is None or date >= self.start) and (self.end is None
                                                               or date <= self.end)


ALL_TIME = Season(None, N_("all time"))  # a msgid: shown translated


@dataclass(frozen=True)
class SizeFigures:
    """Games, wins, win % and average place at tables of one size (0: every size)."""

    players: int
    games: Figure
    finished: Figure
    wins: Figure
    win_pct: Figure
    avg_place: Figure


@dataclass(frozen=True)
class HeadToHead:
    """One opponent over the finished games both sat in: who finished above whom."""

    opponent: Player
    shared: Figure
    above: Figure  # the player finished above the opponent
    below: Figure  # the opponent finished above the player
    level: Figure  # a shared place


@dataclass(frozen=True)
class RatingStep:
    """How one rated game moved a player's shown rating."""

    game_id: int
    date: str
    before: int
    after: int
    change: int
    games: int  # rated games after this one


@dataclass(frozen=True)
class GameLine:
    """One of a player's games: its result for that player."""

    game_id: int
    date: str
    players: tuple[str, ...]
    seat: int
    place: int | None  # None while unfinished
    total: int
    finished: bool
    won: bool
    deals: int
    rating_change: int | None


# The season table's columns after the place and the player: (name, msgid). The table
# page, ``stats``, the CSV's header and docs/STATS.md («Table row») read them here.
COLUMNS: tuple[tuple[str, str], ...] = (
    ("games", N_("games")), ("wins", N_("wins")), ("points", N_("points")),
    ("avg_place", N_("average place")))


@dataclass(frozen=True)
class SeasonRow:
    """One player's line of a season table."""

    player: Player
    games: Figure  # finished games in the season
    wins: Figure
    points: Figure
    avg_place: Figure
    rating: int | None
    rated_games: int


@dataclass(frozen=True)
class SeasonTable:
    """A season's league table, sorted by points, and its unfinished games apart."""

    season: Season
    rows: tuple[SeasonRow, ...]
    unfinished: tuple[int, ...]
    games: tuple[int, ...]  # the finished games it counts


@dataclass(frozen=True)
class ClubRecord:
    """One line of the records board: the value, who holds it, where."""

    value: int
    player: Player | None  # None: a record of the game (the longest game)
    game_id: int
    deal: int | None


# The records board's lines: (name, msgid). The table page, its paper, ``stats`` (text
# and ``--json``) and docs/STATS.md («Records board») read them here.
RECORDS: tuple[tuple[str, str], ...] = (
    ("highest_total", N_("highest final total")),
    ("largest_contract", N_("largest contract made")),
    ("most_bolts", N_("most bolts in a game")),
    ("most_falls", N_("most barrel falls in a game")),
    ("longest_game", N_("longest game (deals)")),
    ("longest_time", N_("longest game (time)")))


@dataclass(frozen=True)
class RecordsBoard:
    """The club's records over a season (None where no finished game has one)."""

    highest_total: ClubRecord | None
    largest_contract: ClubRecord | None
    most_bolts: ClubRecord | None
    most_falls: ClubRecord | None
    longest_game: ClubRecord | None
    longest_time: ClubRecord | None = None  # in minutes, from the stored times
    lengths: tuple[GameLength, ...] = ()  # the average length per size of table


@dataclass(frozen=True)
class GameLength:
    """The average length of play at tables of one size, over its timed finished games."""

    players: int
    games: Figure  # the finished games whose length is known
    minutes: int


def ratio(part: int, whole: int, percent: bool = False) -> float | None:
    """part / whole (×100 for a percentage), rounded to 0.1; None when whole is 0."""
    if not whole:
        return None
    return round(part * (100 if percent else 1) / whole, 1 if percent else 2)


def count(sources: Iterable[Source]) -> Figure:
    """A figure counting its sources."""
    found = tuple(sources)
    return Figure(len(found), found)


def mean(values: Sequence[tuple[float, Source]]) -> Figure:
    """The mean of (value, source) pairs, rounded to 0.01; None when there are none."""
    if not values:
        return Figure(None)
    return Figure(round(sum(v for v, _ in values) / len(values), 2), tuple(s for _, s in values))


def extreme(values: Sequence[tuple[float, Source]], high: bool = True) -> Figure:
    """The largest (or smallest) value and the first source holding it."""
    if not values:
        return Figure(None)
    best = max(values, key=lambda v: v[0]) if high else min(values, key=lambda v: v[0])
    return Figure(best[0], (best[1],))


def ordered(played: Iterable[Played]) -> list[Played]:
    """Games in the order they ended: by date, then by the last deal's time, then id."""
    return sorted(played, key=lambda p: (p.date, p.ended, p.game_id))


def rated_games(played: Iterable[Played]) -> list[RatedGame]:
    """The finished games as the ratings take them, in the order they ended."""
    return [RatedGame(p.game_id, tuple(zip(p.players, p.summary.places, strict=True)))
            for p in ordered(played) if p.finished]


def season_ratings(played: Sequence[Played], season: Season) -> dict[int, Rating]:
    """The ratings over the season's finished games only (all of them for «всё время»)."""
    return rate(rated_games(p for p in played if season.holds(p.date)))


def shown_rating(rating: Rating | None) -> int | None:
    """The number shown for a rating: None before MIN_GAMES rated games."""
    return rating.value if rating is not None and rating.games >= MIN_GAMES else None


def league_points(places: Sequence[int], table: dict[int, tuple[float, ...]]) -> list[float]:
    """Each seat's league points: the points of its place; seats sharing a place share
    the points of the places they take up (their mean)."""
    size = len(places)
    scale = list(table.get(size, DEFAULT_POINTS.get(size, ()))) + [0.0] * size
    out = []
    for place in places:
        shared = sum(1 for other in places if other == place)
        out.append(round(sum(scale[place - 1:place - 1 + shared]) / shared, 2))
    return out


def player_games(played: Sequence[Played], player: int, season: Season) -> list[Played]:
    """The season's counted games the player sat in, in the order they ended."""
    return ordered(p for p in played if player in p.players and season.holds(p.date))


def streak(done: Sequence[Played], player: int) -> Figure:
    """The longest run of wins in a row over the finished games in the order they ended."""
    best: list[Source] = []
    run: list[Source] = []
    for p in done:
        if p.summary.winner == p.seat_of(player):
            run = [*run, (p.game_id, None)]
            best = run if len(run) > len(best) else best
        else:
            run = []
    return Figure(len(best), tuple(best))


def head_to_head(done: Sequence[Played], player: int, roster: dict[int, Player]
                 ) -> tuple[HeadToHead, ...]:
    """Every opponent of a shared finished game: who finished above whom, most games first."""
    tally: dict[int, dict[str, list[Source]]] = {}
    for p in done:
        places = p.summary.places
        mine = places[p.players.index(player)]
        for seat, other in enumerate(p.players):
            if other == player:
                continue
            row = tally.setdefault(other, {"shared": [], "above": [], "below": [], "level": []})
            side = "above" if mine < places[seat] else "below" if mine > places[seat] else "level"
            row["shared"].append((p.game_id, None))
            row[side].append((p.game_id, None))
    out = [HeadToHead(roster.get(o, Player(o, "?")), count(t["shared"]), count(t["above"]),
                      count(t["below"]), count(t["level"])) for o, t in tally.items()]
    return tuple(sorted(out, key=lambda h: (-int(h.shared.value or 0), h.opponent.name)))


RIVAL_GAMES = 3  # shared finished games an opponent needs to be a rival or a nemesis


def nemesis_of(h2h: Sequence[HeadToHead]) -> HeadToHead | None:
    """The opponent who finished above the player in the largest share (over half) of at
    least RIVAL_GAMES shared games; ties: more shared games, then the name."""
    found = [h for h in h2h if (h.shared.value or 0) >= RIVAL_GAMES
             and 2 * (h.below.value or 0) > (h.shared.value or 0)]
    return min(found, key=lambda h: (-(h.below.value or 0) / (h.shared.value or 1),
                                     -(h.shared.value or 0), h.opponent.name), default=None)


def rival_of(h2h: Sequence[HeadToHead], nemesis: HeadToHead | None) -> HeadToHead | None:
    """The opponent (not the nemesis) of at least RIVAL_GAMES shared games with the
    closest balance of above and below; ties: more shared games, then the name."""
    found = [h for h in h2h if (h.shared.value or 0) >= RIVAL_GAMES and h is not nemesis]
    return min(found, key=lambda h: (abs((h.above.value or 0) - (h.below.value or 0))
                                     / (h.shared.value or 1), -(h.shared.value or 0),
                                     h.opponent.name), default=None)


def season_table(played: Sequence[Played], season: Season, ratings: dict[int, Rating],
                 roster: dict[int, Player]) -> SeasonTable:
    """The season's league table: every player of a finished game, by points."""
    inside = ordered(p for p in played if season.holds(p.date))
    done = [p for p in inside if p.finished]
    lines: dict[int, dict[str, list[Any]]] = {}
    for p in done:
        points = league_points(p.summary.places, season.points)
        for seat, player in enumerate(p.players):
            line = lines.setdefault(player, {"games": [], "wins": [], "points": [],
                                             "places": []})
            line["games"].append((p.game_id, None))
            if p.summary.winner == seat:
                line["wins"].append((p.game_id, None))
            line["points"].append(points[seat])
            line["places"].append((float(p.summary.places[seat]), (p.game_id, None)))
    rows = [SeasonRow(roster.get(pid, Player(pid, "?")), count(line["games"]),
                      count(line["wins"]),
                      Figure(round(sum(line["points"]), 2), tuple(line["games"])),
                      mean(line["places"]), shown_rating(ratings.get(pid)),
                      ratings[pid].games if pid in ratings else 0)
            for pid, line in lines.items()]
    rows.sort(key=lambda r: (-(r.points.value or 0), -(r.wins.value or 0),
                             r.avg_place.value or 0, r.player.name))
    return SeasonTable(season, tuple(rows),
                       tuple(p.game_id for p in inside if not p.finished),
                       tuple(p.game_id for p in done))


def records_board(played: Sequence[Played], season: Season, roster: dict[int, Player]
                  ) -> RecordsBoard:
    """The season's records over its finished games (the earliest holder on a tie)."""
    done = [p for p in ordered(played) if p.finished and season.holds(p.date)]
    totals: list[ClubRecord] = []
    contracts: list[ClubRecord] = []
    bolts: list[ClubRecord] = []
    falls: list[ClubRecord] = []
    lengths: list[ClubRecord] = []
    times: list[ClubRecord] = []
    for p in done:
        lengths.append(ClubRecord(p.summary.deals, None, p.game_id, None))
        if p.minutes is not None:
            times.append(ClubRecord(p.minutes, None, p.game_id, None))
        for seat, player in enumerate(p.players):
            who = roster.get(player, Player(player, "?"))
            s = p.summary.seats[seat]
            totals.append(ClubRecord(p.summary.score[seat], who, p.game_id, None))
            contracts.extend(ClubRecord(c.contract, who, p.game_id, c.n)
                             for c in s.contracts if c.made)
            bolts.append(ClubRecord(len(s.bolts), who, p.game_id, None))
            falls.append(ClubRecord(sum(len(v) for v in s.falls.values()), who,
                                    p.game_id, None))

    def top(items: list[ClubRecord]) -> ClubRecord | None:
        best = max(items, key=lambda r: r.value, default=None)
        return best if best is not None and best.value > 0 else None

    return RecordsBoard(top(totals), top(contracts), top(bolts), top(falls), top(lengths),
                        top(times), game_lengths(done))


def game_lengths(done: Sequence[Played]) -> tuple[GameLength, ...]:
    """The average length of play per size of table (sizes with no timed game left out)."""
    out = []
    for size in SIZES:
        timed = [p for p in done if len(p.players) == size and p.minutes is not None]
        if timed:
            average = round(sum(p.minutes or 0 for p in timed) / len(timed))
            out.append(GameLength(size, count((p.game_id, None) for p in timed), average))
    return tuple(out)
