"""The benchmarks' realistic game: dealt from real shuffled cards, kept in the temp folder.

The game comes from benchmarks/replay.py's ``build`` (marriages, bolts, raspis, the
barrel; nobody ever wins); building it replays it after every deal, so a built log is
kept as JSON in the temp folder and shorter games are its prefixes.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from replay import build  # noqa: E402


def card_dealt(deals: int, seed: int = 1) -> dict:
    """A card-dealt game log of this many deals that nobody wins."""
    folder = Path(tempfile.gettempdir())
    for path in sorted(folder.glob(f"scorer-bench-game-*-{seed}.json")):
        size = int(path.name.split("-")[3])
        if size >= deals:
            log = json.loads(path.read_text(encoding="utf-8"))
            return {**log, "deals": log["deals"][:deals]}
    log = build(deals, seed)
    path = folder / f"scorer-bench-game-{deals}-{seed}.json"
    path.write_text(json.dumps(log, ensure_ascii=False), encoding="utf-8")
    return log
