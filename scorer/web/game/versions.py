"""One entry per version of a game: its deal slots and its engine Timeline (or the error
that broke its log), with what the version renders, in one cache.

The web layer never computes a score: the engine's Timeline does, from the records. A
version number names one exact list of slots (every change bumps it in the same
transaction) and entries are immutable apart from the renders they keep, so an entry
keyed by (database generation, game id, version) is never stale; the generation changes
when a restore puts another file (with the same ids and versions) in place. Only this
process's memory holds them; scores are not part of the
stored truth (the `totals` table only remembers a version's end for the games list).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar, cast

from flask import Flask, current_app

from scorer.engine import Game, Protocol, RuleError, Timeline, log_with, parse_game
from scorer.store import DealSlot, GameRow, JsonDict
from scorer.web.db import get_store
from scorer.web.lru import Lru

# The cache holds versions up to this many deals in all (about 3 kB each: a Timeline and
# its records), so one 2000-deal game weighs what two thousand one-deal versions do. Fewer
# live objects also keep Python's full garbage collections short.
DEALS_KEPT = 20_000
# What an entry weighs besides its deals: its pages, its charts, its game's head.
ENTRY_WEIGHT = 50
# Pages kept per version: each page per link, language and URL, and the edit pages of the
# browsers it was filled in for when it holds write forms (their CSRF token is the browser's).
PAGES_KEPT = 8
_pages_lock = threading.Lock()
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Slots:
    """A version's deal slots in order, and the live ones (not deleted)."""

    every: tuple[DealSlot, ...]
    live: tuple[DealSlot, ...]
    # How many deal revisions this version holds: a write form carries it, so a late write
    # can be shown what was stored after it (Store.changes_after). Counted once per list
    # and carried forward by ``after``: summed on every form, it grew with the game.
    seen: int

    @classmethod
    def of(cls, slots: Iterable[DealSlot]) -> Slots:
        """The slots as the store lists them."""
        every = tuple(slots)
        return cls(every, tuple(s for s in every if s.record is not None),
                   sum(s.rev for s in every))

    def records(self) -> list[JsonDict]:
        """The live records, in order."""
        return [s.record for s in self.live if s.record is not None]

    def after(self, slot_id: int | None, record: JsonDict | None) -> Slots:
        """The slots once a write has stored ``record`` (a new deal when slot_id is None,
        else a new revision of that slot): what the store would read back."""
        if slot_id is None:  # slots are in seq order and a slot's id is its seq
            number = self.every[-1].id + 1 if self.every else 1
            added = DealSlot(number, number, record)
            return Slots((*self.every, added), (*self.live, added), self.seen + added.rev)
        return Slots.of(replace(s, record=record, rev=s.rev + 1) if s.id == slot_id else s
                        for s in self.every)


@dataclass(frozen=True, slots=True)
class Loaded:
    """A version whose log replays: its slots and Timeline, and what it has rendered."""

    row: GameRow
    generation: str
    version: int
    slots: Slots
    timeline: Timeline
    pages: dict[Hashable, bytes | str] = field(default_factory=dict, compare=False, repr=False)
    rendering: threading.Lock = field(default_factory=threading.Lock, compare=False, repr=False)
    # What the version works out from its protocol's rows (its chart's lines, its drawing
    # per language, its tallies), by name, and the same of the version a write made it
    # from: see ``derived``.
    worked: dict[Hashable, Any] = field(default_factory=dict, compare=False, repr=False)
    prior: dict[Hashable, Any] | None = field(default=None, compare=False, repr=False)

    @property
    def game(self) -> Game:
        """The engine Game."""
        return self.timeline.game

    @property
    def protocol(self) -> Protocol:
        """The version's protocol."""
        return self.timeline.protocol


@dataclass(frozen=True, slots=True)
class Broken:
    """A version whose log no longer replays, with the refusal that stops it."""

    row: GameRow
    generation: str
    version: int
    slots: Slots
    error: RuleError
    pages: dict[Hashable, bytes | str] = field(default_factory=dict, compare=False, repr=False)
    rendering: threading.Lock = field(default_factory=threading.Lock, compare=False, repr=False)


Version = Loaded | Broken
# (database generation, game id, version): what names one exact list of a game's slots.
VersionKey = tuple[str, int, int]


def weight(entry: Version) -> int:
    """What a version weighs in the cache: its deals, and a little for the rest."""
    return len(entry.slots.every) + ENTRY_WEIGHT


def init_app(app: Flask) -> None:
    """Give the app its cache of versions (game ids are only unique within a database)."""
    app.extensions["scorer_versions"] = Lru(DEALS_KEPT, weight)


def versions() -> Lru[VersionKey, Version]:
    """This app's cache of versions."""
    cache: Lru[VersionKey, Version] = current_app.extensions["scorer_versions"]
    return cache


def log_of(row: GameRow, records: list[JsonDict]) -> dict[str, Any]:
    """The GAME-FORMAT document for a stored game and a list of records."""
    return log_with(row.head, records)


def made(row: GameRow, generation: str, version: int, slots: Slots) -> Version:
    """Replay a version's records in full (a log that no longer replays is kept broken)."""
    try:
        timeline = Timeline.of(parse_game(log_of(row, slots.records())))
    except RuleError as err:
        return Broken(row, generation, version, slots, err)
    return Loaded(row, generation, version, slots, timeline)


def load(row: GameRow, known: tuple[str, int] | None = None) -> Version:
    """The game's current version, replayed once per version; known: the (generation,
    version) the caller has just read, to spare reading it again."""
    st = get_store()
    generation, version = known or st.version_key(row.id)
    found = versions().get((generation, row.id, version))
    if found is not None:
        return found
    with st.snapshot():  # the version and the slots from the same state of the file
        generation, version = st.version_key(row.id)
        found = versions().get((generation, row.id, version))
        if found is not None:
            return found
        slots = Slots.of(st.slots(row.id))
    return versions().put((generation, row.id, version),
                          made(row, generation, version, slots))


def remember(before: Version, version: int, slots: Slots, timeline: Timeline) -> None:
    """Keep the version a write has just stored, scored already (the page the writer is
    sent to next replays nothing and reads no deals), lent what ``before`` worked out."""
    prior = before.worked if isinstance(before, Loaded) else None
    entry = Loaded(before.row, before.generation, version, slots, timeline, prior=prior)
    versions().put((before.generation, before.row.id, version), entry)


def derived(entry: Loaded, name: Hashable, make: Callable[[Any | None], T]) -> T:
    """What a version works out from its rows, once: ``make(before)`` with ``before`` the
    same work of the version a write made this one from (None if there is none, or it was
    never done). ``make`` must give what ``make(None)`` gives, doing less when ``before``
    covers the first of its rows: a deal then costs the same at 1000 deals as at 200."""
    found = entry.worked.get(name)
    if found is None:
        before = entry.prior.get(name) if entry.prior is not None else None
        found = entry.worked.setdefault(name, make(before))
    return cast(T, found)


def rescored(before: Version, slots: Slots, change: Callable[[Timeline], Timeline]) -> Timeline:
    """The Timeline of ``slots``, the slots after a change of ``before``: ``change`` made
    from the kept Timeline, or every record replayed when the log was broken (a delete
    may mend it). Raises RuleError."""
    if isinstance(before, Broken):
        return Timeline.of(parse_game(log_of(before.row, slots.records())))
    return change(before.timeline)


def keep_page(entry: Version, key: Hashable, body: bytes | str) -> bytes | str:
    """Keep a rendered page on its version (gzipped bytes to send, or the text of a page
    still to be filled in per browser), dropping the oldest beyond PAGES_KEPT."""
    with _pages_lock:
        entry.pages[key] = body
        while len(entry.pages) > PAGES_KEPT:
            del entry.pages[next(iter(entry.pages))]
    return body
