"""Recording, previewing, editing, deleting and restoring deals through the forms."""

import re

import pytest

from scorer import store
from scorer.engine import records


def test_play_deal_scores_through_the_engine(table):
    """A played deal's totals are the engine's: 120 made with a marriage, defenders rounded."""
    game = table.new_game()
    table.deal(game, declarer="1", contract="120", points_0="20", points_1="80", points_2="20",
               mar_1=["hearts"], nt_0="1", nt_1="1", nt_2="1")
    assert table.totals(game) == [20, 120, 20]


def test_server_fills_the_one_blank_points_field(table):
    """One blank points field is filled by the server as 120 minus the others."""
    game = table.new_game()
    table.deal(game, declarer="0", contract="100", points_1="15", points_2="5")
    assert table.totals(game) == [100, 15, 5]


def test_two_blank_points_fields_are_refused_beside_them(table):
    """Two blank points fields: each gets its error beside it and nothing is saved."""
    game = table.new_game()
    r = table.deal(game, expect=422, declarer="0", contract="100", points_1="35")
    html = r.get_data(as_text=True)
    assert 'id="err-points-0"' in html and 'id="err-points-2"' in html
    assert table.slot_ids(game) == []


def test_points_sum_error_is_shown_beside_the_points_and_nothing_saved(table):
    """A wrong points sum is the engine's message beside the points; the typed values stay."""
    game = table.new_game()
    r = table.deal(game, expect=422, declarer="0", contract="100",
                   points_0="60", points_1="35", points_2="35")
    html = r.get_data(as_text=True)
    assert re.search(r'id="err-points"[^>]*>Очки: сумма должна быть 120 \(получилось 130\)', html)
    assert 'value="35"' in html  # what was typed stays in the form
    assert table.slot_ids(game) == []


def test_a_word_in_a_number_field_is_refused(table):
    """A word in the contract field is refused beside that field."""
    game = table.new_game()
    r = table.deal(game, expect=422, declarer="0", contract="сто", points_1="35", points_2="25")
    assert 'id="err-contract"' in r.get_data(as_text=True)


def test_missing_declarer_is_refused_beside_the_names(table):
    """No declarer chosen: the error sits beside the names."""
    game = table.new_game()
    r = table.deal(game, expect=422, contract="100", points_1="35", points_2="25")
    assert 'id="err-declarer"' in r.get_data(as_text=True)


def test_typed_zero_with_no_trick_is_a_bolt_and_without_is_not(table):
    """A 0 with "no trick" ticked is a bolt; a 0 with it unticked (a zero-point trick) is not."""
    game = table.new_game()
    table.deal(game, declarer="0", contract="100", points_0="100", points_1="0",
               points_2="20", nt_1="1")
    page = table.client.get(game).get_data(as_text=True)
    assert "1 болт" in page
    table.deal(game, declarer="1", contract="100", points_0="0", points_1="100",
               points_2="20")  # nt_0 unticked: a zero-point trick
    assert "1 болт ·" in table.client.get(game).get_data(as_text=True)
    assert table.totals(game) == [100, 100, 40]


def test_bolt_no_trick_box_is_prechecked_on_a_fresh_form(table):
    """A fresh deal form says "no trick" for every 0 (hidden nt_S) and ticks no box."""
    game = table.new_game()
    html = table.client.get(game + "/deal").get_data(as_text=True)
    assert len(re.findall(r'type="hidden" name="nt_\d" value="1"', html)) == 3
    assert not re.findall(r'name="trick_\d" value="1" checked', html)


def test_a_ticked_trick_box_makes_a_zero_a_trick(table):
    """The form's own fields: nt_S always, trick_S ticked for a zero-point trick: no bolt."""
    game = table.new_game()
    table.deal(game, declarer="0", contract="100", points_1="0", points_2="20",
               nt_0="1", nt_1="1", nt_2="1", trick_1="1")
    assert "1 болт" not in table.client.get(game).get_data(as_text=True)


def test_raspis_redeal_and_adjustment(table):
    """Raspis, redeal and adjustment rows score and show, negatives with a real minus sign."""
    game = table.new_game()
    table.deal(game, action="raspis", declarer="1", contract="120")
    assert table.totals(game) == [60, -120, 60]
    table.deal(game, action="redeal")
    table.deal(game, action="adjustment", player="2", amount="-120", reason="cut_nines")
    assert table.totals(game) == [60, -120, -60]
    html = table.client.get(game).get_data(as_text=True)
    # The adjustment row says whom and why, as the PDF does.
    assert "пересдача" in html and "Вика</b>: три девятки при сдвиге" in html
    # Negative numbers carry a real minus sign, as on the PDF: never an ASCII hyphen.
    assert '<span class="delta">\u2212120</span> <b class="sc">\u2212120</b>' in html
    assert not re.search(r">-\d", html)
    listed = table.client.get("/").get_data(as_text=True)
    assert "Вика \u221260" in listed


def test_preview_without_js_shows_deltas_and_saves_nothing(table):
    """The no-script preview shows each delta, fills the blank points and saves nothing."""
    game = table.new_game()
    r = table.deal(game, expect=200, action="preview", declarer="1", contract="120",
                   points_0="20", points_2="20", mar_1=["hearts"])
    html = r.get_data(as_text=True)
    assert re.search(r'class="pv-delta" data-seat="1">\+120<', html)
    assert 'value="80"' in html  # the blank declarer field was filled
    assert table.slot_ids(game) == []


def test_preview_json(table):
    """The JSON preview answers deltas and filled points, or the field's error; nothing saved."""
    game = table.new_game()
    ok = table.client.get(game + "/preview?declarer=1&contract=120&points_0=20&points_2=20"
                          "&mar_1=hearts").get_json()
    assert ok["ok"] and ok["delta"] == [20, 120, 20] and ok["filled"]["points_1"] == "80"
    bad = table.client.get(game + "/preview?declarer=1&contract=103&points_0=20&points_2=20"
                           ).get_json()
    assert not bad["ok"] and bad["errors"][0]["field"] == "contract"
    assert table.slot_ids(game) == []


def test_contract_quick_values_follow_bid_step(table):
    """The quick contract values step by the game's bid_step (10 in Polish play)."""
    game = table.new_game(preset="polish")
    html = table.client.get(game + "/deal").get_data(as_text=True)
    chips = re.findall(r'data-contract="(\d+)"', html)
    assert chips[:3] == ["100", "110", "120"]


def test_edit_deal_replays_and_shows_which_totals_changed(table):
    """Editing a past deal replays the game and says once which later totals changed."""
    game = table.new_game()
    table.deal(game, declarer="0", contract="100", points_1="10", points_2="10")
    table.deal(game, declarer="1", contract="100", points_0="10", points_2="10")
    table.deal(game, declarer="2", contract="100", points_0="10", points_1="10")
    assert table.totals(game) == [120, 120, 120]
    slot = table.slot_ids(game)[1]
    form = table.client.get(f"{game}/deal/{slot}").get_data(as_text=True)
    assert 'name="points_0"\n               value="10"' in form  # pre-filled from the record
    r = table.client.post(f"{game}/deal/{slot}", data={
        **table.form(f"{game}/deal/{slot}"), "action": "play", "declarer": "1",
        "contract": "120", "points_0": "10", "points_1": "90", "points_2": "20"})
    assert r.status_code == 302
    html = table.client.get(game).get_data(as_text=True)
    assert "Кон 2 исправлен" in html
    assert "Итоги изменились в 1 следующем коне" in html
    assert "120 → <b>\u2212100</b>" in html  # Борис failed 120 instead of making 100
    assert table.totals(game) == [120, -100, 130]
    # the banner shows once
    assert "Кон 2 исправлен" not in table.client.get(game).get_data(as_text=True)


def test_edit_refused_when_invalid_changes_nothing(table):
    """An invalid edit is refused beside its field and the totals stay."""
    game = table.new_game()
    table.deal(game, declarer="0", contract="100", points_1="10", points_2="10")
    slot = table.slot_ids(game)[0]
    r = table.client.post(f"{game}/deal/{slot}", data={
        **table.form(f"{game}/deal/{slot}"), "action": "play", "declarer": "0",
        "contract": "100", "points_0": "1", "points_1": "99", "points_2": "20"})
    assert r.status_code == 422
    assert 'id="err-points-0"' in r.get_data(as_text=True)
    assert table.totals(game) == [100, 10, 10]


def test_delete_and_restore_keep_every_revision(app, table):
    """Delete and restore are revisions: the deleted deal is listed, restoring brings it back."""
    game = table.new_game()
    table.deal(game, declarer="0", contract="100", points_1="10", points_2="10")
    table.deal(game, declarer="1", contract="100", points_0="10", points_2="10")
    first = table.slot_ids(game)[0]
    assert table.client.post(f"{game}/deal/{first}/delete",
                             data=table.form(game + "/deal")).status_code == 302
    html = table.client.get(game).get_data(as_text=True)
    assert "Кон 1 удалён" in html
    # shown where it was: below the (now first) row, newest first
    deleted = html.split(f'id="deleted-{first}"', 1)[1].split("</tr>", 1)[0]
    assert re.search(r"Удалён:\s*<b[^>]*>Аня</b> 100", deleted) and "Вернуть" in deleted
    assert html.index('id="row-1"') < html.index(f'id="deleted-{first}"')
    assert table.totals(game) == [10, 100, 10]
    assert table.client.post(f"{game}/deal/{first}/restore",
                             data=table.form(game + "/deal")).status_code == 302
    assert table.totals(game) == [110, 110, 20]
    with app.app_context():
        db = store.connect(app.config["DATABASE"])
        notes = [r["note"] for r in db.query(
            "select note from revisions where deal_id = ? order by rev", [first])]
        db.close()
    assert notes == ["add", "delete", "restore"]
    history = table.client.get(f"{game}/deal/{first}").get_data(as_text=True)
    assert "История этого кона" in history
    assert [m for m in ("записан", "удалён", "возвращён") if m in history] == [
        "записан", "удалён", "возвращён"]


def test_delete_refused_when_a_later_deal_would_break(table):
    """Deleting a deal that a later one depends on is refused, naming that deal's field."""
    game = table.new_game(golden=True)
    # golden round: first hand (seat 1, then 2) must be the declarer with 120
    table.deal(game, declarer="1", contract="120", points_0="20", points_2="20")
    table.deal(game, declarer="2", contract="120", points_0="20", points_1="20")
    before = table.totals(game)
    first = table.slot_ids(game)[0]
    r = table.client.post(f"{game}/deal/{first}/delete", data=table.form(game + "/deal"))
    assert r.status_code == 422
    # in words: the deal, the player's name and the agreement linked to the rules sheet
    html = r.get_data(as_text=True)
    # the deal that is now first needs Борис (the first hand), not Вика who played it
    assert re.search("Кон 1: На золотом ко(не|ну) заказчик — Борис", html)
    assert re.search(r'<a href="/g/[^"#]+/rules#forced_bid_seat">', html)
    assert "место" not in html and "declarer:" not in html
    assert table.totals(game) == before


def test_golden_deal_preselects_the_forced_declarer(table):
    """On a golden deal the forced declarer and 120 are preselected."""
    game = table.new_game(golden=True)
    html = table.client.get(game + "/deal").get_data(as_text=True)
    assert re.search(r'name="declarer" id="declarer_1" value="1" checked', html)
    assert 'value="120"' in html
    assert "Золотой кон" in html


def test_no_deal_after_a_win(table):
    """After a win there is no record button and the deal form redirects away."""
    game = table.new_game(names=("Аня", "Борис"), preset="two-players", target=200)
    table.deal(game, declarer="0", contract="120", points_0="120", points_1="0", nt_1="1")
    table.deal(game, declarer="0", contract="120", points_0="120", points_1="0", nt_1="1")
    html = table.client.get(game).get_data(as_text=True)
    assert 'id="winner"' in html and 'id="record-deal"' not in html
    r = table.client.get(game + "/deal")
    assert r.status_code == 302


def test_four_players_get_talon_fields_and_the_dealer_sits_out(table):
    """With four players the dealer has no points field but the talon fields, and scores them."""
    game = table.new_game(names=("Аня", "Борис", "Вика", "Глеб"))
    html = table.client.get(game + "/deal").get_data(as_text=True)
    assert 'name="prikup_points"' in html
    # The dealer sits on the talon: the seat is there only for a deal kept offline (the
    # next dealer sits out then), hidden and disabled, so it is neither shown nor posted.
    assert '<div class="seat p0" data-seat="0" hidden>' in html
    assert re.search(r'name="points_0"[^>]* class="pts" disabled', html)
    assert re.search(r'id="declarer_0" value="0" disabled', html)
    table.deal(game, declarer="1", contract="100", points_1="80", points_2="20",
               points_3="20", prikup_points="15")
    assert table.totals(game)[0] == 15


def test_deal_limit(monkeypatch, table):
    """The deal form refuses a deal beyond the engine's limit with its message, on top."""
    monkeypatch.setattr(records, "MAX_DEALS", 2)
    game = table.new_game()
    table.deal(game, action="redeal")
    table.deal(game, action="redeal")
    r = table.deal(game, expect=422, action="redeal")
    assert "Игра: не больше 2 конов за игру" in r.get_data(as_text=True)
    assert len(table.slot_ids(game)) == 2


@pytest.mark.parametrize("names, message", [
    (("Аня",), "от 2 до 4"),
    (("Аня", "Аня"), "не должны повторяться"),
])
def test_new_game_refusals(table, names, message):
    """Too few or repeated names are refused with a message."""
    data = {"csrf_token": table.token(), "first_dealer": "0", "preset": "classic",
            "action": "start"}
    data.update({f"name{i}": n for i, n in enumerate(names)})
    r = table.client.post("/new", data=data)
    assert r.status_code == 422
    assert message in r.get_data(as_text=True)


def test_long_name_and_bad_dealer_are_refused(table):
    """A name over 40 characters and a first dealer who is not a player are refused."""
    data = {"csrf_token": table.token(), "preset": "classic", "action": "start",
            "name0": "А" * 41, "name1": "Борис", "first_dealer": "0"}
    assert table.client.post("/new", data=data).status_code == 422
    data.update(name0="Аня", first_dealer="3")
    r = table.client.post("/new", data=data)
    assert r.status_code == 422 and "Первым сдаёт один из игроков" in r.get_data(as_text=True)


def test_edge_paths_of_slots(app, table):
    """Unknown, deleted and other games' deal slots answer 404; restoring a live one is harmless."""
    game = table.new_game()
    table.deal(game, action="redeal")
    slot = table.slot_ids(game)[0]
    form = table.form(game + "/deal")
    assert table.client.post(f"{game}/deal/999/delete", data=form).status_code == 404
    # restoring a live deal changes nothing
    assert table.client.post(f"{game}/deal/{slot}/restore", data=form).status_code == 302
    table.client.post(f"{game}/deal/{slot}/delete", data=form)
    assert table.client.get(f"{game}/deal/{slot}").status_code == 404  # deleted: restore first
    # another game's deal cannot be touched through this game's link
    other = table.new_game(names=("Глеб", "Дина"))
    assert table.client.post(f"{other}/deal/{slot}/restore",
                             data=table.form(other + "/deal")).status_code == 404


def test_a_log_that_no_longer_replays_is_reported_not_crashed(app, table):
    """A stored log the engine refuses is reported on the page; the deal form answers 409."""
    game = table.new_game()
    with app.app_context():
        from scorer.web.db import get_store

        st = get_store()
        row, _ = st.game_by_token(game.rsplit("/", 1)[1])
        st.add_deal(row.id, {"type": "play", "declarer": 0, "contract": 101,
                             "points": [100, 10, 10]})
    html = table.client.get(game).get_data(as_text=True)
    assert "больше не пересчитывается" in html and "кон 1: contract" in html
    assert table.client.get(game + "/deal").status_code == 409


def test_two_phones_posting_at_once_lose_nothing(app, table):
    """Two phones posting 15 deals each: every deal saved once, every stale post refused."""
    import threading

    from webtable import Table

    game = table.new_game()
    start = int(table.form(game + "/deal")["version"])
    phones = [table, Table(app.test_client())]
    failures = []
    refused = []

    def post(phone):
        """Post 15 redeals, retrying each stale (409) form on the fresh one."""
        for _ in range(15):
            while True:  # a stale form is refused (409), never saved twice or dropped
                r = phone.client.post(game + "/deal", data={**phone.form(game + "/deal"),
                                                            "action": "redeal"})
                if r.status_code != 409:
                    break
                refused.append(r.get_data(as_text=True))
            if r.status_code != 302:
                failures.append(r.status_code)

    threads = [threading.Thread(target=post, args=(phone,)) for phone in phones]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert len(table.slot_ids(game)) == 30
    # However many posts the other phone's saves made stale, each was told so and saved
    # nothing: the game changed exactly 30 times (one version per saved deal).
    assert all("Ничего не сохранено" in page for page in refused), refused[:1]
    assert int(table.form(game + "/deal")["version"]) == start + 30


def test_an_error_about_a_field_the_form_hides_is_shown_on_top(table):
    """A forged "dark" where dark is off: refused with the reason on top, nothing saved."""
    game = table.new_game()
    r = table.deal(game, expect=422, declarer="0", contract="120", points_1="0", nt_1="1",
                   points_2="0", nt_2="1", dark="1")
    html = r.get_data(as_text=True)
    assert 'name="dark"' not in html
    # The rule's title is said once, as the link to the rules sheet.
    assert re.search(r'<li class="error top-error">[^<]*<a href="[^"]*#dark">игра втёмную</a>',
                     html)
    assert table.slot_ids(game) == []


def test_every_refusal_about_a_seat_names_the_player_on_the_web(app):
    """No engine rule that words a seat as a number reaches the web form as «место 2»:
    each has a web text with the player's name (names, never seat numbers)."""
    from scorer.engine import RuleError
    from scorer.engine.errors import RULE_TEXTS
    from scorer.web.game.deal_input import SEAT_TEXTS, refusal_words

    about_a_seat = {rule for rule, text in RULE_TEXTS.items()
                    if "{seat}" in text.msgid or "seat {expected}" in text.msgid}
    game_level = {"first_dealer.range"}  # the new-game form chooses a dealer by name
    assert about_a_seat - game_level - set(SEAT_TEXTS) == set()

    err = RuleError(3, "amount", "amount.total", seat=1, total=1_000_120, max=1_000_000)
    with app.test_request_context():
        words = refusal_words(err, ["Аня", "Борис", "Вика"], "ru")
    assert "Борис" in words and "мест" not in words, words
