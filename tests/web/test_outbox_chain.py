"""The stale-form check and a page's outbox: waiting writes sent late, in a chain, once."""

from __future__ import annotations

from test_submissions import deals_in, form_body

LATE = {"X-Outbox": "1"}


def played(body: dict, contract: int = 100) -> dict:
    """A played deal: the first seat declares, the others take 10 points each."""
    return {**body, "action": "play", "declarer": "0", "contract": str(contract),
            "points_1": "10", "points_2": "10"}


def test_a_waiting_new_deal_is_appended_even_if_the_game_moved_on(app, table):
    """Sent late by the outbox, a stale new deal is stored; posted as a form it is refused."""
    game = table.new_game()
    waiting = played(form_body(table, game + "/deal"))
    table.deal(game, action="redeal")  # another phone saves meanwhile
    assert table.client.post(game + "/deal", data=waiting).status_code == 409
    assert table.client.post(game + "/deal", data=waiting, headers=LATE).status_code == 302
    assert table.client.post(game + "/deal", data=waiting, headers=LATE).status_code == 302
    assert deals_in(app, game) == 2


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
