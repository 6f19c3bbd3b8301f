"""Replaying a game: docs/RULES.md §4 (the order of operations), §5 golden kon, §6 dark game.

``replay`` walks the records in order; each record is validated against the state
before it and then scored in the steps of §4. Nothing here is stored: the protocol is
always derived from the records.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from operator import add, sub
from types import MappingProxyType
from typing import Any, cast

from scorer.engine import barrel
from scorer.engine.catalog import Agreements, resolve_agreements
from scorer.engine.errors import RuleError
from scorer.engine.protocol import (
    SUIT_SIGNS,
    Event,
    EventKind,
    NextDeal,
    Protocol,
    Reason,
    ReasonCode,
    Row,
    RowResult,
)
from scorer.engine.records import (
    MARRIAGES,
    Adjustment,
    AgreementChange,
    Game,
    Play,
    Raspis,
    Record,
)
from scorer.engine.state import ACTIVE, CreditKind, State
from scorer.engine.validation import validate

MARRIAGE_VALUES = {"hearts": 100, "diamonds": 80, "clubs": 60, "spades": 40, "ace": 200}


def marriage_value(suit: str) -> int:
    """A declared marriage's value; a half marriage is worth half its suit.

    >>> marriage_value("hearts"), marriage_value("half_diamonds"), marriage_value("ace")
    (100, 40, 200)
    """
    if suit.startswith("half_"):
        return MARRIAGE_VALUES[suit.removeprefix("half_")] // 2
    return MARRIAGE_VALUES[suit]


def marriage_sign(suit: str) -> str:
    """♥ for hearts, ½♥ for a half marriage, A for four aces."""
    if suit.startswith("half_"):
        return "½" + SUIT_SIGNS[suit.removeprefix("half_")]
    return SUIT_SIGNS[suit]


# Every suit a marriage may name, looked up once instead of worked out per deal.
_VALUES = {suit: marriage_value(suit) for suit in MARRIAGES}
_SIGNS = {suit: marriage_sign(suit) for suit in MARRIAGES}


def round_points(points: int, mode: str) -> int:
    """§4 step 2: nearest5 (1–2 down, 3–4 up), nearest10 (5 up) or none.

    >>> round_points(42, "nearest5"), round_points(43, "nearest5"), round_points(47, "nearest5")
    (40, 45, 45)
    >>> round_points(45, "nearest10"), round_points(44, "nearest10"), round_points(43, "none")
    (50, 40, 43)
    """
    if mode == "nearest5":
        rest = points % 5
        return points - rest if rest <= 2 else points + 5 - rest
    if mode == "nearest10":
        rest = points % 10
        return points - rest if rest < 5 else points + 10 - rest
    return points


# Card points 0-120 (validation bounds them) rounded by each mode, looked up per seat.
_ROUNDED = {mode: tuple(round_points(p, mode) for p in range(121))
            for mode in ("nearest5", "nearest10", "none")}


def raspis_payout(contract: int, rule: str) -> int:
    """§4 step 7: what each opponent gets for a concession.

    >>> [raspis_payout(c, "half") for c in (105, 120, 140)]
    [55, 60, 70]
    >>> [raspis_payout(c, "sixty_or_half") for c in (120, 140)], raspis_payout(200, "sixty")
    ([60, 70], 60)
    """
    half = -(-contract // 10) * 10 // 2
    if rule == "sixty":
        return 60
    if rule == "sixty_or_half":
        return 60 if contract <= 120 else half
    return half


@dataclass(frozen=True)
class ReplayState:
    """A game replayed up to some record: its rows and all the next record depends on.

    Immutable: :func:`advance` returns a new state and leaves the given one as it was, so
    a caller may keep one per version of a game (or periodic snapshots) and score only
    the records after it.
    """

    players: tuple[str, ...]
    agreements: Agreements
    rows: tuple[Row, ...]
    dealer: int
    golden_left: int
    golden_made: bool
    winner: int | None
    score: tuple[int, ...]
    bolts: tuple[int, ...]
    falls: tuple[int, ...]
    raspis: tuple[int, ...]
    barrel: tuple[tuple[int, int], ...]  # (seat, attempts used), by seat
    # The agreements as a plain dict (read hundreds of times per deal); never mutated.
    ag: Mapping[str, Any] = field(compare=False, repr=False, default_factory=dict)
    # The game's own set, before any "agreements" record (``agreements`` is the one in force).
    opening: Agreements | None = field(compare=False, repr=False, default=None)

    @property
    def deals(self) -> int:
        """How many records this state has scored."""
        return len(self.rows)

    def protocol(self) -> Protocol:
        """The protocol of the records scored so far."""
        return _protocol(self.players, _thaw(self), self.rows, self.ag)


def start(game: Game) -> ReplayState:
    """The state before the first record of ``game`` (its records are not read)."""
    ag = dict(game.agreements)
    n = len(game.players)
    st = State(players=n, dealer=game.first_dealer, golden_left=n if ag["golden"] else 0)
    return _snapshot(st, game.players, game.agreements, ag, (), game.agreements)


def advance(state: ReplayState, record: Record) -> ReplayState:
    """Validate and score one more record; a refused record raises RuleError."""
    st = _thaw(state)
    rows, agreements, ag = _walk(st, state.agreements, state.ag, (record,), len(state.rows))
    return _snapshot(st, state.players, agreements, ag, (*state.rows, *rows), state.opening)


def replay_state(game: Game, resume: ReplayState | None = None) -> ReplayState:
    """Replay ``game``'s records after ``resume`` (from the start without it).

    ``resume`` must come from the same players, agreements and first records of
    ``game``; only the records after its last row are read.
    """
    if resume is None:
        resume = start(game)
    elif (resume.players != game.players or len(resume.rows) > len(game.deals)
          or dict(resume.opening or resume.agreements) != dict(game.agreements)):
        raise ValueError("the state to resume from belongs to another game")
    st = _thaw(resume)
    first = len(resume.rows)
    rows, agreements, ag = _walk(st, resume.agreements, resume.ag, game.deals[first:], first)
    return _snapshot(st, resume.players, agreements, ag, (*resume.rows, *rows), resume.opening)


def replay(game: Game, resume: ReplayState | None = None) -> Protocol:
    """Replay every record of ``game`` (or those after ``resume``); RuleError on a refusal."""
    if resume is None:
        # The common case, kept free of the snapshot's copies.
        st = start(game)
        state = _thaw(st)
        rows, _, ag = _walk(state, game.agreements, st.ag, game.deals, 0)
        return _protocol(game.players, state, tuple(rows), ag)
    return replay_state(game, resume).protocol()


def _thaw(state: ReplayState) -> State:
    """A fresh mutable copy of a kept state."""
    st = State(players=len(state.players), dealer=state.dealer, golden_left=state.golden_left,
               golden_made=state.golden_made, winner=state.winner)
    st.score, st.bolts = list(state.score), list(state.bolts)
    st.falls, st.raspis = list(state.falls), list(state.raspis)
    st.barrel = dict(state.barrel)
    return st


def _snapshot(st: State, players: tuple[str, ...], agreements: Agreements,
              ag: Mapping[str, Any], rows: tuple[Row, ...],
              opening: Agreements | None) -> ReplayState:
    """Freeze the running state into a ReplayState."""
    return ReplayState(players=players, agreements=agreements, rows=rows, dealer=st.dealer,
                       golden_left=st.golden_left, golden_made=st.golden_made,
                       winner=st.winner, score=tuple(st.score), bolts=tuple(st.bolts),
                       falls=tuple(st.falls), raspis=tuple(st.raspis),
                       barrel=tuple(sorted(st.barrel.items())), ag=ag, opening=opening)


# A tuple, not ``Play | Raspis``: the union would be built again on every record.
_SCORED = (Play, Raspis)


def _walk(st: State, agreements: Agreements, ag: Mapping[str, Any],
          records: tuple[Record, ...], done: int
          ) -> tuple[list[Row], Agreements, Mapping[str, Any]]:
    """Score ``records`` (numbered after ``done``); returns the rows and the set in force."""
    scoring = Scoring(st, ag)  # private to this walk; a new one after each change of set
    rows = []
    for number, record in enumerate(records, done + 1):
        if type(record) is AgreementChange:
            agreements, row = _change(st, agreements, record, number)
            ag = dict(agreements)
            scoring = Scoring(st, ag)
        else:
            row = _row(scoring, record, number)
        rows.append(row)
    return rows, agreements, ag


def current_agreements(game: Game) -> Agreements:
    """The set in force after the game's last record: its own, with every change applied."""
    agreements = game.agreements
    for record in game.deals:
        if type(record) is AgreementChange:
            agreements = changed(agreements, record)
    return agreements


def changed(agreements: Agreements, record: AgreementChange) -> Agreements:
    """``agreements`` with the record's values put in (the preset stays the game's)."""
    return resolve_agreements(agreements.preset, {**agreements.overrides, **dict(record.changes)})


def _change(st: State, agreements: Agreements, record: AgreementChange, number: int
            ) -> tuple[Agreements, Row]:
    """RULES.md §11: the new set applies from the next record; the state carries over."""
    if st.winner is not None:
        raise RuleError(number, "type", "after_win")
    new = changed(agreements, record)
    if new["target"] != agreements["target"] and new["target"] <= max(st.score):
        raise RuleError(number, "changes", "agreements.target", max=max(st.score))
    why: list[list[Reason]] = [[_AGREEMENTS] for _ in range(st.players)]
    events: list[Event] = []
    if agreements["barrel"] and not new["barrel"]:
        for seat in sorted(st.barrel):
            why[seat].append(_BARREL_OFF)  # nobody sits on a barrel that is not played
            events.append(Event(seat=seat, kind="barrel_leave", extra={}))
        st.barrel.clear()
    _carry_attempts(st, new["barrel_attempts"], why)
    if new["bolt_penalty"] == "three_in_a_row" != agreements["bolt_penalty"]:
        # A count of bolts is not a run: three in a row start from the change (§11 item 4).
        for seat, count in enumerate(st.bolts):
            if count:
                st.bolts[seat] = 0
                why[seat].append(_RUN_AFRESH)
    diffs = tuple((id, agreements[id], value) for id, value in record.changes)
    return new, Row(n=number, type="agreements", dealer=st.dealer, declarer=None,
                    contract=None, golden=False, dark=False, result=None,
                    delta=(0,) * st.players, score=tuple(st.score), events=tuple(events),
                    why=tuple(map(tuple, why)),
                    barrel=barrel.seats(st, new) if st.barrel else (), changes=diffs)


def _carry_attempts(st: State, limit: int, why: list[list[Reason]]) -> None:
    """§11 item 3: used attempts carry over, but a sitter keeps at least one under the new limit.

    A player falls by a deal, never by a change of rules: one whose used attempts reach the
    new number has his next attempt as his last (``attempts_left`` 1, never 0 or below).
    """
    if not limit:
        return
    for seat, used in st.barrel.items():
        if used >= limit:
            st.barrel[seat] = limit - 1
            why[seat].append(_LAST_ATTEMPT)


def _row(scoring: Scoring, record: Record, number: int) -> Row:
    """Validate and score one record, advancing the scoring's state."""
    st, ag = scoring.st, scoring.ag
    active = ACTIVE[st.players][st.dealer]
    validate(record, st, number, ag, active)
    before = st.score[:]
    dealer = st.dealer
    scoring.begin()
    result: RowResult | None = None
    if isinstance(record, _SCORED):
        result = scoring.deal(record, active)
        declarer: int | None = record.declarer
        contract: int | None = record.contract
        dark = record.dark
    else:
        declarer = contract = None
        dark = False
        if isinstance(record, Adjustment):
            scoring.adjustment(record)
        else:
            for said in scoring.why:
                said.append(_REDEAL)
    score = st.score
    return Row(n=number, type=record.type, dealer=dealer, declarer=declarer,
               contract=contract, golden=scoring.golden, dark=dark, result=result,
               delta=tuple(map(sub, score, before)), score=tuple(score),
               events=tuple(scoring.events), why=tuple(map(tuple, scoring.why)),
               barrel=barrel.seats(st, ag) if st.barrel else ())


def _doubled(points: int, wed: int, mult: int, ag: Mapping[str, Any]) -> int:
    """Card points times ``mult``, plus marriages doubled too unless double_marriages is off."""
    return points * mult + wed * (mult if ag["double_marriages"] else 1)


def _penalty(ag: Mapping[str, Any], golden: bool) -> int:
    """A bolt or concession penalty: doubled on a golden deal only where agreed."""
    penalty: int = ag["penalty"]
    return penalty * (2 if golden and ag["golden_double_penalties"] else 1)


# A defender's card points reason by points and rounding mode, and a marriage's by suit:
# reasons are immutable and compared by value, so every row may share the same ones.
_POINTS_REASONS = {mode: tuple(
    Reason(code="points", params={"points": p}) if rounded[p] == p else
    Reason(code="points_rounded", params={"points": p, "rounded": rounded[p], "rule": mode})
    for p in range(121)) for mode, rounded in _ROUNDED.items()}
# Reasons without params, shared by every row that gives them.
_NOT_DOUBLED = Reason(code="not_doubled")
_DARK_FAILED = Reason(code="dark_failed")
_SITS_OUT = Reason(code="sits_out")
_REDEAL = Reason(code="redeal")
_AGREEMENTS = Reason(code="agreements")
_BARREL_OFF = Reason(code="barrel_off")
_RUN_AFRESH = Reason(code="bolt_run_afresh")
_LAST_ATTEMPT = Reason(code="barrel_last_attempt")
# Card points as the declarer's reasons write them (0-120, rounded or not), made once.
_POINTS_TEXT = tuple(str(p) for p in range(121))
_MARRIAGE_REASONS = {suit: Reason(code="marriage", params={"sign": _SIGNS[suit],
                                                           "value": _VALUES[suit]})
                     for suit in MARRIAGES}


_NOBODY: frozenset[int] = frozenset()
_NO_CREDITS: Mapping[int, list[tuple[int, CreditKind]]] = MappingProxyType({})


class Scoring:
    """One record being scored: the running state, the row's reasons, events and credits.

    The steps of §4 are methods here: :meth:`deal` for a ``play`` or ``raspis`` record
    (steps 1–14), :meth:`adjustment` for an adjustment; the barrel's steps (8, 10, 13,
    14) are functions of :mod:`scorer.engine.barrel`. An amount is credited through
    :meth:`add`: straight to the row's gain, or, for a seat that started on the barrel,
    into its list of credits, which the freeze (step 8) sorts out first.
    """

    __slots__ = ("after_all", "after_bar", "ag", "bolt_check", "credited", "credits",
                 "events", "gain", "golden", "mult", "on_barrel", "points_why", "rounded_of",
                 "st", "why", "why_mult")

    def __init__(self, st: State, ag: Mapping[str, Any]) -> None:
        self.st, self.ag = st, ag
        # What the agreements decide for every record, looked up once per game.
        rounding = ag["rounding"]
        known = rounding if rounding in _ROUNDED else "none"  # as round_points
        self.rounded_of, self.points_why = _ROUNDED[known], _POINTS_REASONS[known]
        # Nothing to count unless a seat may have a bolt or a run is to be broken.
        self.bolt_check = (ag["bolt_counts"] != "no_tricks"
                           or ag["bolt_penalty"] == "three_in_a_row")
        # Steps 11-13 find nothing to do while every score is under this bar.
        self.after_all = bool(ag["samosval"])
        self.after_bar = min(ag["target"], ag["barrel_threshold"])
        self.begin()

    def begin(self) -> None:
        """Ready for the next record: no reasons, events or credits yet."""
        st = self.st
        n = st.players
        # No comprehension frame and no list more than needed: this runs per record.
        if n == 3:
            self.why: list[list[Reason]] = [[], [], []]
        else:
            four: list[list[Reason]] = [[], [], [], []]
            self.why = four[:n]
        self.events: list[Event] = []
        self.gain = [0] * n  # credits of seats off the barrel, applied in step 8
        # Who started the record on the barrel, and their credits: with nobody on it (the
        # common case) nothing is ever added, so the shared empty ones do.
        if st.barrel:
            self.on_barrel: frozenset[int] = frozenset(st.barrel)
            self.credits: Mapping[int, list[tuple[int, CreditKind]]] = {
                seat: [] for seat in st.barrel}
        else:
            self.on_barrel, self.credits = _NOBODY, _NO_CREDITS
        self.credited: frozenset[int] = _NOBODY  # credited what may win from the barrel
        self.golden, self.mult, self.why_mult = False, 1, "dark"

    def add(self, seat: int, value: int, kind: CreditKind, code: ReasonCode | None = None, /,
            **params: Any) -> None:
        """Credit ``value`` to ``seat``, with the reason for it."""
        if seat in self.credits:
            self.credits[seat].append((value, kind))
        else:
            self.gain[seat] += value
        if code:
            self.why[seat].append(Reason(code=code, params=params))

    def say(self, seat: int, code: ReasonCode, /, **params: Any) -> None:
        """Add a reason without an amount of its own."""
        self.why[seat].append(Reason(code=code, params=params))

    def event(self, seat: int | None, kind: EventKind, /, **extra: Any) -> None:
        """Record an event of the row."""
        self.events.append(Event(seat=seat, kind=kind, extra=extra))

    # --- steps 8 and 10-14 ---------------------------------------------------

    def apply(self) -> None:
        """Add every credit kept to the scores."""
        score = self.st.score
        score[:] = map(add, score, self.gain)

    def after_deal(self, declarer: int | None) -> None:
        """Steps 11–13: samosval, the winner, and barrel entry."""
        ag, score = self.ag, self.st.score
        value = ag["samosval"]
        if value and (value in score or (ag["samosval_negative"] and -value in score)):
            self.samosval()
        # Each step below finds nothing to do while every score is under its bar.
        high = max(score)
        if high >= ag["target"]:
            self.winner(declarer)
        if ag["barrel"] and high >= ag["barrel_threshold"]:
            barrel.enter(self)

    def samosval(self) -> None:
        """Step 11: exactly 555 (or −555 where agreed) becomes 0."""
        st, ag = self.st, self.ag
        value = ag["samosval"]
        for seat, score in enumerate(st.score):
            if score == value or (ag["samosval_negative"] and score == -value):
                st.score[seat] = 0
                self.say(seat, "samosval", value=score)
                self.event(seat, "samosval")

    def winner(self, declarer: int | None) -> None:
        """Step 12: who wins now, if anybody; ties from the dealer's left."""
        st, ag = self.st, self.ag
        candidates = []
        for seat, score in enumerate(st.score):
            if not barrel.reaches(score, ag):
                continue
            if not ag["barrel"]:
                candidates.append(seat)
            elif seat in self.on_barrel:
                # From the barrel only what step 8 credited can win: his own made contract,
                # or (barrel_defender_win) his defender points.
                if seat in self.credited:
                    candidates.append(seat)
            elif ag["barrel_direct_win"]:
                candidates.append(seat)
        if not candidates:
            return
        if declarer in candidates:
            winner = declarer
        else:
            order = [(st.dealer + k) % st.players for k in range(1, st.players + 1)]
            winner = max(candidates, key=lambda s: (st.score[s], -order.index(s)))
        st.winner = winner
        st.barrel.pop(winner, None)
        self.say(winner, "win", score=st.score[winner])
        self.event(winner, "win")

    # --- adjustments ---------------------------------------------------------

    def adjustment(self, rec: Adjustment) -> None:
        """An adjustment: its amount (a barrel bonus is frozen), then steps 10 (leave) to 14."""
        st = self.st
        kind: CreditKind = "bonus" if rec.amount > 0 else "penalty"
        self.add(rec.player, rec.amount, kind, "adjustment", reason=rec.reason,
                 amount=rec.amount)
        barrel.freeze(self)
        self.apply()
        barrel.leave(self)
        self.after_deal(declarer=None)
        if rec.reason == "misdeal" and self.ag["misdeal_passes_deal"]:
            if st.golden_left:
                # One golden deal per seat (§5): passing the deal would skip a declarer.
                self.say(rec.player, "golden_keeps_dealer")
            else:
                st.dealer = (st.dealer + 1) % st.players
                self.say(rec.player, "deal_passes")

    # --- played and conceded deals -------------------------------------------

    def deal(self, rec: Play | Raspis, active: tuple[int, ...]) -> RowResult:
        """Steps 1–14 for a ``play`` or ``raspis`` record; returns the row's result."""
        st, why = self.st, self.why
        self.golden = golden = st.golden_left > 0
        self.mult = 2 if golden or rec.dark else 1
        self.why_mult = "golden" if golden else "dark"
        if len(active) < st.players:
            for seat in range(st.players):
                if seat not in active:
                    why[seat].append(_SITS_OUT)
        result: RowResult
        if isinstance(rec, Play):
            made = self.play(rec, active)
            result = "made" if made else "failed"
        else:
            made = False
            self.raspis(rec, active)
            result = "raspis"
        if st.players == 4:
            self.talon(rec)
        if self.credits:
            barrel.freeze(self)
        score = st.score
        score[:] = map(add, score, self.gain)  # as apply(), without the call
        if isinstance(rec, Play) and (rec.no_tricks or self.bolt_check):
            self.bolts(rec, active)
        if st.barrel:
            barrel.attempts(self)
        if self.after_all or max(score) >= self.after_bar:
            self.after_deal(declarer=rec.declarer if made else None)
        self.turn(golden, made)
        return result

    def turn(self, golden: bool, made: bool) -> None:
        """The deal is over: a golden one counts in its round, and the deal passes left."""
        if golden:
            self.golden_round(made)
        self.st.dealer = (self.st.dealer + 1) % self.st.players

    def play(self, rec: Play, active: tuple[int, ...]) -> bool:
        """Steps 1–4 and 6 of a played deal; returns whether the contract was made."""
        why, ag, mult, credits, gain = self.why, self.ag, self.mult, self.credits, self.gain
        dark, rounded_of, points_why = rec.dark, self.rounded_of, self.points_why
        # Validation has passed: every active seat has its points.
        all_points = cast("tuple[int, ...]", rec.points)
        declarer, marriages = rec.declarer, rec.marriages
        made = self.declarer(rec, all_points[declarer],
                             marriages.get(declarer, ()) if marriages else ())
        # Defenders are doubled on a golden deal, and in the dark only where agreed.
        double = 2 if mult == 2 and (not dark or ag["dark_double_defenders"]) else 1
        wed_double = double if ag["double_marriages"] else 1
        noted = double == 2 or dark  # a defender's amount gets a note on how it counts
        for seat in active:
            if seat == declarer:
                continue
            points = all_points[seat]
            said = why[seat]
            said.append(points_why[points])
            amount = rounded_of[points] * double
            if marriages and seat in marriages:
                for suit in marriages[seat]:
                    said.append(_MARRIAGE_REASONS[suit])
                    amount += _VALUES[suit] * wed_double
            if seat in credits:
                credits[seat].append((amount, "defender"))
            else:
                gain[seat] += amount
            if noted and amount:
                if double == 2:
                    said.append(Reason(code="doubled", params={"why": self.why_mult,
                                                               "amount": amount}))
                else:
                    said.append(_NOT_DOUBLED)
        return made

    def declarer(self, rec: Play, points: int, suits: tuple[str, ...]) -> bool:
        """Step 3 (and 6) for the declarer: made or failed, and what it is worth."""
        ag, mult = self.ag, self.mult
        seat, contract = rec.declarer, rec.contract
        rounded = self.rounded_of[points]
        shown = rounded if ag["round_declarer"] else points
        if suits:
            wed = 0
            for suit in suits:
                wed += _VALUES[suit]
            counted = shown + wed
            expr = " + ".join([str(shown), *[f"{_SIGNS[s]} {_VALUES[s]}" for s in suits]])
            expr += f" = {counted}"
        else:
            wed, counted, expr = 0, shown, _POINTS_TEXT[shown]
        said = self.why[seat]
        if counted < contract:
            # The common end of a deal, credited in place (as add() would).
            amount = -contract * mult
            if seat in self.credits:
                self.credits[seat].append((amount, "own_failed"))
            else:
                self.gain[seat] += amount
            if rec.dark:
                said.append(_DARK_FAILED)
            else:
                said.append(Reason(code="failed", params={"contract": contract,
                                                          "taken_expr": expr}))
                if mult == 2:
                    said.append(Reason(code="doubled", params={"why": self.why_mult,
                                                               "amount": -contract * 2}))
            return False
        said.append(Reason(code="made", params={"contract": contract, "taken_expr": expr}))
        if rec.dark and ag["dark_cap_240"]:
            self.add(seat, 240, "own_made", "dark_cap")
            return True
        if ag["declarer_scores"] == "taken" or rec.dark:
            self.say(seat, "made_taken", contract=contract, amount=rounded + wed)
            amount = _doubled(rounded, wed, mult, ag)
        else:
            amount = contract * mult
        self.add(seat, amount, "own_made")
        if mult == 2:
            self.say(seat, "doubled", why=self.why_mult, amount=amount)
        return True

    def raspis(self, rec: Raspis, active: tuple[int, ...]) -> None:
        """Step 7: the declarer concedes; every active opponent is paid."""
        st, ag, mult = self.st, self.ag, self.mult
        seat, contract = rec.declarer, rec.contract
        payout = raspis_payout(contract, ag["raspis_payout"]) * mult
        if rec.dark:
            self.add(seat, -240, "own_failed", "raspis_declarer", contract=contract,
                     amount=-240)
        elif ag["raspis_subtract"]:
            amount = -contract * mult
            self.add(seat, amount, "own_failed", "raspis_declarer", contract=contract,
                     amount=amount)
        else:
            self.say(seat, "raspis_free", contract=contract)
        for other in active:
            if other != seat:
                self.add(other, payout, "payout", "raspis_payout", amount=payout)
        st.raspis[seat] += 1
        if ag["raspis_third_penalty"] and st.raspis[seat] % 3 == 0:
            penalty = _penalty(ag, golden=mult == 2 and not rec.dark)
            self.add(seat, -penalty, "penalty", "raspis_penalty", count=st.raspis[seat],
                     amount=-penalty)
            self.event(seat, "raspis_penalty")

    def talon(self, rec: Play | Raspis) -> None:
        """Step 5: the 4-player dealer scores the talon (its marriage is never doubled)."""
        st, ag, mult = self.st, self.ag, self.mult
        mode, prikup = ag["four_dealer_prikup"], rec.prikup
        if st.players < 4 or mode == "none" or prikup is None:
            return
        dealer = st.dealer
        if mode == "points":
            rounded = prikup.points
            if ag["talon_rounding"]:
                rounded = round_points(prikup.points, ag["rounding"])
            self.add(dealer, rounded * mult, "talon", "talon_points", points=prikup.points,
                     rounded=rounded)
            amount = rounded * mult
        else:
            amount = 50 * (prikup.aces or 0) * mult
            self.add(dealer, amount, "talon", "talon_aces", aces=prikup.aces or 0,
                     amount=amount // mult)
        if mult == 2 and amount:
            self.say(dealer, "doubled", why="dark" if rec.dark else "golden", amount=amount)
        if prikup.marriage:
            value = marriage_value(prikup.marriage)
            if rec.dark and ag["dark_double_talon_marriage"]:
                self.add(dealer, value * 2, "talon", "talon_marriage_doubled",
                         sign=marriage_sign(prikup.marriage), value=value * 2)
            else:
                self.add(dealer, value, "talon", "talon_marriage",
                         sign=marriage_sign(prikup.marriage), value=value)

    def bolts(self, rec: Play, active: tuple[int, ...]) -> None:
        """Step 9: a bolt for each active player who took nothing; three cost ``penalty``."""
        in_a_row = self.ag["bolt_penalty"] == "three_in_a_row"
        for seat in active:
            if seat == rec.declarer and self.ag["bolt_own_game_exempt"]:
                continue  # no bolt on his own game, and a run is skipped, not broken
            if self.took_nothing(rec, seat):
                self.bolt(seat, self.bolt_weight(rec), in_a_row)
            elif in_a_row:
                self.st.bolts[seat] = 0  # a deal without a bolt breaks the run

    def took_nothing(self, rec: Play, seat: int) -> bool:
        """No trick (``bolt_counts = no_tricks``), or rounded points + marriages of 0."""
        if self.ag["bolt_counts"] == "no_tricks":
            return seat in rec.no_tricks
        points = rec.points[seat]
        assert points is not None  # validation: every active seat has its points
        wed = sum(_VALUES[suit] for suit in rec.marriages.get(seat, ()))
        return round_points(points, self.ag["rounding"]) + wed == 0

    def bolt_weight(self, rec: Play) -> int:
        """2 on a dark deal with dark_double_bolts or a golden one with golden_double_bolts."""
        ag = self.ag
        dark = rec.dark and ag["dark_double_bolts"]
        golden = self.golden and ag["golden_double_bolts"]
        return 2 if dark or golden else 1

    def bolt(self, seat: int, weight: int, in_a_row: bool) -> None:
        """Count one bolt of ``weight`` for ``seat``; at three, the penalty."""
        bolts = self.st.bolts
        bolts[seat] += weight
        self.event(seat, "bolt", **({"weight": 2} if weight == 2 else {}))
        if in_a_row:
            self.say(seat, "bolt_run", count=bolts[seat])
        else:
            self.say(seat, "bolt_double" if weight == 2 else "bolt", count=bolts[seat])
        if self.ag["bolt_penalty"] != "none":
            # A count carried over from "none" may hold several threes: each costs (§11 item 4).
            while bolts[seat] >= 3:
                self.three_bolts(seat, in_a_row)

    def three_bolts(self, seat: int, in_a_row: bool) -> None:
        """Three bolts cost ``penalty``: a run starts again, a count drops by three."""
        bolts = self.st.bolts
        bolts[seat] = 0 if in_a_row else bolts[seat] - 3
        penalty = _penalty(self.ag, self.golden)
        self.st.score[seat] -= penalty
        self.say(seat, "bolt_penalty", amount=-penalty)
        self.event(seat, "bolt_penalty")

    def golden_round(self, made: bool) -> None:
        """§5: count the golden deal; at the round's end, reset, replay or keep."""
        st = self.st
        st.golden_made = st.golden_made or made
        st.golden_left -= 1
        if st.golden_left or st.golden_made or st.winner is not None:
            return
        outcome = self.ag["golden_on_fail"]
        if outcome == "reset":
            for seat in range(st.players):
                st.score[seat] = st.bolts[seat] = st.falls[seat] = st.raspis[seat] = 0
                self.say(seat, "golden_reset")
            st.barrel.clear()
            self.event(None, "golden_reset")
        elif outcome == "replay":
            st.golden_left = st.players
            self.event(None, "golden_replay")
            for seat in range(st.players):
                self.say(seat, "golden_replay")


# --- the protocol ----------------------------------------------------------------


def _protocol(players: tuple[str, ...], st: State, rows: tuple[Row, ...],
              ag: Mapping[str, Any]) -> Protocol:
    """Freeze the final state into a Protocol."""
    nxt = None
    if st.winner is None:
        nxt = NextDeal(dealer=st.dealer, golden=st.golden_left > 0,
                       forced_declarer=st.forced(ag), active=st.active())
    return Protocol(players=players, rows=rows, score=tuple(st.score),
                    bolts=tuple(st.bolts), barrel=barrel.seats(st, ag), falls=tuple(st.falls),
                    raspis=tuple(st.raspis), next=nxt, winner=st.winner)


# --- the seating of the next deals, whatever they score ------------------------------

# What a record can do to the next deal's seating: a played deal made or failed, a
# concession, a misdeal fine. Any other record (a redeal, another adjustment, a change of
# agreements) leaves it as it was.
MOVES = ("made", "failed", "raspis", "misdeal")


@dataclass(frozen=True, slots=True)
class Seating:
    """Who deals a coming deal, who must take 100, whether it is golden; and the seating
    each move leads to (its index in what :func:`seatings` returns)."""

    next: NextDeal
    then: tuple[tuple[str, int], ...]


def seatings(state: ReplayState) -> tuple[Seating, ...]:
    """Every seating the game can reach from ``state`` by MOVES, its own first (none once
    the game is won).

    A page that keeps deals typed without a connection follows them to seat the next
    deal. The steps are the engine's own (Scoring.turn, the misdeal fine), run on a copy
    that scores nothing, so the page never scores (a deal that would win is the server's
    to refuse when it arrives).
    """
    if state.winner is not None:
        return ()
    n, ag = len(state.players), state.ag
    keys = [(state.dealer, state.golden_left, state.golden_made)]
    found = {keys[0]: 0}
    moves: list[tuple[tuple[str, int], ...]] = []
    for dealer, left, made in keys:  # grows while it is walked: at most 4 × 5 × 2 keys
        then = []
        for move in MOVES:
            st = State(players=n, dealer=dealer, golden_left=left, golden_made=made)
            scoring = Scoring(st, ag)
            if move == "misdeal":
                scoring.adjustment(Adjustment(player=dealer, amount=0, reason="misdeal"))
            else:
                scoring.turn(left > 0, move == "made")
            key = (st.dealer, st.golden_left, st.golden_made)
            if key not in found:
                found[key] = len(keys)
                keys.append(key)
            then.append((move, found[key]))
        moves.append(tuple(then))
    out = []
    for (dealer, left, _made), then_ in zip(keys, moves, strict=True):
        st = State(players=n, dealer=dealer, golden_left=left)
        out.append(Seating(NextDeal(dealer=dealer, golden=left > 0, forced_declarer=st.forced(ag),
                                    active=st.active()), then_))
    return tuple(out)
