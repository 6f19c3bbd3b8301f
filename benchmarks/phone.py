"""What a phone waits for: the game page in Chromium with a slow CPU and a slow network.

    python benchmarks/phone.py [--sizes 200 1000] [--rounds 5]

Debian's Chromium (/usr/bin/chromium), driven by Playwright at 390×844, with its CPU
slowed 4× (Emulation.setCPUThrottlingRate) and a 400 kbit/s, 150 ms network
(Network.emulateNetworkConditions), loads the app served by waitress on 127.0.0.1 and,
interleaved in the same run, a floor that replays the app's own answers (its pages,
stylesheet and scripts, byte for byte, each first met through the app in a warm-up
round) with no work: the same bytes and script, none of the server's time. For each
size of a card-dealt game it prints three measurements (the median over the rounds)
and their ratios to the floor (the median of each round's ratio, app and floor measured
back to back):

* first visit: a fresh browser (empty cache) opens the game page; navigation start to
  the first contentful paint;
* repeat visit: the same browser opens it again from another page;
* tap → painted: on the filled deal form, tapping «Сохранить» (POST, redirect, GET)
  until the new game page's first paint; on the floor the same form and script post
  to a kept redirect and the kept page after it.

The goals: tap → painted within 1.2× and first visit within 1.5× of the floor.
"""

from __future__ import annotations

import argparse
import io
import multiprocessing
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright
from waitress import create_server

sys.path.insert(0, str(Path(__file__).resolve().parent))

from games import card_dealt  # noqa: E402

from scorer import create_app  # noqa: E402
from scorer.web.db import get_store  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
PHONE = {"width": 390, "height": 844}
CPU_SLOWDOWN = 4
NETWORK = {"offline": False, "latency": 150,  # ms, added to every request
           "downloadThroughput": 400_000 / 8, "uploadThroughput": 400_000 / 8}  # bytes/s
GOALS = {"first visit": 1.5, "tap -> painted": 1.2}
NAMES = ("first visit", "repeat visit", "tap -> painted")
class Replay:
    """The floor: the app's own answers replayed, byte for byte, with no work.

    Each request (method, path and query, and whether the browser holds the ``assets``
    cookie, i.e. a first visit or not) is forwarded to the app once and its answer kept:
    status, headers and body, Set-Cookie included. Later the kept answer is sent as it is:
    the same page of the same size (8 kB after a tap, the first-visit page only to a
    first visit), the same stylesheet and scripts, the same deal form posting through the
    app's outbox script to a kept redirect. A POST makes a new version: the pages' ETags
    change with it, so the page after a tap is sent whole, as the app sends it.
    """

    def __init__(self, app):
        self.app = app
        self.kept: dict[tuple[str, str, bool], tuple[str, list, bytes]] = {}
        self.version = 0
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        """Answer from the kept answers, forwarding a request met for the first time."""
        method = environ["REQUEST_METHOD"]
        path = environ["PATH_INFO"] + ("?" + environ["QUERY_STRING"]
                                       if environ.get("QUERY_STRING") else "")
        body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        environ["wsgi.input"] = io.BytesIO(body)
        key = (method, path, "assets=" in environ.get("HTTP_COOKIE", ""))
        with self.lock:
            if method == "POST":
                self.version += 1
            version = self.version
            found = self.kept.get(key)
            if found is None:
                found = self.kept[key] = self.forward(environ)
        status, headers, data = found
        tag = next((v for k, v in headers if k.lower() == "etag"), None)
        headers = [(k, v) for k, v in headers if k.lower() not in ("etag", "content-length")]
        if tag is not None:
            tag = f'W/"{version}-{tag.removeprefix("W/").strip(chr(34))}"'
            headers.append(("ETag", tag))
            if environ.get("HTTP_IF_NONE_MATCH") == tag:
                start_response("304 Not Modified", headers)
                return [b""]
        start_response(status, [*headers, ("Content-Length", str(len(data)))])
        return [data]

    def forward(self, environ) -> tuple[str, list, bytes]:
        """The app's answer to a request, whole."""
        got: dict = {}

        def start(status, headers, exc_info=None):
            got["status"], got["headers"] = status, headers
        chunks = self.app(environ, start)
        try:
            data = b"".join(chunks)
        finally:
            if hasattr(chunks, "close"):
                chunks.close()
        return got["status"], list(got["headers"]), data


def serve(app) -> tuple[object, int]:
    """Serve a WSGI app with waitress on loopback in a thread; return (server, port)."""
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    threading.Thread(target=server.run, daemon=True).start()
    return server, server.effective_port


def server_side(log: dict, pipe) -> None:
    """The servers' process: the app with the game, and the floor made from its pages."""
    instance = tempfile.mkdtemp(prefix="scorer-phone-")
    app = create_app({"INSTANCE_PATH": instance, "SECRET_KEY": "phone",
                      "HOST_KEY": "phone" * 5})
    head = {k: v for k, v in log.items() if k != "deals"}
    with app.app_context():
        token = get_store().create_game(head, log["deals"]).edit_token
    server, port = serve(app)
    page = app.test_client().get(f"/g/{token}", headers={"Accept-Language": "ru"}).data
    floor, floor_port = serve(Replay(app))
    pipe.send((port, floor_port, token, len(page)))
    pipe.recv()
    server.close()
    floor.close()


PAINTED = """() => new Promise(done => new PerformanceObserver((list, observer) => {
  const paint = list.getEntries().find(e => e.name === "first-contentful-paint");
  if (paint) { observer.disconnect(); done(performance.timeOrigin + paint.startTime); }
}).observe({type: "paint", buffered: true}))"""
TAP = """() => { const t = performance.timeOrigin + performance.now();
  document.getElementById("save").click(); return t; }"""


class Phone:
    """One throttled phone-sized browser context (its own cache and cookies)."""

    def __init__(self, browser):
        self.context = browser.new_context(viewport=PHONE, device_scale_factor=2,
                                           is_mobile=True, has_touch=True, locale="ru-RU")
        self.page = self.context.new_page()
        cdp = self.context.new_cdp_session(self.page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", NETWORK)

    def visit(self, url: str) -> float:
        """Open a URL from a blank page; seconds from navigation start to the first paint."""
        self.page.goto("about:blank")
        self.page.goto(url)
        start = self.page.evaluate("performance.timeOrigin")
        return (self.page.evaluate(PAINTED) - start) / 1000

    def tap(self, form_url: str, landing: re.Pattern, seat: int) -> float:
        """Fill a failed 100 on the deal form, tap «Сохранить»; seconds to the new paint."""
        self.page.goto(form_url)
        self.page.click(f"label.pick.p{seat}")
        self.page.fill("#contract", "100")
        for s in range(3):
            self.page.fill(f"#points_{s}", "40")
        tapped = self.page.evaluate(TAP)
        self.page.wait_for_url(landing)
        return (self.page.evaluate(PAINTED) - tapped) / 1000

    def close(self) -> None:
        """Drop the context and its cache."""
        self.context.close()


def measure(browser, log: dict, rounds: int) -> dict[str, tuple[list[float], list[float]]]:
    """Every measurement of one game size, app and floor alternating in each round."""
    pipe, there = multiprocessing.Pipe()
    process = multiprocessing.get_context("fork").Process(
        target=server_side, args=(log, there), daemon=True)
    process.start()
    port, floor_port, token, _size = pipe.recv()
    app = f"http://127.0.0.1:{port}"
    floor = f"http://127.0.0.1:{floor_port}"
    sites = {
        "app": (f"{app}/g/{token}", f"{app}/g/{token}/deal", re.compile(r"/g/[^/]+$")),
        "floor": (f"{floor}/g/{token}", f"{floor}/g/{token}/deal", re.compile(r"/g/[^/]+$")),
    }
    got: dict[str, tuple[list[float], list[float]]] = {n: ([], []) for n in NAMES}
    try:
        for r in range(-1, rounds):  # round -1 warms the browser up and is not counted
            for which, (page, form, landing) in sites.items():
                phone = Phone(browser)
                try:
                    times = (phone.visit(page), phone.visit(page), phone.tap(form, landing, r % 3))
                finally:
                    phone.close()
                for name, took in zip(NAMES, times, strict=True):
                    if r >= 0:
                        got[name][0 if which == "app" else 1].append(took)
    finally:
        pipe.send("stop")
        process.join(10)
    return got


def main(argv: list[str] | None = None) -> int:
    """Measure each size and print the medians and the ratios to the floor."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    full = card_dealt(max(args.sizes), args.seed)
    print(f"Chromium {CHROMIUM} at {PHONE['width']}x{PHONE['height']}, CPU {CPU_SLOWDOWN}x "
          f"slower, {NETWORK['downloadThroughput'] * 8 / 1000:.0f} kbit/s and "
          f"{NETWORK['latency']} ms; median of {args.rounds} rounds, app and floor "
          "alternating")
    print(f"{'deals':>6} {'measurement':15} {'app ms':>8} {'floor ms':>9} {'ratio':>6} "
          f"{'goal':>5}")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            for size in args.sizes:
                started = time.perf_counter()
                got = measure(browser, {**full, "deals": full["deals"][:size]}, args.rounds)
                for name in NAMES:
                    real, base = (statistics.median(v) * 1000 for v in got[name])
                    # The ratio of each round (app and floor back to back, under the
                    # same load), then their median: steadier on a busy machine.
                    ratio = statistics.median(a / f for a, f in zip(*got[name], strict=True))
                    goal = GOALS.get(name)
                    mark = "" if goal is None else f"{goal:.1f}" + (
                        "" if ratio <= goal else " over")
                    print(f"{size:>6} {name:15} {real:>8.0f} {base:>9.0f} "
                          f"{ratio:>6.2f} {mark:>5}", flush=True)
                print(f"{size:>6} ({time.perf_counter() - started:.0f} s)", flush=True)
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
