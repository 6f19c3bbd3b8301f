"""Server work per deal in instructions: a figure the machine's load does not move.

    python benchmarks/instructions.py [--size 200] [--count N] [--kinds deal ...]
    python benchmarks/instructions.py --native   # each workload once, no valgrind

Each kind of work is run N times after a setup (``--count``; by default 10 deals, 40
renders or 200 requests), under valgrind's cachegrind
(``--cache-sim=no``), and once more with a count of 0: the difference divided by the
count is what one unit costs, setup and interpreter start-up left out. The kinds:

- ``deal``: one table's whole deal as benchmarks/cpu.py plays it (3 players on a
  card-dealt game): the deal form, the preview, the POST, the GET after it with the
  read-only page rendered ahead, a second phone's page, two watchers' first polls of
  the new version and four 304s;
- ``edit page`` and ``read-only page``: one render of each game page of a version
  (its chart already drawn), the view model included;
- ``deal form``, ``poll 304``: one request of each through the test client (the 304s
  after the first are answered by scorer/web/polls.py, before Flask);
- ``poll kept page``: a watcher's first poll of a version whose page is kept (a 200);
- ``bare route``: a request to a route on the same app that only reads the session and
  answers 304, the per-request floor every answer above pays too.

The test client's own work is in every request figure; the cyclic garbage collector is
off while the units run (reference counting still frees nearly everything a request
makes), so the figures do not depend on where a collection happens to fall. Timings on
a shared 2-core machine drift by up to 2x within minutes; instruction counts do not, so a
change's effect is read here first and its timings (cpu.py, web.py) after.
"""

from __future__ import annotations

import argparse
import atexit
import gc
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

KINDS = ("deal", "edit page", "read-only page", "deal form", "poll 304", "poll kept page",
         "bare route")
# Units per kind: enough that the set-up's own wobble (a few million) is a small share.
COUNTS = {"deal": 10, "edit page": 40, "read-only page": 40, "deal form": 40,
          "poll 304": 200, "poll kept page": 100, "bare route": 200}
# Two runs of one count that differ by more than this share of the units' own work get a
# third, and the median is taken: one child once took 1.9e9 instructions more (a deal
# came out at -92 M), so no figure rests on a single child.
AGREE = 0.02
# A real evening: a deal every two minutes, three watchers polling every 5 s.
DEAL_SECONDS, WATCHERS, POLL_SECONDS = 120, 3, 5
# The share of one core a host may spend on the tables.
BUSY = 0.5
REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def workload(kind: str, size: int) -> Callable[[], object]:
    """Set up a game of ``size`` deals and return one unit of ``kind`` as a call."""
    import cpu
    from flask import session
    from games import evening_game

    from scorer import create_app
    from scorer.web import access, page_model
    from scorer.web.db import get_store
    from scorer.web.versions import load

    full = evening_game(size + 200, 3, seed=2)
    folder = tempfile.TemporaryDirectory(prefix="scorer-instr-")
    atexit.register(folder.cleanup)  # the child is the folder's only user
    app = create_app({"INSTANCE_PATH": folder.name, "SECRET_KEY": "bench",
                      "HOST_KEY": "bench" * 5})

    @app.get("/bench/bare")
    def bare() -> tuple[str, int, dict[str, str]]:
        """The floor: the session read, a 304."""
        session.get("tokens")
        return "", 304, {"ETag": 'W/"x"'}

    with app.app_context():
        head = {k: v for k, v in full.items() if k != "deals"}
        game = get_store().create_game(head, full["deals"][:size])
    table = cpu.Table(app, game)
    for i in range(2):  # the watchers' first loads
        table.poll(i, None)
    upcoming = iter(full["deals"][size:])
    for _ in range(2):  # templates compiled, every phone's first visit made
        table.deal(next(upcoming))
    if kind == "deal":
        return lambda: table.deal(next(upcoming))
    if kind in ("edit page", "read-only page"):
        editable = kind == "edit page"
        context = app.test_request_context("/", headers={"Cookie": "lang=ru"})
        context.push()  # for the life of this process
        row = access.game_for(game.edit_token, edit=True)
        loaded = load(row)
        page_model.chart_svg(loaded)
        return lambda: page_model.render(row, editable, loaded, blanks=editable)
    tag = table.tags[0]
    paths = {"deal form": (table.edit + "/deal", {}),
             "poll 304": (table.view, {"If-None-Match": tag or ""}),
             "poll kept page": (table.view, {}),
             "bare route": ("/bench/bare", {"If-None-Match": 'W/"x"'})}
    path, headers = paths[kind]
    return lambda: table.get(table.writer, path, **headers)


def child(kind: str, size: int, count: int, timed: bool = False) -> None:
    """Run ``count`` units of ``kind`` after its setup (and one more, warming it up), with
    the cyclic garbage collector off: whether a full collection lands in a run of ten or
    not moved a figure by a tenth, which would hide the changes this is for."""
    work = workload(kind, size)
    work()
    gc.collect()
    gc.freeze()
    gc.disable()
    start = time.process_time()
    for _ in range(count):
        work()
    if timed:
        print(time.process_time() - start)


VALGRIND = ["valgrind", "--tool=cachegrind", "--cache-sim=no",
            "--cachegrind-out-file=/dev/null"]


def run_child(kind: str, size: int, count: int, counted: bool = True) -> str:
    """Run ``count`` units of ``kind`` in a child process (under valgrind if counted);
    return what it wrote to stderr, where valgrind writes its summary."""
    # A fixed hash seed: the set-up (about 3.5e9 instructions, left out by the run of none)
    # then does the same work in both runs, not a random share of a percent more or less.
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [*(VALGRIND if counted else []), sys.executable, __file__, "--child", kind,
         "--size", str(size), "--count", str(count)],
        capture_output=True, text=True, check=False, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"{kind}: the child failed: {done.stderr[-1000:]}")
    return done.stderr


def instructions(kind: str, size: int, count: int) -> int:
    """Instructions cachegrind counts for a child running ``count`` units of ``kind``."""
    found = REFS.search(run_child(kind, size, count))
    if found is None:
        raise RuntimeError(f"{kind}: no instruction count in valgrind's summary")
    return int(found[1].replace(",", ""))


def per_unit(kind: str, size: int, count: int) -> tuple[int, str]:
    """Instructions per unit (N units minus none, each a robust count) and a note."""
    first_none = instructions(kind, size, 0)
    first_some = instructions(kind, size, count)
    scale = max(first_some - first_none, count)  # the units' work, for the agreement
    none, made_none = agreed_with(first_none, kind, size, 0, scale)
    some, made_some = agreed_with(first_some, kind, size, count, scale)
    return (some - none) // count, f"{made_none}+{made_some} runs"


def agreed_with(first: int, kind: str, size: int, count: int, scale: int) -> tuple[int, int]:
    """A child's count for ``count`` units: ``first`` and a second run if they agree
    within AGREE of ``scale`` (the units' own work), else the median of three; and how
    many runs that took."""
    runs = [first, instructions(kind, size, count)]
    if abs(runs[0] - runs[1]) > AGREE * scale:
        runs.append(instructions(kind, size, count))
    return sorted(runs)[len(runs) // 2], len(runs)


def bare_seconds(size: int) -> float:
    """CPU seconds of one bare-route request, timed natively: with its instruction count,
    what turns counts into a core's time on this machine (it moves with the load)."""
    count = 2000
    done = subprocess.run(
        [sys.executable, __file__, "--child", "bare route", "--size", str(size),
         "--count", str(count), "--timed"],
        capture_output=True, text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    return float(done.stdout.split()[-1]) / count


def capacity(per: dict[str, int], seconds: float) -> str:
    """How many tables one core holds at BUSY of its time, at a real evening's pace."""
    polls = WATCHERS * DEAL_SECONDS // POLL_SECONDS  # per deal, all watchers
    # The deal as played holds two watchers' first polls of the new version and their
    # first 304s (through Flask) and second ones (noted). Each further watcher's first
    # poll and first 304 are counted as kept pages (more than a 304 costs), the rest as
    # noted 304s.
    extra = WATCHERS - 2
    table = (per["deal"] + 2 * extra * per["poll kept page"]
             + (polls - 6 - 2 * extra) * per["poll 304"])
    tables = BUSY * DEAL_SECONDS / (table * seconds)
    share = (polls - 6 - 2 * extra) * per["poll 304"] / table
    return (f"  capacity: {tables:,.0f} tables per core at {BUSY:.0%} busy (a deal every"
            f" {DEAL_SECONDS} s, {WATCHERS} watchers polling every {POLL_SECONDS} s:"
            f" {table / 1e6:.1f} M instructions per table and deal, {share:.0%} of them"
            f" 304s; {seconds * 1e9:.3f} ns per instruction here)")


def main(argv: list[str] | None = None) -> int:
    """Print instructions per unit of each kind, and the deal's against the bare route."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=200, help="deals in the game (200)")
    parser.add_argument("--count", type=int, default=None,
                        help="units per kind (default: 10 deals, 40 renders, 200 requests)")
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
    parser.add_argument("--native", action="store_true",
                        help="run each kind's units once, without valgrind (a smoke run)")
    parser.add_argument("--child", choices=KINDS, help=argparse.SUPPRESS)
    parser.add_argument("--timed", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child, args.size, args.count, args.timed)
        return 0
    if args.native:  # the children as counted, minus valgrind
        for kind in args.kinds:
            run_child(kind, args.size, args.count or 1, counted=False)
            print(f"{kind}: ran {args.count or 1} (natively, not counted)")
        return 0
    if shutil.which("valgrind") is None:
        print("instructions.py: valgrind is not installed (apt-get install valgrind)")
        return 2
    print(f"instructions per unit at {args.size} deals (a run of N units minus a run of none)")
    per: dict[str, int] = {}
    for kind in args.kinds:
        count = args.count or COUNTS[kind]
        per[kind], note = per_unit(kind, args.size, count)
        print(f"  {kind:16} {per[kind]:>12,}  (N={count}, {note})", flush=True)
    if "deal" in per and per.get("bare route"):
        print(f"  a deal is {per['deal'] / per['bare route']:.1f} bare-route requests")
    if {"deal", "poll 304", "poll kept page", "bare route"} <= per.keys():
        print(capacity(per, bare_seconds(args.size) / per["bare route"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
