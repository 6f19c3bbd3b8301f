"""What a phone waits for: the game page in Chromium with a slow CPU and a slow network.

    python benchmarks/phone.py [--sizes 200 1000] [--rounds 5]

Debian's Chromium (/usr/bin/chromium), driven by Playwright at 390×844, with its CPU
slowed 4× (Emulation.setCPUThrottlingRate) and a 400 kbit/s, 150 ms network
(Network.emulateNetworkConditions), loads the app served by waitress on 127.0.0.1 and,
interleaved in the same run, a plain page of the same bytes served by a bare WSGI floor:
the game page's own HTML without its stylesheets, scripts and icons, gzipped alike,
with the same ETag revalidation. For each size of a card-dealt game it prints three
measurements (the median over the rounds) and their ratios to the floor (the median of
each round's ratio, app and floor measured back to back):

* first visit: a fresh browser (empty cache) opens the game page; navigation start to
  the first contentful paint;
* repeat visit: the same browser opens it again from another page;
* tap → painted: on the filled deal form, tapping «Сохранить» (POST, redirect, GET)
  until the new game page's first paint; the floor posts a plain form of the same
  fields to a handler that only redirects to the plain page.

The goals: tap → painted within 1.2× and first visit within 1.5× of the plain page.
"""

from __future__ import annotations

import argparse
import gzip
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
# Everything a page fetches besides itself; the plain page has none of it.
SUBRESOURCES = re.compile(
    rb'<script\b[^>]*>\s*</script>|<link\b[^>]*rel="(?:stylesheet|icon|apple-touch-icon'
    rb'|manifest|preload|modulepreload)"[^>]*>')


def plain(html: bytes) -> bytes:
    """A page's HTML without anything it would fetch (stylesheets, scripts, icons)."""
    return SUBRESOURCES.sub(b"", html)


def floor_app(page: bytes, form: bytes):
    """The bare floor: the plain page (gzipped, ETag, no-cache like the game page), the
    plain deal form, and a POST that only redirects to the page, as a new version."""
    body = gzip.compress(page, 3, mtime=0)
    state = {"version": 1}
    lock = threading.Lock()

    def app(environ, start_response):
        """Three paths, nothing else: no framework, no session, no template."""
        path, method = environ["PATH_INFO"], environ["REQUEST_METHOD"]
        if method == "POST":
            environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
            with lock:
                state["version"] += 1
            start_response("302 Found", [("Location", "/plain"), ("Content-Length", "0")])
            return [b""]
        if path == "/form":
            start_response("200 OK", [("Content-Type", "text/html; charset=utf-8"),
                                      ("Cache-Control", "no-cache, private"),
                                      ("Content-Length", str(len(form)))])
            return [form]
        tag = f'W/"{state["version"]}"'
        if environ.get("HTTP_IF_NONE_MATCH") == tag:
            start_response("304 Not Modified", [("ETag", tag)])
            return [b""]
        start_response("200 OK", [("Content-Type", "text/html; charset=utf-8"),
                                  ("Content-Encoding", "gzip"), ("Vary", "Accept-Encoding"),
                                  ("Cache-Control", "no-cache, private"), ("ETag", tag),
                                  ("Content-Length", str(len(body)))])
        return [body]

    return app


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
    client = app.test_client()
    page = client.get(f"/g/{token}", headers={"Accept-Language": "ru"}).data
    form = client.get(f"/g/{token}/deal", headers={"Accept-Language": "ru"}).data
    form = re.sub(rb'<form method="post" action="[^"]*"', b'<form method="post" action="/post"',
                  plain(form), count=1)
    floor, floor_port = serve(floor_app(plain(page), form))
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
        "floor": (f"{floor}/plain", f"{floor}/form", re.compile(r"/plain$")),
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
    """Measure each size and print the medians and the ratios to the plain page."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    full = card_dealt(max(args.sizes), args.seed)
    print(f"Chromium {CHROMIUM} at {PHONE['width']}x{PHONE['height']}, CPU {CPU_SLOWDOWN}x "
          f"slower, {NETWORK['downloadThroughput'] * 8 / 1000:.0f} kbit/s and "
          f"{NETWORK['latency']} ms; median of {args.rounds} rounds, app and plain page "
          "alternating")
    print(f"{'deals':>6} {'measurement':15} {'app ms':>8} {'plain ms':>9} {'ratio':>6} "
          f"{'goal':>5}")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            for size in args.sizes:
                started = time.perf_counter()
                got = measure(browser, {**full, "deals": full["deals"][:size]}, args.rounds)
                for name in NAMES:
                    real, base = (statistics.median(v) * 1000 for v in got[name])
                    # The ratio of each round (app and plain page back to back, under the
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
