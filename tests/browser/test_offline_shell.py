"""Offline after a reload: in a secure context (Chromium on 127.0.0.1) the
service worker keeps the app shell and the game pages this phone opened; a reload without
a connection shows the game marked «нет связи, состояние на HH:MM» and takes a deal into
the outbox, which goes out once when the connection returns. Host pages are never kept;
a new version of the app replaces the old shell; over plain http nothing registers."""

from __future__ import annotations

import dataclasses
import re

import pytest
from phone_browser import ARGS, CHROMIUM, HOST_KEY, PHONE, served
from test_outbox import fill, protocol, saved_offline
from test_save_flow import GAME, new_game, rows

from scorer import create_app, store

pytestmark = pytest.mark.browser

CONTROLLED = "() => navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)"
KEPT_PATHS = "() => caches.open('thousand-pages').then(c => c.keys())" \
             ".then(ks => ks.map(r => new URL(r.url).pathname))"


def controlled(page) -> None:
    """Wait until the service worker controls the page."""
    page.wait_for_function(CONTROLLED)


def test_offline_reload_shows_the_kept_game_and_takes_a_deal(browser, tmp_path):
    """First visit registers; the game page, with the next deal's form on it, is kept as
    opened; offline, a reload shows the game marked with the kept time (not as live) and a
    deal saved there waits in the outbox; online again it is stored once and the page is
    live."""
    app = create_app({"INSTANCE_PATH": str(tmp_path / "instance"), "SECRET_KEY": "s" * 32,
                      "HOST_KEY": HOST_KEY})
    ctx = browser.new_context(viewport=PHONE, locale="ru-RU")
    page = ctx.new_page()
    try:
        with served(app) as base:
            page.goto(f"{base}/?key={HOST_KEY}")  # a host page: never kept
            game = new_game(page, base)
            controlled(page)
            page.reload()  # through the worker now: kept
            page.wait_for_url(GAME)
            kept = page.evaluate(KEPT_PATHS)
            token = game.rsplit("/", 1)[1]
            assert kept == [f"/g/{token}"], kept
            ctx.set_offline(True)
            page.reload()
            banner = page.locator("#kept")
            assert re.fullmatch(r"нет связи, состояние на \d\d:\d\d", banner.inner_text())
            assert page.locator("#totals .score").count() == 3
            fill(page, 0, 100, {1: 10, 2: 10})  # the game page's own form
            page.click("#save")
            saved_offline(page, 1)
            # Sent, the page loads the game again: the URL it already has.
            with page.expect_navigation(url=GAME):
                ctx.set_offline(False)
            page.wait_for_function("() => !document.getElementById('kept')")
            assert rows(page) == [1] and protocol(page) == ["Аня 100"]
            db = store.Store(store.connect(app.config["DATABASE"]))
            assert len(db.records(1)) == 1  # once
            db.db.close()
    finally:
        ctx.close()


def test_a_new_version_replaces_the_old_shell(browser, tmp_path):
    """The same server started again with another app.css: the next visit installs the
    new worker, which takes the page over and leaves only the new shell."""
    config = {"INSTANCE_PATH": str(tmp_path / "instance"), "SECRET_KEY": "s" * 32,
              "HOST_KEY": HOST_KEY}
    ctx = browser.new_context(viewport=PHONE, locale="ru-RU")
    page = ctx.new_page()
    try:
        with served(create_app(config)) as base:
            game = new_game(page, base)
            controlled(page)
            first = page.evaluate("() => caches.keys()")
        port = int(base.rsplit(":", 1)[1])
        newer = create_app(config)
        found = newer.extensions["scorer_assets"]
        css = found.by_name["app.css"]
        changed = dataclasses.replace(css, body=css.body + b"\n/* v2 */", gzipped=None,
                                      digest="0badc0de", hashed="app.0badc0de.css")
        found.by_name["app.css"] = changed
        found.by_hash[changed.hashed] = changed
        found.urls.clear()
        with served(newer, port=port):
            page.goto(game)
            page.wait_for_function("""(old) => caches.keys().then(ks =>
                ks.filter(k => k.startsWith('thousand-shell-')).length === 1
                && !ks.includes(old))""", arg=[k for k in first if "shell" in k][0])
            controlled(page)
            assert page.evaluate("() => [...document.styleSheets].some(s => s.href &&"
                                 " s.href.includes('app.0badc0de.css'))")
            assert page.locator("#totals .score").count() == 3
    finally:
        ctx.close()


def test_over_plain_http_nothing_registers(live_server, browser):
    """A LAN-like name over http is not a secure context: no worker, nothing kept."""
    port = live_server.rsplit(":", 1)[1]
    chromium = browser.browser_type.launch(executable_path=CHROMIUM, headless=True, args=[
        *ARGS, "--host-resolver-rules=MAP thousand.lan 127.0.0.1"])
    try:
        page = chromium.new_context(viewport=PHONE, locale="ru-RU").new_page()
        new_game(page, f"http://thousand.lan:{port}")
        page.wait_for_timeout(500)
        assert page.evaluate("() => !window.isSecureContext && !('serviceWorker' in navigator)"
                             " && !('caches' in window)")
    finally:
        chromium.close()
