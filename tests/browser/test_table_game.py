"""A whole game at phone size in a real Chromium: golden round to a win from the barrel."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from phone_browser import HOST_KEY, open_form, score
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).parent / "screenshots"


class Scorekeeper:
    """The phone of the player who keeps the score; counts taps and key groups."""

    def __init__(self, page, base):
        """Count the taps on this page."""
        self.page, self.base = page, base
        self.actions = 0

    def shot(self, name):
        """Save a screenshot of the whole page."""
        SHOTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)

    def tap(self, selector):
        """One tap."""
        self.actions += 1
        self.page.locator(selector).first.click()

    def open_form(self, link="#record-deal"):
        """One tap that opens a deal form, then the wait until its script has run."""
        self.actions += 1
        open_form(self.page, link)  # a chip tapped before that would do nothing

    def type(self, selector, text):
        """One key group on the numeric keypad."""
        self.actions += 1
        self.page.locator(selector).fill(text)

    def totals(self):
        """The big totals on the game page."""
        return [score(t) for t in self.page.locator("#totals .score").all_inner_texts()]

    def record(self, declarer=None, contract=None, points=None, marriages=(), button="#save"):
        """Record one deal from the game page; return how many actions it took."""
        start = self.actions
        self.open_form()
        if declarer is not None:
            self.tap(f"label.pick.p{declarer}")
        if contract is not None:
            self.tap(f"button.chip[data-contract='{contract}']")
        for seat, value in (points or {}).items():
            self.type(f"#points_{seat}", str(value))
        for seat, suit in marriages:
            self.tap(f".seat[data-seat='{seat}'] label.suit-{suit}")
        if button == "#raspis":  # the concession asks a second tap
            self.tap("#raspis-ask")
        self.tap(button)
        self.page.wait_for_url(re.compile(r"/g/[^/]+$"))
        return self.actions - start


def test_whole_game_on_a_phone(live_server, phone):
    """A whole game kept on a phone: deals, bolts, barrel, an edit, sharing and the winner."""
    page = phone()
    me = Scorekeeper(page, live_server)
    page.goto(f"{live_server}/?key={HOST_KEY}")
    me.shot("01-games-list")

    # --- a new 3-player classic game with the golden round on
    page.click("text=Новая игра")
    for i, name in enumerate(("Аня", "Борис", "Вика")):
        page.fill(f"#name{i}", name)
    page.click("summary:has-text('Золотой кон')")
    page.check("input[name=ag_golden]")
    me.shot("02-new-game")
    page.click("button.primary:has-text('Начать игру')")
    page.wait_for_url(re.compile(r"/g/[^/]+$"))
    game_url = page.url
    assert "Золотой кон" in page.locator("#state").inner_text()

    # --- golden round: the seat on 100 is pre-selected and the contract is 120
    open_form(page)
    assert page.locator("input[name=declarer][value='1']").is_checked()
    assert page.input_value("#contract") == "120"
    me.shot("03-deal-form-golden")
    page.goto(game_url)
    me.record(points={0: 20, 2: 20}, marriages=[(1, "hearts")])
    assert me.totals() == [40, 240, 40]
    me.record(points={0: 50, 1: 40})  # Вика fails her golden 120
    assert me.totals() == [140, 320, -200]
    me.record(points={1: 10, 2: 10}, marriages=[(0, "diamonds")])
    assert me.totals() == [380, 340, -180]
    assert "Золотой кон" not in page.locator("#state").inner_text()

    # --- a raspis: declarer, contract, "Роспись"
    taps = me.record(declarer=2, contract=120, button="#raspis")
    assert taps <= 5  # the concession is confirmed with a second tap
    assert me.totals() == [440, 400, -300]

    # --- three bolts for Вика (0 points, "took no trick" pre-checked): the third costs 120
    for _ in range(3):
        me.record(declarer=0, contract=100, points={1: 20, 2: 0})
    assert me.totals() == [740, 460, -420]
    assert "!" in page.locator("#protocol tbody tr").first.locator("td.cell").nth(2).inner_text()

    # --- the typical deal, counted, with a live preview before saving: Аня sits on the barrel
    start = me.actions
    me.open_form()
    me.tap("label.pick.p0")
    me.tap("button.chip[data-contract='140']")
    me.type("#points_1", "10")
    me.type("#points_2", "10")
    me.tap(".seat[data-seat='0'] label.suit-hearts")
    # A locator wait, not wait_for_function: the page's CSP forbids evaluating strings.
    expect(page.locator(".pv-delta[data-seat='0']")).to_have_text("+140")
    assert page.input_value("#points_0") == "100"  # filled as 120 minus the others
    # The script writes a negative total with a real minus sign, as the server does.
    assert page.locator(".pv-score[data-seat='2']").inner_text() == "→ \u2212410"
    me.shot("04-deal-form-preview")
    me.tap("#save")
    page.wait_for_url(re.compile(r"/g/[^/]+$"))
    assert me.actions - start <= 8, f"a typical deal took {me.actions - start} actions"
    assert me.totals() == [880, 470, -410]
    assert "Б" in page.locator("#total-0").inner_text()
    me.shot("05-game-barrel")

    # --- edit deal 2 and see the totals change
    open_form(page, "#row-2 td.n a")
    page.fill("#points_1", "20")
    page.fill("#points_2", "50")
    page.click("#save")
    page.wait_for_url(re.compile(r"/g/[^/]+$"))
    assert me.totals() == [880, 430, -410]
    assert "Кон 2 исправлен" in page.locator("#changed").inner_text()
    me.shot("06-after-edit")

    # --- tap a number to see why (fetched from its small page, shown under the row)
    page.goto(game_url + "?rows=all")
    page.locator("#row-1 td.cell a.why").nth(1).click()
    assert "заказ 120 сыгран" in page.locator("tr.why-row").inner_text()
    page.goto(game_url)

    # --- share: a read-only link in a second browser context
    page.click("text=Поделиться")
    page.wait_for_url(re.compile(r"/share$"))  # count() would not wait for the new page
    assert page.locator("#view-qr svg").count() == 1
    view_url = page.input_value("#view-url")
    me.shot("07-share")
    page.goto(game_url + "/rules")
    assert page.locator(".rule.differs#golden").count() == 1
    me.shot("08-rules")
    page.goto(game_url)

    watcher = phone()
    watcher.goto(view_url)
    assert [score(t) for t in watcher.locator("#totals .score").all_inner_texts()] == \
        me.totals()
    assert watcher.locator("form").count() == 0
    watcher.evaluate("window.__sameDocument = true")
    SHOTS.mkdir(exist_ok=True)
    watcher.screenshot(path=str(SHOTS / "09-read-only.png"), full_page=True)

    # --- the win from the barrel, posted while the watcher only polls
    me.record(declarer=0, contract=120, points={1: 10, 2: 10}, marriages=[(0, "hearts")])
    assert page.locator("#winner").inner_text().startswith("★ Аня")
    watcher.wait_for_selector("#winner", timeout=15000)
    assert watcher.evaluate("window.__sameDocument") is True  # updated without navigating
    assert [score(t) for t in watcher.locator("#totals .score").all_inner_texts()] == \
        [1000, 440, -400]
    me.shot("10-winner")
    watcher.screenshot(path=str(SHOTS / "11-read-only-winner.png"), full_page=True)

    # --- the games list shows it as finished
    page.goto(live_server + "/")
    assert "★ Аня" in page.locator("ul.games").last.inner_text()
