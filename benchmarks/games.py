"""The benchmarks' realistic games: dealt from real shuffled cards, kept in the temp folder.

``card_dealt`` is benchmarks/replay.py's 3-player game (marriages, bolts, raspis, the
barrel). ``evening_game`` is a table of 2, 3 or 4 players with every kind of record:
plays with marriages (ace and half ones too) and bolts, golden and dark deals,
concessions, redeals, adjustments (penalties and bonuses) and, with 4 players, the
sitting dealer's talon. Nobody ever wins: a declarer high in the score bids above what
he takes, and without a barrel a leader is fined back. Building a game scores it after
every record, so a built log is kept as JSON in the temp folder and shorter games are
its prefixes. ``form_fields`` turns a record into what the deal form posts.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "engine"))

from replay import build  # noqa: E402
from strategies import DECK, NAMES, play_deal, prikup_of  # noqa: E402

from scorer.engine import RuleError, advance, parse_game, parse_record, start  # noqa: E402

HIGH = 700  # with a barrel: from here on a declarer fails, so nobody wins from it
HIGH_NO_BARREL = 450  # without one: a declarer who makes it scores all he took
FINED = 650  # without a barrel: a player this high is fined back (a defender gains too)

# The agreement sets of the evening's tables: every kind of record is allowed.
TABLES = {
    2: ("two-players", {"dark": True, "golden": True, "half_marriage": True}),
    3: ("classic", {"golden": True, "dark": True, "ace_marriage": True,
                    "half_marriage": True, "four_nines_bonus": 120}),
    4: ("classic", {"golden": True, "dark": True, "four_dealer_prikup": "points"}),
}


def kept(name: str, deals: int, make: Callable[[], dict]) -> dict:
    """A log of this many deals: a prefix of a kept longer one, else made and kept."""
    folder = Path(tempfile.gettempdir())
    for path in sorted(folder.glob(f"scorer-bench-{name}-*.json")):
        size = int(path.stem.rsplit("-", 1)[1])
        if size >= deals:
            log = json.loads(path.read_text(encoding="utf-8"))
            return {**log, "deals": log["deals"][:deals]}
    log = make()
    path = folder / f"scorer-bench-{name}-{deals}.json"
    path.write_text(json.dumps(log, ensure_ascii=False), encoding="utf-8")
    return log


def card_dealt(deals: int, seed: int = 1) -> dict:
    """A 3-player card-dealt game log of this many deals that nobody wins."""
    return kept(f"game-s{seed}", deals, lambda: build(deals, seed))


def evening_game(deals: int, players: int, seed: int = 1) -> dict:
    """A card-dealt game of 2-4 players with every kind of record, that nobody wins."""
    return kept(f"evening-{players}p-s{seed}", deals, lambda: Evening(players, seed).build(deals))


class Evening:
    """Grows one game record by record, each scored by the engine before the next."""

    def __init__(self, players: int, seed: int):
        preset, overrides = TABLES[players]
        self.rnd = random.Random(seed * 10 + players)
        self.log = {"format": "thousand-game/1", "players": list(NAMES[:players]),
                    "agreements": {"preset": preset, "overrides": overrides},
                    "first_dealer": 0, "deals": []}
        self.ag = parse_game(self.log).agreements
        self.state = start(parse_game(self.log))

    def build(self, deals: int) -> dict:
        """Add records until there are ``deals``; a refused or winning one becomes a redeal."""
        while len(self.log["deals"]) < deals:
            record = self.next_record()
            if not self.take(record):
                assert self.take({"type": "redeal"}), "a redeal is always taken"
        return self.log

    def take(self, record: dict) -> bool:
        """Score a record; keep it if the engine allows it and nobody wins by it."""
        number = len(self.log["deals"]) + 1
        try:
            state = advance(self.state, parse_record(record, number, len(self.log["players"])))
        except RuleError:
            return False
        if state.winner is not None:
            return False
        self.state = state
        self.log["deals"].append(record)
        return True

    def next_record(self) -> dict:
        """One record for the state now: mostly plays, the other kinds now and then."""
        rnd, ag, protocol = self.rnd, self.ag, self.state.protocol()
        nxt = protocol.next
        score = list(protocol.score)
        leader = max(range(len(score)), key=score.__getitem__)
        if not ag["barrel"] and score[leader] >= FINED:
            return {"type": "adjustment", "player": leader, "amount": -300, "reason": "other"}
        roll = rnd.random()
        if roll < 0.03:
            return {"type": "redeal"}
        if roll < 0.07:
            return self.adjustment(score)
        barrel = {b.seat for b in protocol.barrel}
        high = HIGH if ag["barrel"] else HIGH_NO_BARREL
        if nxt.golden:
            declarer, dark = nxt.forced_declarer, False
        else:
            declarer = rnd.choice(nxt.active)
            dark = (ag["dark"] and declarer == nxt.forced_declarer and rnd.random() < 0.15)
        fail = score[declarer] >= high or declarer in barrel
        if roll < 0.12 and not fail:
            record = {"type": "raspis", "declarer": declarer,
                      "contract": 120 if nxt.golden or dark else rnd.choice([100, 110, 120])}
            return self.dressed(record, dark, None)
        return self.play(nxt, declarer, dark, fail or rnd.random() < 0.35)

    def adjustment(self, score: list[int]) -> dict:
        """A penalty or a bonus outside the play (never one that would end the game)."""
        rnd, ag = self.rnd, self.ag
        player = rnd.randrange(len(score))
        kinds = ["other", "misdeal"] + (["cut_nines"] if ag["cut_nines_penalty"] else [])
        if ag["four_nines_bonus"] and score[player] < 500:
            kinds.append("four_nines")
        reason = rnd.choice(kinds)
        amount = {"cut_nines": -ag["penalty"], "four_nines": ag["four_nines_bonus"],
                  "misdeal": -rnd.choice([10, 20, 50]),
                  "other": rnd.choice([-50, -20, 20, 50])}[reason]
        return {"type": "adjustment", "player": player, "amount": amount, "reason": reason}

    def play(self, nxt, declarer: int, dark: bool, fail: bool) -> dict:
        """A deal dealt and played out, its contract chosen to be made or failed."""
        rnd, ag, n = self.rnd, self.ag, len(self.log["players"])
        for _ in range(6):  # a declarer who means to make it needs a hand worth 100
            deal = play_deal(rnd, n, list(nxt.active), declarer, ag)
            raw = deal.points[declarer] + deal.declared_value(declarer)
            if fail or raw >= 100:
                break
        if nxt.golden or dark:
            contract = 120
        elif fail:
            contract = max(100, (raw // 5 + 1) * 5)  # above what he took: failed
            if contract > ag["max_contract"]:
                return {"type": "redeal"}  # too strong a hand to fail with: thrown in
        else:
            contract = min(ag["max_contract"], raw // 5 * 5) if raw >= 100 else 100
        record = {"type": "play", "declarer": declarer, "contract": contract,
                  "points": [deal.points.get(s) for s in range(n)],
                  "marriages": {str(s): m for s, m in deal.marriages.items()},
                  "no_tricks": deal.no_tricks}
        return self.dressed(record, dark, deal.talon)

    def dressed(self, record: dict, dark: bool, talon) -> dict:
        """The record with its dark flag and, with 4 players, the sitting dealer's talon."""
        if dark:
            record["dark"] = True
        if len(self.log["players"]) == 4:
            if talon is None:
                cards = list(DECK)
                self.rnd.shuffle(cards)
                talon = cards[:3]
            prikup = prikup_of(talon, self.ag)
            if prikup is not None:
                record["prikup"] = prikup
        return record


def form_fields(record: dict) -> dict[str, str | list[str]]:
    """What the deal form posts for a record (besides csrf_token, version and sid)."""
    kind = record["type"]
    if kind == "redeal":
        return {"action": "redeal"}
    if kind == "adjustment":
        return {"action": "adjustment", "player": str(record["player"]),
                "amount": str(record["amount"]), "reason": record["reason"]}
    out: dict[str, str | list[str]] = {"action": kind, "declarer": str(record["declarer"]),
                                       "contract": str(record["contract"])}
    if record.get("dark"):
        out["dark"] = "1"
    prikup = record.get("prikup")
    if prikup:
        out["prikup_points"] = str(prikup["points"])
        out["prikup_marriage"] = prikup.get("marriage") or ""
        if prikup.get("aces") is not None:
            out["prikup_aces"] = str(prikup["aces"])
    if kind == "play":
        for seat, points in enumerate(record["points"]):
            if points is not None:
                out[f"points_{seat}"] = str(points)
        for seat in record.get("no_tricks", []):
            out[f"nt_{seat}"] = "1"
        for seat, marriages in record.get("marriages", {}).items():
            out[f"mar_{seat}"] = list(marriages)
    return out
