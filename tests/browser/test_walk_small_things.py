"""Small things a new user's walk found on a 390×844 phone, in a real
Chromium: a deal linked from the club lands below the sticky heads, the «болт 2 из 3»
badge stays whole, no stray «▸» on club pages, the club's share page copies its link."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from phone_browser import ARGS, HOST_KEY, PHONE, served  # noqa: F401  (ARGS: the fixture's)
from test_small_screen import long_game, open_game, sized

from scorer import create_app

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from club_web import store_club  # noqa: E402

pytestmark = pytest.mark.browser


def test_a_deal_linked_from_the_club_lands_below_the_sticky_heads(browser, live_server):
    """…?rows=all#row-19: the row's number and declarer are on the screen, not under the
    protocol's pinned player names."""
    ctx, page = sized(browser, PHONE)
    try:
        game = open_game(page, live_server, long_game())
        page.goto(game + "?rows=all#row-19")
        page.wait_for_timeout(200)
        row = page.locator("#row-19").bounding_box()
        head = page.locator("#protocol thead").bounding_box()
        assert head["y"] <= 1, head  # pinned: the page did scroll to the row
        assert row["y"] >= head["y"] + head["height"] - 1, (row, head)
        number = page.locator("#row-19 td.n").bounding_box()
        covered = page.evaluate("""([x, y]) => !document.elementFromPoint(x, y)
            .closest('#row-19')""", [number["x"] + number["width"] / 2, number["y"] + 8])
        assert not covered
    finally:
        ctx.close()


def test_the_bolt_badge_stays_whole(browser, live_server):
    """Two bolts each for two players of four long names: «болт 2 из 3» on one line."""
    deals = []
    for dealer in range(2):  # the dealer sits out; Валентина and Владислава take nothing
        points = [0, 0, 0, 0]
        points[dealer], points[1 - dealer] = None, 120
        deals.append({"type": "play", "declarer": 1 - dealer, "contract": 100,
                      "points": points, "no_tricks": [2, 3],
                      "prikup": {"points": 0, "marriage": None}})
    log = {"format": "thousand-game/1", "deals": deals,
           "players": ["Александра", "Константин", "Валентина", "Владислава"]}
    ctx, page = sized(browser, PHONE)
    try:
        open_game(page, live_server, log)
        for width in (390, 360):
            page.set_viewport_size({"width": width, "height": 844})
            said = page.evaluate("""() => [...document.querySelectorAll('#totals .badge.bolts')]
                .map(e => { const r = e.getBoundingClientRect(),
                                  card = e.closest('.total').getBoundingClientRect();
                            return [e.innerText, getComputedStyle(e).whiteSpace,
                                    r.height < 1.6 * parseFloat(getComputedStyle(e).fontSize) * 1.4,
                                    r.right <= card.right + 0.5]; })""")
            # One line, inside its card; and never broken even where a phone's text is
            # set larger (the line it is on may wrap, the badge does not).
            assert said == [["болт 2 из 3", "nowrap", True, True]] * 2, (width, said)
    finally:
        ctx.close()


@pytest.fixture
def club_base(tmp_path):
    """A served app over a club of six finished games."""
    app = create_app({"INSTANCE_PATH": str(tmp_path / "instance"),
                      "SECRET_KEY": "browser-secret", "HOST_KEY": HOST_KEY})
    store_club(app)
    with served(app) as base:
        yield base


def markers(page, selector: str) -> list[str]:
    """The ::before content of each summary that matches."""
    return page.evaluate("""(sel) => [...document.querySelectorAll(sel)].map(
        e => getComputedStyle(e, '::before').content)""", selector)


def test_club_pages_have_no_stray_marker_and_the_share_page_copies(browser, club_base):
    """«Русский ▾» and «Заменить ссылку…» have no «▸» before them; the share page labels
    its link and copies it with «Копировать»."""
    ctx, page = sized(browser, PHONE)
    try:
        page.goto(f"{club_base}/?key={HOST_KEY}")
        page.goto(f"{club_base}/club/share?kind=season")
        assert markers(page, ".langs > summary, #replace-share > summary") == ["none", "none"]
        assert page.locator("label[for=share-url]").is_visible()
        copy = page.locator("#copy-share")
        assert copy.is_visible() and copy.inner_text() == "Копировать"
        copy.tap()  # the clipboard answers later: wait for the button to say so
        page.wait_for_function("() => document.querySelector('#copy-share').innerText"
                               " === 'Скопировано'", timeout=5000)
        page.goto(f"{club_base}/club")
        assert "none" in markers(page, ".langs > summary")
    finally:
        ctx.close()


def test_a_samosval_cell_stays_in_its_column(browser, live_server):
    """«♠♥ +240 → 555 → 0» in a three-player protocol wraps inside its own cell rather than
    running across the next player's column."""
    log = {"format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"], "deals": [
        {"type": "adjustment", "player": 2, "amount": 315, "reason": "other"},
        {"type": "play", "declarer": 2, "contract": 240, "points": [0, 20, 100],
         "marriages": {"2": ["spades", "hearts"]}, "no_tricks": []}]}
    ctx, page = sized(browser, PHONE)
    try:
        open_game(page, live_server, log)
        cell = page.locator("#row-2 td.cell").nth(2)
        assert "→ 555 → 0" in " ".join(cell.inner_text().split())
        overflow = page.evaluate("""() => [...document.querySelectorAll('#row-2 td.cell')]
            .map(td => { const a = td.getBoundingClientRect();
                         return Math.max(...[...td.querySelectorAll('*')].map(
                             e => e.getBoundingClientRect().right)) - a.right; })""")
        assert max(overflow) <= 0.5, overflow
    finally:
        ctx.close()
