"""Growth without bound: one-time ids are pruned, a deal's history is paged, the deal cap
counts live deals, and a 500 is logged once."""

from __future__ import annotations

import re

from reliability_rig import HEAD, Browser, Phone, Server, csrf_of, pattern

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


def stored_live(app, game_id: int) -> int:
    """How many live deals the game has in the file."""
    db = store.connect(app.config["DATABASE"])
    try:
        return len(store.Store(db).records(game_id))
    finally:
        db.close()


def test_the_deal_cap_counts_live_deals_not_deleted_ones(app):
    """2000 deals, one deleted: a new deal is taken (1999 live + 1); the deleted one then
    cannot come back (that would make 2001 live), nor can a 2001st live deal be added."""
    phone = Phone(app)
    db = store.connect(app.config["DATABASE"])
    try:
        full = store.Store(db).create_game(HEAD, [pattern(i) for i in range(2000)])
    finally:
        db.close()
    game = f"/g/{full.edit_token}"
    assert phone.client.post(f"{game}/deal/2000/delete",
                             data=phone.form(game + "/deal")).status_code == 302
    assert stored_live(app, full.id) == 1999
    r = phone.client.post(game + "/deal", data={**phone.form(game + "/deal"),
                                                "action": "redeal"})
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    assert stored_live(app, full.id) == 2000
    r = phone.client.post(f"{game}/deal/2000/restore", data=phone.form(game + "/deal"))
    assert r.status_code == 422 and "не больше 2000 конов" in r.get_data(as_text=True)
    r = phone.client.post(game + "/deal", data={**phone.form(game + "/deal"),
                                                "action": "redeal"})
    assert r.status_code == 422
    assert stored_live(app, full.id) == 2000
