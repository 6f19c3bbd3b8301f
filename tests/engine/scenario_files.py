"""Scenario files under tests/scenarios/: loading them and matching expected subsets."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from scorer.engine import RuleError, parse_game, replay

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
AREAS = ("rounding", "declarer", "raspis", "bolts", "barrel", "samosval", "golden", "dark",
         "four_players", "two_players", "validation", "events", "adjustments", "rule_change")
KEYS = {"description", "game", "expect", "error", "toggle", "rule"}


def scenario_paths() -> list[Path]:
    """Every scenario file, sorted, so test ids are stable."""
    return sorted(SCENARIOS.glob("*/*.json"))


def load(path: Path) -> dict:
    """One scenario document, checked for shape so a typo cannot silently pass."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    unknown = set(doc) - KEYS
    assert not unknown, f"{path.name}: unknown keys {unknown}"
    assert path.parent.name in AREAS, f"{path}: unknown area"
    assert doc.get("description"), f"{path.name}: needs a description"
    assert ("expect" in doc) != ("error" in doc), f"{path.name}: needs expect or error"
    return doc


def scenario_id(path: Path) -> str:
    """``area/name`` for test ids."""
    return f"{path.parent.name}/{path.stem}"


def outcome(game: dict) -> tuple[str, Any]:
    """Replay a game log: ("ok", protocol JSON in English) or ("error", message)."""
    try:
        protocol = replay(parse_game(copy.deepcopy(game)))
    except RuleError as err:
        return "error", err.message("en")
    return "ok", protocol.to_json(lang="en")


def mismatches(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Where ``actual`` fails to contain ``expected`` (dicts: subset; lists: element-wise).

    The one exception is a row's ``events``: docs/GAME-FORMAT.md does not fix their order
    within a row, so they are matched as a multiset (each expected event against a
    distinct actual event), still with equal length.
    """
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path or '.'}: expected an object, got {actual!r}"]
        out = []
        for key, value in expected.items():
            if key not in actual:
                out.append(f"{path}.{key}: missing (expected {value!r})")
            elif key == "events" and isinstance(value, list):
                out += _events(value, actual[key], f"{path}.{key}")
            else:
                out += mismatches(value, actual[key], f"{path}.{key}")
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{path}: expected {expected!r}, got {actual!r}"]
        out = []
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            out += mismatches(e, a, f"{path}[{i}]")
        return out
    if type(expected) is not type(actual) and not (_num(expected) and _num(actual)):
        return [f"{path}: expected {expected!r}, got {actual!r}"]
    return [] if expected == actual else [f"{path}: expected {expected!r}, got {actual!r}"]


def _num(x: Any) -> bool:
    """An int that is not a bool."""
    return isinstance(x, int) and not isinstance(x, bool)


def _events(expected: list, actual: Any, path: str) -> list[str]:
    """Match events as a multiset by backtracking (rows hold only a few events)."""
    if not isinstance(actual, list) or len(actual) != len(expected):
        return [f"{path}: expected {expected!r}, got {actual!r}"]

    def place(i: int, used: frozenset) -> bool:
        """Whether expected events i.. can each take an unused actual event."""
        if i == len(expected):
            return True
        return any(j not in used and not mismatches(expected[i], a)
                   and place(i + 1, used | {j}) for j, a in enumerate(actual))

    return [] if place(0, frozenset()) else [f"{path}: expected {expected!r}, got {actual!r}"]


def without_override(game: dict, agreement: str) -> dict:
    """The same game with one override removed (the preset's value applies again)."""
    other = copy.deepcopy(game)
    other.setdefault("agreements", {}).setdefault("overrides", {}).pop(agreement, None)
    return other
