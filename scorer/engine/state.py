"""The running state of a game between records, as scoring and the barrel change it.

A module of its own so that the scoring steps (scoring.py) and the barrel's steps
(barrel.py) both read it without importing each other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

# The kinds of amount the barrel freeze tells apart (step 8).
CreditKind = Literal["own_made", "own_failed", "defender", "talon", "payout", "penalty",
                     "bonus"]


@dataclass
class State:
    """The running state of a game between records."""

    players: int
    dealer: int
    golden_left: int
    score: list[int] = field(default_factory=list)
    bolts: list[int] = field(default_factory=list)
    falls: list[int] = field(default_factory=list)
    raspis: list[int] = field(default_factory=list)
    barrel: dict[int, int] = field(default_factory=dict)  # seat -> attempts used
    golden_made: bool = False
    winner: int | None = None

    def __post_init__(self) -> None:
        for name in ("score", "bolts", "falls", "raspis"):
            setattr(self, name, [0] * self.players)

    def active(self) -> tuple[int, ...]:
        """Seats that play the next deal: with four, the dealer sits on the talon."""
        return ACTIVE[self.players][self.dealer]

    def first_hand(self) -> int:
        """The active seat left of the dealer."""
        return (self.dealer + 1) % self.players

    def forced(self, ag: Mapping[str, Any]) -> int:
        """The seat that must take 100 (and declares a golden deal)."""
        if ag["forced_bid_seat"] == "dealer" and self.players < 4:
            return self.dealer
        return self.first_hand()


# Active seats by number of players and dealer: asked for many times per deal.
ACTIVE = {n: tuple(tuple(s for s in range(n) if n < 4 or s != d) for d in range(n))
           for n in (2, 3, 4)}
