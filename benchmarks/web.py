"""Latency of the table app under 8 concurrent loopback clients.

Reports p50 and p99 of (a) the game page and (b) posting a deal, each on a 200-deal
game of mostly ``play`` deals, and of a bare Flask route served the same way
(waitress, same threads), with the ratios to that baseline.

    python benchmarks/web.py [--clients 8] [--requests 100] [--deals 200]
"""

from __future__ import annotations

import argparse
import http.client
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse

from flask import Flask
from waitress import create_server

from scorer import create_app
from scorer.engine import parse_game, replay
from scorer.web.db import get_store

THREADS = 8


def deal_log(n: int) -> list[dict]:
    """n records, mostly play, that never reach a win (scores drift slowly down)."""
    records = []
    for k in range(n):
        declarer = k % 3
        if k % 25 == 24:
            records.append({"type": "redeal"})
        elif k % 4 == 3:  # made: +100 to the declarer, +10 to each defender
            points = [10, 10, 10]
            points[declarer] = 100
            records.append({"type": "play", "declarer": declarer, "contract": 100,
                            "points": points, "marriages": {}, "no_tricks": []})
        else:  # failed: -100, +40 to each defender
            records.append({"type": "play", "declarer": declarer, "contract": 100,
                            "points": [40, 40, 40], "marriages": {}, "no_tricks": []})
    return records


HEAD = {"format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"],
        "agreements": {"preset": "classic", "overrides": {}}, "first_dealer": 0}


def serve(app) -> tuple[object, int]:
    """Serve an app with waitress on loopback in a thread; return (server, port)."""
    server = create_server(app, host="127.0.0.1", port=0, threads=THREADS)
    threading.Thread(target=server.run, daemon=True).start()
    return server, server.effective_port


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank), in milliseconds."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank] * 1000


class Client:
    """One keep-alive loopback connection with its own cookies."""

    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookie = ""

    def request(self, method: str, path: str, body: str | None = None) -> tuple[int, str]:
        """Send one request; return status and body."""
        headers = {"Cookie": self.cookie} if self.cookie else {}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        data = response.read().decode()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return response.status, data


def run_clients(port: int, clients: int, job) -> list[float]:
    """Run job(client, index) in parallel threads; collect every latency."""
    results: list[list[float]] = [[] for _ in range(clients)]
    errors: list[BaseException] = []
    barrier = threading.Barrier(clients)

    def worker(i: int) -> None:
        try:
            client = Client(port)
            prepare = job(client, i)
            barrier.wait()
            results[i] = prepare()
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return [x for r in results for x in r]


def timed(client: Client, requests: int, method: str, path, body=None, expect=200):
    """A closure doing `requests` timed requests."""
    def go() -> list[float]:
        out = []
        for k in range(requests):
            start = time.perf_counter()
            status, _ = client.request(method, path(k) if callable(path) else path,
                                       body(k) if callable(body) else body)
            out.append(time.perf_counter() - start)
            if status != expect:
                raise RuntimeError(f"{method} {path}: HTTP {status}")
        return out
    return go


def main(argv: list[str] | None = None) -> int:
    """Build the games, run the three measurements, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--requests", type=int, default=100, help="per client and measurement")
    parser.add_argument("--deals", type=int, default=200)
    args = parser.parse_args(argv)

    records = deal_log(args.deals)
    protocol = replay(parse_game({**HEAD, "deals": records}))
    assert protocol.winner is None, "the benchmark game must not be won"

    instance = tempfile.mkdtemp(prefix="scorer-bench-")
    app = create_app({"INSTANCE_PATH": instance, "SECRET_KEY": "bench", "HOST_KEY": "bench"})
    with app.app_context():
        games = [get_store().create_game(HEAD, records) for _ in range(args.clients)]
    bare = Flask("bare")
    bare.add_url_rule("/", "bare", lambda: "ok")
    app_server, app_port = serve(app)
    bare_server, bare_port = serve(bare)

    def bare_job(client, _i):
        client.request("GET", "/")
        return timed(client, args.requests, "GET", "/")

    def page_job(client, i):
        path = f"/g/{games[i].edit_token}"
        client.request("GET", path)
        return timed(client, args.requests, "GET", path)

    def post_job(client, i):
        path = f"/g/{games[i].edit_token}/deal"
        _, html = client.request("GET", path)
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)
        # Every write names the game version it was based on; this client is its game's
        # only writer, so each accepted deal moves the version on by exactly one.
        version = int(re.search(r'name="version" value="(\d+)"', html).group(1))

        def body(k):
            return urllib.parse.urlencode({
                "csrf_token": token, "version": str(version + k), "action": "play",
                "declarer": str(k % 3),
                "contract": "100", "points_0": "40", "points_1": "40", "points_2": "40"})
        return timed(client, args.requests, "POST", path, body, expect=302)

    rows = []
    for name, port, job in (("bare Flask route", bare_port, bare_job),
                            (f"game page ({args.deals} deals)", app_port, page_job),
                            (f"post a deal ({args.deals}+ deals)", app_port, post_job)):
        lat = run_clients(port, args.clients, job)
        rows.append((name, percentile(lat, 50), percentile(lat, 99), len(lat),
                     statistics.fmean(lat) * 1000))
    app_server.close()
    bare_server.close()

    base50, base99 = rows[0][1], rows[0][2]
    print(f"{args.clients} concurrent loopback clients, {args.requests} requests each, "
          f"waitress with {THREADS} threads")
    print(f"{'':32} {'p50 ms':>9} {'p99 ms':>9} {'mean ms':>9} {'x p50':>7} {'x p99':>7}")
    for name, p50, p99, _n, mean in rows:
        print(f"{name:32} {p50:9.2f} {p99:9.2f} {mean:9.2f} {p50 / base50:7.1f} "
              f"{p99 / base99:7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
