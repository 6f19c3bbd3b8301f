"""Changing the rules from the next deal on a phone (390×844), with and without JavaScript."""

from __future__ import annotations

import re

import pytest
from phone_browser import ARGS, PHONE, axe_violations  # noqa: F401  (ARGS: the browser fixture's)
from test_small_screen import long_game_served, no_page_overflow, sized

pytestmark = pytest.mark.browser

OPEN_ALL = "() => document.querySelectorAll('details').forEach(d => d.open = true)"


@pytest.fixture
def game_server(tmp_path):
    """The app on 127.0.0.1 with a running four-player game of long names."""
    with long_game_served(tmp_path) as served_game:
        yield served_game


def show_bolt_penalty_off(page) -> None:
    """On the change form: switch the bolt penalty off and show that change."""
    page.evaluate("() => document.querySelectorAll('#rule-form details')"
                  ".forEach(d => d.open = true)")
    page.select_option("#ag_bolt_penalty", "none")
    page.click("#show-change")
    page.wait_for_url(re.compile(r"/agreements\?"))
    assert page.locator("#rule-changes li").count() == 1


def too_wide(page, selector: str) -> list[str]:
    """Elements under ``selector`` wider than their box."""
    return page.evaluate("""(sel) => [...document.querySelectorAll(sel)]
        .filter(e => e.scrollWidth > e.clientWidth + 1)
        .map(e => e.tagName + ' ' + e.textContent.trim().slice(0, 40))""", selector)


@pytest.mark.parametrize("js", [True, False])
def test_change_from_the_next_deal_on_a_phone(browser, game_server, js):
    """Game page → «Изменить правила» → a change → the comparison and the confirm →
    the row «договорённости изменены» in the sheet; nothing scrolls sideways."""
    base, row, games = game_server
    ctx, page = sized(browser, PHONE, js=js)
    try:
        page.goto(f"{base}/g/{row.edit_token}")
        page.click("#rule-change-link")
        page.wait_for_url(re.compile(r"/agreements$"))
        no_page_overflow(page)
        show_bolt_penalty_off(page)
        assert page.locator("#totals").is_visible()
        assert len(games.records(row.id)) == 28  # nothing saved by looking
        no_page_overflow(page)
        assert too_wide(page, "#rule-changes li, #confirm-change button, #rule-when a") == []
        height = page.locator("#confirm-button").bounding_box()["height"]
        assert height >= 44
        page.click("#confirm-button")
        page.wait_for_url(re.compile(rf"/g/{row.edit_token}$"))
        changed = page.locator("#protocol tr.agreements")
        assert changed.count() == 1
        assert "договорённости изменены" in changed.inner_text()
        assert "→" in changed.inner_text()
        no_page_overflow(page)
        assert too_wide(page, "#protocol tr.agreements td") == []
        assert games.records(row.id)[-1] == {"type": "agreements",
                                             "changes": {"bolt_penalty": "none"}}
    finally:
        ctx.close()


def test_axe_finds_nothing_on_the_change_form(browser, game_server):
    """axe-core finds no violation on the change form, nor with its comparison shown."""
    base, row, _ = game_server
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, locale="ru-RU",
                              bypass_csp=True)  # axe-core goes in as a script of its own
    page = ctx.new_page()
    try:
        page.goto(f"{base}/g/{row.edit_token}/agreements")
        assert page.locator("#rule-form").is_visible()
        page.evaluate(OPEN_ALL)  # every agreement's field in view, checked too
        assert axe_violations(page) == []
        page.goto(f"{base}/g/{row.edit_token}/agreements")  # a fresh page: axe once each
        show_bolt_penalty_off(page)
        page.evaluate(OPEN_ALL)
        assert axe_violations(page) == []
    finally:
        ctx.close()
