"""Changing the rules from the next deal on a phone (390×844), with and without JavaScript."""

from __future__ import annotations

import re

import pytest
from phone_browser import ARGS, PHONE, served  # noqa: F401  (ARGS: the browser fixture's)
from test_small_screen import long_game, no_page_overflow, sized

from scorer import create_app, store

pytestmark = pytest.mark.browser


@pytest.fixture
def game_server(tmp_path):
    """The app on 127.0.0.1 with a running four-player game of long names."""
    app = create_app({"INSTANCE_PATH": str(tmp_path / "instance"), "SECRET_KEY": "s"})
    log = long_game()
    games = store.Store(store.connect(app.config["DATABASE"]))
    row = games.create_game({k: v for k, v in log.items() if k != "deals"}, log["deals"])
    with served(app) as base:
        yield base, row, games
    games.db.close()


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
        page.evaluate("() => document.querySelectorAll('#rule-form details')"
                      ".forEach(d => d.open = true)")
        page.select_option("#ag_bolt_penalty", "none")
        page.click("#show-change")
        page.wait_for_url(re.compile(r"/agreements\?"))
        assert page.locator("#rule-changes li").count() == 1
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
