"""A game's per-seat summary: what the club's figures count, read off the engine's replay.

Pure: it takes the replayed ``Protocol`` and the ``Game`` whose records made it, and
returns plain JSON data (stored per game version beside the log, like the totals). Every
count is kept as the list of deal numbers (the protocol's ``n``) that make it, so a
figure can always say where it comes from.
"""

from __future__ import annotations

from typing import Any

from scorer.engine import Game, Play, Protocol, Row, marriage_value

# One game's summary as stored (JSON data; see summarize for its keys).
Summary = dict[str, Any]
FALL_CAUSES = ("attempts", "push_off", "simultaneous")
# Bumped when summarize counts something new: a stored summary of another shape is stale.
SHAPE = 2  # 2: the summary keeps when the game started (its length of play)


def places(score: tuple[int, ...] | list[int], winner: int | None) -> list[int]:
    """Each seat's place in the final standings: the winner first, then by total; equal
    standings share a place (1 + the number of seats strictly ahead)."""
    keys = [(seat == winner, total) for seat, total in enumerate(score)]
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]


def empty_seat() -> dict[str, Any]:
    """One seat's counters before the first deal."""
    return {"contracts": [], "raspis": [], "bolts": [], "bolt_penalties": [],
            "barrel_entries": [], "falls": {c: [] for c in FALL_CAUSES}, "barrel_win": None,
            "samosvals": [], "marriages": {}}


def summarize(game: Game, protocol: Protocol) -> Summary:
    """The per-seat summary of a replayed game (protocol = replay(game))."""
    seats = [empty_seat() for _ in protocol.players]
    previous: Row | None = None
    for row, record in zip(protocol.rows, game.deals, strict=True):
        count_row(seats, row, record, previous)
        previous = row
    winner = protocol.winner
    return {
        "shape": SHAPE,
        "players": list(protocol.players),
        "deals": len(protocol.rows),
        "finished": winner is not None,
        "winner": winner,
        "score": list(protocol.score),
        "places": places(protocol.score, winner),
        "seats": seats,
    }


def count_row(seats: list[dict[str, Any]], row: Row, record: object,
              previous: Row | None) -> None:
    """Add one protocol row (and the record behind it) to the seats' counters."""
    n: int = row.n
    if row.type == "play" and row.declarer is not None and isinstance(record, Play):
        seats[row.declarer]["contracts"].append(contract_entry(row, record))
    if row.type == "raspis" and row.declarer is not None:
        seats[row.declarer]["raspis"].append(n)
    if isinstance(record, Play):
        for who, suits in record.marriages.items():
            for suit in suits:
                seats[who]["marriages"].setdefault(suit, []).append(n)
    on_barrel = {b.seat for b in previous.barrel} if previous else set()
    for event in row.events:
        if event.seat is None:
            continue
        seat = seats[event.seat]
        if event.kind == "bolt":
            seat["bolts"].append(n)
        elif event.kind == "bolt_penalty":
            seat["bolt_penalties"].append(n)
        elif event.kind == "barrel_enter":
            seat["barrel_entries"].append(n)
        elif event.kind == "barrel_fall":
            seat["falls"].setdefault(str(event.extra.get("cause")), []).append(n)
        elif event.kind == "samosval":
            seat["samosvals"].append(n)
        elif event.kind == "win" and event.seat in on_barrel:
            seat["barrel_win"] = n


def contract_entry(row: Row, record: Play) -> list[Any]:
    """[n, contract, made, golden, dark, shortfall]: one declared play row. The shortfall
    (failed only) is the contract less the card points taken and the declarer's own
    marriages, as written in the record."""
    contract = int(row.contract or 0)
    made = row.result == "made"
    shortfall = None
    if not made:
        taken = int(record.points[record.declarer] or 0)
        taken += sum(marriage_value(s) for s in record.marriages.get(record.declarer, ()))
        shortfall = max(contract - taken, 0)
    return [row.n, contract, made, row.golden, row.dark, shortfall]
