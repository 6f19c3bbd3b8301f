"""Forms in the browser: a deal with JavaScript off, and the live new-game summary."""

from __future__ import annotations

import re

import pytest
from phone_browser import PHONE, open_form, score

pytestmark = pytest.mark.browser


def test_a_deal_without_javascript(live_server, browser):
    """Without script: a preset, a previewed and saved deal, a "why", a self-refreshing view."""
    ctx = browser.new_context(viewport=PHONE, java_script_enabled=False, locale="ru-RU")
    page = ctx.new_page()
    try:
        page.goto(live_server + "/new")
        page.fill("#name0", "Аня")
        page.fill("#name1", "Борис")
        page.fill("#name2", "Вика")
        page.select_option("#preset", "polish")
        # No script to do it: the server answers with the same form filled (same URL).
        with page.expect_navigation():
            page.click("button.nojs-only:has-text('Применить набор')")
        assert page.input_value("#name0") == "Аня"
        assert page.input_value("#ag_bid_step") == "10"
        page.click("button.primary:has-text('Начать игру')")
        page.wait_for_url(re.compile(r"/g/[^/]+$"))
        game = page.url

        open_form(page)
        assert page.locator("button.chip").first.is_hidden()  # quick values need script
        page.click("label.pick.p1")
        page.fill("#contract", "100")
        page.fill("#points_0", "20")
        page.fill("#points_2", "0")
        with page.expect_navigation():  # the same form again, with the preview
            page.click("button.nojs-only:has-text('Предпросмотр')")
        assert page.input_value("#points_1") == "100"  # the server filled the blank one
        assert page.locator(".pv-delta[data-seat='1']").inner_text() == "+100"
        page.click("#save")
        page.wait_for_url(re.compile(r"/g/[^/]+$"))
        totals = [score(t) for t in page.locator("#totals .score").all_inner_texts()]
        assert totals == [20, 100, 0]
        assert "—" in page.locator("#row-1 td.cell").nth(2).inner_text()  # a bolt

        # the "why" of a number opens without script: a plain link to its small page
        page.locator("#row-1 td.cell a.why").first.click()
        assert "Аня" in page.locator("#why").inner_text()
        page.go_back()

        view = page.goto(game + "/share") and page.input_value("#view-url")
        page.goto(view)
        assert page.locator("noscript").count() == 1
        assert 'http-equiv="refresh"' in page.content()
    finally:
        ctx.close()


def test_new_game_differences_follow_changes_live(live_server, phone):
    """The list of differences from the preset follows each change on the new-game form."""
    page = phone()
    page.goto(live_server + "/new")
    assert page.locator("#diff-list li").count() == 0
    page.click("summary:has-text('Игра втёмную')")
    page.check("input[name=ag_dark]")
    page.click("summary:has-text('Игра')")
    page.fill("#ag_penalty", "100")
    items = page.locator("#diff-list li").all_inner_texts()
    assert any(i.startswith("Игра втёмную") for i in items)
    assert any(i.endswith(": 100") for i in items)
    assert len(items) == 2
    assert page.locator("#diff-none").is_hidden()
