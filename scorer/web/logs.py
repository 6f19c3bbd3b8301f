"""Game logs: turn stored rows into engine Games and replay them.

The web layer never computes a score: it hands the records to the engine's
``replay`` and shows what comes back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorer.engine import Game, Protocol, RuleError, parse_game, replay
from scorer.store import DealSlot, GameRow
from scorer.web.db import get_store


@dataclass
class Loaded:
    """A stored game with its live records, the engine Game and its Protocol."""

    row: GameRow
    slots: list[DealSlot]
    game: Game | None
    protocol: Protocol | None
    error: RuleError | None

    @property
    def live(self) -> list[DealSlot]:
        """Slots that are not deleted, in protocol order."""
        return [s for s in self.slots if s.record is not None]

    @property
    def deleted(self) -> list[DealSlot]:
        """Deleted slots, restorable."""
        return [s for s in self.slots if s.record is None]

    @property
    def records(self) -> list[dict]:
        """The live records."""
        return [s.record for s in self.live]


def log_of(row: GameRow, records: list[dict]) -> dict[str, Any]:
    """The GAME-FORMAT document for a stored game and a list of records."""
    return {**row.head, "deals": records}


def run(row: GameRow, records: list[dict]) -> tuple[Game, Protocol]:
    """Parse and replay; raises RuleError for the first bad thing."""
    game = parse_game(log_of(row, records))
    return game, replay(game)


def load(row: GameRow, *, replayed: bool = True) -> Loaded:
    """Load a game's slots and replay them (an error is kept, not raised)."""
    slots = get_store().slots(row.id)
    if not replayed:
        return Loaded(row, slots, None, None, None)
    records = [s.record for s in slots if s.record is not None]
    try:
        game, protocol = run(row, records)
    except RuleError as err:
        return Loaded(row, slots, None, None, err)
    return Loaded(row, slots, game, protocol, None)


def winner_of(row: GameRow) -> int | None:
    """The winning seat of a stored game, or None (also for an unreadable log)."""
    loaded = load(row)
    return loaded.protocol.winner if loaded.protocol else None
