"""Server work per deal in instructions: a figure the machine's load does not move.

    python benchmarks/instructions.py [--size 200] [--count N] [--kinds deal ...]
    python benchmarks/instructions.py --native   # each workload once, no valgrind

Each kind of work is run N times after a setup (``--count``; by default 10 deals, 40
renders or 200 requests) under valgrind's callgrind, which counts only while the units
run (switched on and off around them; the set-up is never counted), in two children
(a third, and the median, if they differ by more than 2 %); the count divided by N is
what one unit costs. With ``deal``, ``poll 304``, ``poll kept page`` and ``bare route``
it prints how many tables one core holds at half its time at a real evening's pace (a
deal every two minutes, three watchers polling every 5 s), the counts turned into time
by the bare route's native CPU time. The kinds:

- ``deal``: one table's whole deal as benchmarks/cpu.py plays it (3 players on a
  card-dealt game): the deal form, the preview, the POST, the GET after it, a second
  phone's page, two watchers' first polls of the new version and four 304s;
- ``edit page`` and ``read-only page``: one render of each game page of a version
  (its chart already drawn), the view model included; ``plain edit page`` and ``plain
  read-only page``: the same HTML written by benchmarks/web.py's floor, a plain Jinja
  template of the page's markup and values (the 3x goal, counted);
- ``GET after POST``: the scorekeeper's GET of the new version's edit page after posting
  a deal (the POST, its form and the watchers' polls not counted): the request, its
  chart and tallies worked on from the version before, the render, the page filled in
  for the browser and gzipped; ``plain GET``: web.py's floor answering the same page, a
  request to a bare Flask app with the app's session and CSRF that renders the plain
  template with the browser's token and gzips it (the 3x goal of the GET, counted);
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
import ctypes
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

KINDS = ("deal", "edit page", "read-only page", "plain edit page", "plain read-only page",
         "GET after POST", "plain GET", "deal form", "poll 304", "poll kept page",
         "bare route")
# Units per kind: enough that the set-up's own wobble (a few million) is a small share.
COUNTS = {"deal": 10, "edit page": 40, "read-only page": 40, "plain edit page": 40,
          "plain read-only page": 40, "GET after POST": 10, "plain GET": 40, "deal form": 40,
          "poll 304": 200, "poll kept page": 100, "bare route": 200}
# Two children whose counts differ by more than this share get a third, and the median
# is taken: no figure rests on a single child.
AGREE = 0.02
# A real evening: a deal every two minutes, three watchers polling every 5 s.
DEAL_SECONDS, WATCHERS, POLL_SECONDS = 120, 3, 5
# The share of one core a host may spend on the tables.
BUSY = 0.5


def workload(kind: str, size: int) -> Callable[[], object]:
    """Set up a game of ``size`` deals and return one unit of ``kind`` as a call."""
    import cpu
    from flask import session
    from games import evening_game

    from scorer import create_app
    from scorer.web import access
    from scorer.web.db import get_store
    from scorer.web.game import page_model
    from scorer.web.game.versions import load

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
    if kind == "GET after POST":
        return Paused(lambda: table.post(next(upcoming)),
                      lambda: table.get(table.writer, table.landing))
    if kind == "plain GET":
        import web
        writer = app.test_client()
        edit = writer.get(table.edit).get_data(as_text=True)
        view = writer.get(table.view).get_data(as_text=True)
        floor = web.floor_app([{"form": b"", "preview": b""}],
                              [[{"page": edit, "view": view}]],
                              str(Path(folder.name) / "floor.sqlite"))
        client = floor.test_client()
        return lambda: client.get("/f/0/page", headers={"Accept-Encoding": "gzip"},
                                  buffered=True)
    if kind in ("edit page", "read-only page", "plain edit page", "plain read-only page"):
        editable = kind.endswith("edit page")
        context = app.test_request_context("/", headers={"Cookie": "lang=ru"})
        context.push()  # for the life of this process
        row = access.game_for(game.edit_token, edit=True)
        loaded = load(row)
        page_model.chart_svg(loaded)
        if kind.startswith("plain"):  # web.py's floor: the same HTML by a plain template
            import web
            from jinja2 import Environment
            plain = web.plain_page(Environment(autoescape=True),
                                   page_model.render(row, editable, loaded))
            return lambda: plain.template.render(v=plain.values)
        return lambda: page_model.render(row, editable, loaded, blanks=editable)
    tag = table.tags[0]
    paths = {"deal form": (table.edit + "/deal", {}),
             "poll 304": (table.view, {"If-None-Match": tag or ""}),
             "poll kept page": (table.view, {}),
             "bare route": ("/bench/bare", {"If-None-Match": 'W/"x"'})}
    path, headers = paths[kind]
    return lambda: table.get(table.writer, path, **headers)


class Paused:
    """A unit with an uncounted step before it (``first``), run with the count paused."""

    def __init__(self, first: Callable[[], object], work: Callable[[], object]):
        self.first, self.work = first, work

    def __call__(self) -> object:
        """Both steps, unmetered (the warm-up)."""
        self.first()
        return self.work()


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
    metered(count)(work)
    if timed:
        print(time.process_time() - start)


# Counted by callgrind with instrumentation off until the units start: a tiny library
# (built with the system's C compiler from valgrind's callgrind.h) switches it on and
# off around them, so the set-up (about 3.5e9 instructions) is never counted and no run
# of none is subtracted. A child's set-up once came out 1.9e9 instructions longer than
# its twin's, which made a deal -92 M when two whole runs were subtracted.
METER_C = """#include <valgrind/callgrind.h>
void meter_start(void) { CALLGRIND_ZERO_STATS; CALLGRIND_START_INSTRUMENTATION; }
void meter_stop(void) { CALLGRIND_STOP_INSTRUMENTATION; CALLGRIND_DUMP_STATS_AT("units"); }
void meter_pause(void) { CALLGRIND_TOGGLE_COLLECT; }
"""
METER_ENV = "SCORER_METER"
TOTALS = re.compile(r"^totals:\s+(\d+)", re.MULTILINE)


def meter() -> str:
    """The path of the start/stop library, built once into a temporary folder."""
    folder = tempfile.mkdtemp(prefix="scorer-meter-")
    atexit.register(shutil.rmtree, folder, True)
    source, library = Path(folder) / "meter.c", Path(folder) / "meter.so"
    source.write_text(METER_C)
    subprocess.run(["cc", "-shared", "-fPIC", "-O1", "-o", str(library), str(source)],
                   check=True, capture_output=True)
    return str(library)


def metered(count: int) -> Callable[[Callable[[], object]], None]:
    """Run a unit ``count`` times, counted only while it runs (when under the meter)."""
    path = os.environ.get(METER_ENV)
    switch = ctypes.CDLL(path) if path else None

    def run(work: Callable[[], object]) -> None:
        if switch is not None:
            switch.meter_start()
        for _ in range(count):
            if isinstance(work, Paused):  # its first step outside the count
                if switch is not None:
                    switch.meter_pause()
                work.first()
                if switch is not None:
                    switch.meter_pause()
                work.work()
            else:
                work()
        if switch is not None:
            switch.meter_stop()
    return run


def run_child(kind: str, size: int, count: int, env: dict[str, str] | None = None,
              tool: list[str] | None = None) -> str:
    """Run ``count`` units of ``kind`` in a child process (under ``tool`` if given);
    return what it wrote to stdout."""
    # A fixed hash seed: every run does the same work, not a random share of a percent
    # more or less.
    done = subprocess.run(
        [*(tool or []), sys.executable, __file__, "--child", kind,
         "--size", str(size), "--count", str(count)],
        capture_output=True, text=True, check=False,
        env={**os.environ, "PYTHONHASHSEED": "0", **(env or {})})
    if done.returncode != 0:
        raise RuntimeError(f"{kind}: the child failed: {done.stderr[-1000:]}")
    return done.stdout


def instructions(kind: str, size: int, count: int, library: str) -> int:
    """Instructions callgrind counts while a child runs ``count`` units of ``kind``."""
    with tempfile.TemporaryDirectory(prefix="scorer-cg-") as folder:
        out = str(Path(folder) / "callgrind.out")
        run_child(kind, size, count, {METER_ENV: library},
                  ["valgrind", "--tool=callgrind", "--instr-atstart=no",
                   f"--callgrind-out-file={out}"])
        dumps = [f.read_text() for f in Path(folder).iterdir()
                 if "Trigger: Client Request: units" in f.read_text()]
    if len(dumps) != 1 or not (found := TOTALS.search(dumps[0])):
        raise RuntimeError(f"{kind}: no count of the units in callgrind's output")
    return int(found[1])


def per_unit(kind: str, size: int, count: int, library: str) -> tuple[int, str]:
    """Instructions per unit: two children that agree within AGREE, else the median of
    three; and how many runs that took."""
    runs = [instructions(kind, size, count, library) for _ in range(2)]
    if abs(runs[0] - runs[1]) > AGREE * max(runs):
        runs.append(instructions(kind, size, count, library))
    spread = (max(runs) - min(runs)) / max(runs)
    return sorted(runs)[len(runs) // 2] // count, f"{len(runs)} runs, spread {spread:.2%}"


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
            run_child(kind, args.size, args.count or 1)
            print(f"{kind}: ran {args.count or 1} (natively, not counted)")
        return 0
    if shutil.which("valgrind") is None or shutil.which("cc") is None:
        print("instructions.py: needs valgrind (with callgrind.h) and a C compiler")
        return 2
    library = meter()
    print(f"instructions per unit at {args.size} deals (only the units counted)")
    per: dict[str, int] = {}
    for kind in args.kinds:
        count = args.count or COUNTS[kind]
        per[kind], note = per_unit(kind, args.size, count, library)
        print(f"  {kind:16} {per[kind]:>12,}  (N={count}, {note})", flush=True)
    if "deal" in per and per.get("bare route"):
        print(f"  a deal is {per['deal'] / per['bare route']:.1f} bare-route requests")
    if {"deal", "poll 304", "poll kept page", "bare route"} <= per.keys():
        print(capacity(per, bare_seconds(args.size) / per["bare route"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
