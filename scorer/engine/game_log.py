"""A game log as a whole document: read from outside JSON, bounded, parsed, checked.

Records and the log's JSON shape are in :mod:`scorer.engine.records`; this module sits
above scoring because reading a log names its earliest refusal, which may need a replay
of the records before a malformed one (RULES.md §10).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from scorer.engine.catalog import Agreements, resolve_agreements
from scorer.engine.errors import RuleError
from scorer.engine.names import MAX_NAME, MAX_NOTES, check_date, check_name, check_text, name_key
from scorer.engine.records import (
    FORMAT,
    FORMATS,
    GAME_KEYS,
    MAX_DEALS,
    META_KEYS,
    AgreementChange,
    Game,
    Record,
    check_deal_count,
    game_to_json,
    log_with,
    parse_record,
)
from scorer.engine.scoring import replay


def _players(value: Any) -> tuple[str, ...]:
    """2–4 distinct, non-empty names."""
    if not isinstance(value, list):
        raise RuleError(None, "players", "type", expected="a list of names")
    if not 2 <= len(value) <= 4:
        raise RuleError(None, "players", "players.count", got=len(value))
    names: dict[str, str] = {}  # name_key → the name as given
    for name in value:
        if not isinstance(name, str) or not name.strip():
            raise RuleError(None, "players", "players.name")
        name = name.strip()
        if len(name) > MAX_NAME:
            raise RuleError(None, "players", "players.long", max=MAX_NAME)
        check_name(name)
        key = name_key(name)
        if key in names:
            rule = "players.duplicate" if names[key] == name else "players.lookalike"
            raise RuleError(None, "players", rule, name=name, other=names[key])
        names[key] = name
    return tuple(names.values())


def _agreements(value: Any) -> Agreements:
    """``{"preset": ..., "overrides": {...}}`` resolved against the catalog."""
    if value is None:
        return resolve_agreements("classic", {})
    if not isinstance(value, dict) or not set(value) <= {"preset", "overrides"}:
        raise RuleError(None, "agreements", "type",
                        expected='{"preset": ..., "overrides": {...}}')
    overrides = value.get("overrides") or {}
    if not isinstance(overrides, dict):
        raise RuleError(None, "agreements", "type", expected="an object of overrides")
    preset = value.get("preset", "classic")
    if not isinstance(preset, str):
        raise RuleError(None, "agreements", "agreements.preset", name=preset)
    return resolve_agreements(preset, overrides)


MAX_DEPTH = 8  # a game log nests five levels (game, deals, record, marriages, suits)
# The largest game log worth reading: the app's own export (indented by one space) of the
# heaviest 2000-deal game, 4 players, every deal with the talon, four marriages, dark and
# every text at its cap, is 856 KB; a plain 2000-deal log is about 230 KB.
MAX_LOG_BYTES = 1024 * 1024
# Objects and lists in such a log: at most 9 per deal (record, points, marriages and a list
# per seat, no_tricks, talon) and a few for the head; the cap adds a note's worth of braces
# written as text. Counted in the raw bytes, before decoding: 690 000 empty deals fit in
# 2 MB and cost 100 MB once decoded, only to be refused as more than 2000 deals.
MAX_CONTAINERS = 10 * MAX_DEALS + MAX_NOTES + 1000


def load_game(text: str | bytes) -> Game:
    """Decode a ``thousand-game/1`` file (JSON text or UTF-8 bytes) into a Game.

    The one door for outside JSON (web import, CLI replay, backup import): too large,
    unreadable, too deeply nested or non-object input is refused as RuleError(field
    "json"), the rest by :func:`parse_game`.
    """
    check_size(text)
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise RuleError(None, "json", "json", detail="not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        detail = f"line {exc.lineno} column {exc.colno}: {exc.msg}"
        raise RuleError(None, "json", "json", detail=detail) from None
    except RecursionError:  # thousands of levels deep: no game log looks like that
        raise RuleError(None, "json", "json", detail="nested too deeply") from None
    except ValueError as exc:  # e.g. an integer past Python's int-to-str digit limit
        raise RuleError(None, "json", "json", detail=str(exc)) from None
    if not isinstance(data, dict):
        raise RuleError(None, "json", "json.object")
    if _depth(data) > MAX_DEPTH:
        raise RuleError(None, "json", "json", detail="nested too deeply")
    return parse_game(data)


def check_size(text: str | bytes) -> None:
    """Refuse, from its length and a count of ``{`` and ``[``, a file larger than any game
    log: cheap checks on the raw text, so nothing huge is ever decoded."""
    if len(text) > MAX_LOG_BYTES:
        raise RuleError(None, "json", "json.size", max=MAX_LOG_BYTES // 1024)
    opened = (text.count(b"{") + text.count(b"[") if isinstance(text, bytes)
              else text.count("{") + text.count("["))
    if opened > MAX_CONTAINERS:
        raise RuleError(None, "json", "json.containers", max=MAX_CONTAINERS, got=opened)


def _depth(data: Any) -> int:
    """How deeply lists and objects nest in ``data`` (iterative: no recursion limit).

    One iterator per open container, never an entry per element: a flat list of half a
    million numbers is walked in place (a stack of (item, level) pairs built one tuple
    per element, 30 MB for such a list, and eight imports at once kept the server at
    hundreds of MB).
    """
    deepest = 1
    stack: list[Iterator[Any]] = [_children(data)]
    while stack:
        child = next(stack[-1], _END)
        if child is _END:
            stack.pop()
        elif isinstance(child, dict | list):
            if len(stack) + 1 > MAX_DEPTH:
                return len(stack) + 1
            deepest = max(deepest, len(stack) + 1)
            stack.append(_children(child))
    return deepest if isinstance(data, dict | list) else 0


_END = object()  # the end of a container's children


def _children(item: Any) -> Iterator[Any]:
    """The values an object or list holds, in place (nothing for anything else)."""
    if isinstance(item, dict):
        return iter(item.values())
    return iter(item) if isinstance(item, list) else iter(())


def parse_game(data: Any) -> Game:
    """Turn a ``thousand-game/1`` or ``/2`` document into a typed Game (shape checks only).

    Errors of the game as a whole come first. A record that cannot be read is refused
    unless a record before it breaks a rule: that one is named instead (RULES.md §10).
    """
    if not isinstance(data, dict):
        raise RuleError(None, "format", "type", expected="a JSON object")
    version = data.get("format", FORMAT)
    if version not in FORMATS:
        raise RuleError(None, "format", "format")
    for key in data:
        if key not in GAME_KEYS:
            raise RuleError(None, key, "unknown_key", key=key)
    players = _players(data.get("players"))
    agreements = _agreements(data.get("agreements"))
    first = data.get("first_dealer", 0)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < len(players):
        raise RuleError(None, "first_dealer", "first_dealer.range",
                        max=len(players) - 1, got=first)
    raw = data.get("deals", [])
    if not isinstance(raw, list):
        raise RuleError(None, "deals", "type", expected="a list")
    check_deal_count(len(raw))
    meta = {}
    for key in META_KEYS:
        if data.get(key) is not None and not isinstance(data[key], str):
            raise RuleError(None, key, "type", expected="a string")
        if data.get(key) is not None:
            check_text(key, data[key])
            if key == "date":
                check_date(data[key])
        meta[key] = data.get(key)
    game = Game(players=players, agreements=agreements, first_dealer=first, deals=(), **meta)
    deals: list[Record] = []
    for number, item in enumerate(raw, 1):
        try:
            record = parse_record(item, number, len(players))
            if version == FORMAT and isinstance(record, AgreementChange):
                raise RuleError(number, "type", "format.version")
        except RuleError as err:
            raise _earlier_refusal(game.with_deals(deals)) or err from None
        deals.append(record)
    return game.with_deals(deals)


def _earlier_refusal(game: Game) -> RuleError | None:
    """The refusal of the records before a malformed one, if any (RULES.md §10).

    The earliest bad record of a log is named first, whatever its kind: a deal that breaks
    a rule comes before a later record that cannot even be read.
    """
    try:
        replay(game)
    except RuleError as err:
        return err
    return None


def checked_parts(data: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A log (JSON data or a Game) as a store keeps it: (head, deal records), normalised.

    The whole game is replayed first, so a log is accepted only if every deal is valid;
    the first bad thing raises RuleError.
    """
    game = data if isinstance(data, Game) else parse_game(data)
    replay(game)
    log = game_to_json(game)
    return log, log.pop("deals", [])


def end_totals(head: dict[str, Any], records: list[dict[str, Any]]
               ) -> tuple[int | None, list[int]]:
    """(winner seat or None, end scores) of a checked log's head and records."""
    protocol = replay(parse_game(log_with(head, records)))
    return protocol.winner, list(protocol.score)
