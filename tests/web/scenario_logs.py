"""The game logs of the scenario files (tests/scenarios) that replay: real games for tests."""

from __future__ import annotations

import json
from pathlib import Path

from scorer.engine import RuleError, parse_game, replay

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def replayable_logs() -> list[dict]:
    """Every scenario's game log that replays (the refused ones have no protocol)."""
    logs = []
    for path in sorted(SCENARIOS.glob("*/*.json")):
        game = json.loads(path.read_text(encoding="utf-8")).get("game")
        try:
            replay(parse_game(game))
        except RuleError:
            continue
        logs.append(game)
    return logs
