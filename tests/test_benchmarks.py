"""The benchmark scripts still run (tiny sizes; their figures are not checked here)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"


def run(script: str, args: list[str]) -> str:
    """Run a benchmark on this checkout's code (not an installed copy); return its output."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *args],
                          capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.parametrize("script, args, expect", [
    ("replay.py", ["--deals", "20", "--repeat", "2"], "floor"),
    ("pdf.py", ["--sizes", "30", "--repeat", "1"], "30"),
    ("web.py", ["--sizes", "20", "40", "--rounds", "1", "--deals", "2", "--think", "50"],
     "log-log slope"),
    ("flood.py", ["--games", "2", "--deals", "20"], "host's first list view: 200"),
    ("stats.py", ["--games", "8", "--rounds", "5", "--repeat", "1"], "full rebuild"),
    ("cpu.py", ["--sizes", "20", "--deals", "3"], "the whole deal"),
    ("startup.py", ["--games", "2", "--deals", "20", "--repeat", "1"], "the whole start check"),
    # Its workloads natively: valgrind, which counts them, is not part of the test set-up.
    ("instructions.py", ["--native", "--size", "20", "--count", "2"], "bare route: ran 2"),
])
def test_a_benchmark_runs_and_prints_its_figures(script, args, expect):
    """Each script runs to the end at a tiny size: a script broken by a change of the
    code it measures fails here, not on the day someone needs its figures."""
    assert expect in run(script, args)


def test_the_evening_measures_every_request_kind_against_its_floor():
    """Every kind of request of the evening is timed for the app and the floor (no row
    left empty), the two goals are judged and the server CPU per deal is printed."""
    out = run("web.py", ["--sizes", "20", "--rounds", "1", "--deals", "3", "--think", "50"])
    for name in ("deal form", "preview", "POST + GET", "page again", "poll: new version",
                 "poll: 304"):
        row = next(line for line in out.splitlines() if f" {name} " in line)
        assert "nan" not in row, row
    assert out.count("p99 <= 3x: ") == 2
    assert "server CPU per deal" in out and "floor" in out


def test_the_evening_games_hold_every_kind_of_record():
    """The tables' games: 2-4 players, plays, concessions, redeals, adjustments, golden
    and dark deals, marriages, bolts and the 4-player talon; nobody wins; and each
    record, posted through the deal form's fields, is the record itself."""
    sys.path.insert(0, str(BENCHMARKS))
    from games import evening_game, form_fields

    from scorer.engine import parse_game, replay
    from scorer.web.game.deal_input import build, read, setup_for

    kinds, dark, prikup, marriages, bolts = set(), 0, 0, 0, 0
    for players in (2, 3, 4):
        log = evening_game(150, players, seed=7)
        game = parse_game(log)
        protocol = replay(game)
        assert len(log["players"]) == players and protocol.winner is None
        for i, record in enumerate(log["deals"]):
            kinds.add(record["type"])
            dark += bool(record.get("dark"))
            prikup += "prikup" in record
            marriages += bool(record.get("marriages"))
            fields = form_fields(record)
            form = FakeForm(fields)
            nxt = replay(game.with_deals(game.deals[:i])).next if i % 25 == 0 else None
            if nxt is not None:
                setup = setup_for(game, nxt)
                action, entry = read(setup, form, form.getlist)
                assert build(setup, action, entry) == normal(record), (players, i)
        assert replay(game.with_deals(())).next.golden  # the game opens with golden deals
        bolts += sum(1 for r in protocol.rows for e in r.events if e.kind == "bolt")
    assert kinds == {"play", "raspis", "redeal", "adjustment"}
    assert dark and prikup and marriages and bolts


class FakeForm(dict):
    """Posted fields as Flask's form reads them (one value, or a list by getlist)."""

    def get(self, key, default=None):
        """The single value of a field."""
        value = super().get(key, default)
        return value[0] if isinstance(value, list) else value

    def getlist(self, key):
        """Every value of a field."""
        value = super().get(key, [])
        return value if isinstance(value, list) else [value]


def normal(record: dict) -> dict:
    """A record as the deal form builds it (empty marriages, a talon marriage of None)."""
    out = dict(record)
    if out["type"] == "play":
        out.setdefault("marriages", {})
        out.setdefault("no_tricks", [])
    return out
