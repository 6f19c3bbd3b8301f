"""Growth without bound: one-time ids are kept (small), a deal's history is paged, the deal cap
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


def toggle_forms(phone: Phone, game: str, times: int) -> list[dict]:
    """Delete and restore deal 1 ``times`` times through its forms; return the bodies sent."""
    sent = []
    for i in range(times):
        # The form's own id is random; any id of the form's shape stands for it here.
        body = {**phone.form(game + "/deal"), "sid": f"toggle-{i:04d}"}
        action = "restore" if i % 2 else "delete"
        assert phone.client.post(f"{game}/deal/1/{action}", data=body).status_code == 302
        sent.append((action, body))
    return sent


def submissions_of(app, game_id: int) -> int:
    """How many one-time ids the file keeps for the game."""
    db = store.connect(app.config["DATABASE"])
    try:
        return db.execute("select count(*) from submissions where game_id = ?",
                          [game_id]).fetchone()[0]
    finally:
        db.close()


def test_one_time_ids_are_kept_and_an_old_repeat_changes_nothing(app):
    """60 delete/restore toggles keep all 60 ids (for the game's whole life); a repeat of
    the first form and one of the last are both answered as done and store nothing."""
    phone = Phone(app)
    db = store.connect(app.config["DATABASE"])
    try:
        row = store.Store(db).create_game(HEAD, [pattern(0), pattern(1)])
    finally:
        db.close()
    game = f"/g/{row.edit_token}"
    sent = toggle_forms(phone, game, 60)
    assert submissions_of(app, row.id) == 60
    before = phone.client.get(game + "/export.json").get_json()
    for action, body in (sent[0], sent[-1]):
        r = phone.client.post(f"{game}/deal/1/{action}", data=body)
        assert r.status_code == 302
    assert phone.client.get(game + "/export.json").get_json() == before
    assert stored_live(app, row.id) == 2
    assert submissions_of(app, row.id) == 60


def test_a_long_deal_history_is_paged(app):
    """A deal with 61 revisions: its edit form lists 20 of them and links to the earlier
    ones without JavaScript; the last page holds the first revision."""
    phone = Phone(app)
    db = store.connect(app.config["DATABASE"])
    try:
        st = store.Store(db)
        row = st.create_game(HEAD, [pattern(0), pattern(1)])
        for i in range(60):
            st.revise_deal(row.id, 1, None if i % 2 == 0 else pattern(0),
                           "delete" if i % 2 == 0 else "restore")
    finally:
        db.close()
    game = f"/g/{row.edit_token}"
    html = phone.client.get(game + "/deal/1").get_data(as_text=True)
    history = html.split('id="history"', 1)[1].split("</details>", 1)[0]
    assert history.count("<li>") == 20
    assert "записан" not in history and "Страница изменений 1 из 4" in history
    older = re.search(r'href="([^"]+)" rel="next"', history).group(1).replace("&amp;", "&")
    last = phone.client.get(older.replace("history=2", "history=4")).get_data(as_text=True)
    tail = last.split('id="history"', 1)[1].split("</details>", 1)[0]
    assert tail.count("<li>") == 1 and "записан" in tail and 'rel="prev"' in tail
