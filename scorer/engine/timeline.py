"""A game kept with its engine states, so a change scores only what it touches.

A new record is scored from the kept end state; an edit, delete or restore at record k
resumes from the snapshot at or before k (one every SNAPSHOT records), so it replays
at most SNAPSHOT records more than the change itself. Every result equals a full
``replay(parse_game(...))`` of the resulting records (tests/engine/test_timeline.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scorer.engine.catalog import Agreements
from scorer.engine.protocol import Protocol
from scorer.engine.records import Game, Record, check_deal_count, parse_record
from scorer.engine.scoring import ReplayState, Seating, advance, replay_state, seatings, start

SNAPSHOT = 64  # records between kept states: an edit replays at most this many more


@dataclass(frozen=True, slots=True)
class Timeline:
    """A game, its protocol, and the engine states that let it change cheaply.

    Immutable: every change returns a new Timeline and leaves this one as it was, so a
    caller may keep one per version of a game.
    """

    game: Game
    protocol: Protocol
    # _snapshots[i] has scored i * SNAPSHOT records; _end has scored them all.
    _snapshots: tuple[ReplayState, ...] = field(repr=False, compare=False)
    _end: ReplayState = field(repr=False, compare=False)

    @classmethod
    def of(cls, game: Game) -> Timeline:
        """Replay ``game`` in full, keeping the snapshots; raises RuleError."""
        return _resumed(game, (start(game),), 0)

    def append(self, record: Mapping[str, Any]) -> Timeline:
        """The game with a GAME-FORMAT record added after the last; scores only that one."""
        number = len(self.game.deals) + 1
        check_deal_count(number)
        parsed = parse_record(record, number, len(self.game.players))
        end = advance(self._end, parsed)
        snapshots = self._snapshots
        if end.deals % SNAPSHOT == 0:
            snapshots = (*snapshots, end)
        return Timeline(self.game.with_deals((*self.game.deals, parsed)), end.protocol(),
                        snapshots, end)

    def replace(self, index: int, record: Mapping[str, Any] | None) -> Timeline:
        """The game with the record at ``index`` (0-based) replaced, or removed with None.

        Raises IndexError for an index that holds no record, RuleError for a refusal.
        """
        _check_index(index, len(self.game.deals) - 1)
        deals = list(self.game.deals)
        if record is None:
            del deals[index]
        else:
            deals[index] = self._parsed(record, index)
        return _resumed(self.game.with_deals(deals), self._snapshots, index)

    def insert(self, index: int, record: Mapping[str, Any]) -> Timeline:
        """The game with a record put in before ``index`` (a deleted deal restored)."""
        _check_index(index, len(self.game.deals))
        check_deal_count(len(self.game.deals) + 1)
        deals = list(self.game.deals)
        deals.insert(index, self._parsed(record, index))
        return _resumed(self.game.with_deals(deals), self._snapshots, index)

    @property
    def agreements(self) -> Agreements:
        """The set in force after the last record (scoring.current_agreements of the game,
        kept by the end state instead of walked over every record)."""
        return self._end.agreements

    def seatings(self) -> tuple[Seating, ...]:
        """The seatings the next deals can have (scoring.seatings), this one's first."""
        return seatings(self._end)

    def before(self, index: int) -> Protocol:
        """The protocol of the first ``index`` records (where an edit of ``index`` starts)."""
        _check_index(index, len(self.game.deals))
        if index == len(self.game.deals):
            return self.protocol
        state = self._snapshots[index // SNAPSHOT]
        if state.deals < index:
            state = replay_state(self.game.with_deals(self.game.deals[:index]), resume=state)
        return state.protocol()

    def _parsed(self, record: Mapping[str, Any], index: int) -> Record:
        """``record`` parsed as the record at ``index``; raises RuleError."""
        return parse_record(record, index + 1, len(self.game.players))


def _resumed(game: Game, snapshots: tuple[ReplayState, ...], first: int) -> Timeline:
    """Score ``game`` from the snapshot at or before record ``first``.

    The records before ``first`` must be those the snapshots scored.
    """
    kept = list(snapshots[:first // SNAPSHOT + 1])
    state = kept[-1]
    total = len(game.deals)
    while state.deals < total:
        stop = min(total, state.deals - state.deals % SNAPSHOT + SNAPSHOT)
        state = replay_state(game.with_deals(game.deals[:stop]), resume=state)
        if state.deals % SNAPSHOT == 0:
            kept.append(state)
    return Timeline(game, state.protocol(), tuple(kept), state)


def _check_index(index: int, last: int) -> None:
    """Refuse an index outside 0..last (no negative positions: they would hide bugs)."""
    if not 0 <= index <= last:
        raise IndexError(f"record index {index} outside 0..{last}")
