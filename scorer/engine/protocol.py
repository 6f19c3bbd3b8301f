"""The protocol (``thousand-protocol/1``): rows, events and the reasons behind each number."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

PROTOCOL_FORMAT = "thousand-protocol/1"

SUIT_SIGNS = {"hearts": "♥", "diamonds": "♦", "clubs": "♣", "spades": "♠", "ace": "A"}

# Reason texts by code: (English, Russian). Amounts are signed where they move a score.
REASON_TEXTS: dict[str, tuple[str, str]] = {
    "points": ("{points} card points", "взятками: {points}"),
    "points_rounded": ("{points} card points → {rounded} ({rule})",
                       "взятками: {points} → {rounded} ({rule})"),
    "marriage": ("{sign} marriage {value}", "марьяж {sign} {value}"),
    "made": ("contract {contract} made: {taken_expr}", "заказ {contract} сыгран: {taken_expr}"),
    "made_taken": ("contract {contract} made: scores all taken, {amount}",
                   "заказ {contract} сыгран: пишет всё взятое, {amount}"),
    "failed": ("contract {contract} failed: {taken_expr} < {contract}, −{contract}",
               "заказ {contract} не сыгран: {taken_expr} < {contract}, −{contract}"),
    "doubled": ("×2 ({why}): {amount}", "×2 ({why}): {amount}"),
    "dark_cap": ("dark game made: +240", "тёмная сыграна: +240"),
    "dark_failed": ("dark game lost: −240", "тёмная не сыграна: −240"),
    "not_doubled": ("defenders are not doubled in the dark [dark_double_defenders]",
                    "в тёмной вистующим не удваивается [dark_double_defenders]"),
    "talon_marriage_doubled": ("talon marriage {sign} doubled in the dark: {value} [dark_double_talon_marriage]",
                               "марьяж в прикупе {sign} удвоен в тёмной: {value} [dark_double_talon_marriage]"),
    "deal_passes": ("the deal passes to the left [misdeal_passes_deal]",
                    "сдача переходит к следующему [misdeal_passes_deal]"),
    "sits_out": ("sits on the talon", "сидит на прикупе"),
    "talon_points": ("talon {points} card points → {rounded}", "прикуп: {points} → {rounded}"),
    "talon_aces": ("talon aces {aces} × 50 = {amount}", "тузы в прикупе {aces} × 50 = {amount}"),
    "talon_marriage": ("talon marriage {sign} {value} (never doubled)",
                       "марьяж в прикупе {sign} {value} (не удваивается)"),
    "raspis_declarer": ("concession of {contract}: {amount}", "роспись {contract}: {amount}"),
    "raspis_free": ("concession of {contract}: nothing subtracted [raspis_subtract]",
                    "роспись {contract}: заказ не вычитается [raspis_subtract]"),
    "raspis_payout": ("concession payout {amount} [raspis_payout]",
                      "за роспись {amount} [raspis_payout]"),
    "raspis_penalty": ("concession no. {count}: {amount} [raspis_third_penalty]",
                       "роспись № {count}: {amount} [raspis_third_penalty]"),
    "frozen": ("on the barrel: {amount} not credited [barrel]",
               "на бочке: {amount} не записывается [barrel]"),
    "frozen_failed": ("on the barrel: {amount} costs only the attempt [barrel_failed_contract]",
                      "на бочке: {amount} не вычитается, только попытка "
                      "[barrel_failed_contract]"),
    "bolt": ("bolt ({count} of 3)", "болт ({count} из 3)"),
    "bolt_double": ("double bolt ({count} of 3)", "двойной болт ({count} из 3)"),
    "bolt_run": ("bolt, {count} in a row", "болт, {count} подряд"),
    "bolt_penalty": ("three bolts: {amount} [bolt_penalty]", "три болта: {amount} [bolt_penalty]"),
    "barrel_leave": ("below {threshold}: off the barrel", "меньше {threshold}: сходит с бочки"),
    "barrel_attempt": ("barrel attempt {used} of {max}", "попытка на бочке {used} из {max}"),
    "barrel_attempt_unlimited": ("barrel deal {used}", "кон на бочке {used}"),
    "fall_attempts": ("fell off the barrel: {amount} [barrel_fall]",
                      "слетел с бочки: {amount} [barrel_fall]"),
    "fall_push_off": ("pushed off the barrel: {amount} [barrel_push_off]",
                      "сброшен с бочки: {amount} [barrel_push_off]"),
    "fall_simultaneous": ("entered the barrel together with another: {amount} [barrel_single]",
                          "на бочку одновременно с другим: {amount} [barrel_single]"),
    "three_falls": ("third fall: score set to 0 [barrel_three_falls_zero]",
                    "третье падение: очки обнуляются [barrel_three_falls_zero]"),
    "samosval": ("exactly {value}: samosval, score set to 0 [samosval]",
                 "ровно {value}: самосвал, очки обнуляются [samosval]"),
    "win": ("reaches {score}: wins the game", "набирает {score}: победа"),
    "barrel_enter": ("{score} ≥ {threshold}: sits on the barrel", "{score} ≥ {threshold}: садится на бочку"),
    "barrel_clamp": ("on the barrel at {threshold} [barrel_clamp]",
                     "на бочке с {threshold} [barrel_clamp]"),
    "golden_reset": ("no golden contract made: all scores back to 0 [golden_on_fail]",
                     "золотой кон никто не сыграл: все очки обнуляются [golden_on_fail]"),
    "golden_replay": ("no golden contract made: another golden round [golden_on_fail]",
                      "золотой кон никто не сыграл: золотой кон снова [golden_on_fail]"),
    "adjustment": ("{reason}: {amount}", "{reason}: {amount}"),
    "redeal": ("redeal: nothing scored", "пересдача: ничего не записывается"),
}

WORDS: dict[str, tuple[str, str]] = {
    "golden": ("golden", "золотой"),
    "dark": ("dark", "втёмную"),
    "nearest5": ("rounded to 5", "округление до 5"),
    "nearest10": ("rounded to 10", "округление до 10"),
    "cut_nines": ("three nines at the cut", "три девятки при сдвиге"),
    "four_nines": ("four nines", "четыре девятки"),
    "misdeal": ("misdeal", "ошибка при сдаче"),
    "other": ("adjustment", "поправка"),
}


_TAG = re.compile(r" \[(\w+)\]")


def signed(value: int) -> str:
    """+20, −120, 0: the way a score sheet writes a change (a real minus sign).

    >>> signed(20), signed(-120), signed(0)
    ('+20', '−120', '0')
    """
    return f"{value:+d}".replace("-", "−") if value else "0"


def word(key: str, lang: str) -> str:
    """A short word used inside reasons, in ``lang``."""
    en, ru = WORDS.get(key, (key, key))
    return ru if lang == "ru" else en


@dataclass(frozen=True)
class Reason:
    """One step's explanation of a seat's delta."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def agreement(self) -> str | None:
        """The agreement id this reason names, if any (shown as ``[id]`` in the text)."""
        found = _TAG.search(REASON_TEXTS[self.code][0])
        return found.group(1) if found else None

    def text(self, lang: str = "en", tags: bool = True) -> str:
        """The reason worded in ``lang``; ``tags=False`` leaves out the ``[agreement]``."""
        en, ru = REASON_TEXTS[self.code]
        if not tags:
            en, ru = _TAG.sub("", en), _TAG.sub("", ru)
        params = {k: (word(v, lang) if k in ("why", "rule", "reason") else v)
                  for k, v in self.params.items()}
        if "amount" in params:
            params["amount"] = signed(params["amount"])
        return (ru if lang == "ru" else en).format(**params)


@dataclass(frozen=True)
class Event:
    """Something that happened to a seat in a row (bolt, barrel_enter, win, ...)."""

    seat: int | None
    kind: str
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        """``{"seat": N, "kind": ...}`` plus weight or cause."""
        return {"seat": self.seat, "kind": self.kind, **self.extra}


@dataclass(frozen=True)
class BarrelSeat:
    """A seat on the barrel and its attempts left (None: unlimited)."""

    seat: int
    attempts_left: int | None


@dataclass(frozen=True)
class Row:
    """One record's line on the protocol."""

    n: int
    type: str
    dealer: int
    declarer: int | None
    contract: int | None
    golden: bool
    dark: bool
    result: str | None
    delta: tuple[int, ...]
    score: tuple[int, ...]
    events: tuple[Event, ...]
    why: tuple[tuple[Reason, ...], ...]
    barrel: tuple[BarrelSeat, ...] = ()  # who sits on the barrel after this row

    def why_text(self, lang: str = "en") -> list[list[str]]:
        """Every seat's reasons, worded in ``lang``."""
        return [[r.text(lang) for r in seat] for seat in self.why]

    def to_json(self, lang: str = "en") -> dict:
        """The row as docs/GAME-FORMAT.md writes it."""
        return {"n": self.n, "type": self.type, "dealer": self.dealer,
                "declarer": self.declarer, "contract": self.contract,
                "golden": self.golden, "dark": self.dark, "result": self.result,
                "delta": list(self.delta), "score": list(self.score),
                "events": [e.to_json() for e in self.events],
                "why": self.why_text(lang)}


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

    def to_json(self, lang: str = "ru") -> dict:
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
