"""docs/RULES.md §9 worked examples, each through ``python -m scorer replay`` run elsewhere.

The command runs in a temporary directory so it must find its rules inside the
package, as an installed copy would. Expected numbers are worked out from the text.
"""

from __future__ import annotations

import json
import subprocess
import sys

PLAYERS = ["Аня", "Борис", "Вика"]


def game(deals: list[dict], **overrides) -> dict:
    """A 3-player classic game log, first dealer seat 0."""
    return {"format": "thousand-game/1", "players": PLAYERS,
            "agreements": {"preset": "classic", "overrides": overrides},
            "first_dealer": 0, "deals": deals}


def play(declarer, contract, points, marriages=None, no_tricks=None) -> dict:
    """A played deal record."""
    return {"type": "play", "declarer": declarer, "contract": contract, "points": points,
            "marriages": marriages or {}, "no_tricks": no_tricks or []}


def other(player: int, amount: int) -> dict:
    """An adjustment used to set a score up."""
    return {"type": "adjustment", "player": player, "amount": amount, "reason": "other"}


def cli_replay(log: dict, tmp_path, lang: str = "en") -> dict:
    """Run the CLI on a game file from ``tmp_path`` and return the protocol JSON."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "scorer", "replay", "game.json", "--lang", lang],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    protocol = json.loads(done.stdout)
    assert protocol["format"] == "thousand-protocol/1"
    assert protocol["players"] == log["players"]
    return protocol


def deltas(protocol: dict) -> list[list[int]]:
    """Each row's delta."""
    return [row["delta"] for row in protocol["rows"]]


def test_1_rounding(tmp_path):
    """Defenders: 17 → 15, 18 → 20, 12 → 10, 13 → 15."""
    p = cli_replay(game([play(1, 100, [17, 85, 18], {"1": ["hearts"]}),
                         play(2, 100, [12, 13, 95], {"2": ["spades"]})]), tmp_path)
    assert deltas(p) == [[15, 100, 20], [10, 15, 100]]


def test_2_declarer_made_and_failed(tmp_path):
    """98 + ♦80 = 178 on 120 → +120; 58 on 120 → −120 and the 58 are not counted."""
    p = cli_replay(game([play(1, 120, [10, 98, 12], {"1": ["diamonds"]}),
                         play(2, 120, [31, 31, 58])]), tmp_path)
    assert [r["result"] for r in p["rows"]] == ["made", "failed"]
    assert deltas(p) == [[10, 120, 10], [30, 30, -120]]
    assert p["score"] == [40, 150, -110]


def test_3_raspis_sixty_and_samosval(tmp_path):
    """A 495, B 200, C 760; C concedes 120 paying sixty: C 640, B 260, A 555 → 0."""
    p = cli_replay(game([other(0, 495), other(1, 200), other(2, 760),
                         {"type": "raspis", "declarer": 2, "contract": 120}],
                        raspis_payout="sixty"), tmp_path)
    assert p["score"] == [0, 260, 640]
    last = p["rows"][-1]
    assert last["result"] == "raspis"
    assert {"seat": 0, "kind": "samosval"} in last["events"]


def test_4_raspis_half_on_140(tmp_path):
    """Half payout on 140: each opponent +70, the declarer −140."""
    p = cli_replay(game([{"type": "raspis", "declarer": 1, "contract": 140}]), tmp_path)
    assert deltas(p) == [[70, -140, 70]]


def test_5_bolts_every_third(tmp_path):
    """The third bolt costs 120 and the count drops by three."""
    p = cli_replay(game([play(1, 100, [40, 80, 0], {"1": ["hearts"]}, [2]),
                         play(0, 100, [100, 20, 0], None, [2]),
                         play(1, 100, [15, 105, 0], None, [2])]), tmp_path)
    assert deltas(p)[-1] == [15, 100, -120]
    assert p["bolts"] == [0, 0, 0]
    kinds = [e["kind"] for e in p["rows"][-1]["events"] if e["seat"] == 2]
    assert sorted(kinds) == ["bolt", "bolt_penalty"]


def test_6_barrel_enter_and_fall(tmp_path):
    """900 sits on the barrel at 880; three deals without winning cost 120."""
    p = cli_replay(game([other(0, 800), play(0, 100, [100, 10, 10]),
                         play(1, 100, [20, 80, 20], {"1": ["hearts"]}),
                         play(2, 100, [20, 20, 80], {"2": ["hearts"]}),
                         play(1, 100, [20, 80, 20], {"1": ["diamonds"]})]), tmp_path)
    assert [r["score"][0] for r in p["rows"]] == [800, 880, 880, 880, 760]
    assert {"seat": 0, "kind": "barrel_enter"} in p["rows"][1]["events"]
    assert {"seat": 0, "kind": "barrel_fall", "cause": "attempts"} in p["rows"][4]["events"]
    assert p["barrel"] == [] and p["falls"] == [1, 0, 0]


def test_6_barrel_win(tmp_path):
    """From the barrel, winning the bidding and making 120 reaches 1000 and wins."""
    p = cli_replay(game([other(0, 880), play(0, 120, [100, 10, 10], {"0": ["diamonds"]})]),
                   tmp_path)
    assert p["winner"] == 0 and p["next"] is None
    assert p["score"] == [1000, 10, 10]


def test_7_golden(tmp_path):
    """Golden: a made 120 is +240, a failed one −240; defenders double."""
    p = cli_replay(game([play(1, 120, [20, 80, 20], {"1": ["hearts"]}),
                         play(2, 120, [30, 30, 60])], golden=True), tmp_path)
    assert [r["golden"] for r in p["rows"]] == [True, True]
    assert deltas(p) == [[40, 240, 40], [60, 60, -240]]


def test_why_in_both_languages(tmp_path):
    """``--lang`` switches the reasons; numbers stay the same."""
    log = game([play(1, 120, [10, 98, 12], {"1": ["diamonds"]})])
    en, ru = cli_replay(log, tmp_path, "en"), cli_replay(log, tmp_path, "ru")
    assert en["rows"][0]["delta"] == ru["rows"][0]["delta"]
    assert all(seat for seat in en["rows"][0]["why"])
    assert en["rows"][0]["why"] != ru["rows"][0]["why"]
