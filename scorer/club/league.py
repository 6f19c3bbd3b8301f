"""The club's figures aggregated from per-game summaries: player pages, season tables,
the records board and head-to-head (docs/STATS.md defines every figure).

Pure: it reads ``Played`` games (a summary with its seats' player ids) and returns frozen
dataclasses. Every figure carries its sources: (game id, deal number or None).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorer.club.figures import FALL_CAUSES, Summary
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
        return bool(self.summary["finished"])

    def seat_of(self, player: int) -> int | None:
        """The seat the player sat at, or None."""
        return self.players.index(player) if player in self.players else None

    @property
    def minutes(self) -> int | None:
        """How long it was played: from its start to its last deal (None when unknown)."""
        started = self.summary.get("started")
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


@dataclass(frozen=True)
class PlayerFigures:
    """Every figure of one player over one season (docs/STATS.md)."""

    player: Player
    season: Season
    games: Figure
    finished: Figure
    wins: Figure
    win_pct: Figure
    avg_place: Figure
    by_size: tuple[SizeFigures, ...]
    avg_total: Figure
    best_total: Figure
    worst_total: Figure
    longest_streak: Figure
    contracts_taken: Figure
    contracts_made: Figure
    made_pct: Figure
    avg_contract: Figure
    largest_made: Figure
    avg_shortfall: Figure
    raspis: Figure
    dark_taken: Figure
    dark_made: Figure
    golden_taken: Figure
    golden_made: Figure
    bolts: Figure
    bolt_penalties: Figure
    barrel_entries: Figure
    barrel_falls: Figure
    falls_by_cause: dict[str, Figure]
    barrel_wins: Figure
    samosvals: Figure
    marriages: dict[str, Figure]
    head_to_head: tuple[HeadToHead, ...]
    rival: HeadToHead | None
    nemesis: HeadToHead | None
    rating: int | None  # None before MIN_GAMES rated games
    rated_games: int
    rating_steps: tuple[RatingStep, ...]
    results: tuple[GameLine, ...]  # finished games, newest first
    unfinished: tuple[GameLine, ...]  # listed apart, counted nowhere

    def counts(self) -> dict[str, Any]:
        """The figures of ``stats --json`` (docs/STATS.md, «The command line»)."""
        return {
            "id": self.player.id, "name": self.player.name,
            "games": int(self.games.value or 0), "finished": int(self.finished.value or 0),
            "wins": int(self.wins.value or 0),
            "contracts_taken": int(self.contracts_taken.value or 0),
            "contracts_made": int(self.contracts_made.value or 0),
            "raspis": int(self.raspis.value or 0), "bolts": int(self.bolts.value or 0),
            "barrel_entries": int(self.barrel_entries.value or 0),
            "barrel_falls": int(self.barrel_falls.value or 0),
            "samosvals": int(self.samosvals.value or 0),
            "rating": self.rating, "rated_games": self.rated_games,
            "win_pct": self.win_pct.value, "avg_place": self.avg_place.value,
        }


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
    return [RatedGame(p.game_id, tuple(zip(p.players, p.summary["places"], strict=True)))
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


def size_figures(games: Sequence[Played], player: int, size: int) -> SizeFigures:
    """Games, wins, win % and average place at tables of ``size`` players (0: all)."""
    mine = [p for p in games if size in (0, len(p.players))]
    done = [p for p in mine if p.finished]
    wins = [p for p in done if p.summary["winner"] == p.seat_of(player)]
    placed = [(float(p.summary["places"][p.seat_of(player)]), (p.game_id, None)) for p in done]
    return SizeFigures(size, count((p.game_id, None) for p in mine),
                       count((p.game_id, None) for p in done),
                       count((p.game_id, None) for p in wins),
                       Figure(ratio(len(wins), len(done), True),
                              tuple((p.game_id, None) for p in done)),
                       mean(placed))


def seat_sources(done: Sequence[Played], player: int, key: str) -> list[Source]:
    """(game, deal) of every entry of one seat list (bolts, raspis, ...) over the games."""
    out: list[Source] = []
    for p in done:
        seat = p.summary["seats"][p.seat_of(player)]
        out.extend((p.game_id, n) for n in seat[key])
    return out


def streak(done: Sequence[Played], player: int) -> Figure:
    """The longest run of wins in a row over the finished games in the order they ended."""
    best: list[Source] = []
    run: list[Source] = []
    for p in done:
        if p.summary["winner"] == p.seat_of(player):
            run = [*run, (p.game_id, None)]
            best = run if len(run) > len(best) else best
        else:
            run = []
    return Figure(len(best), tuple(best))


def contract_figures(done: Sequence[Played], player: int) -> dict[str, Figure]:
    """Everything about the player's own declared contracts."""
    entries = [(p.game_id, e) for p in done
               for e in p.summary["seats"][p.seat_of(player)]["contracts"]]
    made = [(g, e) for g, e in entries if e[2]]
    failed = [(g, e) for g, e in entries if not e[2]]

    def src(items: Iterable[tuple[int, list[Any]]]) -> tuple[Source, ...]:
        return tuple((g, e[0]) for g, e in items)

    return {
        "contracts_taken": count(src(entries)),
        "contracts_made": count(src(made)),
        "made_pct": Figure(ratio(len(made), len(entries), True), src(made)),
        "avg_contract": mean([(e[1], (g, e[0])) for g, e in entries]),
        "largest_made": extreme([(e[1], (g, e[0])) for g, e in made]),
        "avg_shortfall": mean([(e[5], (g, e[0])) for g, e in failed if e[5] is not None]),
        "dark_taken": count(src((g, e) for g, e in entries if e[4])),
        "dark_made": count(src((g, e) for g, e in made if e[4])),
        "golden_taken": count(src((g, e) for g, e in entries if e[3])),
        "golden_made": count(src((g, e) for g, e in made if e[3])),
    }


def barrel_figures(done: Sequence[Played], player: int) -> dict[str, Any]:
    """Bolts, the barrel and samosvals."""
    causes: dict[str, list[Source]] = {c: [] for c in FALL_CAUSES}
    wins: list[Source] = []
    for p in done:
        seat = p.summary["seats"][p.seat_of(player)]
        for cause, deals in seat["falls"].items():
            causes.setdefault(cause, []).extend((p.game_id, n) for n in deals)
        if seat["barrel_win"] is not None:
            wins.append((p.game_id, seat["barrel_win"]))
    return {
        "bolts": count(seat_sources(done, player, "bolts")),
        "bolt_penalties": count(seat_sources(done, player, "bolt_penalties")),
        "barrel_entries": count(seat_sources(done, player, "barrel_entries")),
        "barrel_falls": count(sorted(s for c in causes.values() for s in c)),
        "falls_by_cause": {c: count(s) for c, s in causes.items()},
        "barrel_wins": count(wins),
        "samosvals": count(seat_sources(done, player, "samosvals")),
    }


def marriage_figures(done: Sequence[Played], player: int) -> dict[str, Figure]:
    """The marriages the player announced, by suit."""
    found: dict[str, list[Source]] = {}
    for p in done:
        for suit, deals in p.summary["seats"][p.seat_of(player)]["marriages"].items():
            found.setdefault(suit, []).extend((p.game_id, n) for n in deals)
    return {suit: count(sources) for suit, sources in found.items()}


def head_to_head(done: Sequence[Played], player: int, roster: dict[int, Player]
                 ) -> tuple[HeadToHead, ...]:
    """Every opponent of a shared finished game: who finished above whom, most games first."""
    tally: dict[int, dict[str, list[Source]]] = {}
    for p in done:
        places = p.summary["places"]
        mine = places[p.seat_of(player)]
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


def game_line(p: Played, player: int, steps: dict[int, int]) -> GameLine:
    """One of the player's games as its results list shows it."""
    seat = p.players.index(player)
    s = p.summary
    return GameLine(p.game_id, p.date, tuple(s["players"]), seat,
                    s["places"][seat] if p.finished else None, s["score"][seat], p.finished,
                    s["winner"] == seat, s["deals"], steps.get(p.game_id))


def player_figures(played: Sequence[Played], player: Player, season: Season,
                   ratings: dict[int, Rating], roster: dict[int, Player]) -> PlayerFigures:
    """Every figure of one player over a season's counted games."""
    games = player_games(played, player.id, season)
    done = [p for p in games if p.finished]
    totals = [(float(p.summary["score"][p.seat_of(player.id)]), (p.game_id, None))
              for p in done]
    rating = ratings.get(player.id)
    steps = rating.steps if rating else ()
    dates = {p.game_id: p.date for p in games}
    h2h = head_to_head(done, player.id, roster)
    nemesis = nemesis_of(h2h)
    changes = {s.game_id: s.change for s in steps}
    whole = size_figures(games, player.id, 0)
    return PlayerFigures(
        player=player, season=season, games=whole.games, finished=whole.finished,
        wins=whole.wins, win_pct=whole.win_pct, avg_place=whole.avg_place,
        by_size=tuple(size_figures(games, player.id, n) for n in SIZES),
        avg_total=mean(totals), best_total=extreme(totals), worst_total=extreme(totals, False),
        longest_streak=streak(done, player.id),
        **contract_figures(done, player.id),  # type: ignore[arg-type]
        raspis=count(seat_sources(done, player.id, "raspis")),
        **barrel_figures(done, player.id),
        marriages=marriage_figures(done, player.id),
        head_to_head=h2h, rival=rival_of(h2h, nemesis), nemesis=nemesis,
        rating=shown_rating(rating), rated_games=rating.games if rating else 0,
        rating_steps=tuple(RatingStep(s.game_id, dates.get(s.game_id, ""), s.before, s.after,
                                      s.change, s.games) for s in steps),
        results=tuple(game_line(p, player.id, changes) for p in reversed(done)),
        unfinished=tuple(game_line(p, player.id, changes)
                         for p in reversed(games) if not p.finished),
    )


def season_table(played: Sequence[Played], season: Season, ratings: dict[int, Rating],
                 roster: dict[int, Player]) -> SeasonTable:
    """The season's league table: every player of a finished game, by points."""
    inside = ordered(p for p in played if season.holds(p.date))
    done = [p for p in inside if p.finished]
    lines: dict[int, dict[str, list[Any]]] = {}
    for p in done:
        points = league_points(p.summary["places"], season.points)
        for seat, player in enumerate(p.players):
            line = lines.setdefault(player, {"games": [], "wins": [], "points": [],
                                             "places": []})
            line["games"].append((p.game_id, None))
            if p.summary["winner"] == seat:
                line["wins"].append((p.game_id, None))
            line["points"].append(points[seat])
            line["places"].append((float(p.summary["places"][seat]), (p.game_id, None)))
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
        lengths.append(ClubRecord(p.summary["deals"], None, p.game_id, None))
        if p.minutes is not None:
            times.append(ClubRecord(p.minutes, None, p.game_id, None))
        for seat, player in enumerate(p.players):
            who = roster.get(player, Player(player, "?"))
            s = p.summary["seats"][seat]
            totals.append(ClubRecord(p.summary["score"][seat], who, p.game_id, None))
            contracts.extend(ClubRecord(e[1], who, p.game_id, e[0])
                             for e in s["contracts"] if e[2])
            bolts.append(ClubRecord(len(s["bolts"]), who, p.game_id, None))
            falls.append(ClubRecord(sum(len(v) for v in s["falls"].values()), who,
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
