"""A player's figures, each declared once: its name, its label (a msgid), its definition
and how it is counted. The player page, its paper card, ``stats`` (text and ``--json``)
and docs/STATS.md's table read them from FIGURES (tests/club/test_figure_list.py checks
the table): a new figure is one entry here and its count.

Pure: a count reads the season's counted games the player sat in (``Seats``: the
``Played`` games in the order they ended, and what several counts read, made once) and
returns a ``Figure`` with its sources.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from scorer.club.figures import FALL_CAUSES, Contract, SeatCounts, Summary
from scorer.club.league import (
    SIZES,
    Figure,
    GameLine,
    HeadToHead,
    Played,
    Player,
    RatingStep,
    Season,
    SizeFigures,
    Source,
    count,
    extreme,
    head_to_head,
    mean,
    nemesis_of,
    player_games,
    ratio,
    rival_of,
    shown_rating,
    streak,
)
from scorer.club.ratings import Rating
from scorer.engine.texts import N_


class Seats:
    """The player's counted games over a season (in the order they ended) and what
    several counts read, each made once per page."""

    def __init__(self, games: Sequence[Played], player: int):
        self.games, self.player = games, player
        self.done = [p for p in games if p.finished]
        # (game id, the player's seat, its counters) of each finished game
        self.finished = [(p.game_id, at, p.summary.seats[at]) for p in self.done
                         for at in (p.players.index(player),)]
        self.won = [p for p, (_g, at, _c) in zip(self.done, self.finished, strict=True)
                    if p.summary.winner == at]

    @cached_property
    def contracts(self) -> list[tuple[Contract, Source]]:
        """Every contract the player declared in a finished game, with its deal."""
        return [(c, (g, c.n)) for g, _at, counts in self.finished for c in counts.contracts]

    def declared(self, which: Callable[[Contract], bool]) -> list[tuple[Contract, Source]]:
        """The declared contracts that ``which`` keeps."""
        return [(c, s) for c, s in self.contracts if which(c)]

    def per_game(self, read: Callable[[Summary], tuple[int, ...]]
                 ) -> list[tuple[float, Source]]:
        """(value, game) of each finished game: the player's place or final total."""
        return [(float(read(p.summary)[at]), (g, None))
                for p, (g, at, _c) in zip(self.done, self.finished, strict=True)]


Count = Callable[[Seats], Figure]


@dataclass(frozen=True)
class Definition:
    """One figure of a player's page."""

    name: str  # its key: the page's anchor, the sources link, the JSON's key
    label: str  # a msgid: the page's, the card's and the command line's word
    section: str  # where the page lists it: "results", "declarer" or "events"
    definition: str  # docs/STATS.md's words
    sources: str  # what its sources are: "games", "deals" or "deal"
    count: Count  # the player's games -> the figure
    listed: bool = False  # among the counts of `stats --json`'s "players"
    whole: bool = True  # a number of games or deals (else a mean or a percentage)


def whole_games(games: Iterable[Played]) -> list[Source]:
    """Each game as a source."""
    return [(p.game_id, None) for p in games]


def declared(which: Callable[[Contract], bool]) -> Count:
    """A count of the player's declared contracts that ``which`` keeps."""
    return lambda seats: count(s for _c, s in seats.declared(which))


def deals(read: Callable[[SeatCounts], Iterable[int]]) -> Count:
    """A count of the deals one of the seat's lists holds (bolts, raspis, ...)."""
    return lambda seats: count((g, n) for g, _at, counts in seats.finished
                               for n in read(counts))


def win_pct(seats: Seats) -> Figure:
    """Wins / finished × 100."""
    return Figure(ratio(len(seats.won), len(seats.done), True),
                  tuple(whole_games(seats.done)))


def made_pct(seats: Seats) -> Figure:
    """Made / taken × 100, its sources the made ones."""
    made = seats.declared(lambda c: c.made)
    return Figure(ratio(len(made), len(seats.contracts), True), tuple(s for _c, s in made))


def falls(seats: Seats) -> Figure:
    """Every fall from the barrel, whatever the cause, in deal order."""
    return count(sorted((g, n) for g, _at, counts in seats.finished
                        for d in counts.falls.values() for n in d))


def barrel_wins(seats: Seats) -> Figure:
    """Finished games won in a deal begun on the barrel."""
    return count((g, counts.barrel_win) for g, _at, counts in seats.finished
                 if counts.barrel_win is not None)


def shortfall(c: Contract) -> float:
    """A failed contract's shortfall (0 for a made one: never asked)."""
    return float(c.shortfall or 0)


FIGURES: tuple[Definition, ...] = (
    Definition("games", N_("games"), "results", "counted games the player sat in, finished "
               "or not (by size)", "games",
               lambda s: count(whole_games(s.games)), listed=True),
    Definition("finished", N_("finished"), "results", "of those, the ones with a winner "
               "(by size)", "games", lambda s: count(whole_games(s.done)), listed=True),
    Definition("wins", N_("wins"), "results", "finished games the player won (by size)",
               "games", lambda s: count(whole_games(s.won)), listed=True),
    Definition("win_pct", N_("win %"), "results", "wins / finished × 100, one decimal "
               "(by size)", "games", win_pct, listed=True, whole=False),
    Definition("avg_place", N_("average place"), "results", "mean of the player's place "
               "(below) over finished games (by size)", "games",
               lambda s: mean(s.per_game(lambda m: m.places)), listed=True, whole=False),
    Definition("avg_total", N_("average final total"), "results", "mean of the player's "
               "final score in finished games", "games",
               lambda s: mean(s.per_game(lambda m: m.score)), whole=False),
    Definition("best_total", N_("best final total"), "results", "the player's highest final "
               "score in a finished game", "games",
               lambda s: extreme(s.per_game(lambda m: m.score))),
    Definition("worst_total", N_("worst final total"), "results", "the player's lowest final "
               "score in a finished game", "games",
               lambda s: extreme(s.per_game(lambda m: m.score), high=False)),
    Definition("longest_streak", N_("longest winning streak"), "results", "most finished "
               "games won in a row, in the order they ended (of two equal runs, the first)",
               "games", lambda s: streak(s.done, s.player)),
    Definition("contracts_taken", N_("contracts taken"), "declarer", "`play` rows the "
               "player declared (golden and dark included)", "deals",
               declared(lambda c: True), listed=True),
    Definition("contracts_made", N_("contracts made"), "declarer", "of those, result `made`",
               "deals", declared(lambda c: c.made), listed=True),
    Definition("made_pct", N_("made %"), "declarer", "made / taken × 100", "deals",
               made_pct, whole=False),
    Definition("avg_contract", N_("average contract"), "declarer", "mean contract of those "
               "rows", "deals", lambda s: mean(
                   [(c.contract, src) for c, src in s.contracts]), whole=False),
    Definition("largest_made", N_("largest contract made"), "declarer", "the highest "
               "contract among the made", "deal", lambda s: extreme(
                   [(c.contract, src) for c, src in s.declared(lambda c: c.made)])),
    Definition("avg_shortfall", N_("average shortfall when failed"), "declarer", "over "
               "failed ones: contract − (card points the declarer took + the declarer's own "
               "marriages), as written in the record, at least 0", "deals",
               lambda s: mean([(shortfall(c), src) for c, src in s.declared(
                   lambda c: not c.made and c.shortfall is not None)]), whole=False),
    Definition("raspis", N_("concessions"), "declarer", "`raspis` rows the player declared",
               "deals", deals(lambda s: s.raspis), listed=True),
    Definition("dark_taken", N_("dark games taken"), "declarer", "declared `play` rows with "
               "`dark`", "deals", declared(lambda c: c.dark)),
    Definition("dark_made", N_("dark games made"), "declarer", "of those, result `made`",
               "deals", declared(lambda c: c.dark and c.made)),
    Definition("golden_taken", N_("golden deals taken"), "declarer", "declared `play` rows "
               "that were golden", "deals", declared(lambda c: c.golden)),
    Definition("golden_made", N_("golden deals made"), "declarer", "of those, result `made`",
               "deals", declared(lambda c: c.golden and c.made)),
    Definition("bolts", N_("bolts"), "events", "the player's `bolt` events (a double bolt is "
               "one event)", "deals", deals(lambda s: s.bolts), listed=True),
    Definition("bolt_penalties", N_("bolt penalties"), "events", "the player's "
               "`bolt_penalty` events", "deals", deals(lambda s: s.bolt_penalties)),
    Definition("barrel_entries", N_("barrel entries"), "events", "`barrel_enter` events",
               "deals", deals(lambda s: s.barrel_entries), listed=True),
    Definition("barrel_falls", N_("barrel falls"), "events", "`barrel_fall` events, also by "
               "cause: out of attempts (`attempts`), pushed off (`push_off`), together "
               "(`simultaneous`)", "deals", falls, listed=True),
    Definition("barrel_wins", N_("wins from the barrel"), "events", "finished games the "
               "player won in a deal begun on the barrel", "deal", barrel_wins),
    Definition("samosvals", N_("samosvals"), "events", "`samosval` events", "deals",
               deals(lambda s: s.samosvals), listed=True),
)
BY_NAME = {d.name: d for d in FIGURES}
SIZE_COLUMNS = ("games", "finished", "wins", "win_pct", "avg_place")  # also by size


def section(name: str) -> tuple[Definition, ...]:
    """The figures one section of the page lists, in order."""
    return tuple(d for d in FIGURES if d.section == name)


@dataclass(frozen=True)
class PlayerFigures:
    """Every figure of one player over one season (docs/STATS.md)."""

    player: Player
    season: Season
    figures: dict[str, Figure]  # by name, in the order of FIGURES
    by_size: tuple[SizeFigures, ...]
    falls_by_cause: dict[str, Figure]
    marriages: dict[str, Figure]
    head_to_head: tuple[HeadToHead, ...]
    rival: HeadToHead | None
    nemesis: HeadToHead | None
    rating: int | None  # None before MIN_GAMES rated games
    rated_games: int
    rating_steps: tuple[RatingStep, ...]
    results: tuple[GameLine, ...]  # finished games, newest first
    unfinished: tuple[GameLine, ...]  # listed apart, counted nowhere

    def __getitem__(self, name: str) -> Figure:
        """One declared figure by its name (KeyError for another)."""
        return self.figures[name]

    def counts(self) -> dict[str, Any]:
        """The figures of ``stats --json`` (docs/STATS.md, «The command line»)."""
        listed = [d for d in FIGURES if d.listed]
        return {"id": self.player.id, "name": self.player.name,
                **{d.name: int(self[d.name].value or 0) for d in listed if d.whole},
                "rating": self.rating, "rated_games": self.rated_games,
                **{d.name: self[d.name].value for d in listed if not d.whole}}


def size_figures(games: Sequence[Played], player: int, size: int) -> SizeFigures:
    """Games, wins, win % and average place at tables of ``size`` players (0: all)."""
    mine = [p for p in games if size in (0, len(p.players))]
    seats = Seats(mine, player)
    return SizeFigures(size, *(BY_NAME[n].count(seats) for n in SIZE_COLUMNS))


def by_cause(seats: Seats) -> dict[str, Figure]:
    """The falls from the barrel by cause (every cause, then any other the log names)."""
    found: dict[str, list[Source]] = {c: [] for c in FALL_CAUSES}
    for game_id, _at, counts in seats.finished:
        for cause, deals_ in counts.falls.items():
            found.setdefault(cause, []).extend((game_id, n) for n in deals_)
    return {cause: count(sources) for cause, sources in found.items()}


def marriages(seats: Seats) -> dict[str, Figure]:
    """The marriages the player announced, by suit."""
    found: dict[str, list[Source]] = {}
    for game_id, _at, counts in seats.finished:
        for suit, deals_ in counts.marriages.items():
            found.setdefault(suit, []).extend((game_id, n) for n in deals_)
    return {suit: count(sources) for suit, sources in found.items()}


def game_line(p: Played, player: int, steps: dict[int, int]) -> GameLine:
    """One of the player's games as its results list shows it."""
    at = p.players.index(player)
    s = p.summary
    return GameLine(p.game_id, p.date, s.players, at, s.places[at] if p.finished else None,
                    s.score[at], p.finished, s.winner == at, s.deals, steps.get(p.game_id))


def player_figures(played: Sequence[Played], player: Player, season: Season,
                   ratings: dict[int, Rating], roster: dict[int, Player]) -> PlayerFigures:
    """Every figure of one player over a season's counted games."""
    games = player_games(played, player.id, season)
    seats = Seats(games, player.id)
    rating = ratings.get(player.id)
    steps = rating.steps if rating else ()
    dates = {p.game_id: p.date for p in games}
    h2h = head_to_head(seats.done, player.id, roster)
    nemesis = nemesis_of(h2h)
    changes = {s.game_id: s.change for s in steps}
    return PlayerFigures(
        player=player, season=season,
        figures={d.name: d.count(seats) for d in FIGURES},
        by_size=tuple(size_figures(games, player.id, n) for n in SIZES),
        falls_by_cause=by_cause(seats), marriages=marriages(seats),
        head_to_head=h2h, rival=rival_of(h2h, nemesis), nemesis=nemesis,
        rating=shown_rating(rating), rated_games=rating.games if rating else 0,
        rating_steps=tuple(RatingStep(s.game_id, dates.get(s.game_id, ""), s.before, s.after,
                                      s.change, s.games) for s in steps),
        results=tuple(game_line(p, player.id, changes) for p in reversed(seats.done)),
        unfinished=tuple(game_line(p, player.id, changes)
                         for p in reversed(games) if not p.finished),
    )
