"""«What if…» on a phone (390×844) in a real Chromium: four long names, nothing overflows."""

from __future__ import annotations

import re

import pytest
from phone_browser import ARGS, PHONE  # noqa: F401  (ARGS: the browser fixture's)
from test_small_screen import long_game_served, no_page_overflow, sized

pytestmark = pytest.mark.browser


@pytest.fixture
def game_server(tmp_path):
    """The app on 127.0.0.1 with one stored four-player game; yields (base URL, row)."""
    with long_game_served(tmp_path) as (base, row, _games):
        yield base, row


def cells_fit(page) -> list[str]:
    """Every cell and heading of the comparison that is wider than its box."""
    return page.evaluate("""() => [...document.querySelectorAll(
        '#compare-rows td, #compare-rows td span, #totals td, #totals th')]
        .filter(e => e.scrollWidth > e.clientWidth + 1)
        .map(e => (e.closest('tr') || {}).id + ' ' + e.textContent.trim())""")


@pytest.mark.parametrize("js", [True, False])
def test_compare_from_the_read_only_page_fits_a_phone(browser, game_server, js):
    """Follow «What if…», switch the bolt penalty off, compare: both totals, highlighted
    rows, the first parting; no sideways scrolling, no cell wider than its box."""
    base, row = game_server
    ctx, page = sized(browser, PHONE, js=js)
    try:
        page.goto(f"{base}/v/{row.view_token}")
        page.click("#compare-link")
        page.wait_for_url(re.compile(r"/v/[^/]+/compare$"))
        no_page_overflow(page)
        page.locator("#compare-form details").nth(0).evaluate("d => d.open = true")
        page.evaluate("() => document.querySelectorAll('#compare-form details')"
                      ".forEach(d => d.open = true)")
        page.select_option("#ag_bolt_penalty", "none")
        page.click("#compare-form button[value=compare]")
        page.wait_for_url(re.compile(r"/compare\?"))
        assert "ag_bolt_penalty=none" in page.url  # the comparison is a link to share
        assert page.locator("#totals tbody tr").count() == 5  # four players and the winner
        assert page.locator("#compare-rows tr.differs").count() > 0
        assert page.locator("#parting").is_visible()
        no_page_overflow(page)
        assert cells_fit(page) == []
        shared = page.url
        page.goto(shared)  # opened again from the link: the same comparison
        assert page.locator("#compare-rows tr.differs").count() > 0
    finally:
        ctx.close()


def cut_words(page, selector: str) -> list[str]:
    """The elements whose own text takes more lines than it has words: a word was cut."""
    return page.evaluate("""(sel) => [...document.querySelectorAll(sel)].filter(e => {
        const node = [...e.childNodes].find(n => n.nodeType === 3 && n.textContent.trim());
        const range = document.createRange(); range.selectNodeContents(node);
        const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
        return lines > node.textContent.trim().split(/\\s+/).length;
    }).map(e => e.textContent.trim())""", selector)


def test_the_totals_headings_are_never_cut_on_a_phone(browser, game_server):
    """«Победитель» and the column heads stay whole words at 390 px (it read «Победите-ль»)."""
    base, row = game_server
    ctx, page = sized(browser, PHONE, js=True)
    try:
        page.goto(f"{base}/v/{row.view_token}/compare?preset=classic&agreements_shown=1"
                  "&ag_bolt_penalty=none")
        assert page.locator("#totals tbody th").inner_text() == "Победитель"
        assert cut_words(page, "#totals th") == []
        no_page_overflow(page)
    finally:
        ctx.close()
