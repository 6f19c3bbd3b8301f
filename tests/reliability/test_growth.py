"""Growth without bound: one-time ids are pruned, a deal's history is paged, the deal cap
counts live deals, and a 500 is logged once."""

from __future__ import annotations

import re

from reliability_rig import Browser, Server, csrf_of

from scorer import store


def started_game(browser: Browser) -> str:
    """Start a 3-player game through the real form; return its edit path."""
    _status, html, _headers = browser.request("/new")
    status, _body, headers = browser.request("/new", {
        "csrf_token": csrf_of(html), "first_dealer": "0", "preset": "classic",
        "action": "start", "name0": "Аня", "name1": "Борис", "name2": "Вика"})
    assert status == 302
    return re.sub(r"^https?://[^/]+", "", headers["Location"])


def test_a_500_is_logged_once_by_the_real_server(tmp_path):
    """A game whose stored head is not JSON answers 500; the served log names the
    exception once (Flask's own handler and the root handler both printed it)."""
    server = Server(tmp_path / "instance").start()
    try:
        browser = Browser(server.base)
        game = started_game(browser)
        db = store.connect(tmp_path / "instance" / "scorer.sqlite")
        with db.conn:
            db.execute("update games set head = 'not json'")
        db.close()
        status, _body, _headers = browser.request(game)
        assert status == 500
    finally:
        server.kill()
    log = (tmp_path / "serve-0.log").read_text(encoding="utf-8")
    assert log.count("Exception on") == 1, log
    assert log.count("Traceback") == 1, log
