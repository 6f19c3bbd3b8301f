"""Issue 19 on the server: the words a table reads (no gender, one word for one thing,
rows that say what happened) and what a real table misses (undo, the cards, a watcher told
of an edit, human dates)."""

from __future__ import annotations

import html as htmllib
import re
from datetime import date, datetime

from scorer.web import dates


def text(html: str) -> str:
    """A page's text, tags dropped and entities read."""
    return htmllib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


# -- 6. what a real table misses ----------------------------------------------------------

def test_the_game_page_offers_to_undo_the_newest_deal(table):
    """«Отменить кон 2…» posts a delete of the newest slot, with the version and an id."""
    game = table.new_game()
    table.deal(game, declarer="0", contract="100", points_1="20", points_2="0")
    table.deal(game, declarer="1", contract="100", points_0="20", points_2="0")
    page = table.client.get(game).get_data(as_text=True)
    form = page.split('id="undo"', 1)[1].split("</details>", 1)[0]
    assert "Отменить кон 2…" in form and "Да, отменить кон 2" in form
    assert f'action="{game}/deal/2/delete"' in form
    assert 'name="version"' in form and 'name="sid"' in form


def test_cards_say_the_distances_the_third_bolt_and_the_falls(table):
    """Below the barrel: both distances; two bolts: the warning; no card after the win."""
    game = table.new_game()
    for _ in range(2):  # the form posts nt_S for each seat (a 0 is no trick)
        table.deal(game, declarer="0", contract="100", points_1="0", points_2="0",
                   nt_1="1", nt_2="1")
    page = table.client.get(game).get_data(as_text=True)
    card = text(page.split('id="total-1"', 1)[1].split("</summary>", 1)[0])
    assert "до бочки 880" in card and "до 1000: 1000" in card
    assert "болт 2 из 3" in card
    assert "болт" not in text(page.split('id="total-0"', 1)[1].split("</summary>", 1)[0])


def test_a_watcher_is_told_which_past_deal_changed_until_the_next_deal(table, app):
    """The read-only page marks the corrected row and says so, until a new deal."""
    game = table.new_game()
    table.deal(game, declarer="0", contract="100", points_1="20", points_2="0")
    table.deal(game, declarer="1", contract="100", points_0="20", points_2="0")
    view = table.view_path(game)
    watcher = app.test_client()
    assert 'id="edited-note"' not in watcher.get(view).get_data(as_text=True)
    slot = table.slot_ids(game)[0]
    r = table.client.post(f"{game}/deal/{slot}", data={
        **table.form(f"{game}/deal/{slot}"), "action": "play", "declarer": "0",
        "contract": "100", "points_1": "25", "points_2": "0"})
    assert r.status_code == 302
    page = watcher.get(view).get_data(as_text=True)
    note = text(page.split('id="edited-note"', 1)[1].split("</p>", 1)[0])
    assert "кон 1 исправлен" in note
    assert re.search(r'<tr id="row-1" class="play moved', page)
    table.deal(game, declarer="2", contract="100", points_0="20", points_1="0")
    assert 'id="edited-note"' not in watcher.get(view).get_data(as_text=True)


def test_dates_are_said_as_at_the_table(app):
    """Today and yesterday with the time, other days as «4 декабря» (a year if not this)."""
    today = date(2026, 12, 7)
    with app.test_request_context(headers={"Cookie": "lang=ru"}):
        assert dates.spoken(datetime(2026, 12, 7, 21, 40), today) == "сегодня, 21:40"
        assert dates.spoken(datetime(2026, 12, 6, 21, 40), today) == "вчера, 21:40"
        assert dates.spoken(datetime(2026, 12, 4, 9, 5), today) == "4 декабря"
        assert dates.spoken(date(2025, 3, 8), today) == "8 марта 2025"


def test_the_host_key_notice_is_said_once(client, app):
    """Claiming the key: the flash says it, the standing note does not repeat it."""
    claimed = client.get(f"/?key={app.config['HOST_KEY']}", follow_redirects=True)
    page = claimed.get_data(as_text=True)
    assert text(page).count("ключ хозяина") == 1
    again = client.get("/").get_data(as_text=True)
    assert text(again).count("ключ хозяина") == 1
