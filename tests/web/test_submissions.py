"""One-time submission ids: a write form posted twice is stored once."""

from __future__ import annotations

import re

from scorer import store


def deals_in(app, game_path: str) -> int:
    """How many deal slots the game has in the database file."""
    token = game_path.rsplit("/", 1)[1]
    with app.app_context():
        db = store.connect(app.config["DATABASE"])
        gid = next(db.query("select id from games where edit_token = ?", [token]))["id"]
        n = next(db.query("select count(*) n from deals where game_id = ?", [gid]))["n"]
        db.close()
    return n


def form_body(table, path: str) -> dict[str, str]:
    """The hidden fields of the deal form at path, the one-time id included."""
    html = table.client.get(path).get_data(as_text=True)
    sid = re.search(r'name="sid" value="([^"]+)"', html).group(1)
    return {**table.form(path), "sid": sid}


def test_the_same_deal_form_posted_twice_is_one_deal(app, table):
    """Two posts of the same body: one deal, and both answers lead to the game page."""
    game = table.new_game()
    body = {**form_body(table, game + "/deal"), "action": "play", "declarer": "0",
            "contract": "100", "points_1": "10", "points_2": "10"}
    first = table.client.post(game + "/deal", data=body)
    second = table.client.post(game + "/deal", data=body)
    assert first.status_code == second.status_code == 302
    assert first.headers["Location"] == second.headers["Location"] == game
    assert deals_in(app, game) == 1
    assert "Ничего не сохранено" not in table.client.get(game).get_data(as_text=True)


def test_a_different_form_with_the_same_id_is_not_taken_for_a_repeat(app, table):
    """Only the same id with the same body is a repeat; another deal is refused as stale."""
    game = table.new_game()
    body = {**form_body(table, game + "/deal"), "action": "play", "declarer": "0",
            "contract": "100", "points_1": "10", "points_2": "10"}
    assert table.client.post(game + "/deal", data=body).status_code == 302
    other = {**body, "contract": "110"}
    assert table.client.post(game + "/deal", data=other).status_code == 409
    assert deals_in(app, game) == 1


def test_delete_and_adjustment_posted_twice_act_once(app, table):
    """The adjustment form and the delete form are idempotent too."""
    game = table.new_game()
    adj = {**form_body(table, game + "/deal"), "action": "adjustment", "player": "1",
           "amount": "-120", "reason": "other"}
    assert table.client.post(game + "/deal", data=adj).status_code == 302
    assert table.client.post(game + "/deal", data=adj).status_code == 302
    assert deals_in(app, game) == 1
    slot = table.slot_ids(game)[0]
    html = table.client.get(f"{game}/deal/{slot}").get_data(as_text=True)
    delete = html.split('id="delete-confirm"', 1)[1]
    body = {**table.form(game + "/deal"),
            "sid": re.search(r'name="sid" value="([^"]+)"', delete).group(1)}
    assert table.client.post(f"{game}/deal/{slot}/delete", data=body).status_code == 302
    assert table.client.post(f"{game}/deal/{slot}/delete", data=body).status_code == 302
    with app.app_context():
        db = store.connect(app.config["DATABASE"])
        notes = [r["note"] for r in db.query(
            "select note from revisions where deal_id = ? order by rev", [slot])]
        db.close()
    assert notes == ["add", "delete"]


def test_download_fallback_names(table):
    """The plain-ASCII file name: transliterated, or thousand-YYYY-MM-DD (item 10)."""
    game = table.new_game(title="Ёлка у Щукиных")
    r = table.client.get(game + "/export.json")
    assert 'filename="Elka-u-Shchukinykh.json"' in r.headers["Content-Disposition"]
    game = table.new_game(title="ъ ь")
    r = table.client.get(game + "/sheet.pdf")
    assert re.search(r'filename="thousand-\d{4}-\d\d-\d\d\.pdf"', r.headers["Content-Disposition"])
