"""docs/RULES.md §3: whether a record may stand, given the state of the game before it."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Protocol, cast

from scorer.engine.errors import RuleError
from scorer.engine.records import HALF_SUITS, SUITS, Adjustment, Play, Prikup, Raspis, Record

# Bounds on the numbers a log may carry (a 400-digit adjustment once broke the pages).
# Card points, contracts and talons are bounded by §3 and the catalog's maxima already;
# with adjustments bounded too, every total stays far inside ordinary integers.
MAX_ADJUSTMENT = 100_000
MAX_SCORE = 1_000_000


class GameView(Protocol):
    """What validation reads of the game just before a record (scoring's running state).

    Read in place, never copied: validation only looks, so a record costs no snapshot.
    """

    @property
    def players(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def golden_left(self) -> int: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def barrel(self) -> Collection[int]: ...
    @property
    def raspis(self) -> Sequence[int]: ...
    @property
    def score(self) -> Sequence[int]: ...

    def forced(self, ag: Mapping[str, Any]) -> int:
        """The seat that must take 100 (and declares a golden deal)."""


@dataclass(slots=True)  # not frozen: built once per record, and only read
class DealContext:
    """What validation needs to know about the game just before a record."""

    deal: int
    players: int
    dealer: int
    active: tuple[int, ...]
    first_hand: int
    forced: int
    golden: bool
    barrel: Collection[int]
    raspis: Sequence[int]
    finished: bool
    score: Sequence[int] = ()


# A tuple, not a union: ``Play | Raspis | Adjustment`` would be built on every record.
_CHECKED = (Play, Raspis, Adjustment)


def validate(record: Record, view: GameView, deal: int, ag: Mapping[str, Any],
             active: tuple[int, ...]) -> None:
    """Refuse ``record`` (deal number ``deal``) with a RuleError if any rule of §3 forbids it.

    ``active`` are the seats that play this deal.
    """
    if view.winner is not None:
        raise RuleError(deal, "type", "after_win")
    players = view.players
    if isinstance(record, Play) and _plain(record, view, active, ag):
        # Declarer, contract, points, dark and talon are fine; only these may be refused,
        # and they read only the deal and its seats (no context to build).
        if record.marriages:
            _marriages(record, deal, active, ag)
        if record.no_tricks:
            _no_tricks(record, deal, active, ag)
        return
    if isinstance(record, _CHECKED):
        dealer = view.dealer
        # The state's own sequences, not copies: the rules below only read them.
        ctx = DealContext(deal, players, dealer, active, (dealer + 1) % players,
                          view.forced(ag), view.golden_left > 0, view.barrel, view.raspis,
                          False, view.score)
        if isinstance(record, Play):
            _declarer(record, ctx)
            _contract(record, ctx, ag)
            _points(record, ctx)
            # The checks below find nothing to refuse in a record without what they read.
            if record.marriages:
                _marriages(record, deal, active, ag)
            if record.no_tricks:
                _no_tricks(record, deal, active, ag)
            if record.dark:
                _dark(record, ctx, ag)
            if record.prikup is not None or players == 4:
                _prikup(record.prikup, ctx, ag)
        elif isinstance(record, Raspis):
            _declarer(record, ctx)
            _contract(record, ctx, ag)
            _dark(record, ctx, ag)
            _raspis(record, ctx, ag)
            _prikup(record.prikup, ctx, ag)
        else:
            _adjustment(record, ctx, ag)


def _plain(rec: Play, view: GameView, active: tuple[int, ...], ag: Mapping[str, Any]) -> bool:
    """Whether a played deal is plainly within §3 but for its marriages and trickless seats.

    The common deal (not golden, not dark, every seat plays, no talon) checked at once;
    anything else, or anything off, goes through the rules one by one, which name it.
    """
    c, pts = rec.contract, rec.points
    if (view.golden_left or rec.dark or rec.prikup is not None or len(active) != view.players
            or view.players == 4 or rec.declarer not in active or None in pts):
        return False
    points = cast("tuple[int, ...]", pts)
    # None below 0 and 120 in all: none above 120 either.
    return (100 <= c <= ag["max_contract"] and not c % ag["bid_step"] and sum(points) == 120
            and min(points) >= 0 and 1 not in points and 119 not in points)


def _declarer(rec: Play | Raspis, ctx: DealContext) -> None:
    """The declarer plays this deal; on a golden deal he is the forced seat."""
    if rec.declarer not in ctx.active:
        raise RuleError(ctx.deal, "declarer", "declarer.active", seat=rec.declarer)
    if ctx.golden and rec.declarer != ctx.forced:
        raise RuleError(ctx.deal, "declarer", "declarer.golden", seat=rec.declarer,
                        expected=ctx.forced)


def _contract(rec: Play | Raspis, ctx: DealContext, ag: Mapping[str, Any]) -> None:
    """A multiple of bid_step from 100 to max_contract; 120 on golden and dark deals."""
    c, d = rec.contract, ctx.deal
    if ctx.golden and not ag["golden_raise"] and c != 120:
        raise RuleError(d, "contract", "contract.golden", got=c)
    if ctx.golden and ag["golden_raise"] and c < 120:
        raise RuleError(d, "contract", "contract.golden_raise", got=c)
    if rec.dark and not ctx.golden and c != 120:
        raise RuleError(d, "contract", "contract.dark", got=c)
    if c < 100:
        raise RuleError(d, "contract", "contract.min", got=c)
    if c % ag["bid_step"]:
        raise RuleError(d, "contract", "contract.step", step=ag["bid_step"], got=c)
    if c > ag["max_contract"]:
        raise RuleError(d, "contract", "contract.max", max=ag["max_contract"], got=c)


def _points(rec: Play, ctx: DealContext) -> None:
    """0–120 per active seat, never 1 or 119, summing to 120 (at most 120 for two)."""
    d = ctx.deal
    for seat, p in enumerate(rec.points):
        if seat not in ctx.active:
            if p is not None:
                raise RuleError(d, "points", "points.inactive", seat=seat)
            continue
        _card_points(d, seat, p)
    total = sum(p for p in rec.points if p is not None)
    if ctx.players == 2 and total > 120:
        raise RuleError(d, "points", "points.sum2", got=total)
    if ctx.players != 2 and total != 120:
        raise RuleError(d, "points", "points.sum", got=total)


def _card_points(d: int, seat: int, p: int | None) -> None:
    """One active seat's card points (deal d): given, 0–120, and never 1 or 119."""
    if p is None:
        raise RuleError(d, "points", "points.missing", seat=seat)
    if not 0 <= p <= 120:
        raise RuleError(d, "points", "points.range", seat=seat, got=p)
    if p in (1, 119):
        raise RuleError(d, "points", "points.one", seat=seat, got=p)


def blank_points(points: Sequence[int | None], active: Sequence[int], blank: int,
                 deal: int) -> int:
    """The card points of seat ``blank``, 120 minus the other active seats' (§3: with three
    or four players they sum to exactly 120), for a form that leaves one field blank.

    A given value is refused as replay would refuse it; a sum that leaves ``blank`` no
    possible card points is refused as ``points.over`` or ``points.left``, about the
    first given seat (their values made it), never as the blank seat's own.
    """
    others = tuple(seat for seat in active if seat != blank)
    total = 0
    for seat in others:
        p = points[seat]
        _card_points(deal, seat, p)
        total += cast(int, p)
    left = 120 - total
    try:
        _card_points(deal, blank, left)
    except RuleError:
        rule = "points.over" if left < 0 else "points.left"
        raise RuleError(deal, "points", rule, seat=others[0], blank=blank, others=others,
                        sum=total, left=left) from None
    return left


def _marriages(rec: Play, d: int, active: tuple[int, ...], ag: Mapping[str, Any]) -> None:
    """Each suit once per deal (deal number d); ace and half marriages only where agreed."""
    used: dict[str, str] = {}  # suit -> the marriage declared in it (whole or half)
    for seat, suits in rec.marriages.items():
        if seat not in active:
            raise RuleError(d, "marriages", "marriages.inactive", seat=seat)
        for suit in suits:
            if suit == "ace" and not ag["ace_marriage"]:
                raise RuleError(d, "marriages", "marriages.ace_off", seat=seat)
            if suit in HALF_SUITS and not ag["half_marriage"]:
                raise RuleError(d, "marriages", "marriages.half_off", seat=seat)
            base = suit.removeprefix("half_")
            if base in used:
                # The same marriage twice, or a whole and a half one in one suit: the
                # latter is the half-marriage agreement's rule, and says so.
                rule = "marriages.twice" if used[base] == suit else "marriages.half_used"
                raise RuleError(d, "marriages", rule, seat=seat, suit=suit)
            used[base] = suit


def _no_tricks(rec: Play, d: int, active: tuple[int, ...], ag: Mapping[str, Any]) -> None:
    """A seat with no trick has 0 points and declared nothing (declarer's exception)."""
    if rec.no_tricks and set(active) <= rec.no_tricks:
        raise RuleError(d, "no_tricks", "no_tricks.all")
    for seat in sorted(rec.no_tricks):
        if seat not in active:
            raise RuleError(d, "no_tricks", "no_tricks.inactive", seat=seat)
        if rec.points[seat]:
            raise RuleError(d, "no_tricks", "no_tricks.points", seat=seat, got=rec.points[seat])
        exempt = seat == rec.declarer and ag["marriage_on_first_lead"]
        if rec.marriages.get(seat) and not exempt:
            # The declarer's own marriage is refused by an agreement, so the rule names it.
            rule = "marriages.no_tricks_declarer" if seat == rec.declarer else "marriages.no_tricks"
            raise RuleError(d, "marriages", rule, seat=seat)


def _dark(rec: Play | Raspis, ctx: DealContext, ag: Mapping[str, Any]) -> None:
    """Dark only where agreed, by the first hand, not golden, not near the barrel."""
    if not rec.dark:
        return
    d = ctx.deal
    if not ag["dark"]:
        raise RuleError(d, "dark", "dark.off")
    if ctx.golden:
        raise RuleError(d, "dark", "dark.golden")
    if rec.declarer != ctx.first_hand:
        raise RuleError(d, "dark", "dark.first_hand", expected=ctx.first_hand)
    if ag["dark_not_on_barrel"] and ctx.barrel:
        raise RuleError(d, "dark", "dark.barrel")


def _raspis(rec: Raspis, ctx: DealContext, ag: Mapping[str, Any]) -> None:
    """A concession where agreed, within its limit and the barrel rule."""
    d, seat = ctx.deal, rec.declarer
    if not ag["raspis"]:
        raise RuleError(d, "type", "raspis.off")
    if ag["raspis_limit"] and ctx.raspis[seat] >= ag["raspis_limit"]:
        raise RuleError(d, "type", "raspis.limit", seat=seat, max=ag["raspis_limit"])
    if ctx.golden and not ag["raspis_golden"]:
        raise RuleError(d, "type", "raspis.golden")
    if rec.dark and not ag["dark_raspis"]:
        raise RuleError(d, "dark", "raspis.dark")
    rule = ag["raspis_barrel"]
    if rule == "not_barrel_player" and seat in ctx.barrel:
        raise RuleError(d, "declarer", "raspis.barrel_player", seat=seat)
    if rule == "nobody_if_barrel" and ctx.barrel:
        raise RuleError(d, "type", "raspis.barrel_anybody")


def _prikup(prikup: Prikup | None, ctx: DealContext, ag: Mapping[str, Any]) -> None:
    """The 4-player talon: present exactly when scored, and physically possible."""
    d, mode = ctx.deal, ag["four_dealer_prikup"]
    if ctx.players != 4:
        if prikup is not None:
            raise RuleError(d, "prikup", "prikup.four_only")
        return
    if mode == "none":
        if prikup is not None:
            raise RuleError(d, "prikup", "prikup.off")
        return
    if prikup is None:
        raise RuleError(d, "prikup", "prikup.required")
    if not 0 <= prikup.points <= 33:
        raise RuleError(d, "prikup", "prikup.points", got=prikup.points)
    if prikup.marriage is not None:
        if prikup.marriage in HALF_SUITS and not ag["half_marriage"]:
            raise RuleError(d, "prikup", "marriages.half_off")
        if prikup.marriage not in (*SUITS, *HALF_SUITS):
            raise RuleError(d, "prikup", "prikup.marriage", got=prikup.marriage)
    aces = prikup.aces
    if mode == "aces" and aces is None:
        raise RuleError(d, "prikup", "prikup.aces_required")
    if aces is not None and not 0 <= aces <= 3:
        raise RuleError(d, "prikup", "prikup.aces", got=aces)
    if not _talon_fits(prikup.points, prikup.marriage, aces):
        raise RuleError(d, "prikup", "prikup.fit", points=prikup.points)


def _talons() -> frozenset[tuple[int, str | None, int]]:
    """Every (points, marriage or None, aces) that three cards of the deck can show."""
    deck = [(rank, suit) for suit in SUITS for rank in "9JQKTA"]
    values = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}
    out: set[tuple[int, str | None, int]] = set()
    for cards in combinations(deck, 3):
        points = sum(values[r] for r, _ in cards)
        aces = sum(r == "A" for r, _ in cards)
        out.add((points, None, aces))
        for suit in SUITS:
            if ("K", suit) in cards and ("Q", suit) in cards:
                out.add((points, suit, aces))
            if ("Q", suit) in cards and ("J", suit) in cards:
                out.add((points, f"half_{suit}", aces))
    return frozenset(out)


TALONS = _talons()


def _talon_fits(points: int, marriage: str | None, aces: int | None) -> bool:
    """Whether three real cards can hold that many points, that marriage and those aces."""
    if aces is None:
        return any((points, marriage, a) in TALONS for a in range(4))
    return (points, marriage, aces) in TALONS


def _adjustment(rec: Adjustment, ctx: DealContext, ag: Mapping[str, Any]) -> None:
    """A bounded amount; cut-nines and four-nines only where agreed, at their fixed amounts."""
    d = ctx.deal
    if abs(rec.amount) > MAX_ADJUSTMENT:
        raise RuleError(d, "amount", "amount.range", max=MAX_ADJUSTMENT, got=rec.amount)
    if rec.reason == "cut_nines":
        if not ag["cut_nines_penalty"]:
            raise RuleError(d, "reason", "reason.cut_nines_off")
        if rec.amount != -ag["penalty"]:
            raise RuleError(d, "amount", "amount.cut_nines", penalty=ag["penalty"])
    elif rec.reason == "four_nines":
        if not ag["four_nines_bonus"]:
            raise RuleError(d, "reason", "reason.four_nines_off")
        if rec.amount != ag["four_nines_bonus"]:
            raise RuleError(d, "amount", "amount.four_nines", bonus=ag["four_nines_bonus"])
    elif rec.amount == 0:
        raise RuleError(d, "amount", "amount.zero")
    if ctx.score and abs(ctx.score[rec.player] + rec.amount) > MAX_SCORE:
        raise RuleError(d, "amount", "amount.total", seat=rec.player, max=MAX_SCORE,
                        total=ctx.score[rec.player] + rec.amount)
