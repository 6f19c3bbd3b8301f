"""The board for the room in a real Chromium: a TV or tablet in landscape (1280×720 to
1920×1080), and a phone (390×844). Four long names at −1000 and three-digit deal numbers,
the widest game the app knows, must fit the screen with totals of at least 48 px."""

from __future__ import annotations

import pytest
from phone_browser import PHONE, axe_violations, score
from test_small_screen import long_game_served, no_page_overflow, sized

pytestmark = pytest.mark.browser

TV = {"width": 1920, "height": 1080}
SMALL_TV = {"width": 1280, "height": 720}


@pytest.fixture
def game_server(tmp_path):
    """The app on 127.0.0.1 with a running four-player game of long names."""
    with long_game_served(tmp_path) as served_game:
        yield served_game


def board_geometry(page) -> dict:
    """What the board's layout measures: total sizes, overflow, what lies below the fold."""
    return page.evaluate("""() => {
        const sc = [...document.querySelectorAll('#board-totals .score')];
        const names = [...document.querySelectorAll('#board-totals .name')];
        const bottom = e => e.getBoundingClientRect().bottom;
        const qr = document.querySelector('#board-join img');
        const boxes = ['#board-totals', '#board-deals', '#board-chart', '#board-join']
            .map(s => document.querySelector(s).getBoundingClientRect());
        const overlaps = [];
        for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
            const a = boxes[i], b = boxes[j];
            if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1
                && b.top < a.bottom - 1) overlaps.push([i, j]);
        }
        return {sizes: sc.map(e => parseFloat(getComputedStyle(e).fontSize)),
                clipped: [...sc, ...names].filter(e => e.scrollWidth > e.clientWidth + 1)
                    .map(e => e.textContent),
                lowest: Math.max(...['#board-totals', '#board-deals', '#board-chart',
                                     '#board-join'].map(s => bottom(document.querySelector(s)))),
                height: innerHeight, qr: qr.complete && qr.naturalWidth, overlaps};
    }""")


@pytest.mark.parametrize("viewport", [SMALL_TV, TV], ids=["1280x720", "1920x1080"])
def test_the_board_fits_a_landscape_screen_and_follows_the_game(browser, game_server, viewport):
    """Everything on one screen (no scrolling), totals ≥ 48 px and unclipped, distances,
    dealer and «on 100», five deals, the chart, the QR code; a new deal shows by itself."""
    base, row, games = game_server
    ctx = browser.new_context(viewport=viewport, locale="ru-RU")
    page = ctx.new_page()
    try:
        page.goto(f"{base}/v/{row.view_token}/board")
        got = board_geometry(page)
        assert min(got["sizes"]) >= 48, got["sizes"]
        assert got["clipped"] == [] and got["overlaps"] == []
        assert got["lowest"] <= got["height"], got
        assert got["qr"] > 0
        no_page_overflow(page)
        assert [score(t) for t in page.locator("#board-totals .score").all_inner_texts()] \
            == [-1000] * 4
        assert page.locator("#board-totals .togo").first.inner_text().startswith("до бочки")
        assert page.locator("#board-totals .badge.dealer").count() == 1
        assert page.locator("#board-totals .badge.hundred").count() == 1
        assert page.locator("#board-deals tbody tr").count() == 5
        assert page.locator("#board-chart svg").is_visible()
        games.add_deal(row.id, {"type": "adjustment", "player": 0, "amount": 50,
                                "reason": "other"})
        page.wait_for_function("() => document.querySelector('#board-totals .score')"
                               ".textContent.trim() === '\u2212950'", timeout=15000)
        assert page.locator("#board-deals tbody tr").count() == 5
    finally:
        ctx.close()


def test_without_javascript_the_board_refreshes_itself(browser, game_server):
    """No script: the whole board is there, and the page asks to be refreshed."""
    base, row, _ = game_server
    ctx, page = sized(browser, SMALL_TV, js=False)
    try:
        page.goto(f"{base}/v/{row.view_token}/board")
        assert page.locator("noscript").count() == 1
        assert "refresh" in page.content()
        assert page.locator("#board-totals .score").count() == 4
        assert page.locator("#board-join img").is_visible()
    finally:
        ctx.close()


@pytest.mark.parametrize("viewport", [SMALL_TV, TV, PHONE], ids=["1280x720", "1920x1080",
                                                                 "390x844"])
def test_axe_finds_nothing_on_the_board(browser, game_server, viewport):
    """axe-core finds no violation on the board, on a TV and on a phone (one column)."""
    base, row, _ = game_server
    ctx = browser.new_context(viewport=viewport, locale="ru-RU",
                              bypass_csp=True)  # axe-core goes in as a script of its own
    page = ctx.new_page()
    try:
        page.goto(f"{base}/v/{row.view_token}/board")
        if viewport == PHONE:
            no_page_overflow(page)
            assert min(board_geometry(page)["sizes"]) >= 48
        assert axe_violations(page) == []
    finally:
        ctx.close()
