"""The club's pages on a phone (390×844, real Chromium): the player chips on the new-game
form, a player's page and the season table fit the screen, every target ≥ 44 px."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from phone_browser import HOST_KEY, PHONE, axe_violations, served

from scorer import create_app

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from club_web import store_club  # noqa: E402

pytestmark = pytest.mark.browser


# Every visible link, button and summary smaller than 44×44 or past the screen's edge.
SMALL_TARGETS = """(scope) => [...document.querySelector(scope)
  .querySelectorAll('a, button, summary, select, input')]
  .filter(e => e.offsetParent !== null && !e.closest('.sr-only') && e.type !== 'hidden'
               && e.getAttribute('aria-hidden') !== 'true' && !e.closest('.langs, .top'))
  .map(e => { const r = e.getBoundingClientRect();
              return [e.outerHTML.slice(0, 70), Math.round(r.width), Math.round(r.height),
                      Math.round(r.right)]; })
  .filter(([h, w, ht, right]) => w < 44 || ht < 44 || right > innerWidth + 1)"""


@pytest.fixture
def club_server(tmp_path):
    """A served app over a club of six finished games (and a guest's)."""
    app = create_app({"INSTANCE_PATH": str(tmp_path / "instance"),
                      "SECRET_KEY": "browser-secret", "HOST_KEY": HOST_KEY})
    store_club(app, guest_game=True)
    with served(app) as base:
        yield base


@pytest.fixture
def host_page(browser, club_server):
    """A phone page of a browser that holds the host key."""
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                              has_touch=True, locale="ru-RU")
    page = ctx.new_page()
    page.goto(f"{club_server}/?key={HOST_KEY}")
    yield page
    ctx.close()


def fits(page, scope: str = "main") -> None:
    """Nothing overflows sideways and every target (in scope) is at least 44×44 inside
    the screen."""
    width = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1], f"page is {width[0]} px wide in a {width[1]} px screen"
    small = page.evaluate(SMALL_TARGETS, scope)
    assert small == [], small[:5]


def test_chips_fill_the_name_fields_with_one_tap(host_page, club_server):
    """Four taps seat four known players; a second tap takes one back; the form fits."""
    page = host_page
    page.goto(f"{club_server}/new")
    chips = page.locator("#player-chips .chip")
    assert chips.count() == 4
    fits(page, "#player-chips")  # the rest of the form is checked with the table's polish
    names = chips.all_inner_texts()
    for i in range(3):
        chips.nth(i).tap()
    assert [page.input_value(f"#name{i}") for i in range(3)] == names[:3]
    assert chips.nth(0).get_attribute("aria-pressed") == "true"
    chips.nth(1).tap()
    assert page.input_value("#name1") == ""
    assert page.locator("#first_dealer option:not([disabled])").count() == 2
    assert page.url.endswith("/new")  # no submit: JavaScript filled the fields


def test_chips_work_without_javascript(browser, club_server):
    """Without JavaScript a chip submits the form, which comes back with the name in."""
    ctx = browser.new_context(viewport=PHONE, java_script_enabled=False, locale="ru-RU")
    page = ctx.new_page()
    try:
        page.goto(f"{club_server}/?key={HOST_KEY}")
        page.goto(f"{club_server}/new")
        first = page.locator("#player-chips .chip").first
        name = first.inner_text()
        with page.expect_navigation():  # the server's answer fills the field
            first.click()
        assert page.input_value("#name0") == name
    finally:
        ctx.close()


def test_the_player_page_and_season_table_fit_a_phone(host_page, club_server):
    """The player's page (figures, head-to-head, chart, games) and the season table fit
    390 px with 44 px targets; the chart is an image the app serves."""
    page = host_page
    page.goto(f"{club_server}/club/table")
    assert page.locator("#season-table tbody tr").count() == 4
    fits(page)
    page.locator("#season-table tbody tr th a").first.tap()
    page.wait_for_url("**/club/players/*")
    assert page.locator("#figures").is_visible()
    loaded = page.evaluate("document.querySelector('.club-chart').naturalWidth")
    assert loaded > 0
    fits(page)
    page.locator("#fig-bolts a.fig").tap()
    page.wait_for_url("**/club/sources/*")
    fits(page)
    page.screenshot(path="/tmp/screen-club-sources.png", full_page=True)


def test_the_host_pages_and_a_shared_table_fit_a_phone(host_page, club_server):
    """The roster, the history, the seasons and a read-only table fit too."""
    page = host_page
    for path in ("/club", "/club/seasons", "/club/history"):
        page.goto(f"{club_server}{path}")
        fits(page)
    page.goto(f"{club_server}/club/share?kind=season")
    url = page.input_value("#share-url")
    page.goto(url)
    assert page.locator("#season-table").is_visible()
    fits(page)


def test_the_small_phone_fits_too(browser, club_server):
    """At 360×740 the season table and a player's page still fit, targets ≥ 44 px, with
    a long name given through the roster's rename form."""
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2,
                              is_mobile=True, has_touch=True, locale="ru-RU")
    page = ctx.new_page()
    try:
        page.goto(f"{club_server}/?key={HOST_KEY}")
        page.goto(f"{club_server}/club")
        first = page.locator("#roster li").first
        first.locator("summary").tap()
        first.locator("input[name=name]").fill("Александра-Мария")
        with page.expect_navigation():  # the rename's answer, not the page before it
            first.locator("button").tap()
        assert "Александра-Мария" in page.locator("#roster").inner_text()
        for path in ("/club/table", "/club/players/1", "/new"):
            page.goto(f"{club_server}{path}")
            fits(page, "#player-chips" if path == "/new" else "main")
    finally:
        ctx.close()



def test_axe_finds_nothing_on_the_club_pages(browser, club_server):
    """axe-core finds no violation on the new-game form with its chips, the season table,
    a player's page and the roster."""
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, locale="ru-RU",
                              bypass_csp=True)  # axe-core goes in as a script of its own
    page = ctx.new_page()
    try:
        page.goto(f"{club_server}/?key={HOST_KEY}")
        for path in ("/new", "/club/table", "/club/players/1", "/club"):
            page.goto(f"{club_server}{path}")
            # Folded forms (the roster's rename, merge) are checked open too.
            page.evaluate("() => document.querySelectorAll('details')"
                          ".forEach(d => d.open = true)")
            assert axe_violations(page) == [], path
    finally:
        ctx.close()
