"""The replay cache: stored rows turned into engine Games and Protocols, kept per version.

The web layer never computes a score: it hands the records to the engine's
``replay`` and shows what comes back. It keeps the engine's end state of each cached
version, and a snapshot every SNAPSHOT deals, so a new deal (a POST, a live-preview
keystroke) scores one record and an edit of deal k replays from the snapshot before k.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from flask import current_app

from scorer.engine import (
    Game,
    Protocol,
    Record,
    ReplayState,
    RuleError,
    parse_game,
    parse_record,
    replay,
    replay_state,
    start,
)
from scorer.store import DealSlot, GameRow
from scorer.web.db import get_store
from scorer.web.lru import Lru

SNAPSHOT = 64  # deals between kept engine states: an edit replays at most this many more


class Slots(tuple):
    """A version's deal slots in order, with the live ones and their records.

    A version names one exact list of slots, so it is kept with the version's replay and
    the lists are worked out once per version, not on every request (a 1000-deal game's
    POST read them three times). Never mutate them.
    """

    @cached_property
    def live(self) -> list[DealSlot]:
        """Slots that are not deleted, in protocol order."""
        return [s for s in self if s.record is not None]

    @cached_property
    def records(self) -> list[dict]:
        """The live records."""
        return [s.record for s in self.live]


@dataclass
class Loaded:
    """A stored game with its live records, the engine Game and its Protocol."""

    row: GameRow
    version: int
    slots: Slots
    game: Game | None
    protocol: Protocol | None
    error: RuleError | None
    generation: str = ""
    # Engine states by how many records they have scored (0, SNAPSHOT, ..., the end).
    states: dict[int, ReplayState] | None = None

    @property
    def live(self) -> list[DealSlot]:
        """Slots that are not deleted, in protocol order."""
        return self.slots.live

    @property
    def records(self) -> list[dict]:
        """The live records."""
        return self.slots.records


def log_of(row: GameRow, records: list[dict]) -> dict[str, Any]:
    """The GAME-FORMAT document for a stored game and a list of records."""
    return {**row.head, "deals": records}


def run(row: GameRow, records: list[dict]) -> tuple[Game, Protocol]:
    """Parse and replay; raises RuleError for the first bad thing."""
    game = parse_game(log_of(row, records))
    return game, replay(game)


def chained(game: Game, states: dict[int, ReplayState] | None = None, first: int = 0
            ) -> tuple[Protocol, dict[int, ReplayState]]:
    """Score game from the kept state nearest before its record index ``first`` (the
    records before it must be those the states scored); returns the protocol and the
    states (snapshots every SNAPSHOT deals and the end). Raises RuleError."""
    kept = {k: v for k, v in (states or {}).items() if k <= first}
    if not kept:
        kept[0] = start(game)
    state = kept[max(kept)]
    total = len(game.deals)
    while state.deals < total:
        stop = min(total, (state.deals // SNAPSHOT + 1) * SNAPSHOT)
        state = replay_state(game.with_deals(game.deals[:stop]), resume=state)
        kept[state.deals] = state
    # Only the snapshots and the end: one state per deal would keep n² rows.
    kept = {k: v for k, v in kept.items() if k % SNAPSHOT == 0 or k == total}
    return state.protocol(), kept


def parsed_run(row: GameRow, records: list[dict]) -> tuple[Game, Protocol, dict]:
    """Parse and replay keeping snapshots; raises RuleError for the first bad thing."""
    game = parse_game(log_of(row, records))
    protocol, states = chained(game)
    return game, protocol, states


class ReplayCache(Lru):
    """Replays by (database generation, game id, version): a page view of an unchanged
    game replays nothing.

    Safe because a version number names one exact list of records (every change
    bumps it in the same transaction) and Game/Protocol are immutable; the generation
    changes when a restore puts another file (with the same ids and versions) in place. Only this
    process's memory holds them; scores are never stored. The games list reads stored
    totals instead (store.cached_totals), so the cache need only hold the games being
    played: fewer live objects also keep Python's full garbage collections short (512
    cached replays made one take 0.7 s).
    """

    # Entries: (game, protocol, error, slots or None, engine states or None).


def replays() -> ReplayCache:
    """This app's cache (one per app: game ids are only unique within a database)."""
    return current_app.extensions.setdefault("scorer_replays", ReplayCache())


def load(row: GameRow, known: tuple[str, int] | None = None) -> Loaded:
    """Load a game's slots and replay them (an error is kept, not raised); known: the
    (generation, version) the caller has just read, to spare reading it again."""
    st = get_store()
    generation, version = known or st.version_key(row.id)
    cached = replays().get((generation, row.id, version))
    # A version names one exact list of slots too: a cached one reads no deals.
    if cached is not None and cached[3] is not None:
        slots = cached[3]
    else:
        with st.snapshot():  # the version and the slots from the same state of the file
            generation, version = st.version_key(row.id)
            cached = replays().get((generation, row.id, version))
            slots = cached[3] if cached is not None and cached[3] is not None else (
                Slots(st.slots(row.id)))
    key = (generation, row.id, version)
    if cached is None:
        try:
            game, protocol, states = parsed_run(row, slots.records)
            cached = (game, protocol, None, slots, states)
        except RuleError as err:
            cached = (None, None, err, slots, None)
        replays().put(key, cached)
    elif cached[3] is None:
        cached = (*cached[:3], slots, cached[4])
        replays().put(key, cached)
    return Loaded(row, version, slots, *cached[:3], generation, cached[4])


def remember_replay(row: GameRow, version: int, game: Game, protocol: Protocol,
                    generation: str | None = None,
                    states: dict[int, ReplayState] | None = None,
                    slots: Slots | None = None) -> None:
    """Cache a replay already made for exactly this version's records, with its slots
    when the writer knows them (else they are read on the next load)."""
    if generation is None:
        generation = get_store().generation()
    replays().put((generation, row.id, version), (game, protocol, None, slots, states))


def slots_after(slots: Slots, slot_id: int | None, record: dict | None) -> Slots:
    """The slots once a write has stored ``record`` (a new deal when slot_id is None, else a
    new revision of that slot): what the next load would read back, without reading it."""
    if slot_id is None:  # slots are in seq order and a slot's id is its seq
        number = slots[-1].id + 1 if slots else 1
        added = DealSlot(number, number, record)
        after = Slots((*slots, added))
        after.live = [*slots.live, added]  # a copy in C, not a pass over every slot
        return after
    return Slots(replace(s, record=record) if s.id == slot_id else s
                 for s in slots)


class Candidate(tuple):
    """(game, protocol[, deal number]) of scored candidate records, with their states."""

    states: dict[int, ReplayState] | None = None


def score_candidate(loaded: Loaded, record: dict, slot_id: int | None) -> Candidate:
    """The game and protocol with this record added (or put in place of live slot
    slot_id) and the record's deal number; raises RuleError, KeyError for a slot that is
    not live. Scores only the new record (an edit: from the snapshot before it)."""
    if slot_id is None:
        index = len(loaded.live)
    else:
        index = next((i for i, s in enumerate(loaded.live) if s.id == slot_id), None)
        if index is None:
            raise KeyError(slot_id)
    if loaded.game is None or loaded.states is None:  # nothing kept: the whole game
        records = list(loaded.records)
        records[index:index + 1] = [record]
        game, protocol, states = parsed_run(loaded.row, records)
    else:
        parsed = parse_record(record, index + 1, len(loaded.game.players))
        deals = list(loaded.game.deals)
        deals[index:index + 1] = [parsed]
        game = loaded.game.with_deals(deals)
        protocol, states = chained(game, loaded.states, index)
    found = Candidate((game, protocol, index + 1))
    found.states = states
    return found


def rescore(loaded: Loaded, records: list[dict], first: int) -> Candidate:
    """(game, protocol) of these records, which equal the loaded live records before
    index ``first`` (a delete or a restore there), with its states; raises RuleError."""
    if loaded.game is None or loaded.states is None:
        game, protocol, states = parsed_run(loaded.row, records)
    else:
        deals: list[Record] = list(loaded.game.deals[:first])
        players = len(loaded.game.players)
        deals += [parse_record(r, n, players)
                  for n, r in enumerate(records[first:], first + 1)]
        game = loaded.game.with_deals(deals)
        protocol, states = chained(game, loaded.states, first)
    found = Candidate((game, protocol))
    found.states = states
    return found


def protocol_before(loaded: Loaded, index: int) -> Protocol:
    """The protocol of the live records before index (the state an edit starts from)."""
    if loaded.game is None or loaded.states is None:
        return run(loaded.row, loaded.records[:index])[1]
    return chained(loaded.game.with_deals(loaded.game.deals[:index]), loaded.states,
                   index)[0]

