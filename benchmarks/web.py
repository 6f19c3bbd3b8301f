"""Latency of the table app against floors, served by waitress on loopback.

For each game size (deals of a real card-dealt game: marriages, bolts, the barrel,
from benchmarks/games.py) it measures, interleaved with its floor in one run:

* the game page, warm (cached) and cold (every cache emptied before the request),
  against a bare Flask route that returns the same number of bytes;
* the deal form (rendered on every GET: its defaults follow the game's state), against
  a bare route that returns the form's bytes;
* posting a deal followed by the GET of the page the browser is redirected to, against
  a floor that does one durable SQLite INSERT (WAL, synchronous=FULL, a kept
  connection) and a redirect to the bare page.

Both floors run the app's session cookie and CSRF middleware (CSRFProtect, the signed
session); clients send ``Accept-Encoding: gzip`` like a browser. The app and the floor
are served from a second process, so the clients (the phones) never compete with the
server for its interpreter lock. It prints p50 and p99, their ratios to the floor, and
the log-log slope of the p50 from the smallest to the largest size (flat cost per deal:
slope near 0), with the floor's slope (the machine's drift during the run) and that of
the ratio (the app's own, drift taken out).

    python benchmarks/web.py [--clients 2] [--requests 60] [--sizes 50 200 1000]
"""

from __future__ import annotations

import argparse
import http.client
import math
import multiprocessing
import re
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

from flask import Flask, redirect, session
from flask_wtf.csrf import CSRFProtect, generate_csrf
from waitress import create_server

sys.path.insert(0, str(Path(__file__).resolve().parent))

from games import card_dealt  # noqa: E402

from scorer import create_app  # noqa: E402
from scorer.cli.serve import settle_heap  # noqa: E402
from scorer.engine import parse_game, replay  # noqa: E402
from scorer.web.db import get_store  # noqa: E402
from scorer.web.lru import clear_caches  # noqa: E402

THREADS = 8
NAMES = ("page warm", "page cold", "deal form", "POST", "POST + GET")
CSRF_RE = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
VERSION_RE = re.compile(r'name="version" value="(\d+)"')


def serve(app) -> tuple[object, int]:
    """Serve an app with waitress on loopback in a thread; return (server, port)."""
    server = create_server(app, host="127.0.0.1", port=0, threads=THREADS)
    threading.Thread(target=server.run, daemon=True).start()
    return server, server.effective_port


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank), in milliseconds."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, math.ceil(p / 100 * len(ordered)) - 1))
    return ordered[rank] * 1000


class Client:
    """One keep-alive loopback connection with its own cookies, accepting gzip."""

    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.cookie = ""

    def request(self, method: str, path: str, body: str | None = None) -> tuple[int, bytes,
                                                                                  str]:
        """Send one request; return status, body bytes and Location."""
        headers = {"Accept-Encoding": "gzip"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        data = response.read()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return response.status, data, response.getheader("Location") or ""

    def text(self, path: str) -> str:
        """A page as text (asked without gzip, to read its form fields)."""
        self.conn.request("GET", path, headers={"Cookie": self.cookie} if self.cookie else {})
        response = self.conn.getresponse()
        data = response.read().decode()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return data


def floor_app(page_bytes: bytes, form_bytes: bytes, db_path: str) -> Flask:
    """The floor: session + CSRF like the app, pages of the same bytes, one INSERT."""
    app = Flask("floor")
    app.config.update(SECRET_KEY="floor", WTF_CSRF_TIME_LIMIT=None,
                      SESSION_COOKIE_SAMESITE="Lax", SESSION_REFRESH_EACH_REQUEST=False)
    CSRFProtect(app)
    conn = sqlite3.connect(db_path, check_same_thread=False, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("create table if not exists deals (id integer primary key, body text)")
    lock = threading.Lock()

    @app.get("/page")
    def page():
        """The same bytes as the real page (gzipped like it), after touching the session."""
        session.get("tokens")
        generate_csrf()
        return page_bytes, 200, {"Content-Type": "text/html; charset=utf-8",
                                 "Content-Encoding": "gzip"}

    @app.get("/deal-form")
    def deal_form():
        """The same bytes as the real deal form (gzipped like it), after the session."""
        session.get("tokens")
        generate_csrf()
        return form_bytes, 200, {"Content-Type": "text/html; charset=utf-8",
                                 "Content-Encoding": "gzip"}

    @app.get("/form")
    def form():
        """A form with a CSRF token, to post to /post."""
        return f'<input name="csrf_token" type="hidden" value="{generate_csrf()}">' \
               '<input name="version" value="1">'

    @app.post("/post")
    def post():
        """One durable INSERT on a kept connection, then the redirect."""
        with lock:
            conn.execute("insert into deals (body) values (?)", ["{}"])
        return redirect("/page")

    return app


def run_clients(clients: list[Client], job) -> list[float]:
    """Run job(client, index) -> latencies in parallel threads; collect every latency."""
    results: list[list[float]] = [[] for _ in clients]
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(clients))

    def worker(i: int) -> None:
        try:
            barrier.wait()
            results[i] = job(clients[i], i)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(clients))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return [x for r in results for x in r]


FORGET = "/__bench__/forget"


def forgetting(app):
    """The app's WSGI callable, plus one benchmark-only path that empties every cache."""
    inner = app.wsgi_app

    def wsgi(environ, start_response):
        """FORGET: clear the caches (as after a restart); anything else: the app."""
        if environ.get("PATH_INFO") == FORGET:
            clear_caches(app)
            start_response("204 No Content", [])
            return [b""]
        return inner(environ, start_response)

    return wsgi


def server_side(log: dict, clients: int, pipe) -> None:
    """The server process: the app with one game per client and the floor, both served by
    waitress; sends (port, floor port, edit tokens) and serves until told to stop."""
    instance = tempfile.mkdtemp(prefix="scorer-bench-")
    app = create_app({"INSTANCE_PATH": instance, "SECRET_KEY": "bench",
                      "HOST_KEY": "bench" * 5})
    head = {k: v for k, v in log.items() if k != "deals"}
    with app.app_context():
        games = [get_store().create_game(head, log["deals"]) for _ in range(clients)]
    app.wsgi_app = forgetting(app)
    server, port = serve(app)
    probe = Client(port)  # the floor pages get the bytes of the real ones, gzipped
    status, body, _ = probe.request("GET", f"/g/{games[0].edit_token}")
    assert status == 200, status
    status, form, _ = probe.request("GET", f"/g/{games[0].edit_token}/deal")
    assert status == 200, status
    probe.conn.close()
    floor_server, floor_port = serve(floor_app(body, form, str(Path(instance) / "f.db")))
    settle_heap()  # as `python -m scorer serve` does before it serves
    pipe.send((port, floor_port, [g.edit_token for g in games], len(body), len(form)))
    pipe.recv()  # until the clients are done
    server.close()
    floor_server.close()


class Table:
    """The clients of one game size: one game and one keep-alive connection per client to
    the app, one per client to the floor. Both servers run in another process, as the
    phones do: a client thread in the server's interpreter would compete with it for
    the interpreter lock and add its own waits to every request it times."""

    def __init__(self, log: dict, clients: int):
        self.pipe, there = multiprocessing.Pipe()
        self.process = multiprocessing.get_context("fork").Process(
            target=server_side, args=(log, clients, there), daemon=True)
        self.process.start()
        port, floor_port, self.tokens, self.page_size, self.form_size = self.pipe.recv()
        self.clients = [Client(port) for _ in range(clients)]
        self.versions = []
        for client, token in zip(self.clients, self.tokens, strict=True):
            html = client.text(f"/g/{token}/deal")
            self.versions.append([int(VERSION_RE.search(html).group(1)),
                                  CSRF_RE.search(html).group(1)])
        self.warm()
        self.floor_clients = [Client(floor_port) for _ in range(clients)]
        self.floor_tokens = [CSRF_RE.search(c.text("/form")).group(1)
                             for c in self.floor_clients]

    def close(self) -> None:
        """Hang up every client, then stop both servers and their process."""
        for client in (*self.clients, *self.floor_clients):
            client.conn.close()
        time.sleep(0.2)  # let waitress see the hang-ups before its sockets go
        self.pipe.send("stop")
        self.process.join(10)

    def empty_caches(self, client: Client) -> None:
        """Forget every cached replay, page, chart and row (as after a restart)."""
        status, _, _ = client.request("GET", FORGET)
        assert status == 204, status

    def warm(self) -> None:
        """One untimed GET of every game page: the cold runs empty every cache (other
        clients' too), and a warm measurement must not pay for their last replay."""
        for client, token in zip(self.clients, self.tokens, strict=True):
            status, _, _ = client.request("GET", f"/g/{token}")
            assert status == 200, status

    def gets(self, client: Client, path: str, n: int, cold: bool = False) -> list[float]:
        """n timed GETs of a path (cold: every cache emptied, untimed, before each)."""
        out = []
        for _ in range(n):
            if cold:
                self.empty_caches(client)
            start = time.perf_counter()
            status, _, _ = client.request("GET", path)
            out.append(time.perf_counter() - start)
            assert status == 200, status
        return out

    def post(self, client: Client, i: int, n: int, follow: bool = True) -> list[float]:
        """n timed (POST a deal, GET the page it redirects to); follow=False: the POST
        alone (the GET is made untimed, as the next POST's base)."""
        out = []
        path = f"/g/{self.tokens[i]}/deal"
        for k in range(n):
            version, token = self.versions[i]
            body = urllib.parse.urlencode({  # a failed 100: every seat is active with 3
                "csrf_token": token, "version": str(version), "action": "play",
                "declarer": str(k % 3), "contract": "100",
                "points_0": "40", "points_1": "40", "points_2": "40"})
            start = time.perf_counter()
            status, data, where = client.request("POST", path, body)
            if status != 302:
                raise RuntimeError(f"POST: HTTP {status} {data[:300]!r}")
            if not follow:
                out.append(time.perf_counter() - start)
            status, _, _ = client.request("GET", urllib.parse.urlsplit(where).path)
            if follow:
                out.append(time.perf_counter() - start)
            assert status == 200
            self.versions[i][0] = version + 1
        return out

    def floor_post(self, client: Client, i: int, n: int, follow: bool = True) -> list[float]:
        """n timed (POST one INSERT, GET the floor page); follow=False: the POST alone."""
        out = []
        body = urllib.parse.urlencode({"csrf_token": self.floor_tokens[i], "version": "1"})
        for _ in range(n):
            start = time.perf_counter()
            status, _, where = client.request("POST", "/post", body)
            assert status == 302, status
            if not follow:
                out.append(time.perf_counter() - start)
            client.request("GET", urllib.parse.urlsplit(where).path)
            if follow:
                out.append(time.perf_counter() - start)
        return out


def interleaved(table: Table, rounds: int, per_round: int, real, floor) -> tuple[list, list]:
    """Alternate the real job and its floor in small batches; all latencies of each."""
    got_real, got_floor = [], []
    for _ in range(rounds):
        got_floor += run_clients(table.floor_clients, lambda c, i: floor(c, i, per_round))
        got_real += run_clients(table.clients, lambda c, i: real(c, i, per_round))
    return got_real, got_floor


def measure(log: dict, args) -> dict[str, tuple]:
    """Every measurement for one game size: {name: (p50, p99, floor p50, floor p99, n)}."""
    table = Table(log, args.clients)
    out = {}
    try:
        rounds, per = max(1, args.requests // 5), 5

        def floor_page(client: Client, _i: int, n: int) -> list[float]:
            """n timed GETs of the floor's page."""
            return table.gets(client, "/page", n)

        plans = (
            ("page warm", lambda c, i, n: table.gets(c, f"/g/{table.tokens[i]}", n),
             floor_page, rounds, per),
            ("page cold", lambda c, i, n: table.gets(c, f"/g/{table.tokens[i]}", n, cold=True),
             floor_page, max(1, rounds // 3), 2),
            ("deal form", lambda c, i, n: table.gets(c, f"/g/{table.tokens[i]}/deal", n),
             lambda c, _i, n: table.gets(c, "/deal-form", n), rounds, per),
            ("POST", lambda c, i, n: table.post(c, i, n, False),
             lambda c, i, n: table.floor_post(c, i, n, False), rounds, per),
            ("POST + GET", table.post, table.floor_post, rounds, per),
        )
        for name, real, floor, r, p in plans:
            table.warm()
            got, base = interleaved(table, r, p, real, floor)
            out[name] = (percentile(got, 50), percentile(got, 99),
                         percentile(base, 50), percentile(base, 99), len(got))
        out["bytes"] = table.page_size
        out["form bytes"] = table.form_size
    finally:
        table.close()
    return out


def slope(sizes: list[int], costs: list[float]) -> float:
    """Least-squares slope of log(cost) against log(deals)."""
    xs = [math.log(s) for s in sizes]
    ys = [math.log(c) for c in costs]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return (sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
            / sum((x - mx) ** 2 for x in xs))


def main(argv: list[str] | None = None) -> int:
    """Build the game, measure each size, print the table and the slopes."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--requests", type=int, default=60,
                        help="per client and measurement (cold: a third); with 2 clients "
                             "and 60, a p99 is the second slowest of 120, not the slowest")
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 200, 1000])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    started = time.perf_counter()
    full = card_dealt(max(args.sizes) + args.requests * 2, args.seed)  # room for the posts
    print(f"card-dealt game built in {time.perf_counter() - started:.0f} s; "
          f"{args.clients} concurrent loopback clients, waitress with {THREADS} threads, "
          f"~{args.requests} requests per client and measurement, interleaved with the floor")
    print(f"{'deals':>6} {'measurement':12} {'kB':>6} {'p50 ms':>8} {'p99 ms':>8} "
          f"{'floor p50':>9} {'floor p99':>9} {'x p50':>6} {'x p99':>6} {'n':>5}")
    results = {}
    for size in args.sizes:
        log = {**full, "deals": full["deals"][:size]}
        assert replay(parse_game(log)).winner is None
        results[size] = found = measure(log, args)
        for name in NAMES:
            p50, p99, f50, f99, n = found[name]
            size_kb = found["form bytes" if name == "deal form" else "bytes"] / 1024
            print(f"{size:>6} {name:12} {size_kb:>6.1f} {p50:>8.2f} {p99:>8.2f} "
                  f"{f50:>9.2f} {f99:>9.2f} {p50 / f50:>6.1f} {p99 / f99:>6.1f} {n:>5}",
                  flush=True)
    if len(args.sizes) > 1:
        # The floor costs the same at every size, so its slope is the machine's drift
        # during the run; the slope of app / floor is the app's own, drift taken out.
        for name in NAMES:
            costs = [results[s][name][0] for s in args.sizes]
            floors = [results[s][name][2] for s in args.sizes]
            ratios = [c / f for c, f in zip(costs, floors, strict=True)]
            print(f"log-log slope of p50 {name}, {args.sizes[0]}..{args.sizes[-1]} deals: "
                  f"{slope(args.sizes, costs):.2f} (floor {slope(args.sizes, floors):.2f}, "
                  f"app / floor {slope(args.sizes, ratios):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
