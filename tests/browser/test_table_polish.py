"""At 390×844: what a real table misses (undo, the cards, a watcher told of an
edit, human dates, the share page) and nothing off the screen."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from phone_browser import HOST_KEY, PHONE, axe_violations, open_form, score
from test_save_flow import GAME, deal, fill_deal, new_game

from scorer.paths import DATABASE_NAME

pytestmark = pytest.mark.browser

MONTHS = ("января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа",
          "сентября", "октября", "ноября", "декабря")


def totals(page) -> list[int]:
    """The big totals in seat order."""
    return [score(t) for t in page.locator("#totals .score").all_inner_texts()]


def no_sideways_scroll(page, width: int = PHONE["width"]) -> bool:
    """Whether the page is no wider than the phone."""
    return page.evaluate("document.documentElement.scrollWidth") <= width


# -- 6. what a real table misses ----------------------------------------------------------

def test_the_newest_deal_is_undone_where_the_save_lands_and_restored(live_server, phone):
    """«↶ Отменить…» beside «Записать кон», a second tap, then «Вернуть» in place."""
    page = phone()
    new_game(page, live_server)
    deal(page, 0, 100, {1: 20, 2: 0})
    deal(page, 1, 110, {0: 10, 2: 0})
    before = totals(page)
    ask = page.locator("#undo-ask")
    assert "Отменить" in ask.inner_text()
    box = ask.bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"] and box["height"] >= 44
    assert not page.locator("#undo-yes").is_visible()  # a second tap, never one
    ask.click()
    assert page.locator("#undo-yes").inner_text() == "Да, отменить кон 2"
    with page.expect_navigation():
        page.click("#undo-yes")
    assert totals(page) == [100, 20, 0]
    assert "Кон 2 удалён" in page.locator("#changed").inner_text()
    restore = page.locator("tr.deleted button:has-text('Вернуть')")
    with page.expect_navigation():
        restore.click()
    assert totals(page) == before


def test_each_card_tells_the_distance_and_warns_of_the_third_bolt(live_server, phone):
    """Two bolts: «болт 2 из 3» on the card itself; «до бочки 680», «до 1000: 800»."""
    page = phone()
    new_game(page, live_server)
    deal(page, 0, 100, {1: 0, 2: 0})
    deal(page, 0, 100, {1: 0, 2: 0})
    anya, boris = page.locator("#total-0 summary"), page.locator("#total-1 summary")
    assert "до бочки 680" in anya.inner_text() and "до 1000: 800" in anya.inner_text()
    warn = page.locator("#total-1 .badge.bolts")
    assert warn.inner_text() == "болт 2 из 3" and warn.is_visible()
    assert "болт" not in page.locator("#total-0 .badges").inner_text()
    assert "до бочки 880" in boris.inner_text()
    assert no_sideways_scroll(page)


def test_a_watcher_is_told_of_an_edit_and_an_open_why_stays_open(live_server, browser):
    """The read-only phone (another zone) marks the corrected row until the next deal, and
    the «why» it had open is open again after the refresh."""
    keeper = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                 locale="ru-RU").new_page()
    url = new_game(keeper, live_server)
    deal(keeper, 0, 100, {1: 20, 2: 0})
    deal(keeper, 1, 100, {0: 20, 2: 0})
    keeper.goto(url + "/share")
    view_url = keeper.input_value("#view-url")
    watcher = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  locale="ru-RU", timezone_id="Asia/Vladivostok").new_page()
    watcher.goto(view_url)
    assert watcher.locator("#edited-note").count() == 0
    watcher.click("#row-2 td.cell >> nth=0 >> a.why")
    watcher.wait_for_selector("tr.why-row")
    keeper.goto(url)
    open_form(keeper, "#row-1 td.n a")
    keeper.fill("#points_1", "25")
    keeper.click("#save")
    keeper.wait_for_url(GAME)
    watcher.wait_for_selector("#edited-note", timeout=15000)
    assert "кон 1 исправлен" in watcher.locator("#edited-note").inner_text()
    assert "moved" in watcher.get_attribute("#row-1", "class")
    watcher.wait_for_selector("#row-2 + tr.why-row", timeout=5000)
    # The next deal ends the note.
    deal(keeper, 2, 100, {0: 20, 1: 0})
    watcher.reload()
    assert watcher.locator("#edited-note").count() == 0
    keeper.context.close()
    watcher.context.close()


def test_the_games_list_says_dates_as_people_do(own_server, browser):
    """«вчера, 21:40» in the phone's own zone, and «4 декабря» for an older game."""
    live_server = own_server.base  # its rows are changed behind the server's back
    zone = ZoneInfo("Asia/Vladivostok")
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, locale="ru-RU",
                              timezone_id="Asia/Vladivostok")
    page = ctx.new_page()
    page.goto(f"{live_server}/?key={HOST_KEY}")
    new_game(page, live_server, names=("Аня", "Борис"), title="Вчерашняя")
    new_game(page, live_server, names=("Аня", "Борис"), title="Давняя")
    here = datetime.now(zone)
    yesterday = (here - timedelta(days=1)).replace(hour=21, minute=40, second=0)
    old = (here - timedelta(days=40)).replace(hour=12, minute=0, second=0)
    db = sqlite3.connect(own_server.instance / DATABASE_NAME)
    for title, when in (("Вчерашняя", yesterday), ("Давняя", old)):
        stamp = when.astimezone(UTC).isoformat(timespec="seconds")
        db.execute("update games set updated = ? where head like ?", [stamp, f'%"{title}"%'])
    db.commit()
    db.close()
    page.goto(live_server + "/")
    items = page.locator("ul.games li")
    said = {items.nth(i).locator("b").inner_text(): items.nth(i).locator("small").first
            .inner_text() for i in range(items.count())}
    assert said["Вчерашняя"].startswith("вчера, 21:40")
    expected = f"{old.day} {MONTHS[old.month - 1]}"
    assert said["Давняя"].startswith(expected), said
    assert "20" not in said["Давняя"].split("·")[0] or old.year != here.year
    # The host key is said once.
    assert page.content().count("ключ хозяина") <= 1
    ctx.close()


def test_the_share_page_copies_each_link_and_labels_its_fields(live_server, browser):
    """A copy button per link puts it on the clipboard; axe-core finds no violation."""
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, locale="ru-RU",
                              bypass_csp=True)  # axe-core goes in as a script of its own
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    page = ctx.new_page()
    url = new_game(page, live_server)
    page.goto(url + "/share")
    assert page.locator("label[for=view-url]").inner_text() == "Ссылка для просмотра"
    page.click("#copy-view")
    assert page.evaluate("navigator.clipboard.readText()") == page.input_value("#view-url")
    assert page.locator("#copy-view").inner_text() == "Скопировано"
    assert axe_violations(page) == []
    assert no_sideways_scroll(page)
    ctx.close()


# -- 3. nothing off the screen -------------------------------------------------------------

@pytest.mark.parametrize("width", [390, 360])
@pytest.mark.parametrize("names", [("Аня", "Борис", "Вика"),
                                   ("Александра", "Константин", "Маргарита", "Вениамин")])
def test_every_total_cards_box_stays_on_the_screen(live_server, phone, names, width):
    """Each card's box opens inside the phone (390 and 360 px), the last one too; the page
    never scrolls sideways."""
    page = phone({"width": width, "height": 740 if width == 360 else 844})
    new_game(page, live_server, names=names)
    if len(names) == 3:
        deal(page, 0, 100, {1: 20, 2: 0})
    else:  # the first dealer sits on the talon
        fill_deal(page, 1, 100, {2: 20, 3: 0})
        page.fill("#prikup_points", "0")
        page.click("#save")
        page.wait_for_url(GAME)
    for s in range(len(names)):
        page.click(f"#total-{s} summary")
        box = page.locator(f"#total-{s} .whybox").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (s, box)
        assert no_sideways_scroll(page, width), s
        page.click(f"#total-{s} summary")



FOUR = ("Александра", "Константин", "Валентина", "Владислава")


def four_deal(page, declarer, points):
    """One 4-player deal (the dealer's talon holds 0 points) from the game page."""
    fill_deal(page, declarer, 100, points)
    page.fill("#prikup_points", "0")
    page.click("#save")
    page.wait_for_url(GAME)


def heads(page) -> list[tuple[str, bool]]:
    """Each player's protocol head as shown, and whether it is cut."""
    return page.locator("#protocol thead th.pc").evaluate_all(
        "ths => ths.map(th => [th.innerText.trim(), th.scrollWidth > th.clientWidth + 1])")


@pytest.mark.parametrize("size", [PHONE, {"width": 844, "height": 390}])
def test_four_players_heads_are_whole_or_distinct_short_forms(live_server, browser, size):
    """Never «Алекса…/Конста…»: the whole name where it fits (landscape), a distinct short
    form where not (portrait)."""
    ctx = browser.new_context(viewport=size, is_mobile=True, has_touch=True, locale="ru-RU")
    page = ctx.new_page()
    new_game(page, live_server, names=FOUR)
    four_deal(page, 1, {2: 20, 3: 0})
    shown = heads(page)
    assert not [text for text, cut in shown if cut], shown
    texts = [text for text, _cut in shown]
    assert len(set(texts)) == 4 and not any("…" in t for t in texts)
    if size["width"] > 800:
        assert texts == list(FOUR)
    assert no_sideways_scroll(page) if size is PHONE else True
    ctx.close()


def test_after_an_edit_in_a_four_player_game_the_newest_row_is_in_view(live_server, phone):
    """A short title and a change summary of the moved totals only: row 3 above the fold."""
    page = phone()
    new_game(page, live_server, names=FOUR)
    four_deal(page, 1, {2: 20, 3: 0})
    four_deal(page, 2, {0: 20, 3: 0})  # the dealer moves on and sits out
    four_deal(page, 3, {0: 20, 1: 0})
    open_form(page, "#row-1 td.n a")
    page.fill("#points_2", "25")
    page.click("#save")
    page.wait_for_url(GAME)
    summary = page.locator("#changed").inner_text()
    assert "Владислава" not in summary and "без изменений" not in summary
    box = page.locator("#row-3").bounding_box()
    page.screenshot(path="/tmp/tbl/edit4.png")
    assert box["y"] + box["height"] <= PHONE["height"], box


def test_a_redeal_row_takes_one_line(live_server, phone):
    """A redeal: «пересдача · сдача: Аня» on one line, no row of zeros."""
    page = phone()
    new_game(page, live_server)
    open_form(page)  # the game page has a «Пересдача…» of its own
    page.click("#redeal-ask")
    page.click("#redeal")
    page.wait_for_url(GAME)
    row = page.locator("#row-1")
    assert row.locator("td.cell").count() == 0
    line = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('#row-1 td.info')).lineHeight)")
    info = row.locator("td.info").evaluate(
        "td => { const r = document.createRange(); r.selectNodeContents(td);"
        " return r.getBoundingClientRect().height; }")
    assert info <= line * 1.5  # one line of text
    assert row.bounding_box()["height"] <= 56  # the 44 px «1 ✎» link and its padding
