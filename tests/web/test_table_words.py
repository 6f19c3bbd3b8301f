"""On the server: the words a table reads (no gender, one word for one thing,
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
    """«Отменить…» beside «Записать кон» deletes the newest slot (version and id sent)."""
    game = table.new_game()
    table.deal(game, declarer="0", contract="100", points_1="20", points_2="0")
    table.deal(game, declarer="1", contract="100", points_0="20", points_2="0")
    page = table.client.get(game).get_data(as_text=True)
    form = page.split('id="undo"', 1)[1].split("</details>", 1)[0]
    assert "Отменить…" in form and "Да, отменить кон 2" in form
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


# -- 5. words: protocol rows ---------------------------------------------------------------

def row_html(page: str, n: int) -> str:
    """One protocol row of a game page."""
    return page.split(f'<tr id="row-{n}"', 1)[1].split("</tr>", 1)[0]


def test_rows_show_marriages_penalty_reasons_samosval_and_one_line_redeals(table):
    """♥ beside its declarer's delta, «Аня: три девятки», «+60 → 555 → 0», and a redeal
    without a row of zeros."""
    game = table.new_game()
    table.deal(game, declarer="0", contract="120", points_0="100", points_1="20",
               points_2="0", nt_2="1", mar_0=["hearts"])  # Аня 100 + 100 ♥ = +120
    table.deal(game, action="adjustment", player="0", reason="other", amount="375")
    table.deal(game, action="redeal")
    table.deal(game, declarer="1", contract="100", points_0="60", points_1="60",
               points_2="0", nt_2="1")  # Борис fails; Аня 495 + 60 = 555: samosval
    page = table.client.get(game).get_data(as_text=True)
    first = row_html(page, 1)
    assert '<span class="mar">♥</span>' in first.split('class="cell"', 2)[1]
    adjustment = text(row_html(page, 2))
    assert re.search(r"Аня\s*: другая поправка", adjustment), adjustment
    redeal = row_html(page, 3)
    assert 'class="cell"' not in redeal and "пересдача" in text(redeal)
    samosval = text(row_html(page, 4))
    assert "+60 → 555 → 0" in samosval and "\u2212495" not in samosval
    assert table.totals(game)[0] == 0


# -- 5. words --------------------------------------------------------------------------------

def catalog_strings() -> list[str]:
    """Every Russian translation of the catalog."""
    from pathlib import Path

    from babel.messages.pofile import read_po

    po = Path(__file__).parents[2] / "scorer/translations/ru/LC_MESSAGES/messages.po"
    with open(po, "rb") as f:
        cat = read_po(f, locale="ru")
    out: list[str] = []
    for m in cat:
        if m.id:
            out.extend([m.string] if isinstance(m.string, str) else list(m.string))
    return out


def test_words_have_no_gender_and_one_word_for_one_thing():
    """No «слетел/сброшен», no player-gendered «сыграл» on the sheet, «на золотом кону»,
    no preferans «вистующим», «слёт» and never «падение»."""
    words = catalog_strings()
    for wrong in ("слетел", "сброшен", "золотом коне", "вистующ", "падени", "падение"):
        assert not [w for w in words if wrong in w.lower()], wrong
    assert not [w for w in words if re.search(r"(^|\s)(не )?сыграл$", w)]


def test_a_stale_save_says_nothing_was_saved_once(table):
    """The heading is the stale text itself, not «Пока ничего…» and then «Ничего…»."""
    game = table.new_game()
    old = table.form(game + "/deal")
    table.deal(game, declarer="0", contract="100", points_1="20", points_2="0")
    r = table.client.post(game + "/deal", data={
        **old, "action": "play", "declarer": "1", "contract": "100", "points_0": "20",
        "points_2": "0"})
    assert r.status_code == 409
    said = text(r.get_data(as_text=True).split('id="fresh"', 1)[0])
    assert "Пока ничего не сохранено" not in said
    assert said.count("Ничего не сохранено") == 1


def test_a_repeated_marriage_is_refused_under_the_right_title(table):
    """½♥ then ♥ in one deal: the suit is used once (the half-marriage agreement, named);
    the same marriage twice names no agreement."""
    game = table.new_game(half_marriage=True)
    r = table.deal(game, expect=422, declarer="0", contract="100", points_1="20",
                   points_2="0", mar_0=["half_hearts"], mar_1=["hearts"])
    said = text(r.get_data(as_text=True).split('id="err-marriages-1"', 1)[1].split("</p>")[0])
    assert "один раз за кон" in said and "Полумарьяж" in said
    assert "больше одного раза" not in said
    plain = table.new_game()
    r = table.deal(plain, expect=422, declarer="0", contract="100", points_1="20",
                   points_2="0", mar_0=["hearts"], mar_1=["hearts"])
    said = text(r.get_data(as_text=True).split('id="err-marriages-1"', 1)[1].split("</p>")[0])
    assert "больше одного раза" in said and "—" not in said
