"""Deal records and game logs (``thousand-game/1`` and ``/2``): typed data and its JSON shape.

Parsing here checks only the *shape* of the data (types, seat numbers). Whether a
record is allowed by the rules depends on the state of the game and is checked by
:mod:`scorer.engine.validation` during replay; a whole log is read by
:mod:`scorer.engine.game_log`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from scorer.engine.catalog import Agreements, catalog
from scorer.engine.errors import RuleError
from scorer.engine.names import (
    check_text,
)

# A log is written as /1 unless it holds an "agreements" record, which /1 readers do not
# know; both are read (docs/GAME-FORMAT.md, "Versions").
FORMAT = "thousand-game/1"
FORMAT_2 = "thousand-game/2"
FORMATS = (FORMAT, FORMAT_2)
SUITS = ("hearts", "diamonds", "clubs", "spades")
HALF_SUITS = tuple(f"half_{s}" for s in SUITS)
MARRIAGES = (*SUITS, "ace", *HALF_SUITS)
ADJUSTMENT_REASONS = ("cut_nines", "four_nines", "misdeal", "other")
META_KEYS = ("title", "date", "place", "notes")
GAME_KEYS = {"format", "players", "agreements", "first_dealer", "deals", *META_KEYS}
MAX_DEALS = 2000


def check_deal_count(count: int) -> None:
    """Refuse a game of ``count`` records if that is more than MAX_DEALS: the one check of
    the limit, which reading a log, the Timeline, the store and the web all go through."""
    if count > MAX_DEALS:
        raise RuleError(None, "deals", "deals.limit", max=MAX_DEALS)


@dataclass(frozen=True)
class Prikup:
    """The three talon cards of a 4-player deal, as far as the dealer scores them."""

    points: int
    marriage: str | None = None
    aces: int | None = None


@dataclass(frozen=True)
class Play:
    """A deal that was played out."""

    declarer: int
    contract: int
    points: tuple[int | None, ...]
    marriages: dict[int, tuple[str, ...]] = field(default_factory=dict)
    no_tricks: frozenset[int] = frozenset()
    dark: bool = False
    prikup: Prikup | None = None
    type: Literal["play"] = "play"


@dataclass(frozen=True)
class Raspis:
    """The declarer conceded after taking the talon (роспись)."""

    declarer: int
    contract: int
    dark: bool = False
    prikup: Prikup | None = None
    type: Literal["raspis"] = "raspis"


@dataclass(frozen=True)
class Redeal:
    """Cards were thrown in and dealt again; nothing is scored."""

    reason: str | None = None
    type: Literal["redeal"] = "redeal"


@dataclass(frozen=True)
class Adjustment:
    """A penalty or bonus outside the play."""

    player: int
    amount: int
    reason: str
    type: Literal["adjustment"] = "adjustment"


@dataclass(frozen=True)
class AgreementChange:
    """The table changed agreements; they apply from the next record on (RULES.md §11)."""

    changes: tuple[tuple[str, Any], ...]  # (agreement id, new value), in catalog order
    type: Literal["agreements"] = "agreements"


Record = Play | Raspis | Redeal | Adjustment | AgreementChange


@dataclass(frozen=True)
class Game:
    """Players, a frozen agreement set and the deal records in order."""

    players: tuple[str, ...]
    agreements: Agreements
    first_dealer: int = 0
    deals: tuple[Record, ...] = ()
    title: str | None = None
    date: str | None = None
    place: str | None = None
    notes: str | None = None

    def with_deals(self, deals: Iterable[Record]) -> Game:
        """The same game with another list of records."""
        return replace(self, deals=tuple(deals))


# --- small typed readers -------------------------------------------------------


def _int(value: Any, deal: int, name: str) -> int:
    """An integer (not a bool) or a refusal."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(deal, name, "integer", got=value)
    return value


def _seat(value: Any, deal: int, name: str, players: int) -> int:
    """A seat index or a refusal."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise RuleError(deal, name, "seat", max=players - 1, got=value)
    return value


def _bool(value: Any, deal: int, name: str) -> bool:
    """A JSON boolean or a refusal."""
    if not isinstance(value, bool):
        raise RuleError(deal, name, "boolean", got=value)
    return value


def _required(data: dict[str, Any], key: str, deal: int) -> Any:
    """A field the record type needs."""
    if data.get(key) is None:
        raise RuleError(deal, key, "required")
    return data[key]


# --- records ---------------------------------------------------------------------


def _points(value: Any, deal: int, players: int) -> tuple[int | None, ...]:
    """One entry per seat: an integer, or null for a seat that sits out."""
    if not isinstance(value, list):
        raise RuleError(deal, "points", "type", expected="a list")
    if len(value) != players:
        raise RuleError(deal, "points", "points.count", expected=players, got=len(value))
    out = []
    for seat, v in enumerate(value):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
            raise RuleError(deal, "points", "integer", seat=seat, got=v)
        out.append(v)
    return tuple(out)


def _marriages(value: Any, deal: int, players: int) -> dict[int, tuple[str, ...]]:
    """Seat (a string key) → suits declared."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise RuleError(deal, "marriages", "type", expected="an object")
    out: dict[int, tuple[str, ...]] = {}
    # Only the keys record_to_json writes: int() would also read "00", " 1" or Arabic-Indic
    # digits, and two keys for one seat would silently drop one declaration.
    keys = {str(s): s for s in range(players)}
    for key, suits in value.items():
        if key not in keys:
            raise RuleError(deal, "marriages", "seat", max=players - 1, got=key)
        seat = keys[key]
        if not isinstance(suits, list):
            raise RuleError(deal, "marriages", "type", seat=seat, expected="a list")
        for suit in suits:
            if suit not in MARRIAGES:
                raise RuleError(deal, "marriages", "marriages.suit", seat=seat, got=suit)
        if suits:
            out[seat] = tuple(suits)
    return dict(sorted(out.items()))


def _no_tricks(value: Any, deal: int, players: int) -> frozenset[int]:
    """Seats that took no trick at all."""
    if value is None:
        return frozenset()
    if not isinstance(value, list):
        raise RuleError(deal, "no_tricks", "type", expected="a list")
    return frozenset(_seat(v, deal, "no_tricks", players) for v in value)


def _prikup(value: Any, deal: int) -> Prikup | None:
    """The talon of a 4-player deal."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise RuleError(deal, "prikup", "type", expected="an object")
    points = _int(_required(value, "points", deal), deal, "prikup")
    marriage = value.get("marriage")
    if marriage is not None and marriage not in (*SUITS, *HALF_SUITS):
        raise RuleError(deal, "prikup", "prikup.marriage", got=marriage)
    aces = value.get("aces")
    if aces is not None:
        aces = _int(aces, deal, "prikup")
    return Prikup(points=points, marriage=marriage, aces=aces)


def _play(data: dict[str, Any], deal: int, players: int) -> Play:
    """A ``play`` record."""
    return Play(
        declarer=_seat(_required(data, "declarer", deal), deal, "declarer", players),
        contract=_int(_required(data, "contract", deal), deal, "contract"),
        points=_points(_required(data, "points", deal), deal, players),
        marriages=_marriages(data.get("marriages"), deal, players),
        no_tricks=_no_tricks(data.get("no_tricks"), deal, players),
        dark=_bool(data.get("dark", False), deal, "dark"),
        prikup=_prikup(data.get("prikup"), deal),
    )


def _raspis(data: dict[str, Any], deal: int, players: int) -> Raspis:
    """A ``raspis`` record."""
    return Raspis(
        declarer=_seat(_required(data, "declarer", deal), deal, "declarer", players),
        contract=_int(_required(data, "contract", deal), deal, "contract"),
        dark=_bool(data.get("dark", False), deal, "dark"),
        prikup=_prikup(data.get("prikup"), deal),
    )


def _redeal(data: dict[str, Any], deal: int, players: int) -> Redeal:
    """A ``redeal`` record."""
    reason = data.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise RuleError(deal, "reason", "type", expected="a string")
    if reason is not None:
        check_text("reason", reason, deal)
    return Redeal(reason=reason)


def _adjustment(data: dict[str, Any], deal: int, players: int) -> Adjustment:
    """An ``adjustment`` record."""
    player = data.get("player")
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < players:
        raise RuleError(deal, "player", "player.range", max=players - 1, got=player)
    amount = _int(_required(data, "amount", deal), deal, "amount")
    reason = data.get("reason")
    if reason not in ADJUSTMENT_REASONS:
        raise RuleError(deal, "reason", "reason.unknown", got=reason)
    return Adjustment(player=player, amount=amount, reason=reason)


def _agreement_change(data: dict[str, Any], deal: int, players: int) -> AgreementChange:
    """An ``agreements`` record: known, changeable agreements with valid values."""
    changes = _required(data, "changes", deal)
    if not isinstance(changes, dict) or not changes:
        raise RuleError(deal, "changes", "type", expected="{id: value}")
    cat = catalog()
    for id, value in changes.items():
        spec = cat.agreements.get(id)
        if spec is None:
            raise RuleError(deal, "changes", "agreements.unknown", id=id)
        if not spec.changeable:
            raise RuleError(deal, "changes", "agreements.fixed", agreement=id, id=id)
        if not spec.accepts(value):
            raise RuleError(deal, "changes", "agreements.value", agreement=id, id=id,
                            expected=spec.expected(), got=value)
    order = list(cat.agreements)
    return AgreementChange(changes=tuple(sorted(changes.items(),
                                                key=lambda item: order.index(item[0]))))


_PARSERS: dict[str, Callable[[dict[str, Any], int, int], Record]] = {
    "play": _play, "raspis": _raspis, "redeal": _redeal, "adjustment": _adjustment,
    "agreements": _agreement_change}


def parse_record(data: Any, deal: int, players: int) -> Record:
    """Turn one JSON deal record into a typed record (shape checks only)."""
    if not isinstance(data, dict):
        raise RuleError(deal, "type", "record.object")
    kind = data.get("type")
    parser = _PARSERS.get(kind) if isinstance(kind, str) else None
    if parser is None:
        raise RuleError(deal, "type", "record.type", got=data.get("type"))
    return parser(data, deal, players)


def record_to_json(record: Record) -> dict[str, Any]:
    """The JSON form of one record, as docs/GAME-FORMAT.md writes it."""
    out: dict[str, Any]
    if isinstance(record, Play):
        out = {"type": "play", "declarer": record.declarer, "contract": record.contract,
               "points": list(record.points),
               "marriages": {str(s): list(m) for s, m in record.marriages.items()},
               "no_tricks": sorted(record.no_tricks)}
    elif isinstance(record, Raspis):
        out = {"type": "raspis", "declarer": record.declarer, "contract": record.contract}
    elif isinstance(record, Redeal):
        return {"type": "redeal"} | ({"reason": record.reason} if record.reason else {})
    elif isinstance(record, AgreementChange):
        return {"type": "agreements", "changes": dict(record.changes)}
    else:
        return {"type": "adjustment", "player": record.player, "amount": record.amount,
                "reason": record.reason}
    if record.dark:
        out["dark"] = True
    if record.prikup is not None:
        p = record.prikup
        out["prikup"] = {"points": p.points, "marriage": p.marriage}
        if p.aces is not None:
            out["prikup"]["aces"] = p.aces
    return out


def game_to_json(game: Game) -> dict[str, Any]:
    """The game's document (/2 only with an agreements record); round-trips with parse_game."""
    out: dict[str, Any] = {"format": log_format(game.deals)}
    for key in META_KEYS:
        if getattr(game, key) is not None:
            out[key] = getattr(game, key)
    out["players"] = list(game.players)
    out["agreements"] = {"preset": game.agreements.preset,
                         "overrides": dict(game.agreements.overrides)}
    out["first_dealer"] = game.first_dealer
    out["deals"] = [record_to_json(r) for r in game.deals]
    return out


def log_with(head: dict[str, Any], records: list[dict[str, Any]]) -> dict[str, Any]:
    """A stored head and records as one log, its format the version the records need."""
    return {**head, "format": log_format(records), "deals": records}


def log_format(records: Iterable[Record | dict[str, Any]]) -> str:
    """The version a log is written as: /2 if any record changes agreements, else /1."""
    for record in records:
        kind = record.get("type") if isinstance(record, dict) else record.type
        if kind == "agreements":
            return FORMAT_2
    return FORMAT
