"""The stale-form check and a page's outbox: waiting writes sent late, in a chain, once."""

from __future__ import annotations

import re

from test_submissions import deals_in, form_body

from scorer import store

LATE = {"X-Outbox": "1"}


def played(body: dict, contract: int = 100) -> dict:
    """A played deal: the first seat declares, the others take 10 points each."""
    return {**body, "action": "play", "declarer": "0", "contract": str(contract),
            "points_1": "10", "points_2": "10"}


def test_a_waiting_new_deal_on_a_stale_base_is_not_stored(app, table):
    """Sent late by the outbox or posted as a form, a new deal typed before another phone
    saved is refused (409) and stores nothing: only the holder's choice stores it."""
    game = table.new_game()
    waiting = played(form_body(table, game + "/deal"))
    table.deal(game, action="redeal")  # another phone saves meanwhile
    assert table.client.post(game + "/deal", data=waiting).status_code == 409
    assert table.client.post(game + "/deal", data=waiting, headers=LATE).status_code == 409
    assert deals_in(app, game) == 1


def newer_deals(app, game: str, count: int, start: int) -> None:
    """Store ``count`` redeals, each with its own one-time id, straight through the store
    (as fast as a test needs; the forms' path stores the same rows)."""
    token = game.rsplit("/", 1)[1]
    db = store.connect(app.config["DATABASE"])
    try:
        st = store.Store(db)
        row = st.game_by_edit_token(token)
        assert row is not None
        for i in range(start, start + count):
            with st.writing():
                version = st.add_deal(row.id, {"type": "redeal"})
                st.note_submission(row.id, f"newer-{i:05d}:0", version)
    finally:
        db.close()


def test_a_stored_write_is_a_repeat_for_the_games_whole_life(app, table):
    """A deal whose answer was lost, sent again after 25, 100 and 1000 newer deals, with
    the outbox's header or without: answered as done, never stored a second time."""
    game = table.new_game()
    first = played(form_body(table, game + "/deal"))
    assert table.client.post(game + "/deal", data=first).status_code == 302
    done = 0
    for newer in (25, 100, 1000):
        newer_deals(app, game, newer - done, done)
        done = newer
        for headers in (LATE, {}):
            r = table.client.post(game + "/deal", data=first, headers=headers)
            assert r.status_code == 302 and r.headers["Location"] == game
        assert deals_in(app, game) == 1 + newer
    log = table.client.get(game + "/export.json").get_json()
    assert [d["type"] for d in log["deals"]].count("play") == 1


def test_a_stale_edit_from_the_outbox_is_still_refused(app, table):
    """An edit of a past deal on a stale base is never forced, late or not: a conflict."""
    game = table.new_game()
    table.deal(game, action="redeal")
    slot = table.slot_ids(game)[0]
    edit = played(form_body(table, f"{game}/deal/{slot}"))
    table.deal(game, action="redeal")
    before = table.client.get(game + "/export.json").get_json()
    r = table.client.post(f"{game}/deal/{slot}", data=edit, headers=LATE)
    assert r.status_code == 409 and r.get_json()["conflict"]["kind"] == "edit"
    # A form without ``seen`` (made before it existed) cannot be told what came after it.
    assert r.get_json()["conflict"]["title"] == \
        "Пока не было связи, игру изменили на другом телефоне."
    assert table.client.get(game + "/export.json").get_json() == before


def test_a_chain_follows_its_own_last_write_but_not_someone_elses(app, table):
    """A write typed after a waiting one names it (after=): current if it was stored last."""
    game = table.new_game()
    table.deal(game, action="redeal")
    slot = table.slot_ids(game)[0]
    first = played(form_body(table, game + "/deal"))
    # Typed while the first waited: the same base, following the first's one-time id.
    edit = {**played(form_body(table, f"{game}/deal/{slot}"), 110), "after": first["sid"]}
    assert table.client.post(game + "/deal", data=first).status_code == 302
    assert table.client.post(f"{game}/deal/{slot}", data=edit).status_code == 302
    # The same kind of chain, but another phone saved between the two: refused.
    second = played(form_body(table, game + "/deal"))
    late = {**played(form_body(table, f"{game}/deal/{slot}"), 120), "after": second["sid"]}
    assert table.client.post(game + "/deal", data=second).status_code == 302
    table.deal(game, action="redeal")
    assert table.client.post(f"{game}/deal/{slot}", data=late).status_code == 409
    assert table.client.post(f"{game}/deal/{slot}", data={**late, "after": "unknown-id"}
                             ).status_code == 409


def with_seen(table, path: str) -> dict[str, str]:
    """The deal form's hidden fields, with the count of revisions it was made with."""
    html = table.client.get(path).get_data(as_text=True)
    return {**form_body(table, path), "seen": re.search(r'name="seen" value="(\d+)"',
                                                        html).group(1)}


def test_a_late_new_deal_is_shown_beside_what_was_saved_and_stored_by_choice(app, table):
    """409 as data: the other phone's deal, the waiting one, the number it would take; the
    same write sent again on the version named there (the holder's choice) is stored."""
    game = table.new_game()
    waiting = played(with_seen(table, game + "/deal"))
    table.deal(game, declarer="1", contract="110", points_0="20", points_2="0")
    r = table.client.post(game + "/deal", data=waiting, headers=LATE)
    assert r.status_code == 409 and deals_in(app, game) == 1
    conflict = r.get_json()["conflict"]
    assert conflict["title"] == "Пока не было связи, другой телефон записал:"
    assert conflict["meanwhile"] == ["кон 1: Борис 110 · Аня 20, Борис 100, Вика 0"]
    assert conflict["mine"] == "Ваш кон: Аня 100 · Аня 100, Борис 10, Вика 10"
    assert conflict["keep"] == "Записать мой как кон 2" and conflict["number"] == 2
    chosen = {**waiting, "version": str(conflict["version"]), "seen": str(conflict["seen"])}
    assert table.client.post(game + "/deal", data=chosen, headers=LATE).status_code == 302
    assert table.client.post(game + "/deal", data=chosen, headers=LATE).status_code == 302
    assert deals_in(app, game) == 2


def test_a_late_edit_of_a_deal_changed_meanwhile_shows_both_values(app, table):
    """Another phone corrected the same deal: its values beside the waiting ones, nothing
    changed until the holder chooses; a late delete is shown the same way."""
    game = table.new_game()
    table.deal(game, declarer="0", contract="100", points_1="10", points_2="10")
    slot = table.slot_ids(game)[0]
    path = f"{game}/deal/{slot}"
    mine = played(with_seen(table, path), 110)
    theirs = played(with_seen(table, path), 120)
    assert table.client.post(path, data=theirs).status_code == 302
    r = table.client.post(path, data=mine, headers=LATE)
    assert r.status_code == 409
    conflict = r.get_json()["conflict"]
    assert conflict["meanwhile"] == ["кон 1 исправлен: Аня 120 · Аня 100, Борис 10, Вика 10"]
    assert conflict["mine"] == "Ваше исправление кона 1: Аня 110 · Аня 100, Борис 10, Вика 10"
    assert conflict["can_keep"] and conflict["kind"] == "edit"
    log = table.client.get(game + "/export.json").get_json()
    assert log["deals"][0]["contract"] == 120
    delete = {**with_seen(table, path), "version": mine["version"], "seen": mine["seen"]}
    r = table.client.post(path + "/delete", data=delete, headers=LATE)
    assert r.status_code == 409 and r.get_json()["conflict"]["kind"] == "delete"
    assert table.client.get(game + "/export.json").get_json() == log
    # Posted as a form (online), a stale write is refused with the page, as before.
    assert "Ничего не сохранено" in table.client.post(path, data=mine).get_data(as_text=True)
