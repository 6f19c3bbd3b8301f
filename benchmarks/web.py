"""An evening at the club: what the phones at several tables wait for, against floors.

    python benchmarks/web.py [--sizes 200 1000] [--rounds 6] [--deals 5] [--tables 4]
                             [--think 2400] [--poll 100]

Four tables play at once (3, 2, 4 and 3 players), each on a card-dealt game of the
given size with every kind of record (benchmarks/games.py: marriages, bolts, the
barrel, golden and dark deals, concessions, redeals, adjustments, the 4-player talon).
At each table one phone keeps the score: it opens the deal form, asks the live preview
(for a played deal), posts the table's next real record and follows the redirect to the
game page; then a second phone opens the game page (cached by now). Two more phones
follow the read-only link, polling it with If-None-Match as the page's script does:
304 while nothing changed, the page of the new version after a deal.

The evening runs fifty times faster than a real one: a table records a deal about every
two minutes and a watcher's page polls every 5 s, so by default a scorekeeper thinks
2.4 s (between half and one and a half of it) between deals and a watcher polls every
100 ms. The tables are independent: each starts at a random moment. ``--think 50``
instead keeps the server busy all the time: a capacity run, whose ratios at p99 measure
the queue in front of one interpreter, not what a request costs (the server CPU per
deal is the figure to read there).

The floor is the same evening against a bare Flask app with the app's session cookie
and CSRF middleware: a deal form and a preview of the same bytes (gzipped like them), a
POST that makes one durable SQLite INSERT (WAL, synchronous=FULL) and redirects, and
each version's edit and read-only pages rendered on every GET by a plain Jinja template
that writes the same HTML from the same data (a twin of each game plays the same deals
at set-up; its pages are taken apart into literal markup and values, every text and
class an autoescaped expression), gzipped per answer; the read-only page answers 304 to
its current ETag. App and floor
alternate in rounds of ``--deals`` deals per table, with the same random starts and
pauses; both are served by waitress (the app with serve's settings) in a second
process, whose CPU time is read around each round and printed per deal posted, beside
the floor's.

It prints p50 and p99 of each request kind with their ratios to the floor's, holds a
new version's page (the GET after the POST, the first poll of a new version) to 3x the
floor's at p50 and at p99, and prints the
log-log slope of each p50 from the smallest to the largest size (flat cost per deal:
slope near 0), with the floor's (the machine's drift) and that of the ratio.
"""

from __future__ import annotations

import argparse
import gzip
import html as htmllib
import http.client
import logging
import math
import multiprocessing
import os
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass
from email.message import Message
from pathlib import Path

import markupsafe
from flask import Flask, redirect, request, session
from flask_wtf.csrf import CSRFProtect, generate_csrf
from jinja2 import Environment, Template
from waitress import create_server

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cpu  # noqa: E402
from games import evening_game, form_fields  # noqa: E402

from scorer import create_app  # noqa: E402
from scorer.cli.serve import settle_heap, waitress_options  # noqa: E402
from scorer.web.db import get_store  # noqa: E402

PLAYERS = (3, 2, 4, 3)  # the tables of the evening (--tables 1: the first)
POLLERS = 2  # read-only phones per table
NAMES = ("deal form", "preview", "POST", "GET after POST", "POST + GET", "page again",
         "poll: new version", "poll: 304")
# A new version's page, times the floor's plain template, at p50 and at p99.
GOALS = {"GET after POST": 3.0, "poll: new version": 3.0}
CSRF_RE = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
VERSION_RE = re.compile(r'name="version" value="(\d+)"')


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank), in milliseconds (NaN for no values)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, math.ceil(p / 100 * len(ordered)) - 1))
    return ordered[rank] * 1000


class Client:
    """One keep-alive loopback connection with its own cookies, accepting gzip."""

    IDLE = 10.0  # seconds: serve closes connections idle for 20 (CHANNEL_TIMEOUT)

    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.cookies: dict[str, str] = {}
        self.used = time.monotonic()

    def request(self, method: str, path: str, body: str | None = None,
                headers: dict | None = None) -> tuple[int, bytes, Message]:
        """Send one request; return status, body bytes and the response headers."""
        sent = {"Accept-Encoding": "gzip", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if body is not None:
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        if time.monotonic() - self.used > self.IDLE:
            # A phone that sat out a slow round (or the floor's) opens a new connection,
            # as a browser does once the server has closed an idle one.
            self.conn.close()
        self.used = time.monotonic()
        self.conn.request(method, path, body=body, headers=sent)
        response = self.conn.getresponse()
        data = response.read()
        for cookie in response.headers.get_all("Set-Cookie") or ():
            name, _eq, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value
        return response.status, data, response.headers  # (names in any case)

    def timed(self, method: str, path: str, body: str | None = None,
              headers: dict | None = None) -> tuple[float, int, bytes, Message]:
        """One request and its wall time in seconds."""
        start = time.perf_counter()
        status, data, got = self.request(method, path, body, headers)
        return time.perf_counter() - start, status, data, got

    def close(self) -> None:
        """Hang up."""
        self.conn.close()


# -- the servers' process -------------------------------------------------------------


# The floor renders each version's page with a plain Jinja template that writes the same
# HTML from the same data: the app's own page of that version, taken apart once at set-up
# into literal markup and values (every non-blank text, every class and every attribute
# value with a digit in it), each value written back by an autoescaped expression, as a
# template without the app's machinery writes its words and numbers.
VALUE_ATTR = re.compile(r'(\s[\w:-]+=")([^"]*)(")')
TEXT = re.compile(r"(>)([^<]+)(<)")


@dataclass(frozen=True)
class PlainPage:
    """A page as a plain template and the values it writes (the CSRF token's places)."""

    template: Template
    values: tuple[str, ...]
    csrf: tuple[int, ...]

    def render(self, token: str | None = None) -> bytes:
        """The page's HTML, gzipped as the app sends it (the floor's own token in it)."""
        values = list(self.values)
        for i in self.csrf:
            values[i] = token or values[i]
        return gzip.compress(self.template.render(v=values).encode(), 3, mtime=0)


def plain_page(env: Environment, html: str) -> PlainPage:
    """Take a rendered page apart into a plain template and its values."""
    values: list[str] = []
    csrf = CSRF_RE.search(html)
    parts: list[str] = []

    def value(text: str) -> str:
        """A value's expression, if escaping its text gives the page's bytes again."""
        plain = htmllib.unescape(text)
        if str(markupsafe.escape(plain)) != text:
            return literal(text)
        values.append(plain)
        return "{{ v[" + str(len(values) - 1) + "] }}"

    def literal(text: str) -> str:
        """Markup as it is (in a raw block if it has braces)."""
        return "{% raw %}" + text + "{% endraw %}" if "{" in text else text

    def attrs(tag: str) -> str:
        """A tag with its class and numeric attribute values made expressions."""
        out, last = [], 0
        for m in VALUE_ATTR.finditer(tag):
            name, text = m[1], m[2]
            out.append(literal(tag[last:m.start(2)]))
            wanted = name.strip().startswith("class") or any(c.isdigit() for c in text)
            out.append(value(text) if wanted and text else literal(text))
            last = m.end(2)
        out.append(literal(tag[last:]))
        return "".join(out)

    last = 0
    for m in re.finditer(r"<[^>]*>", html):
        text = html[last:m.start()]
        if text.strip():
            lead = text[:len(text) - len(text.lstrip())]
            tail = text[len(text.rstrip()):]
            parts.append(literal(lead) + value(text.strip()) + literal(tail))
        else:
            parts.append(literal(text))
        parts.append(attrs(m[0]))
        last = m.end()
    parts.append(literal(html[last:]))
    places = tuple(i for i, v in enumerate(values) if csrf and v == csrf[1])
    page = PlainPage(env.from_string("".join(parts)), tuple(values), places)
    assert gzip.decompress(page.render()).decode() == html, "the plain page differs"
    return page


def floor_app(pages: list[dict[str, bytes]], plain: list[list[dict[str, str]]],
              db_path: str) -> Flask:
    """The floor: session + CSRF like the app; for each table, the deal form's and the
    preview's bytes, a POST that makes one durable INSERT, and each version's edit and
    read-only page rendered by a plain template (with an ETag per version)."""
    app = Flask("floor")
    app.config.update(SECRET_KEY="floor", WTF_CSRF_TIME_LIMIT=None,
                      SESSION_COOKIE_SAMESITE="Lax", SESSION_REFRESH_EACH_REQUEST=False)
    CSRFProtect(app)
    conn = sqlite3.connect(db_path, check_same_thread=False, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("create table if not exists deals (id integer primary key, body text)")
    lock = threading.Lock()
    versions = [0] * len(pages)
    env = Environment(autoescape=True)
    templates = [[{k: plain_page(env, html) for k, html in version.items()}
                  for version in table] for table in plain]

    def sent(body: bytes, kind: str = "text/html; charset=utf-8", **headers):
        """The same bytes as the app's answer, gzipped like it."""
        return body, 200, {"Content-Type": kind, "Content-Encoding": "gzip", **headers}

    def current(t: int) -> dict[str, PlainPage]:
        """Table t's pages of its current version (the last one made, past the end)."""
        return templates[t][min(versions[t], len(templates[t]) - 1)]

    @app.get("/f/<int:t>/deal")
    def deal_form(t: int):
        """The deal form's bytes, after touching the session and signing a token."""
        session.get("tokens")
        return sent(pages[t]["form"], **{"X-Csrf": generate_csrf()})

    @app.get("/f/<int:t>/preview")
    def preview(t: int):
        """The preview's bytes."""
        session.get("tokens")
        return sent(pages[t]["preview"], "application/json")

    @app.post("/f/<int:t>/deal")
    def post(t: int):
        """One durable INSERT on a kept connection, a new version, then the redirect."""
        with lock:
            conn.execute("insert into deals (body) values (?)", [request.form.get("version")])
            versions[t] += 1
        return redirect(f"/f/{t}/page")

    @app.get("/f/<int:t>/page")
    def page(t: int):
        """The edit page of the current version, rendered with this session's token."""
        session.get("tokens")
        return sent(current(t)["page"].render(generate_csrf()))

    @app.get("/f/<int:t>/view")
    def view(t: int):
        """The read-only page: 304 to its current ETag, else rendered."""
        tag = f'W/"{versions[t]}"'
        if request.headers.get("If-None-Match") == tag:
            return "", 304, {"ETag": tag}
        session.get("tokens")
        return sent(current(t)["view"].render(), ETag=tag)

    return app


def serve(app, **options) -> tuple[object, int]:
    """Serve a WSGI app with waitress on loopback in a thread; return (server, port)."""
    server = create_server(app, host="127.0.0.1", port=0, **options)
    threading.Thread(target=server.run, daemon=True).start()
    return server, server.effective_port


def table_pages(client, game, record: dict) -> dict[str, bytes]:
    """The app's deal form and preview for one table, gzipped, for the floor to send."""
    fields = {"version": str(game.version), **form_fields(record)}
    got = {"form": client.get(f"/g/{game.edit_token}/deal"),
           "preview": client.get(f"/g/{game.edit_token}/preview?"
                                 + urllib.parse.urlencode({**fields, "action": "play"},
                                                          doseq=True))}
    assert all(r.status_code == 200 for r in got.values())
    return {k: gzip.compress(r.data, 3, mtime=0) for k, r in got.items()}


def versions_html(log: dict, upcoming: list[dict], count: int) -> list[dict[str, str]]:
    """The edit and read-only pages (HTML) of a twin of a table's game, before each of
    the next ``count`` deals and after the last: the data the floor's templates write."""
    twin = create_app({"INSTANCE_PATH": tempfile.mkdtemp(prefix="scorer-twin-"),
                       "SECRET_KEY": "twin", "HOST_KEY": "twin" * 5})
    with twin.app_context():
        head = {k: v for k, v in log.items() if k != "deals"}
        game = get_store().create_game(head, log["deals"])
    table = cpu.Table(twin, game)
    reader = twin.test_client()
    out = []
    for n in range(count + 1):
        out.append({"page": table.writer.get(table.edit).get_data(as_text=True),
                    "view": reader.get(table.view).get_data(as_text=True)})
        if n < count:
            table.deal(upcoming[n])
    return out


def server_side(logs: list[dict], posts: int, pipe) -> None:
    """The servers' process: the app with one game per table and the floor made from its
    pages, both served by waitress; sends the ports and links, serves until told."""
    instance = tempfile.mkdtemp(prefix="scorer-bench-")
    app = create_app({"INSTANCE_PATH": instance, "SECRET_KEY": "bench",
                      "HOST_KEY": "bench" * 5})
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # a busy evening is the point
    games, pages, plain = [], [], []
    with app.app_context():
        for log, _next in logs:
            head = {k: v for k, v in log.items() if k != "deals"}
            games.append(get_store().create_game(head, log["deals"]))
    probe = app.test_client()
    for game, (_log, upcoming) in zip(games, logs, strict=True):
        pages.append(table_pages(probe, game, next(r for r in upcoming if r["type"] == "play")))
        plain.append(versions_html(_log, upcoming, posts))
    server, port = serve(app, **waitress_options())
    floor, floor_port = serve(floor_app(pages, plain, str(Path(instance) / "floor.db")),
                              threads=waitress_options()["threads"])
    settle_heap()  # as `python -m scorer serve` does before it serves
    pipe.send((port, floor_port, [(g.edit_token, g.view_token) for g in games]))
    pipe.recv()  # until the phones are done
    server.close()
    floor.close()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# -- the phones -------------------------------------------------------------------------


class Table:
    """One table's phones against one server (the app or the floor)."""

    def __init__(self, port: int, paths: dict[str, str], records: list[dict], floor: bool):
        self.paths, self.records, self.floor = paths, records, floor
        self.writer, self.second = Client(port), Client(port)
        self.pollers = [Client(port) for _ in range(POLLERS)]
        self.etags: list[str | None] = [None] * POLLERS
        self.times: dict[str, list[float]] = {n: [] for n in NAMES}
        self.posted = 0

    def deal(self) -> None:
        """One deal at the table: form, preview, POST + GET, a second phone's GET."""
        took, status, data, headers = self.writer.timed("GET", self.paths["form"])
        assert status == 200, status
        self.times["deal form"].append(took)
        record = self.records[self.posted]
        if self.floor:
            version, token = "1", headers["X-Csrf"]
        else:
            html = self.plain(data, headers)
            version, token = VERSION_RE.search(html)[1], CSRF_RE.search(html)[1]
        fields = {"version": version, **form_fields(record)}
        if record["type"] == "play":
            query = urllib.parse.urlencode({**fields, "action": "play"}, doseq=True)
            took, status, _, _ = self.writer.timed("GET", f"{self.paths['preview']}?{query}")
            assert status == 200, status
            self.times["preview"].append(took)
        body = urllib.parse.urlencode({"csrf_token": token, **fields}, doseq=True)
        start = time.perf_counter()
        status, data, headers = self.writer.request("POST", self.paths["form"], body)
        if status != 302:
            raise RuntimeError(f"POST deal {self.posted}: HTTP {status} {data[:300]!r}")
        self.times["POST"].append(time.perf_counter() - start)
        where = urllib.parse.urlsplit(headers["Location"]).path
        got = time.perf_counter()
        status, _, _ = self.writer.request("GET", where)
        self.times["GET after POST"].append(time.perf_counter() - got)
        self.times["POST + GET"].append(time.perf_counter() - start)
        assert status == 200, status
        self.posted += 1
        took, status, _, _ = self.second.timed("GET", where)
        assert status == 200, status
        self.times["page again"].append(took)

    @staticmethod
    def plain(data: bytes, headers: Message) -> str:
        """A page's text, unzipped if it came gzipped."""
        return (gzip.decompress(data) if headers.get("Content-Encoding") == "gzip"
                else data).decode()

    def poll(self, i: int) -> None:
        """One poll of the read-only link, with the ETag of the page this phone shows."""
        client, tag = self.pollers[i], self.etags[i]
        took, status, _, headers = client.timed(
            "GET", self.paths["view"], headers={"If-None-Match": tag} if tag else None)
        if status == 304:
            self.times["poll: 304"].append(took)
            return
        assert status == 200, status
        if tag is not None:  # the phone's first load is not a poll
            self.times["poll: new version"].append(took)
        self.etags[i] = headers.get("ETag")

    def close(self) -> None:
        """Hang up every phone."""
        for client in (self.writer, self.second, *self.pollers):
            client.close()


def evening(tables: list[Table], deals: int, think: float, poll_every: float,
            seed: int) -> None:
    """Every table plays ``deals`` deals at once while its pollers poll; wait for all.

    Tables are independent, as at a club: each starts at a random moment within one
    thinking time and thinks between half and one and a half of it, each watcher starts
    polling at a random moment within one poll period. In lock-step, the four tables'
    deals arrive together and every answer waits for three others, a burst no evening
    has. The draws come from ``seed``, so the app and the floor get the same evening.
    """
    rng = random.Random(seed)
    starts = [rng.uniform(0, think) for _ in tables]
    pauses = [[think * rng.uniform(0.5, 1.5) for _ in range(deals)] for _ in tables]
    offsets = [[rng.uniform(0, poll_every) for _ in range(POLLERS)] for _ in tables]
    done = threading.Event()
    errors: list[BaseException] = []

    def guarded(work):
        """Run work, keeping its first error for the caller."""
        def run():
            try:
                work()
            except BaseException as exc:  # noqa: BLE001 - re-raised below
                errors.append(exc)
                done.set()
        return run

    def writer(t: int):
        """The scorekeeper's phone."""
        def work():
            time.sleep(starts[t])
            for pause in pauses[t]:
                if done.is_set():
                    return
                tables[t].deal()
                time.sleep(pause)
        return work

    def poller(t: int, i: int):
        """A watcher's phone, until the writers are done (and once more after)."""
        table = tables[t]

        def work():
            done.wait(offsets[t][i])
            while not done.is_set():
                table.poll(i)
                done.wait(poll_every)
            table.poll(i)
        return work

    writers = [threading.Thread(target=guarded(writer(t))) for t in range(len(tables))]
    pollers = [threading.Thread(target=guarded(poller(t, i)))
               for t in range(len(tables)) for i in range(POLLERS)]
    for thread in (*pollers, *writers):
        thread.start()
    for thread in writers:
        thread.join()
    done.set()
    for thread in pollers:
        thread.join()
    if errors:
        raise errors[0]


def measure(size: int, args) -> dict:
    """One size: the evening against the app and the floor in alternating rounds."""
    posts = args.rounds * args.deals
    logs = []
    for i, players in enumerate(PLAYERS[:args.tables]):
        # A few records beyond what is posted: the floor copies the preview of a play.
        full = evening_game(size + posts + 20, players, seed=1 + i)
        logs.append(({**full, "deals": full["deals"][:size]}, full["deals"][size:]))
    pipe, there = multiprocessing.Pipe()
    process = multiprocessing.get_context("fork").Process(
        target=server_side, args=(logs, posts, there), daemon=True)
    process.start()
    port, floor_port, links = pipe.recv()
    apps = [Table(port, {"form": f"/g/{edit}/deal", "preview": f"/g/{edit}/preview",
                         "view": f"/v/{view}"}, upcoming, floor=False)
            for (edit, view), (_, upcoming) in zip(links, logs, strict=True)]
    floors = [Table(floor_port, {"form": f"/f/{t}/deal", "preview": f"/f/{t}/preview",
                                 "view": f"/f/{t}/view"}, upcoming, floor=True)
              for t, (_, upcoming) in enumerate(logs)]
    cpu = {"app": 0.0, "floor": 0.0}
    try:
        for group in (apps, floors):  # each phone's first load (not timed)
            for table in group:
                for i in range(POLLERS):
                    table.poll(i)
        for round_ in range(args.rounds):
            for name, group in (("floor", floors), ("app", apps)):
                before = cpu_seconds(process.pid)
                evening(group, args.deals, args.think / 1000, args.poll / 1000, round_)
                cpu[name] += cpu_seconds(process.pid) - before
    finally:
        for table in (*apps, *floors):
            table.close()
        time.sleep(0.2)  # let waitress see the hang-ups before its sockets go
        pipe.send("stop")
        process.join(10)
    out = {}
    for name in NAMES:
        got = [x for t in apps for x in t.times[name]]
        base = [x for t in floors for x in t.times[name]]
        out[name] = (percentile(got, 50), percentile(got, 99), percentile(base, 50),
                     percentile(base, 99), len(got))
    deals = sum(t.posted for t in apps)
    out["cpu"] = (cpu["app"] / deals * 1000, cpu["floor"] / deals * 1000)
    return out


def slope(sizes: list[int], costs: list[float]) -> float:
    """Least-squares slope of log(cost) against log(deals)."""
    xs = [math.log(s) for s in sizes]
    ys = [math.log(c) for c in costs]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return (sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
            / sum((x - mx) ** 2 for x in xs))


def main(argv: list[str] | None = None) -> int:
    """Measure each size; print the table, the goals, the server CPU and the slopes."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--rounds", type=int, default=6,
                        help="rounds of app then floor (default 6)")
    parser.add_argument("--deals", type=int, default=5, help="deals per table and round")
    parser.add_argument("--tables", type=int, default=len(PLAYERS),
                        choices=range(1, len(PLAYERS) + 1),
                        help=f"tables at once (default {len(PLAYERS)}: all of {PLAYERS})")
    parser.add_argument("--think", type=float, default=2400,
                        help="mean ms a scorekeeper waits between deals (default 2400: "
                             "two minutes at a real table, fifty times faster)")
    parser.add_argument("--poll", type=float, default=100,
                        help="ms between a watcher's polls (default 100: the page's 5 s, "
                             "fifty times faster)")
    args = parser.parse_args(argv)
    tables = PLAYERS[:args.tables]
    print(f"{len(tables)} table{'s' * (len(tables) > 1)} at once "
          f"({', '.join(map(str, tables))} players), each a scorekeeper thinking "
          f"{args.think:.0f} ms on average and {POLLERS} watchers polling every "
          f"{args.poll:.0f} ms; "
          f"{args.rounds} rounds of {args.deals} deals per table, app and floor alternating")
    print(f"{'deals':>6} {'measurement':18} {'p50 ms':>8} {'p99 ms':>8} {'floor p50':>9} "
          f"{'floor p99':>9} {'x p50':>6} {'x p99':>6} {'n':>5}  goal")
    results = {}
    for size in args.sizes:
        results[size] = found = measure(size, args)
        for name in NAMES:
            p50, p99, f50, f99, n = found[name]
            goal = GOALS.get(name)
            mark = "" if goal is None else (
                f"p50, p99 <= {goal:.0f}x: "
                + ("met" if max(p50 / f50, p99 / f99) <= goal else "MISSED"))
            print(f"{size:>6} {name:18} {p50:>8.2f} {p99:>8.2f} {f50:>9.2f} {f99:>9.2f} "
                  f"{p50 / f50:>6.1f} {p99 / f99:>6.1f} {n:>5}  {mark}", flush=True)
        app_cpu, floor_cpu = found["cpu"]
        print(f"{size:>6} server CPU per deal (every request of the evening): "
              f"{app_cpu:.1f} ms, floor {floor_cpu:.1f} ms, {app_cpu / floor_cpu:.1f}x",
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
