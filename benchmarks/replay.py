"""Replay speed: deals per second for a 300-deal, 3-player game of mostly played deals.

Usage: python benchmarks/replay.py [--deals 300] [--repeat 50] [--seed 1]

The game is dealt from real shuffled cards (tests/engine/strategies.py). It is kept
below the target on purpose: a declarer at 700 or more bids above what he will take,
so high scores come down through failed contracts and barrel falls and the game never
ends. This is a record of speed, not a timed test.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "engine"))

from strategies import NAMES, play_deal  # noqa: E402

from scorer.engine import parse_game, replay  # noqa: E402

HIGH = 700  # from here on a declarer fails, so nobody can win from the barrel


def build(deals: int, seed: int) -> dict:
    """A long game with no winner: mostly plays, a few concessions and redeals."""
    rnd = random.Random(seed)
    log = {"format": "thousand-game/1", "players": list(NAMES[:3]),
           "agreements": {"preset": "classic", "overrides": {}}, "first_dealer": 0,
           "deals": []}
    game = parse_game(log)
    protocol = replay(game)
    while len(log["deals"]) < deals:
        log["deals"].append(next_record(rnd, protocol, game.agreements))
        protocol = replay(parse_game(log))
        assert protocol.winner is None, "the benchmark game must not end"
    return log


def next_record(rnd: random.Random, protocol, agreements) -> dict:
    """One record for the state after ``protocol``."""
    nxt, barrel = protocol.next, {b.seat for b in protocol.barrel}
    roll = rnd.random()
    if roll < 0.03:
        return {"type": "redeal"}
    declarer = rnd.choice(nxt.active)
    high = protocol.score[declarer] >= HIGH or declarer in barrel
    if roll < 0.08 and not high:
        return {"type": "raspis", "declarer": declarer, "contract": rnd.choice([100, 110, 120])}
    fail = high or rnd.random() < 0.35
    for _ in range(6):  # a declarer who means to make it needs a hand worth 100
        deal = play_deal(rnd, 3, list(nxt.active), declarer, agreements)
        raw = deal.points[declarer] + deal.declared_value(declarer)
        if fail or raw >= 100:
            break
    if fail:
        contract = max(100, (raw // 5 + 1) * 5)  # above what he took: failed
        if contract > 300:
            return {"type": "redeal"}  # too strong a hand to fail with: thrown in
    else:
        contract = min(300, raw // 5 * 5) if raw >= 100 else 100
    return {"type": "play", "declarer": declarer, "contract": contract,
            "points": [deal.points[s] for s in range(3)],
            "marriages": {str(s): m for s, m in deal.marriages.items()},
            "no_tricks": deal.no_tricks}


def main(argv: list[str] | None = None) -> int:
    """Build the game once, replay it ``--repeat`` times, print deals per second."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    log = build(args.deals, args.seed)
    game = parse_game(log)
    protocol = replay(game)
    kinds = [r.result for r in protocol.rows]
    falls = sum(1 for r in protocol.rows for e in r.events if e.kind == "barrel_fall")
    print(f"game: {len(log['deals'])} records: {kinds.count('made')} made, "
          f"{kinds.count('failed')} failed, {kinds.count('raspis')} raspis, "
          f"{falls} barrel falls; final score {list(protocol.score)}")
    start = time.perf_counter()
    for _ in range(args.repeat):
        replay(game)
    elapsed = time.perf_counter() - start
    print(f"replay: {args.repeat} x {len(log['deals'])} deals in {elapsed:.3f} s = "
          f"{args.repeat * len(log['deals']) / elapsed:,.0f} deals/s")
    start = time.perf_counter()
    for _ in range(args.repeat):
        replay(parse_game(log)).to_json("ru")
    elapsed = time.perf_counter() - start
    print(f"parse + replay + protocol JSON: "
          f"{args.repeat * len(log['deals']) / elapsed:,.0f} deals/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
