"""When the Wi-Fi drops at 390×844: what was typed waits in the page's outbox and is sent
once, in order, when the connection returns; the read-only page says it lost the server."""

from __future__ import annotations

import re
import socket

import pytest
from phone_browser import HOST_KEY, PHONE, open_form, served
from playwright.sync_api import expect
from test_save_flow import GAME, deal, new_game, rows

from scorer import create_app

pytestmark = pytest.mark.browser

WAITING = "#outbox-count"


def waiting(page) -> list[dict]:
    """The outbox as the page keeps it in localStorage."""
    return page.evaluate("() => JSON.parse(localStorage.getItem('scorer-outbox') || '[]')")


def fill(page, declarer, contract, points):
    """Fill the deal form that is on screen (not saved yet)."""
    page.click(f"label.pick.p{declarer}")
    page.fill("#contract", str(contract))
    for seat, value in points.items():
        page.fill(f"#points_{seat}", str(value))


def protocol(page) -> list[str]:
    """The protocol rows' declarer and contract, oldest first (e.g. «Аня 100»)."""
    infos = page.locator("#protocol tbody tr[id^=row-] td.info").all_inner_texts()
    return [" ".join(i.split()[:2]) for i in reversed(infos)]


def saved_offline(page, count):
    """The banner on top and the note on the form both say how many writes wait."""
    assert page.locator(WAITING).inner_text() == f"Не отправлено: {count}"
    assert page.locator("#offline-note").inner_text() == \
        f"Нет связи — записи ждут отправки ({count})"


def test_a_deal_saved_offline_waits_and_is_recorded_once(live_server, phone):
    """Offline → save → banner and count; online → recorded once, the game page shows it."""
    page = phone()
    new_game(page, live_server)
    open_form(page)
    page.context.set_offline(True)
    fill(page, 0, 100, {1: 10, 2: 10})
    page.click("#save")
    saved_offline(page, 1)
    assert page.input_value("#contract") == ""  # cleared for the next deal
    assert len(waiting(page)) == 1
    page.context.set_offline(False)
    page.wait_for_url(GAME)
    assert rows(page) == [1] and protocol(page) == ["Аня 100"]
    assert waiting(page) == [] and page.locator("#outbox").count() == 0
    page.reload()
    assert rows(page) == [1]


def test_the_server_restarted_between_the_save_and_the_retry(browser, tmp_path):
    """The laptop's server is down when «Сохранить» is tapped, and back later."""
    config = {"INSTANCE_PATH": str(tmp_path / "instance"), "SECRET_KEY": "browser-secret",
              "HOST_KEY": HOST_KEY}
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="ru-RU",
                                  service_workers="block")  # the phone on the table's http
    page = context.new_page()
    try:
        with served(create_app(config), port) as base:
            new_game(page, base)
            open_form(page)
            fill(page, 1, 110, {0: 20, 2: 0})
        page.click("#save")  # nobody answers on the port now
        saved_offline(page, 1)
        with served(create_app(config), port):
            page.wait_for_url(GAME, timeout=20000)  # the timer's retry
            assert protocol(page) == ["Борис 110"]
            assert waiting(page) == []
    finally:
        context.close()


def test_two_waiting_deals_are_sent_in_the_order_they_were_made(live_server, phone):
    """Typed one after another offline in the same form: a chain, stored in order."""
    page = phone()
    new_game(page, live_server)
    open_form(page)
    page.context.set_offline(True)
    fill(page, 0, 100, {1: 10, 2: 10})
    page.click("#save")
    saved_offline(page, 1)
    fill(page, 2, 120, {0: 0, 1: 0})
    page.click("#save")
    saved_offline(page, 2)
    chain = waiting(page)
    assert chain[1]["body"] and dict(chain[1]["body"])["after"] == chain[0]["sid"]
    page.context.set_offline(False)
    page.wait_for_url(GAME)
    assert rows(page) == [2, 1] and protocol(page) == ["Аня 100", "Вика 120"]


def test_a_waiting_edit_that_became_late_is_kept_and_shown(live_server, phone):
    """Another phone saved while the edit waited: it is not stored, it is kept and shown on
    every page of the game, and stored when its holder chooses to."""
    page = phone()
    game = new_game(page, live_server)
    deal(page, 0, 100, {1: 10, 2: 10})
    page.click("#row-1 a.edit")
    page.wait_for_url(re.compile(r"/deal/\d+$"))
    page.context.set_offline(True)
    page.fill("#contract", "110")
    page.click("#save")
    saved_offline(page, 1)
    other = phone()  # the other phone records a deal meanwhile
    other.goto(game)
    deal(other, 1, 100, {0: 10, 2: 10})
    page.context.set_offline(False)
    page.locator("#outbox .outbox-item.conflict").wait_for()
    assert "кон 2: Борис 100" in page.locator("#outbox .outbox-item").inner_text()
    assert len(waiting(page)) == 1 and waiting(page)[0]["status"] == "conflict"
    tab = page.context.new_page()  # every page of the game shows it
    tab.goto(game)
    assert tab.locator(WAITING).inner_text() == "Не отправлено: 1"
    assert protocol(tab) == ["Аня 100", "Борис 100"]
    tab.close()
    page.click("#outbox .outbox-keep")
    page.wait_for_url(GAME)
    assert protocol(page) == ["Аня 110", "Борис 100"]


def test_a_waiting_deal_the_rules_refuse_opens_again_in_the_form(live_server, phone):
    """Kept offline with a contract the rules refuse: back online it is refused, kept with
    the server's words, and «Открыть в форме» puts what was typed back in a fresh form."""
    page = phone()
    new_game(page, live_server)
    open_form(page)
    page.context.set_offline(True)
    fill(page, 0, 103, {1: 10, 2: 10})
    page.click("#save")
    saved_offline(page, 1)
    page.context.set_offline(False)
    page.locator("#outbox .outbox-item.refused").wait_for()
    assert "кратен 5" in page.locator("#outbox .outbox-item .error").inner_text()
    with page.expect_navigation():
        page.click("#outbox a.outbox-open")
    page.wait_for_load_state()
    assert page.input_value("#contract") == "103"  # what was typed, back in the form
    assert waiting(page) == []
    page.fill("#contract", "105")
    page.click("#save")
    page.wait_for_url(GAME)
    assert protocol(page) == ["Аня 105"]


def test_the_outbox_survives_closing_the_tab(live_server, phone):
    """Saved offline, tab closed; the next visit of any page of the game sends it."""
    page = phone()
    game = new_game(page, live_server)
    open_form(page)
    page.context.set_offline(True)
    fill(page, 0, 100, {1: 10, 2: 10})
    page.click("#save")
    saved_offline(page, 1)
    context = page.context
    page.close()
    context.set_offline(False)
    again = context.new_page()
    again.goto(game + "/share")
    again.wait_for_url(GAME)
    assert protocol(again) == ["Аня 100"]
    assert waiting(again) == []


def test_a_double_tap_while_offline_queues_one_deal(live_server, phone):
    """Two quick taps on «Сохранить» with no connection: one waiting deal, one recorded."""
    page = phone()
    new_game(page, live_server)
    open_form(page)
    page.context.set_offline(True)
    fill(page, 0, 100, {1: 10, 2: 10})
    page.dblclick("#save")
    # The second tap came within the form's pause after queueing: once the form takes
    # taps again, whatever either tap queued is in.
    expect(page.locator("#save")).to_be_enabled()
    saved_offline(page, 1)
    assert len(waiting(page)) == 1
    page.context.set_offline(False)
    page.wait_for_url(GAME)
    assert rows(page) == [1]


def test_the_read_only_page_says_when_it_lost_the_server(live_server, phone):
    """Polling fails: «нет связи с сервером, последнее обновление HH:MM»; then it recovers."""
    page = phone()
    game = new_game(page, live_server)
    page.goto(game + "/share")
    watcher = phone()
    watcher.goto(page.input_value("#view-url"))
    watcher.context.set_offline(True)
    banner = watcher.locator("#offline")
    banner.wait_for(timeout=15000)
    assert re.fullmatch(r"Нет связи с сервером, последнее обновление \d\d:\d\d",
                        banner.inner_text())
    watcher.context.set_offline(False)
    banner.wait_for(state="detached", timeout=15000)
