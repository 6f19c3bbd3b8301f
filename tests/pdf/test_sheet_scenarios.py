"""Every engine scenario that replays also fills the sheet template, in both languages."""

import json
import re
from html import escape
from pathlib import Path

from scorer.engine import RuleError, parse_game, replay
from scorer.sheet import sheet_html

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def replayable_games():
    """The scenario games that replay without a refusal (golden, barrel, 2 and 4 players...)."""
    for path in sorted(SCENARIOS.rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        log = data.get("game") if isinstance(data, dict) else None
        if not isinstance(log, dict):
            continue
        try:
            game = parse_game(log)
            replay(game)
        except RuleError:
            continue
        yield path, game


def test_every_replayable_scenario_fills_the_sheet():
    """No event, record type or agreement set breaks the template (HTML only: fast)."""
    seen = 0
    for path, game in replayable_games():
        for lang in ("ru", "en"):
            html = sheet_html(game, lang=lang, appendix=True)
            assert all(escape(name) in html for name in game.players), path
            rows = re.findall(r'<tr class="(?:play|raspis|redeal|adjustment|agreements)[ "]', html)
            assert len(rows) == len(game.deals), path
        seen += 1
    assert seen >= 20
