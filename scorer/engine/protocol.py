"""The protocol (``thousand-protocol/1``): rows, events and the reasons behind each number."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from scorer.engine.texts import N_, Text, ptr, tr

PROTOCOL_FORMAT = "thousand-protocol/1"

# The closed sets of the protocol (tests/engine/test_types.py keeps them in step).
RowType = Literal["play", "raspis", "redeal", "adjustment", "agreements"]
RowResult = Literal["made", "failed", "raspis"]
EventKind = Literal["bolt", "bolt_penalty", "raspis_penalty", "barrel_enter", "barrel_leave",
                    "barrel_fall", "three_falls_zero", "samosval", "win", "golden_reset",
                    "golden_replay"]
ReasonCode = Literal[
    "points", "points_rounded", "marriage", "made", "made_taken", "failed", "doubled",
    "dark_cap", "dark_failed", "not_doubled", "talon_marriage_doubled", "deal_passes",
    "sits_out", "talon_points", "talon_aces", "talon_marriage", "raspis_declarer",
    "raspis_free", "raspis_payout", "raspis_penalty", "frozen", "frozen_failed", "bolt",
    "bolt_double", "bolt_run", "bolt_penalty", "barrel_leave", "barrel_attempt",
    "barrel_attempt_unlimited", "fall_attempts", "fall_push_off", "fall_simultaneous",
    "three_falls", "samosval", "win", "barrel_enter", "barrel_clamp", "golden_reset",
    "golden_replay", "adjustment", "redeal", "agreements", "barrel_off", "bolt_run_afresh",
    "barrel_last_attempt", "golden_keeps_dealer",
]

SUIT_SIGNS = {"hearts": "♥", "diamonds": "♦", "clubs": "♣", "spades": "♠", "ace": "A"}

# Reason texts by code: the English msgid (Russian in scorer/translations) and the
# agreement the reason rests on, if any. Amounts are signed where they move a score.
REASON_TEXTS: dict[str, Text] = {
    "points": Text(N_("{points} card points")),
    "points_rounded": Text(N_("{points} card points → {rounded} ({rule})")),
    "marriage": Text(N_("{sign} marriage {value}")),
    "made": Text(N_("contract {contract} made: {taken_expr}")),
    "made_taken": Text(N_("contract {contract} made: scores all taken, {amount}")),
    "failed": Text(N_("contract {contract} failed: {taken_expr} < {contract}, −{contract}")),
    "doubled": Text(N_("×2 ({why}): {amount}")),
    "dark_cap": Text(N_("dark game made: +240")),
    "dark_failed": Text(N_("dark game lost: −240")),
    "not_doubled": Text(N_("defenders are not doubled in the dark"), "dark_double_defenders"),
    "talon_marriage_doubled": Text(N_("talon marriage {sign} doubled in the dark: {value}"), "dark_double_talon_marriage"),
    "deal_passes": Text(N_("the deal passes to the left"), "misdeal_passes_deal"),
    "sits_out": Text(N_("sits on the talon")),
    "talon_points": Text(N_("talon {points} card points → {rounded}")),
    "talon_aces": Text(N_("talon aces {aces} × 50 = {amount}")),
    "talon_marriage": Text(N_("talon marriage {sign} {value} (never doubled)")),
    "raspis_declarer": Text(N_("concession of {contract}: {amount}")),
    "raspis_free": Text(N_("concession of {contract}: nothing subtracted"), "raspis_subtract"),
    "raspis_payout": Text(N_("concession payout {amount}"), "raspis_payout"),
    "raspis_penalty": Text(N_("concession no. {count}: {amount}"), "raspis_third_penalty"),
    "frozen": Text(N_("on the barrel: {amount} not credited"), "barrel"),
    "frozen_failed": Text(N_("on the barrel: {amount} costs only the attempt"), "barrel_failed_contract"),
    "bolt": Text(N_("bolt ({count} of 3)")),
    "bolt_double": Text(N_("double bolt ({count} of 3)")),
    "bolt_run": Text(N_("bolt, {count} in a row")),
    "bolt_penalty": Text(N_("three bolts: {amount}"), "bolt_penalty"),
    "barrel_leave": Text(N_("below {threshold}: off the barrel")),
    "barrel_attempt": Text(N_("barrel attempt {used} of {max}")),
    "barrel_attempt_unlimited": Text(N_("barrel deal {used}")),
    "fall_attempts": Text(N_("fell off the barrel: {amount}"), "barrel_fall"),
    "fall_push_off": Text(N_("pushed off the barrel: {amount}"), "barrel_push_off"),
    "fall_simultaneous": Text(N_("entered the barrel together with another: {amount}"), "barrel_single"),
    "three_falls": Text(N_("third fall: score set to 0"), "barrel_three_falls_zero"),
    "samosval": Text(N_("exactly {value}: samosval, score set to 0"), "samosval"),
    "win": Text(N_("reaches {score}: wins the game")),
    "barrel_enter": Text(N_("{score} ≥ {threshold}: sits on the barrel")),
    "barrel_clamp": Text(N_("on the barrel at {threshold}"), "barrel_clamp"),
    "golden_reset": Text(N_("no golden contract made: all scores back to 0"), "golden_on_fail"),
    "golden_replay": Text(N_("no golden contract made: another golden round"), "golden_on_fail"),
    "adjustment": Text(N_("{reason}: {amount}")),
    "redeal": Text(N_("redeal: nothing scored")),
    "agreements": Text(N_("agreements changed: nothing scored")),
    "barrel_off": Text(N_("the barrel is switched off: off the barrel"), "barrel"),
    "bolt_run_afresh": Text(N_("bolts now count in a row: the run starts at 0"), "bolt_penalty"),
    "barrel_last_attempt": Text(N_("fewer barrel attempts: the next one is the last"),
                                "barrel_attempts"),
    "golden_keeps_dealer": Text(N_("golden round: the dealer stays the same"),
                                "misdeal_passes_deal"),
}

# Short words put inside reasons (``why``, ``rule``, ``reason`` params), also the labels of
# the adjustment reasons on the deal form.
WORDS: dict[str, str] = {
    "golden": N_("golden"),
    "dark": N_("dark"),
    "nearest5": N_("rounded to 5"),
    "nearest10": N_("rounded to 10"),
    "cut_nines": N_("three nines at the cut"),
    "four_nines": N_("four nines bonus"),
    "misdeal": N_("misdeal"),
    "other": N_("other adjustment"),
}


def signed(value: int) -> str:
    """+20, −120, 0: the way a score sheet writes a change (a real minus sign).

    >>> signed(20), signed(-120), signed(0)
    ('+20', '−120', '0')
    """
    return f"{value:+d}".replace("-", "−") if value else "0"


def word(key: str, lang: str) -> str:
    """A short word used inside reasons, in ``lang``."""
    return tr(lang, WORDS[key]) if key in WORDS else key


class Reason(NamedTuple):
    """One step's explanation of a seat's delta: a code and its params, worded when shown.

    A named tuple (immutable, compared by value) rather than a dataclass: every deal makes
    several, and a tuple is the cheapest immutable object to build. Built with keywords.
    """

    code: ReasonCode
    params: dict[str, Any] = {}  # never mutated: shared by every Reason without params

    @property
    def agreement(self) -> str | None:
        """The agreement id this reason rests on, if any (a field of its text entry)."""
        return REASON_TEXTS[self.code].agreement

    def text(self, lang: str = "en", tags: bool = True, preset: str | None = None) -> str:
        """The reason worded in ``lang`` (in the words of the game's ``preset`` where it has
        its own: the Polish «pod kreską»); ``tags=True`` appends `` [agreement]``."""
        params: dict[str, Any] = {k: (word(v, lang) if k in ("why", "rule", "reason") else v)
                                  for k, v in self.params.items()}
        if "amount" in self.params:
            params["amount"] = signed(int(self.params["amount"]))
        msgid = REASON_TEXTS[self.code].msgid
        said = ptr(lang, f"preset:{preset}", msgid) if preset else tr(lang, msgid)
        text = said.format(**params)
        agreement = self.agreement
        return f"{text} [{agreement}]" if tags and agreement else text


class Event(NamedTuple):
    """Something that happened to a seat in a row (bolt, barrel_enter, win, ...)."""

    seat: int | None
    kind: EventKind
    extra: dict[str, Any] = {}  # never mutated: shared by every Event without extras

    def to_json(self) -> dict[str, Any]:
        """``{"seat": N, "kind": ...}`` plus weight or cause."""
        return {"seat": self.seat, "kind": self.kind, **self.extra}


@dataclass(frozen=True)
class BarrelSeat:
    """A seat on the barrel and its attempts left (None: unlimited)."""

    seat: int
    attempts_left: int | None


class Row(NamedTuple):
    """One record's line on the protocol.

    A named tuple, like Reason and Event: replay builds one per record, and it is one
    object for the garbage collector to walk instead of an object and its dict. Built
    with keywords: thirteen fields by position would be easy to shift by one.
    """

    n: int
    type: RowType
    dealer: int
    declarer: int | None
    contract: int | None
    golden: bool
    dark: bool
    result: RowResult | None
    delta: tuple[int, ...]
    score: tuple[int, ...]
    events: tuple[Event, ...]
    why: tuple[tuple[Reason, ...], ...]
    barrel: tuple[BarrelSeat, ...] = ()  # who sits on the barrel after this row
    # An "agreements" row: (agreement id, value before, value after) of each change.
    changes: tuple[tuple[str, Any, Any], ...] = ()

    def why_text(self, lang: str = "en") -> list[list[str]]:
        """Every seat's reasons, worded in ``lang``."""
        return [[r.text(lang) for r in seat] for seat in self.why]

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """The row as docs/GAME-FORMAT.md writes it."""
        out = {"n": self.n, "type": self.type, "dealer": self.dealer,
               "declarer": self.declarer, "contract": self.contract,
               "golden": self.golden, "dark": self.dark, "result": self.result,
               "delta": list(self.delta), "score": list(self.score),
               "events": [e.to_json() for e in self.events],
               "why": self.why_text(lang)}
        if self.changes:
            out["changes"] = [{"id": id, "from": old, "to": new}
                              for id, old, new in self.changes]
        return out


@dataclass(frozen=True)
class NextDeal:
    """Who deals next, and whether the next deal is golden."""

    dealer: int
    golden: bool
    forced_declarer: int
    active: tuple[int, ...]


@dataclass(frozen=True)
class Protocol:
    """The replayed game: every row plus the state after the last one."""

    players: tuple[str, ...]
    rows: tuple[Row, ...]
    score: tuple[int, ...]
    bolts: tuple[int, ...]
    barrel: tuple[BarrelSeat, ...]
    falls: tuple[int, ...]
    raspis: tuple[int, ...]
    next: NextDeal | None
    winner: int | None

    def to_json(self, lang: str = "ru") -> dict[str, Any]:
        """The protocol as ``thousand-protocol/1``."""
        nxt = self.next
        return {
            "format": PROTOCOL_FORMAT,
            "players": list(self.players),
            "rows": [row.to_json(lang) for row in self.rows],
            "score": list(self.score),
            "bolts": list(self.bolts),
            "barrel": [{"seat": b.seat, "attempts_left": b.attempts_left} for b in self.barrel],
            "falls": list(self.falls),
            "raspis": list(self.raspis),
            "next": None if nxt is None else {"dealer": nxt.dealer, "golden": nxt.golden,
                                              "forced_declarer": nxt.forced_declarer},
            "winner": self.winner,
        }
