"""Around each save at 390×844: where the page lands, double taps, refusals,
confirmations, tap targets, the words, numbering, downloads and the read-only label."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from phone_browser import HOST_KEY, open_form, score
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SCENARIOS = Path(__file__).parents[1] / "scenarios"
GAME = re.compile(r"/g/[^/?#]+$")


def new_game(page, base, names=("Аня", "Борис", "Вика"), golden=False, title=None):
    """Start a classic game through the form; return its URL."""
    page.goto(base + "/new")
    if title:
        page.fill("#title", title)
    for i, name in enumerate(names):
        page.fill(f"#name{i}", name)
    if golden:
        page.click("summary:has-text('Золотой кон')")
        page.check("input[name=ag_golden]")
    page.click("button.primary:has-text('Начать игру')")
    page.wait_for_url(GAME)
    return page.url


def fill_deal(page, declarer, contract, points):
    """Open the deal form from the game page and fill a played deal (not saved yet)."""
    open_form(page)
    page.click(f"label.pick.p{declarer}")
    page.fill("#contract", str(contract))
    for seat, value in points.items():
        page.fill(f"#points_{seat}", str(value))


def deal(page, declarer, contract, points, wait=True):
    """Record one played deal from the game page."""
    fill_deal(page, declarer, contract, points)
    page.click("#save")
    if wait:
        page.wait_for_url(GAME)


def redeal(page):
    """Record a redeal on the game page's own form (it asks a second tap)."""
    page.click("#redeal-ask")
    # The save lands on the URL the page already has: wait for that navigation, or the
    # next tap may hit the old page (a URL wait would return at once).
    with page.expect_navigation(url=GAME):
        page.click("#redeal")


def imported(page, base, log: dict, tmp_path) -> str:
    """Import a game log through the form; return the game's URL."""
    path = tmp_path / "g.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    page.goto(f"{base}/?key={HOST_KEY}")
    page.locator("details:has(#import-file) > summary").click()
    page.set_input_files("#import-file", str(path))
    page.locator("form:has(#import-file) button[type=submit]").click()
    page.wait_for_url(GAME)
    return page.url


def in_view(page, selector) -> bool:
    """Whether the element is wholly inside the 390×844 viewport."""
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844


def rows(page) -> list[int]:
    """The protocol's row numbers in page order."""
    return [int(i.split("-")[1]) for i in
            page.locator("#protocol tbody tr[id^=row-]").evaluate_all("rs => rs.map(r => r.id)")]


# -- 1. landing ------------------------------------------------------------------------

def test_after_a_save_totals_button_and_newest_row_are_in_view(live_server, phone):
    """Item 1: after a save the totals and the next deal's form (its heading, names and
    chips) are on the screen, the protocol newest row first just under the form."""
    page = phone()
    new_game(page, live_server)
    deal(page, 0, 100, {1: 10, 2: 10})
    deal(page, 1, 100, {0: 10, 2: 10})
    deal(page, 2, 100, {0: 10, 1: 10})
    assert page.evaluate("window.scrollY") == 0
    assert in_view(page, "#totals") and in_view(page, "#undo-ask")
    assert in_view(page, "#deal-title") and in_view(page, "#deal-form fieldset.declarer")
    assert in_view(page, "#deal-form button.chip[data-contract='100']")
    assert page.locator("#deal-title").inner_text() == "Кон 4"
    assert rows(page) == [3, 2, 1]  # newest first
    # an edit lands the same way, with its change summary in view
    open_form(page, "#row-1 td.n a")  # the game page has a #points_1 of its own
    page.fill("#points_1", "20")
    page.fill("#points_2", "0")
    page.click("#save")
    page.wait_for_url(GAME)
    assert in_view(page, "#changed") and in_view(page, "#totals")


def test_the_winning_deal_lands_with_the_banner_in_view(live_server, phone, tmp_path):
    """Item 1: the win banner is in view after the winning save."""
    log = {"format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"],
           "agreements": {"preset": "classic", "overrides": {"barrel": False}},
           "first_dealer": 0, "deals": [{"type": "adjustment", "player": 0, "amount": 900,
                                         "reason": "other"}]}
    page = phone()
    imported(page, live_server, log, tmp_path)
    deal(page, 0, 100, {1: 10, 2: 10})
    assert in_view(page, "#winner")


# -- 2. idempotent saves ---------------------------------------------------------------

def test_a_double_tap_on_save_records_one_deal(live_server, phone):
    """Item 2: two taps on «Сохранить» → one deal; the button is disabled in flight."""
    page = phone()
    game = new_game(page, live_server)
    open_form(page)  # the game page has a form of its own: fill the deal page's
    page.click("label.pick.p0")
    page.fill("#contract", "100")
    page.fill("#points_1", "10")
    page.fill("#points_2", "10")
    body = page.evaluate("""() => new URLSearchParams(new FormData(
        document.getElementById('deal-form'), document.getElementById('save'))).toString()""")
    form_url = page.url
    # the second tap lands while the first is on its way
    with page.expect_navigation(url=GAME):
        page.evaluate("""() => { const f = document.getElementById('deal-form');
                                 const b = document.getElementById('save');
                                 f.requestSubmit(b); f.requestSubmit(b); }""")
    assert page.url == game
    assert rows(page) == [1]
    assert "Ничего не сохранено" not in page.content()
    # the same form sent again (a re-send, a retry) is answered as the first: no duplicate
    again = page.request.post(form_url, data=body, max_redirects=0, headers={
        "Content-Type": "application/x-www-form-urlencoded"})
    assert again.status == 302 and again.headers["location"].endswith(game.split("127.0.0.1")[1]
                                                                       .split("/", 1)[1])
    page.reload()
    assert rows(page) == [1]


# -- 3. refusals -----------------------------------------------------------------------

def test_a_refused_save_shows_a_summary_and_focuses_the_first_wrong_field(live_server, phone):
    """Item 3: a summary on top and the focus on the first wrong field, in view."""
    page = phone()
    new_game(page, live_server)
    fill_deal(page, 0, 100, {1: 1, 2: 20})
    page.click("#save")
    page.wait_for_selector("#error-summary")
    assert "Ничего не сохранено" not in page.locator("#error-summary").inner_text()
    # The summary shows while the page is parsed; the focus comes from its script later.
    expect(page.locator("#points_1")).to_be_focused()
    assert in_view(page, "#points_1")
    page.evaluate("window.scrollTo(0, 0)")
    assert in_view(page, "#error-summary")
    # item 6: the player's name, never a seat number
    text = page.locator("#error-summary").inner_text()
    assert "Борис: 1 невозможно" in text and "место" not in text


# -- 4. confirmations and «Вернуть» in place --------------------------------------------

def test_raspis_and_delete_ask_a_second_tap_and_restore_is_in_place(live_server, phone):
    """Item 4: «Роспись» and «Удалить» stand apart and ask again; «Вернуть» where it was."""
    page = phone()
    new_game(page, live_server)
    deal(page, 0, 100, {1: 10, 2: 10})
    deal(page, 1, 100, {0: 10, 2: 10})
    open_form(page)
    assert page.locator("#raspis").is_hidden()  # behind a first tap
    save = page.locator("#save").bounding_box()
    ask = page.locator("#raspis-ask").bounding_box()
    assert ask["y"] - (save["y"] + save["height"]) >= 44
    page.goto(page.url.rsplit("/deal", 1)[0])
    open_form(page, "#row-1 td.n a")
    assert page.locator("#delete-deal").is_hidden()
    page.click("#delete-ask")
    page.click("#delete-deal")
    page.wait_for_url(GAME)
    assert rows(page) == [1]
    deleted = page.locator("#protocol tbody tr.deleted")
    assert deleted.count() == 1 and "Аня" in deleted.inner_text()
    # it sits after row 1 (the deal that came after it), where it was
    ids = page.locator("#protocol tbody tr").evaluate_all("rs => rs.map(r => r.className)")
    assert ids.index("deleted") == 1
    # Sent by fetch first, so the page is left a moment after the tap, for the same URL.
    with page.expect_navigation(url=GAME):
        deleted.locator("button:has-text('Вернуть')").click()
    assert rows(page) == [2, 1]


# -- 5. tap targets --------------------------------------------------------------------

TARGETS = """() => Array.from(document.querySelectorAll('a, button, summary'))
  .filter(e => e.offsetParent !== null && !e.closest('.sr-only')
               && e.getAttribute('aria-hidden') !== 'true')
  .map(e => { const r = e.getBoundingClientRect();
              return [e.outerHTML.slice(0, 80), Math.round(r.width), Math.round(r.height)]; })
  .filter(([h, w, ht]) => w < 44 || ht < 44)"""


def test_every_link_and_button_is_at_least_44_px(live_server, phone):
    """Item 5: every link, button and summary on the game page and the deal form ≥ 44×44."""
    page = phone()
    new_game(page, live_server)
    deal(page, 0, 100, {1: 10, 2: 10})
    assert page.evaluate(TARGETS) == []
    open_form(page)
    assert page.evaluate(TARGETS) == []
    page.go_back()  # returns once the game page has loaded
    open_form(page, "#row-1 td.n a")
    page.click("#delete-ask")
    page.click("#adjustment summary")
    assert page.evaluate(TARGETS) == []


# -- 6–8. the words --------------------------------------------------------------------

def test_suits_are_named_and_agreements_linked(live_server, phone):
    """Item 6: a suit's Russian name and symbol; the agreement's title links the rules."""
    page = phone()
    new_game(page, live_server)
    fill_deal(page, 0, 105, {1: 10, 2: 10})
    page.click(".seat[data-seat='0'] label.suit-hearts")
    page.click(".seat[data-seat='1'] label.suit-hearts")
    page.click("#save")
    page.wait_for_selector("#error-summary")
    text = page.locator("#error-summary").inner_text()
    assert "черви ♥: объявлен больше одного раза" in text
    assert "hearts" not in text and "[" not in text
    page.goto(page.url)
    page.fill("#contract", "103")
    page.click("label.pick.p0")
    page.fill("#points_1", "10")
    page.fill("#points_2", "10")
    page.click("#save")
    link = page.locator("#error-summary a[href*='/rules#bid_step']")
    expect(link).to_have_count(1)  # the new refusal's link, not any summary
    assert "bid_step" not in page.locator("#error-summary").inner_text()


def test_dealer_wording_has_no_gender(live_server, phone):
    """Item 7: «сдача: Аня», never «сдавал Аня»."""
    page = phone()
    new_game(page, live_server)
    deal(page, 0, 100, {1: 10, 2: 10})
    text = page.locator("#row-1").inner_text()
    assert "сдача: Аня" in text and "сдавал" not in page.content()


def test_wording_fixes(live_server, phone, tmp_path):
    """Item 8: no zero counts, local times, messages after blur, no dark on golden deals,
    no barrel after the game ended."""
    page = phone()
    new_game(page, live_server, golden=True)
    open_form(page)
    assert page.locator("input[name=dark]").count() == 0  # golden deal: dark is refused
    page.fill("#points_0", "20")  # declarer and 120 are preselected; one field typed
    page.wait_for_timeout(600)  # the live preview has answered
    assert "Введите очки" not in page.locator("#preview-msg").inner_text()
    page.fill("#points_2", "20")
    page.click("#save")
    page.wait_for_url(GAME)
    deal(page, 2, 120, {0: 20, 1: 20})
    deal(page, 0, 120, {1: 20, 2: 20})
    # an edit that changes no total says so in words, once, not «в 0 конах»
    open_form(page, "#row-3 td.n a")
    history = page.locator("#history time").first
    assert "UTC" not in history.inner_text()  # the phone's own time
    page.click("#save")
    page.wait_for_url(GAME)
    changed = page.locator("#changed").inner_text()
    assert "в 0" not in changed and "Ни один итог не изменился." in changed
    assert "Итоги следующих конов" not in changed  # one true sentence, not two
    # a won game from the barrel scenario shows nobody on the barrel any more
    log = json.loads((SCENARIOS / "barrel" / "winning_deal_still_seats_others.json")
                     .read_text())["game"]
    imported(page, live_server, log, tmp_path)
    assert page.locator("#winner").count() == 1
    assert page.locator(".badge.barrel").count() == 0
    assert "попыт" not in page.locator("#state").inner_text()


# -- 9. numbering ----------------------------------------------------------------------

def test_one_numbering_everywhere(live_server, phone):
    """Item 9: a row's number is the deal's number in its edit form and in the page."""
    page = phone()
    new_game(page, live_server)
    deal(page, 0, 100, {1: 10, 2: 10})
    redeal(page)
    deal(page, 1, 100, {0: 10, 2: 10})
    page.click("#row-1 td.n a")
    page.click("#delete-ask")
    page.click("#delete-deal")
    page.wait_for_url(GAME)
    assert rows(page) == [2, 1]
    assert "Запись" not in page.locator("#protocol").inner_text()
    open_form(page, "#row-2 td.n a")  # the game page has an h1 too
    assert page.locator("h1").inner_text() == "Исправить кон 2"
    page.go_back()
    assert "Следующий кон: 3" in page.locator("#state").inner_text()


# -- 10. downloads ---------------------------------------------------------------------

def test_download_names_have_an_ascii_fallback(live_server, phone):
    """Item 10: the plain-ASCII file name is transliterated, never «--.pdf»."""
    page = phone()
    game = new_game(page, live_server, title="Вечер у Юли — 3")
    for path, ext in (("/export.json", "json"), ("/sheet.pdf", "pdf")):
        r = page.request.get(game + path)
        assert r.ok
        disposition = r.headers["content-disposition"]
        plain = re.search(r'filename="([^"]*)"', disposition).group(1)
        assert plain == f"Vecher-u-Yuli-3.{ext}", disposition


# -- 17. read-only label ---------------------------------------------------------------

def test_read_only_view_is_labelled_with_the_last_update(live_server, phone):
    """Item 17: «только просмотр · обновляется» and the time of the last change."""
    page = phone()
    game = new_game(page, live_server)
    deal(page, 0, 100, {1: 10, 2: 10})
    page.goto(game + "/share")
    view = page.input_value("#view-url")
    watcher = phone()
    watcher.goto(view)
    label = watcher.locator("#ro-label").inner_text()
    assert "только просмотр" in label and "обновляется" in label
    assert re.search(r"\d\d:\d\d", label) and "UTC" not in label
    assert in_view(watcher, "#ro-label")


# -- small pages -----------------------------------------------------------------------

def test_long_game_shows_the_latest_rows_and_the_rest_on_demand(live_server, browser):
    """The latest 20 rows, newest first; the rest via a link that works without script."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844},
                              java_script_enabled=False, locale="ru-RU")
    page = ctx.new_page()
    try:
        new_game(page, live_server)
        for _ in range(24):
            redeal(page)
        deal(page, 0, 100, {1: 10, 2: 10})
        assert rows(page) == list(range(25, 5, -1))
        assert score(page.locator("#totals .score").first.inner_text()) == 100
        page.click("#all-rows")
        page.wait_for_url(re.compile(r"\?rows=all"))  # the old page has rows too
        assert rows(page) == list(range(25, 0, -1))
        # the why of a number is a plain link to one small page
        page.locator("#row-25 td.cell a.why").first.click()
        assert "Аня" in page.locator("#why").inner_text()
    finally:
        ctx.close()
