"""Where a deal's server CPU goes: each request of one table's deal, in-process.

    python benchmarks/cpu.py [--sizes 200 1000] [--deals 40] [--profile FILE]

One table (3 players) on a card-dealt game of the given size (benchmarks/games.py)
plays ``--deals`` more deals through the Flask test client: the scorekeeper opens the
deal form, asks the live preview (for a played deal), posts the record and follows the
redirect, a second phone opens the game page, two watchers poll the read-only link once
with the ETag of the version before (a new version) and twice more (304). Each request's CPU time
(``time.process_time``) is printed as a median in ms and as a ratio to a fixed
pure-Python floor timed around each deal: the machine is shared, and the ratio moves
with its load far less than the milliseconds do. The test client's own work is in
every figure. ``--profile`` writes a cProfile of the deals after the first five.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import gzip
import re
import statistics
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from games import evening_game, form_fields  # noqa: E402

from scorer import create_app  # noqa: E402
from scorer.web.db import get_store  # noqa: E402

KINDS = ("deal form", "preview", "POST", "GET after it", "page again", "poll: new version",
         "poll: 304", "the whole deal")
CSRF_RE = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
VERSION_RE = re.compile(r'name="version" value="(\d+)"')
GZIP = {"Accept-Encoding": "gzip"}


def floor() -> str:
    """A fixed piece of pure-Python work (dicts and strings), about 1-2 ms."""
    cells = {}
    for i in range(3000):
        cells[str(i)] = f"<td>{i}</td>" * 2
    return "".join(cells.values())


def cpu(work: Callable[[], Any]) -> tuple[float, Any]:
    """The CPU seconds of one call, and what it returned."""
    start = time.process_time()
    out = work()
    return time.process_time() - start, out


class Table:
    """One game's phones: a scorekeeper, a second phone and two watchers."""

    def __init__(self, app, game):
        self.edit, self.view = f"/g/{game.edit_token}", f"/v/{game.view_token}"
        self.writer, self.second = app.test_client(), app.test_client()
        self.watchers = [app.test_client(), app.test_client()]
        self.tags: list[str | None] = [None, None]
        self.landing = ""  # where the last POST landed
        self.times: dict[str, list[float]] = {k: [] for k in KINDS}

    def get(self, client, path: str, **headers: str):
        """A GET accepting gzip, closed at once (so what runs on close runs now)."""
        return client.get(path, headers={**GZIP, **headers}, buffered=True)

    def timed(self, kind: str, work: Callable[[], Any]) -> Any:
        """Do one request, keeping its CPU time under ``kind``."""
        took, out = cpu(work)
        self.times[kind].append(took)
        return out

    def poll(self, i: int, kind: str | None) -> int:
        """One watcher's poll with the ETag of the page it shows; its status."""
        tag = self.tags[i]
        headers = {"If-None-Match": tag} if tag else {}
        work = lambda: self.get(self.watchers[i], self.view, **headers)  # noqa: E731
        response = self.timed(kind, work) if kind else work()
        if response.status_code == 200:
            self.tags[i] = response.headers["ETag"]
        return int(response.status_code)

    def deal(self, record: dict) -> None:
        """One deal at the table, every request timed."""
        where = self.post(record)
        self.timed("GET after it", lambda: self.get(self.writer, where))
        self.timed("page again", lambda: self.get(self.second, where))
        for i in range(2):
            assert self.poll(i, "poll: new version") == 200
        for _ in range(2):
            for i in range(2):
                assert self.poll(i, "poll: 304") == 304

    def post(self, record: dict) -> str:
        """The scorekeeper's deal form, preview and POST, timed; where the POST lands."""
        response = self.timed("deal form", lambda: self.get(self.writer, self.edit + "/deal"))
        html = gzip.decompress(response.data).decode()
        fields = {"version": VERSION_RE.search(html)[1], **form_fields(record)}
        if record["type"] == "play":
            query = urllib.parse.urlencode({**fields, "action": "play"}, doseq=True)
            self.timed("preview", lambda: self.get(self.writer, f"{self.edit}/preview?{query}"))
        body = {"csrf_token": CSRF_RE.search(html)[1], **fields}
        response = self.timed("POST", lambda: self.writer.post(
            self.edit + "/deal", data=body, headers=GZIP, buffered=True))
        assert response.status_code == 302, response.data[:300]
        self.landing = urllib.parse.urlsplit(response.headers["Location"]).path
        return self.landing


def measure(size: int, deals: int, profile: str | None) -> str:
    """One size: the deals timed; the figures as lines of text."""
    full = evening_game(size + deals, 3, seed=2)
    app = create_app({"INSTANCE_PATH": tempfile.mkdtemp(prefix="scorer-cpu-"),
                      "SECRET_KEY": "bench", "HOST_KEY": "bench" * 5})
    with app.app_context():
        head = {k: v for k, v in full.items() if k != "deals"}
        game = get_store().create_game(head, full["deals"][:size])
    table = Table(app, game)
    for i in range(2):  # each watcher's first load, and each phone's first visit
        table.poll(i, None)
    table.get(table.writer, table.edit)
    table.get(table.second, table.edit)
    gc.collect()
    gc.freeze()  # as serve does: start-up's objects are never walked again
    floors, profiler = [], cProfile.Profile() if profile else None
    for n, record in enumerate(full["deals"][size:]):
        before, _ = cpu(floor)
        if profiler and n == 5:
            profiler.enable()
        table.timed("the whole deal", lambda: table.deal(record))  # noqa: B023
        after, _ = cpu(floor)
        floors.append((before + after) / 2)
    if profiler and profile:
        profiler.disable()
        profiler.dump_stats(profile)
    unit = statistics.median(floors)
    lines = [f"{size} deals: floor {unit * 1000:.2f} ms"]
    for kind in KINDS:
        got = table.times[kind]
        if got:
            mid = statistics.median(got)
            lines.append(f"  {kind:18} {mid / unit:5.2f} floors  {mid * 1000:6.2f} ms"
                         f"  (n={len(got)})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Measure each size and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--profile", help="write a cProfile of the deals (the last size)")
    args = parser.parse_args(argv)
    print("CPU per request (median), in floors and ms; the whole deal is every request of it")
    for size in args.sizes:
        print(measure(size, args.deals, args.profile), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
