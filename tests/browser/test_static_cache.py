"""In Chromium at phone size: static files arrive gzipped and are kept, so a repeat visit
asks the server for nothing but the page; a first visit is styled from the linked
stylesheet without a CSP violation; benchmarks/phone.py still runs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from phone_browser import HOST_KEY, served
from test_save_flow import GAME, new_game

from scorer import create_app

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def counted(tmp_path):
    """The app served by waitress, with every path it was asked for listed."""
    app = create_app({"INSTANCE_PATH": str(tmp_path / "instance"),
                      "SECRET_KEY": "browser-secret", "HOST_KEY": HOST_KEY})
    asked: list[str] = []
    inner = app.wsgi_app

    def listing(environ, start_response):
        """Note the path, then answer as the app does."""
        asked.append(environ["PATH_INFO"])
        return inner(environ, start_response)

    app.wsgi_app = listing
    with served(app) as base:
        yield base, asked


def test_a_repeat_visit_fetches_no_static_file_and_the_first_gets_them_gzipped(
        phone, counted):
    """First visit: the stylesheet and the scripts come gzipped under hashed names, kept a
    year. Back on the game page from another page: only the page itself is asked for."""
    base, asked = counted
    page = phone()
    encodings = {}
    page.on("response", lambda r: encodings.__setitem__(
        r.url.rsplit("/", 1)[1], (r.headers.get("content-encoding"),
                                  r.headers.get("cache-control"))))
    game = new_game(page, base)
    assert GAME.search(game)
    hashed = {k: v for k, v in encodings.items() if re.fullmatch(r"[\w-]+\.[0-9a-f]{8}\.\w+", k)}
    plain = {re.sub(r"\.[0-9a-f]{8}\.", ".", k) for k in hashed}
    assert {"app.css", "app.js", "js-flag.js"} <= plain, encodings
    for key, (encoding, caching) in hashed.items():
        assert caching == "public, max-age=31536000, immutable", key
        if key.startswith("app."):
            assert encoding == "gzip", key
    assert page.evaluate("document.documentElement.classList.contains('js')")

    page.goto(base + "/")
    page.wait_for_load_state("load")
    asked.clear()
    page.goto(game)
    page.wait_for_load_state("load")
    assert [p for p in asked if p.startswith("/static/")] == [], asked
    assert page.locator("#record-deal").is_visible()  # styled and scripted as before


# Recorded from the start of every document, before any of the page's own code runs.
VIOLATIONS = """window.__violations = [];
document.addEventListener("securitypolicyviolation",
  e => window.__violations.push(e.violatedDirective + " " + e.blockedURI));"""


def test_a_first_visit_is_styled_from_the_linked_files_without_a_csp_violation(
        phone, counted):
    """A fresh browser's first game page is the page every visit gets: the stylesheet and
    the html.js marker linked (no inline code, no cookie for them), applied (the header's
    colour comes from app.css), no CSP violation, no console error; the game page again
    (its kept copy still valid: 304) asks only for the page."""
    base, asked = counted
    game = new_game(phone(), base)
    page = phone()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.context.add_init_script(VIOLATIONS)
    asked.clear()
    response = page.goto(game)
    page.wait_for_load_state("load")
    assert "<style>" not in response.text() and 'rel="stylesheet"' in response.text()
    assert "prefetch" not in response.text() and "Link" not in response.headers
    assert "assets" not in {c["name"] for c in page.context.cookies()}
    assert page.evaluate("getComputedStyle(document.querySelector('header.top'))"
                         ".backgroundColor") == "rgb(20, 83, 45)"  # --accent, from app.css
    assert page.evaluate("document.documentElement.classList.contains('js')")
    assert page.evaluate("window.__violations") == []
    assert errors == []
    fetched = {re.sub(r"\.[0-9a-f]{8}\.", ".", p.rsplit("/", 1)[1]) for p in asked}
    assert {"app.css", "js-flag.js"} <= fetched, asked

    asked.clear()
    page.goto(base + "/")
    page.wait_for_load_state("load")
    page.goto(game)
    page.wait_for_load_state("load")
    assert [p for p in asked if p.startswith("/static/")] == [], asked
    assert page.evaluate("getComputedStyle(document.querySelector('header.top'))"
                         ".backgroundColor") == "rgb(20, 83, 45)"
    assert page.evaluate("window.__violations") == [] and errors == []


def test_the_phone_benchmark_runs_and_prints_its_ratios():
    """benchmarks/phone.py at a tiny size, on this checkout's code: the three ratios."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "phone.py"), "--sizes", "20",
         "--rounds", "1"], capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-2000:]
    for name in ("first visit", "repeat visit", "tap -> painted"):
        assert f" {name} " in done.stdout, done.stdout
