"""Two real phones at 390×844, one of them without a connection:
the deals it keeps are numbered and seated as they will be stored; a write that became
late is never stored by itself: it is shown beside what the other phone saved, and only
its holder's choice stores it. The queue and the question survive a reload (made once
the connection is back: over plain http a page reloaded offline is the browser's own
error page, which is why the page says to keep it open)."""

from __future__ import annotations

import re

import pytest
from phone_browser import open_form
from playwright.sync_api import expect
from test_outbox import fill, protocol, waiting
from test_save_flow import GAME, deal, new_game

pytestmark = pytest.mark.browser

CONFLICT = "#outbox .outbox-item.conflict"
KEEP_OPEN = ("Нет связи. Не закрывайте и не обновляйте эту страницу, пока связь не "
             "вернётся: без связи она не откроется снова, а записанное ждёт в ней.")


def seating(page) -> tuple[str, str, str]:
    """The form's heading, dealer and player on 100, as the scorekeeper reads them."""
    return (page.inner_text("h1"), page.inner_text("#state-dealer"),
            page.inner_text("#state-forced b"))


def queued(page, count: int) -> None:
    """Wait until the outbox says that many writes wait (a failed request is async)."""
    page.wait_for_function("n => (document.getElementById('outbox-count') || {}).textContent"
                           " === 'Не отправлено: ' + n", arg=count)


def labels(page) -> list[str]:
    """The waiting writes as the outbox lists them."""
    return page.locator("#outbox .outbox-label").all_inner_texts()


def stored(page, game: str) -> list[dict]:
    """The game's live records as the server has them (its JSON export)."""
    return page.evaluate("url => fetch(url).then(r => r.json()).then(j => j.deals)",
                         game + "/export.json")


def test_deals_kept_offline_are_numbered_and_seated_as_the_engine_will(live_server, phone):
    """Offline at deal 1: each kept deal takes the next number, the dealer and the player
    on 100 move on (a redeal keeps them), the declarer on 100 is chosen for the next; the
    page says at once to stay open. Online, the server stores them as numbered."""
    page = phone()
    game = new_game(page, live_server)
    page.context.set_offline(True)  # on the game page: said before anybody reloads
    page.locator("#keep-open").wait_for()
    assert page.inner_text("#keep-open") == KEEP_OPEN
    page.context.set_offline(False)
    page.locator("#keep-open").wait_for(state="detached")
    open_form(page)
    assert seating(page) == ("Кон 1", "Аня", "Борис")
    page.context.set_offline(True)
    fill(page, 1, 100, {0: 10, 2: 10})
    page.click("#save")
    queued(page, 1)
    assert page.inner_text("#keep-open") == KEEP_OPEN
    assert seating(page) == ("Кон 2", "Борис", "Вика")
    assert page.is_checked("#declarer_2")
    fill(page, 2, 110, {0: 0, 1: 20})
    page.click("#save")
    assert seating(page) == ("Кон 3", "Вика", "Аня")
    expect(page.locator("#save")).to_be_enabled()  # the form takes taps again after its pause
    page.click("#redeal-ask")
    page.click("#redeal")
    assert seating(page) == ("Кон 4", "Вика", "Аня") and page.is_checked("#declarer_0")
    form = page.url
    page.click("text=Назад к игре")  # it would be the browser's error page: not followed
    page.wait_for_timeout(500)
    assert page.url == form and page.is_visible("#keep-open")
    assert labels(page) == ["Кон 1 · Борис 100", "Кон 2 · Вика 110",
                            "Кон 3 · Да, записать пересдачу"]
    page.context.set_offline(False)
    page.wait_for_url(GAME)
    assert page.locator("#keep-open").count() == 0
    assert protocol(page)[:2] == ["Борис 100", "Вика 110"] and len(stored(page, game)) == 3
    state = page.inner_text("#deal-state")  # the game page's form for the next deal
    assert page.inner_text("#deal-title") == "Кон 4" and "Сдающий: Вика." in state
    assert "На сотне: Аня." in state


def two_waiting(page) -> None:
    """Offline on phone A: two deals kept, the second typed after the first."""
    open_form(page)
    page.context.set_offline(True)
    fill(page, 1, 100, {0: 10, 2: 10})
    page.click("#save")
    queued(page, 1)
    fill(page, 2, 110, {0: 0, 1: 20})
    page.click("#save")
    queued(page, 2)


def test_a_late_deal_waits_for_its_holders_choice_even_across_a_reload(live_server, phone):
    """A keeps two deals; B saves deal 1 meanwhile. Back online, A's first deal is not
    stored: it is shown beside B's; reloaded, the question and the queue are still there;
    «Записать мой как кон 2» stores it, and the second follows as deal 3."""
    a = phone()
    game = new_game(a, live_server)
    two_waiting(a)
    b = phone()
    b.goto(game)
    deal(b, 0, 120, {1: 0, 2: 0})
    a.context.set_offline(False)
    a.locator(CONFLICT).wait_for()
    item = a.locator(CONFLICT).inner_text()
    assert "Пока не было связи, другой телефон записал:" in item
    assert "кон 1: Аня 120 · Аня 120, Борис 0, Вика 0" in item
    assert "Ваш кон: Борис 100 · Аня 10, Борис 100, Вика 10" in item
    assert a.locator("#outbox-count").inner_text() == "Не отправлено: 2"
    assert "Нужно ваше решение: это ещё не сохранено." in a.inner_text("#outbox")
    for wrong in ("уйдут сами", "Нет связи", "Проверьте протокол"):
        assert wrong not in a.inner_text("main")
    assert len(stored(b, game)) == 1  # nothing of A's without a choice
    a.reload()  # online: the page loads, the queue is read back from localStorage
    a.locator(CONFLICT).wait_for()
    assert [e["status"] for e in waiting(a)] == ["conflict", "waiting"]
    a.wait_for_timeout(2500)  # longer than the first retry: still nothing is sent
    assert len(stored(b, game)) == 1
    a.click("#outbox .outbox-keep")
    a.wait_for_url(GAME)
    assert protocol(a) == ["Аня 120", "Борис 100", "Вика 110"]
    assert waiting(a) == []


def test_dropping_a_late_deal_as_the_same_one_sends_the_next_after_it(live_server, phone):
    """Both phones recorded the same deal: A drops its own (asked twice); its next deal,
    typed after it, now follows B's and is stored as deal 2."""
    a = phone()
    game = new_game(a, live_server)
    two_waiting(a)
    b = phone()
    b.goto(game)
    deal(b, 1, 100, {0: 10, 2: 10})
    a.context.set_offline(False)
    a.locator(CONFLICT).wait_for()
    drop = a.locator(f"{CONFLICT} .outbox-drop")
    assert drop.inner_text() == "Убрать мой: это тот же кон"
    drop.click()
    assert len(stored(b, game)) == 1
    drop.click()  # «Да, убрать то, что было введено»
    a.wait_for_url(GAME)
    assert protocol(a) == ["Борис 100", "Вика 110"]
    assert len(stored(a, game)) == 2


def test_a_late_edit_shows_the_other_phones_correction_beside_it(live_server, phone):
    """A corrects deal 1 offline; B corrects the same deal online. Back online A sees both
    values and no word of a lost connection; nothing changes until «Сохранить моё
    поверх»."""
    a = phone()
    game = new_game(a, live_server)
    deal(a, 0, 100, {1: 10, 2: 10})
    a.click("#row-1 a.edit")
    a.wait_for_url(re.compile(r"/deal/\d+$"))
    a.context.set_offline(True)
    a.fill("#contract", "110")
    a.click("#save")
    queued(a, 1)
    b = phone()
    b.goto(game)
    b.click("#row-1 a.edit")
    b.wait_for_url(re.compile(r"/deal/\d+$"))
    b.fill("#contract", "120")
    b.click("#save")
    b.wait_for_url(GAME)
    a.context.set_offline(False)
    a.locator(CONFLICT).wait_for()
    item = a.locator(CONFLICT).inner_text()
    assert "кон 1 исправлен: Аня 120 · Аня 100, Борис 10, Вика 10" in item
    assert "Ваше исправление кона 1: Аня 110 · Аня 100, Борис 10, Вика 10" in item
    for wrong in ("уйдут сами", "Нет связи", "Проверьте протокол"):
        assert wrong not in a.inner_text("main")
    assert stored(b, game)[0]["contract"] == 120
    a.click("#outbox .outbox-keep")
    a.wait_for_url(GAME)
    assert stored(a, game)[0]["contract"] == 110


def test_with_four_players_the_seats_that_play_follow_the_dealer(live_server, phone):
    """Four players: the dealer sits out, so the next kept deal's form offers the seats
    that play it (the old dealer back in, the new one out), and both are stored."""
    page = phone()
    game = new_game(page, live_server, names=("Аня", "Борис", "Вика", "Гена"))
    open_form(page)
    assert page.is_hidden("#points_0") and page.is_visible("#points_1")
    page.context.set_offline(True)
    fill(page, 1, 100, {2: 10, 3: 10})
    page.fill("#prikup_points", "0")
    page.click("#save")
    queued(page, 1)
    assert seating(page) == ("Кон 2", "Борис", "Вика")
    assert page.is_visible("#points_0") and page.is_hidden("#points_1")
    assert page.is_hidden("label.pick.p1") and page.is_visible("label.pick.p0")
    assert "Борис сидит на прикупе" in page.inner_text("#deal-state")
    fill(page, 2, 100, {0: 10, 3: 10})
    page.fill("#prikup_points", "0")
    page.click("#save")
    page.context.set_offline(False)
    page.wait_for_url(GAME)
    assert protocol(page) == ["Борис 100", "Вика 100"]
    assert [d["points"] for d in stored(page, game)] == [[None, 100, 10, 10],
                                                        [10, None, 100, 10]]
