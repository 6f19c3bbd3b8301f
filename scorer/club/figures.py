"""A game's per-seat summary: what the club's figures count, read off the engine's replay.

Pure: it takes the replayed ``Protocol`` and the ``Game`` whose records made it, and
returns a frozen ``Summary`` (stored per game version beside the log, like the totals).
Every count is kept as the deal numbers (the protocol's ``n``) that make it, so a figure
can always say where it comes from.

Stored as JSON in ``club_summaries``: ``Summary.data`` writes it and ``Summary.read``
reads it back. The JSON carries ``shape``: a stored summary of another shape, or one that
does not read, is stale and made again from the log (never an error).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scorer.engine import Game, Play, Protocol, Row, marriage_value

FALL_CAUSES = ("attempts", "push_off", "simultaneous")
# Bumped when summarize counts something new or the JSON changes: another shape is stale.
SHAPE = 2  # 2: the summary keeps when the game started (its length of play)
Deals = tuple[int, ...]  # deal numbers (the protocol's n)


@dataclass(frozen=True, slots=True)
class Contract:
    """One play row a seat declared."""

    n: int
    contract: int
    made: bool
    golden: bool
    dark: bool
    # Failed only: the contract less the card points taken and the declarer's own
    # marriages, as written in the record (at least 0).
    shortfall: int | None


@dataclass(frozen=True, slots=True)
class SeatCounts:
    """One seat's counters over a game: the deals each event happened in."""

    contracts: tuple[Contract, ...] = ()
    raspis: Deals = ()
    bolts: Deals = ()
    bolt_penalties: Deals = ()
    barrel_entries: Deals = ()
    falls: Mapping[str, Deals] = field(default_factory=dict)  # by cause
    barrel_win: int | None = None  # the deal the seat won in from the barrel
    samosvals: Deals = ()
    marriages: Mapping[str, Deals] = field(default_factory=dict)  # by suit


@dataclass(frozen=True, slots=True)
class Summary:
    """One game version's summary: its result and each seat's counters; a log that does
    not replay is ``broken`` (kept so that it is not replayed again, counted nowhere)."""

    players: tuple[str, ...]
    deals: int
    winner: int | None
    score: tuple[int, ...]
    places: tuple[int, ...]
    seats: tuple[SeatCounts, ...]
    date: str = ""  # YYYY-MM-DD: the log's date, else the day it was created
    ended: str = ""  # when its last deal was recorded (ISO time)
    started: str = ""  # when the game was stored (ISO time): its length of play begins
    broken: bool = False

    @property
    def finished(self) -> bool:
        """Whether the game has a winner."""
        return self.winner is not None

    def data(self) -> dict[str, Any]:
        """The summary as stored (JSON data)."""
        if self.broken:
            return {"shape": SHAPE, "broken": True, "date": self.date, "ended": self.ended,
                    "started": self.started}
        return {"shape": SHAPE, "players": list(self.players), "deals": self.deals,
                "finished": self.finished, "winner": self.winner, "score": list(self.score),
                "places": list(self.places), "seats": [seat_data(s) for s in self.seats],
                "date": self.date, "ended": self.ended, "started": self.started}

    @classmethod
    def read(cls, data: Any) -> Summary | None:
        """A stored summary, or None when it is of another shape or does not read (then
        it is made again from the log)."""
        if not isinstance(data, dict) or data.get("shape") != SHAPE:
            return None
        try:
            if data.get("broken"):
                return broken(str(data["date"]), str(data["ended"]), str(data["started"]))
            return cls(tuple(str(p) for p in data["players"]), int(data["deals"]),
                       None if data["winner"] is None else int(data["winner"]),
                       tuple(int(v) for v in data["score"]),
                       tuple(int(v) for v in data["places"]),
                       tuple(read_seat(s) for s in data["seats"]),
                       str(data["date"]), str(data["ended"]), str(data["started"]))
        except (KeyError, TypeError, ValueError, AttributeError):
            return None


def broken(date: str, ended: str, started: str) -> Summary:
    """The summary of a log that does not replay."""
    return Summary((), 0, None, (), (), (), date, ended, started, broken=True)


def seat_data(seat: SeatCounts) -> dict[str, Any]:
    """One seat's counters as stored; a contract as a list (n, contract, made, golden,
    dark, shortfall): a long game has hundreds, and keys would triple their bytes."""
    return {"contracts": [[c.n, c.contract, c.made, c.golden, c.dark, c.shortfall]
                          for c in seat.contracts],
            "raspis": list(seat.raspis), "bolts": list(seat.bolts),
            "bolt_penalties": list(seat.bolt_penalties),
            "barrel_entries": list(seat.barrel_entries),
            "falls": {c: list(d) for c, d in seat.falls.items()},
            "barrel_win": seat.barrel_win, "samosvals": list(seat.samosvals),
            "marriages": {s: list(d) for s, d in seat.marriages.items()}}


def read_seat(data: dict[str, Any]) -> SeatCounts:
    """One stored seat's counters (KeyError, TypeError or ValueError if it does not read)."""
    def deals(values: Any) -> Deals:
        return tuple(int(n) for n in values)

    return SeatCounts(
        tuple(Contract(int(n), int(c), bool(m), bool(g), bool(d),
                       None if s is None else int(s)) for n, c, m, g, d, s in data["contracts"]),
        deals(data["raspis"]), deals(data["bolts"]), deals(data["bolt_penalties"]),
        deals(data["barrel_entries"]), {str(c): deals(d) for c, d in data["falls"].items()},
        None if data["barrel_win"] is None else int(data["barrel_win"]),
        deals(data["samosvals"]), {str(s): deals(d) for s, d in data["marriages"].items()})


def places(score: tuple[int, ...] | list[int], winner: int | None) -> list[int]:
    """Each seat's place in the final standings: the winner first, then by total; equal
    standings share a place (1 + the number of seats strictly ahead)."""
    keys = [(seat == winner, total) for seat, total in enumerate(score)]
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]


@dataclass
class Tally:
    """One seat's counters while the deals are read (made a SeatCounts at the end)."""

    contracts: list[Contract] = field(default_factory=list)
    raspis: list[int] = field(default_factory=list)
    bolts: list[int] = field(default_factory=list)
    bolt_penalties: list[int] = field(default_factory=list)
    barrel_entries: list[int] = field(default_factory=list)
    falls: dict[str, list[int]] = field(
        default_factory=lambda: {c: [] for c in FALL_CAUSES})
    barrel_win: int | None = None
    samosvals: list[int] = field(default_factory=list)
    marriages: dict[str, list[int]] = field(default_factory=dict)

    def counts(self) -> SeatCounts:
        """The seat's counters, frozen."""
        return SeatCounts(tuple(self.contracts), tuple(self.raspis), tuple(self.bolts),
                          tuple(self.bolt_penalties), tuple(self.barrel_entries),
                          {c: tuple(d) for c, d in self.falls.items()}, self.barrel_win,
                          tuple(self.samosvals),
                          {s: tuple(d) for s, d in self.marriages.items()})


def summarize(game: Game, protocol: Protocol, date: str = "", ended: str = "",
              started: str = "") -> Summary:
    """The per-seat summary of a replayed game (protocol = replay(game))."""
    seats = [Tally() for _ in protocol.players]
    previous: Row | None = None
    for row, record in zip(protocol.rows, game.deals, strict=True):
        count_row(seats, row, record, previous)
        previous = row
    winner = protocol.winner
    return Summary(tuple(protocol.players), len(protocol.rows), winner, tuple(protocol.score),
                   tuple(places(protocol.score, winner)), tuple(s.counts() for s in seats),
                   date, ended, started)


def count_row(seats: list[Tally], row: Row, record: object, previous: Row | None) -> None:
    """Add one protocol row (and the record behind it) to the seats' counters."""
    n: int = row.n
    if row.type == "play" and row.declarer is not None and isinstance(record, Play):
        seats[row.declarer].contracts.append(contract_of(row, record))
    if row.type == "raspis" and row.declarer is not None:
        seats[row.declarer].raspis.append(n)
    if isinstance(record, Play):
        for who, suits in record.marriages.items():
            for suit in suits:
                seats[who].marriages.setdefault(suit, []).append(n)
    on_barrel = {b.seat for b in previous.barrel} if previous else set()
    for event in row.events:
        if event.seat is None:
            continue
        seat = seats[event.seat]
        if event.kind == "bolt":
            seat.bolts.append(n)
        elif event.kind == "bolt_penalty":
            seat.bolt_penalties.append(n)
        elif event.kind == "barrel_enter":
            seat.barrel_entries.append(n)
        elif event.kind == "barrel_fall":
            seat.falls.setdefault(str(event.extra.get("cause")), []).append(n)
        elif event.kind == "samosval":
            seat.samosvals.append(n)
        elif event.kind == "win" and event.seat in on_barrel:
            seat.barrel_win = n


def contract_of(row: Row, record: Play) -> Contract:
    """One declared play row."""
    contract = int(row.contract or 0)
    made = row.result == "made"
    shortfall = None
    if not made:
        taken = int(record.points[record.declarer] or 0)
        taken += sum(marriage_value(s) for s in record.marriages.get(record.declarer, ()))
        shortfall = max(contract - taken, 0)
    return Contract(row.n, contract, made, bool(row.golden), bool(row.dark), shortfall)
