"""The stale-form check and a page's outbox: waiting writes sent late, in a chain, once."""

from __future__ import annotations

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
    """An edit of a past deal on a stale base is never forced, late or not."""
    game = table.new_game()
    table.deal(game, action="redeal")
    slot = table.slot_ids(game)[0]
    edit = played(form_body(table, f"{game}/deal/{slot}"))
    table.deal(game, action="redeal")
    r = table.client.post(f"{game}/deal/{slot}", data=edit, headers=LATE)
    assert r.status_code == 409
    assert "Ничего не сохранено" in r.get_data(as_text=True)


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
