"""Game logs: turn stored rows into engine Games and replay them.

The web layer never computes a score: it hands the records to the engine's
``replay`` and shows what comes back.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from flask import current_app

from scorer.engine import Game, Protocol, RuleError, parse_game, replay
from scorer.store import DealSlot, GameRow
from scorer.web.db import get_store


@dataclass
class Loaded:
    """A stored game with its live records, the engine Game and its Protocol."""

    row: GameRow
    version: int
    slots: list[DealSlot]
    game: Game | None
    protocol: Protocol | None
    error: RuleError | None
    generation: str = ""

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


class ReplayCache:
    """Replays by (database generation, game id, version): a page view of an unchanged
    game replays nothing.

    Safe because a version number names one exact list of records (every change
    bumps it in the same transaction) and Game/Protocol are immutable; the generation
    changes when a restore puts another file (with the same ids and versions) in place. Only this
    process's memory holds them; scores are never stored. The size covers the games
    list, which shows every visible game's totals: a host with a few hundred games must
    not replay them all on each view. A replayed 120-deal game takes about 230 kB, so a
    full cache of such games stays near 120 MB.
    """

    def __init__(self, size: int = 512):
        self.size = size
        self.items: OrderedDict[tuple, tuple] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple):
        """The cached (game, protocol, error, slots or None) or None."""
        with self.lock:
            found = self.items.get(key)
            if found is not None:
                self.items.move_to_end(key)
            return found

    def put(self, key: tuple, value: tuple) -> None:
        """Remember a replay, dropping the oldest beyond the size."""
        with self.lock:
            self.items[key] = value
            while len(self.items) > self.size:
                self.items.popitem(last=False)


def replays() -> ReplayCache:
    """This app's cache (one per app: game ids are only unique within a database)."""
    return current_app.extensions.setdefault("scorer_replays", ReplayCache())


def load(row: GameRow, *, replayed: bool = True) -> Loaded:
    """Load a game's slots and replay them (an error is kept, not raised)."""
    st = get_store()
    with st.snapshot():  # the version and the slots from the same state of the file
        generation = st.generation()
        version = st.version(row.id)
        key = (generation, row.id, version)
        cached = replays().get(key) if replayed else None
        # A version names one exact list of slots too: a cached one reads no deals.
        slots = cached[3] if cached is not None and cached[3] is not None else (
            st.slots(row.id))
    if not replayed:
        return Loaded(row, version, slots, None, None, None, generation)
    if cached is None:
        records = [s.record for s in slots if s.record is not None]
        try:
            cached = (*run(row, records), None, slots)
        except RuleError as err:
            cached = (None, None, err, slots)
        replays().put(key, cached)
    elif cached[3] is None:
        cached = (*cached[:3], slots)
        replays().put(key, cached)
    return Loaded(row, version, slots, *cached[:3], generation)


def remember_replay(row: GameRow, version: int, game: Game, protocol: Protocol,
                    generation: str | None = None) -> None:
    """Cache a replay already made for exactly this version's records (its slots are
    read on the next load)."""
    if generation is None:
        generation = get_store().generation()
    replays().put((generation, row.id, version), (game, protocol, None, None))


def score_candidate(loaded: Loaded, record: dict, slot_id: int | None
                    ) -> tuple[Game, Protocol, int]:
    """The game and protocol with this record added (or put in place of live slot
    slot_id) and the record's deal number; raises RuleError, KeyError for a slot that is
    not live."""
    records = list(loaded.records)
    if slot_id is None:
        records.append(record)
        deal_no = len(records)
    else:
        index = next((i for i, s in enumerate(loaded.live) if s.id == slot_id), None)
        if index is None:
            raise KeyError(slot_id)
        records[index] = record
        deal_no = index + 1
    game, protocol = run(loaded.row, records)
    return game, protocol, deal_no


def winner_of(row: GameRow) -> int | None:
    """The winning seat of a stored game, or None (also for an unreadable log)."""
    loaded = load(row)
    return loaded.protocol.winner if loaded.protocol else None
