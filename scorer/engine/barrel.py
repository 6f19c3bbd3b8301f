"""The barrel (бочка): docs/RULES.md §4 steps 8 (freeze), 10 (attempts and falls),
13 (entry) and 14 (three falls), and the barrel seats a row shows.

Each step works on the record being scored (a :class:`Step`, which scoring's
``Scoring`` is): its running state, its agreements, and its reasons and events. The
steps name only what they use of it, so this module needs nothing from scoring.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Protocol

from scorer.engine.protocol import BarrelSeat, EventKind, ReasonCode
from scorer.engine.state import CreditKind, State


class Step(Protocol):
    """What the barrel's steps read and change of the record being scored."""

    st: State
    ag: Mapping[str, Any]
    on_barrel: frozenset[int]  # who started the record on the barrel
    credits: Mapping[int, list[tuple[int, CreditKind]]]  # their credits, for the freeze
    credited: frozenset[int]  # credited what may win from the barrel
    gain: list[int]  # credits of seats off the barrel, applied after the freeze

    def say(self, seat: int, code: ReasonCode, /, **params: Any) -> None:
        """Add a reason without an amount of its own."""

    def event(self, seat: int | None, kind: EventKind, /, **extra: Any) -> None:
        """Record an event of the row."""


FallCause = Literal["attempts", "push_off", "simultaneous"]

FALL_REASONS: dict[FallCause, ReasonCode] = {
    "attempts": "fall_attempts", "push_off": "fall_push_off",
    "simultaneous": "fall_simultaneous"}


def reaches(score: int, ag: Mapping[str, Any]) -> bool:
    """Step 12's test: at the target, or strictly above it for a barrel win that needs it.

    ``barrel_win_over_target`` changes only the barrel's win (and the direct win past
    it): with the barrel off, any player at or above the target wins (§4 step 12).
    """
    target: int = ag["target"]
    if ag["barrel"] and ag["barrel_win_over_target"]:
        return score > target
    return score >= target


def freeze(sc: Step) -> None:
    """Step 8: a barrel player keeps only what may reach him; notes who was credited."""
    st, ag = sc.st, sc.ag
    for seat, credits in sc.credits.items():
        kept: list[tuple[int, CreditKind]] = []
        for amount, kind in credits:
            keep = amount <= 0
            if kind == "own_made" or (kind == "defender" and ag["barrel_defender_win"]):
                keep = reaches(st.score[seat] + sum(k for k, _ in kept) + amount, ag)
                if keep and amount > 0:
                    sc.credited |= {seat}
            elif kind == "own_failed" and ag["barrel_failed_contract"] == "attempt_only":
                sc.say(seat, "frozen_failed", amount=amount)
                continue
            if keep:
                kept.append((amount, kind))
            elif amount:
                sc.say(seat, "frozen", amount=amount)
        sc.gain[seat] += sum(k for k, _ in kept)


def attempts(sc: Step) -> None:
    """Step 10: leave below the threshold; use an attempt; fall when they run out."""
    st, ag = sc.st, sc.ag
    leave(sc)
    limit = ag["barrel_attempts"]
    for seat in sorted(sc.on_barrel & set(st.barrel)):
        if seat not in st.active() and not ag["barrel_count_sitting_out"]:
            continue
        st.barrel[seat] += 1
        used = st.barrel[seat]
        if limit:
            sc.say(seat, "barrel_attempt", used=used, max=limit)
        else:
            sc.say(seat, "barrel_attempt_unlimited", used=used)
        won = seat in sc.credited and reaches(st.score[seat], ag)
        if limit and used >= limit and not won:
            fall(sc, seat, "attempts")


def leave(sc: Step) -> None:
    """A barrel player now below the threshold simply leaves: no fall."""
    st, ag = sc.st, sc.ag
    for seat in sorted(st.barrel):
        if st.score[seat] < ag["barrel_threshold"]:
            del st.barrel[seat]
            sc.say(seat, "barrel_leave", threshold=ag["barrel_threshold"])
            sc.event(seat, "barrel_leave")


def fall(sc: Step, seat: int, cause: FallCause) -> None:
    """A fall off the barrel, and step 14's third-fall rule right after it."""
    st, ag = sc.st, sc.ag
    st.barrel.pop(seat, None)
    before = st.score[seat]
    if cause == "attempts" and ag["barrel_fall"] == "zero":
        st.score[seat] = 0
    else:
        st.score[seat] -= ag["penalty"]
    sc.say(seat, FALL_REASONS[cause], amount=st.score[seat] - before)
    sc.event(seat, "barrel_fall", cause=cause)
    if ag["three_falls_count"] == "all" or cause == "attempts":
        st.falls[seat] += 1
    if ag["barrel_three_falls_zero"] and st.falls[seat] >= 3:
        st.falls[seat] = 0
        st.score[seat] = 0
        sc.say(seat, "three_falls")
        sc.event(seat, "three_falls_zero")


def enter(sc: Step) -> None:
    """Step 13: sit on the barrel; simultaneous entries and push-offs."""
    st, ag = sc.st, sc.ag
    threshold = ag["barrel_threshold"]
    score, barrel, winner = st.score, st.barrel, st.winner
    entering = []
    for seat in range(st.players):  # most often the high score already sits there
        if score[seat] >= threshold and seat not in barrel and seat != winner:
            entering.append(seat)
    if not entering:
        return
    sitting = sorted(st.barrel)
    for seat in entering:
        sc.say(seat, "barrel_enter", score=st.score[seat], threshold=threshold)
        sc.event(seat, "barrel_enter")
        st.barrel[seat] = 0
        if ag["barrel_clamp"] and st.score[seat] != threshold:
            st.score[seat] = threshold
            sc.say(seat, "barrel_clamp", threshold=threshold)
    if len(entering) > 1 and ag["barrel_single"]:
        for seat in entering:
            fall(sc, seat, "simultaneous")
        return
    if ag["barrel_push_off"]:
        for seat in sitting:
            fall(sc, seat, "push_off")


def seats(st: State, ag: Mapping[str, Any]) -> tuple[BarrelSeat, ...]:
    """Who sits on the barrel now, with attempts left (None: unlimited)."""
    limit = ag["barrel_attempts"]
    return tuple(_seat(seat, (limit - used) if limit else None)
                 for seat, used in sorted(st.barrel.items()))


# Barrel seats are immutable and few (a seat and its attempts left): built once each.
_SEATS: dict[tuple[int, int | None], BarrelSeat] = {}


def _seat(seat: int, left: int | None) -> BarrelSeat:
    """The BarrelSeat for ``seat`` with ``left`` attempts, shared by every row showing it."""
    key = (seat, left)
    found = _SEATS.get(key)
    if found is None:
        found = _SEATS[key] = BarrelSeat(seat, left)
    return found
