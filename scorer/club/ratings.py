"""Ratings: openskill's Plackett–Luce model over the finished games, in the order they ended.

Pure: it takes each rated game's players and places (already ordered) and returns every
player's rating and how each game moved it. One number is shown: the ordinal μ − 3σ,
rescaled (docs/STATS.md, «Rating»), and only after MIN_GAMES rated games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce, PlackettLuceRating

MIN_GAMES = 5  # a rating is shown only after this many rated games
SCALE = 40  # the shown number is SCALE × (μ − 3σ), rounded; a new player shows 0


@dataclass(frozen=True)
class RatedGame:
    """One finished game as the ratings see it: its id and each seat's (player, place)."""

    game_id: int
    seats: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Step:
    """How one game moved one player's rating (shown numbers, before and after)."""

    game_id: int
    before: int
    after: int
    games: int  # rated games after this one

    @property
    def change(self) -> int:
        """The shown rating's change in this game."""
        return self.after - self.before


@dataclass(frozen=True)
class Rating:
    """A player's rating after every rated game: μ, σ, the shown number and its steps."""

    mu: float
    sigma: float
    games: int
    steps: tuple[Step, ...] = field(default=())

    @property
    def value(self) -> int:
        """The rescaled ordinal (shown from MIN_GAMES rated games: league.shown_rating)."""
        return shown(self.mu, self.sigma)


def shown(mu: float, sigma: float) -> int:
    """The shown number of a (μ, σ): SCALE × (μ − 3σ), rounded."""
    return round(SCALE * (mu - 3 * sigma))


def model() -> PlackettLuce:
    """The model with openskill's defaults (μ 25, σ 25/3, β 25/6, τ 25/300)."""
    return PlackettLuce()


def rate(games: Sequence[RatedGame]) -> dict[int, Rating]:
    """Every player's rating after these games, rated one by one in the order given.

    Each game is one call of the model's ``rate`` with every seat a team of one and the
    places as ``ranks`` (equal places tie)."""
    plm = model()
    current: dict[int, PlackettLuceRating] = {}
    steps: dict[int, list[Step]] = {}
    for game in games:
        teams = [[current.get(p) or plm.rating()] for p, _ in game.seats]
        result = plm.rate(teams, ranks=[float(place) for _, place in game.seats])
        for (player, _), old, new in zip(game.seats, teams, result, strict=True):
            current[player] = new[0]
            done = len(steps.setdefault(player, [])) + 1
            steps[player].append(Step(game.game_id, shown(old[0].mu, old[0].sigma),
                                      shown(new[0].mu, new[0].sigma), done))
    return {p: Rating(r.mu, r.sigma, len(steps[p]), tuple(steps[p]))
            for p, r in current.items()}
