"""The small screen: a phone (390×844) and its landscape (844×390) in a real Chromium.

Every check measures the page's own geometry (scrollWidth against clientWidth, element
rectangles, the top of one line against another) rather than trusting the CSS.
"""

from __future__ import annotations

import json
import re
from contextlib import contextmanager

import pytest
from phone_browser import HOST_KEY, PHONE, score, served

from scorer import create_app, store
from scorer.engine import parse_game, replay

pytestmark = pytest.mark.browser

LANDSCAPE = {"width": 844, "height": 390}
NAMES = ["Александра", "Константин", "Валентина", "Владислава"]


def long_game(overrides=None) -> dict:
    """24 four-player deals with a bolt each, then adjustments leaving everybody at −1000."""
    deals = []
    for i in range(24):
        dealer = i % 4
        active = [s for s in range(4) if s != dealer]
        declarer = active[i % 3]
        others = [s for s in active if s != declarer]
        points = [None] * 4
        points[declarer], points[others[0]], points[others[1]] = 100, 20, 0
        deals.append({"type": "play", "declarer": declarer, "contract": 100, "points": points,
                      "no_tricks": [others[1]], "prikup": {"points": 0, "marriage": None}})
    log = {"format": "thousand-game/1", "players": NAMES, "deals": deals}
    if overrides:
        log["agreements"] = {"preset": "classic", "overrides": overrides}
    totals = replay(parse_game(log)).score
    deals += [{"type": "adjustment", "player": s, "amount": -1000 - totals[s], "reason": "other"}
              for s in range(4) if totals[s] != -1000]
    return log


@contextmanager
def long_game_served(tmp_path):
    """The app on 127.0.0.1 with long_game() stored; yields (base URL, row, store)."""
    app = create_app({"INSTANCE_PATH": str(tmp_path / "instance"), "SECRET_KEY": "s"})
    log = long_game()
    games = store.Store(store.connect(app.config["DATABASE"]))
    row = games.create_game({k: v for k, v in log.items() if k != "deals"}, log["deals"])
    try:
        with served(app) as base:
            yield base, row, games
    finally:
        games.db.close()


def short_game(overrides) -> dict:
    """A three-player game of one deal under the given agreements."""
    return {"format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"],
            "agreements": {"preset": "classic", "overrides": overrides},
            "deals": [{"type": "play", "declarer": 0, "contract": 100, "points": [100, 20, 0]}]}


def open_game(page, base, log) -> str:
    """Import a game log through the games list; return the game page's URL."""
    page.goto(f"{base}/?key={HOST_KEY}")
    page.set_input_files("#import-file", files=[{
        "name": "game.json", "mimeType": "application/json",
        "buffer": json.dumps(log, ensure_ascii=False).encode()}])
    page.locator("#import-file").evaluate("f => f.form.submit()")
    page.wait_for_url(re.compile(r"/g/[^/#?]+$"))
    return page.url


def sized(browser, viewport, *, js=True):
    """A phone-like page of the given size."""
    ctx = browser.new_context(viewport=viewport, device_scale_factor=2, is_mobile=True,
                              has_touch=True, locale="ru-RU", java_script_enabled=js)
    return ctx, ctx.new_page()


def totals(page) -> list[int]:
    """The big totals on the game page."""
    return [score(t) for t in page.locator("#totals .score").all_inner_texts()]


def no_page_overflow(page):
    """The page never scrolls sideways."""
    width = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1], f"page is {width[0]} px wide in a {width[1]} px screen"


def test_cards_and_rows_fit_four_long_names_and_minus_1000(browser, live_server):
    """Item 11: four cards and every protocol row fit 390 px with «−1000» and «Александра»."""
    ctx, page = sized(browser, PHONE)
    try:
        log = long_game()
        log["deals"][:0] = [{"type": "redeal"}] * 80  # three-digit deal numbers
        open_game(page, live_server, log)
        assert totals(page) == [-1000] * 4
        no_page_overflow(page)
        cards = page.evaluate("""[...document.querySelectorAll('#totals .total')].map(c => {
            const name = c.querySelector('.name'), sc = c.querySelector('.score');
            const line = parseFloat(getComputedStyle(sc).lineHeight);
            return {card: [c.scrollWidth, c.clientWidth],
                    name: [name.scrollWidth, name.clientWidth],
                    score: [sc.scrollWidth, sc.clientWidth],
                    lines: sc.getBoundingClientRect().height / line,
                    right: c.getBoundingClientRect().right};
        })""")
        for c in cards:
            assert c["card"][0] <= c["card"][1], c
            assert c["name"][0] <= c["name"][1], f"the name is cut: {c}"
            assert c["score"][0] <= c["score"][1], f"the total overflows its card: {c}"
            assert c["lines"] < 1.5, f"the total wraps: {c}"
            assert c["right"] <= PHONE["width"]
        table = page.evaluate("""(() => { const t = document.querySelector('#protocol table');
            return [t.getBoundingClientRect().right, t.parentElement.clientWidth, t.scrollWidth,
                    t.parentElement.getBoundingClientRect().right]; })()""")
        assert table[0] <= table[3] + 0.5, f"the protocol is wider than the screen: {table}"
        # «108 ✎» stays in its own column, clear of what was played.
        numbers = page.evaluate("""[...document.querySelectorAll('#protocol td.n a.edit')]
          .map(a => [a.innerText, a.getBoundingClientRect().right,
                     a.closest('td').nextElementSibling.getBoundingClientRect().left])""")
        assert numbers[0][0].startswith("108"), numbers[0]
        assert all(right <= left + 0.5 for _, right, left in numbers), numbers[:3]
        # In every cell the total and its marks («—», «!», «✓») share one line.
        dropped = page.evaluate("""[...document.querySelectorAll('#protocol td.cell a.why')]
          .flatMap(s => {
            const sc = s.querySelector('.sc'), mk = s.querySelector('.mark');
            const out = s.scrollWidth > s.clientWidth ? [s.closest('tr').id + ' overflows'] : [];
            if (!mk) return out;
            const a = sc.getBoundingClientRect(), b = mk.getBoundingClientRect();
            const id = s.closest('tr').id + ': ' + s.innerText;
            return Math.abs(a.bottom - b.bottom) > 4 ? out.concat([id]) : out;
          })""")
        assert page.locator("#protocol td.cell a.why .mark").count() > 10
        assert dropped == [], f"marks dropped to their own line: {dropped[:5]}"
        page.screenshot(path="/tmp/screen-11-game.png", full_page=True)
    finally:
        ctx.close()


SMALL_TARGETS = """() => [...document.querySelectorAll('a, button, summary')]
  .filter(e => e.offsetParent !== null && !e.closest('.sr-only')
               && e.getAttribute('aria-hidden') !== 'true')
  .map(e => { const r = e.getBoundingClientRect();
              return [e.outerHTML.slice(0, 60), Math.round(r.width), Math.round(r.height),
                      Math.round(r.right)]; })
  .filter(([h, w, ht, right]) => w < 44 || ht < 44 || right > innerWidth)"""


def test_deleted_row_why_and_all_rows_fit_with_44_px_targets(browser, live_server):
    """Items 11 and 5 with four long names: a deleted deal in place, an opened «why» and
    every row (?rows=all) fit 390 px, and every target there is ≥ 44×44 inside the screen."""
    ctx, page = sized(browser, PHONE)
    try:
        game = open_game(page, live_server, long_game())
        page.click("#row-24 td.n a.edit")
        page.click("#delete-ask")
        page.click("#delete-deal")
        page.wait_for_url(re.compile(r"/g/[^/?#]+$"))
        deleted = page.locator("#protocol tbody tr.deleted")
        assert deleted.count() == 1
        ids = page.locator("#protocol tbody tr").evaluate_all("rs => rs.map(r => r.id)")
        at = ids.index(deleted.get_attribute("id"))
        assert ids[at - 1:at + 2:2] == ["row-24", "row-23"], f"not where deal 24 was: {ids}"
        restore = deleted.locator("button:has-text('Вернуть')").bounding_box()
        assert restore["x"] + restore["width"] <= PHONE["width"]
        line = deleted.locator("td:not(.n)").bounding_box()
        assert line["width"] > PHONE["width"] * 0.7, f"the deleted deal is squeezed: {line}"
        no_page_overflow(page)
        assert page.evaluate(SMALL_TARGETS) == []
        page.locator("#row-25 td.cell a.why").first.click()
        why = page.locator("#protocol tr.why-row")
        why.wait_for()
        assert "Александра" in why.inner_text()
        box = why.locator("td").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert box["width"] > PHONE["width"] * 0.8, "the why takes the row's whole width"
        no_page_overflow(page)
        page.screenshot(path="/tmp/screen-11-deleted-why.png", full_page=True)
        page.goto(game + "?rows=all")
        assert page.locator("#protocol tbody tr[id^=row-]").count() == 27
        no_page_overflow(page)
        assert page.evaluate(SMALL_TARGETS) == []
    finally:
        ctx.close()


def test_chart_text_is_legible_and_labels_are_not_overdrawn(browser, live_server):
    """Item 12: every chart text is ≥ 11 CSS px at 390 px and nothing is drawn over «бочка 880»."""
    ctx, page = sized(browser, PHONE)
    try:
        log = long_game()
        # Keep everybody near the barrel so the lines cross its label's height.
        log["deals"] = log["deals"][:24] + [
            {"type": "adjustment", "player": s, "amount": 700, "reason": "other"} for s in range(4)]
        open_game(page, live_server, log)
        page.locator("#chart svg").scroll_into_view_if_needed()
        sizes = page.evaluate("""(() => { const svg = document.querySelector('#chart svg');
            const k = svg.getScreenCTM().a;
            return [...svg.querySelectorAll('text')].map(t => [t.textContent,
                parseFloat(getComputedStyle(t).fontSize) * k]); })()""")
        small = [s for s in sizes if s[1] < 11]
        assert sizes and not small, f"chart text under 11 px: {small[:5]}"
        labels = page.evaluate("""(() => {
            const svg = document.querySelector('#chart svg');
            return [...svg.querySelectorAll('text')].filter(t => /бочка|цель/.test(t.textContent))
              .map(t => { const r = t.getBoundingClientRect(); const hits = [];
                for (let i = 1; i < 8; i++) for (let j = 1; j < 4; j++) {
                  const el = document.elementFromPoint(r.left + r.width * i / 8,
                                                       r.top + r.height * j / 4);
                  if (el && el !== t && !['svg', 'rect'].includes(el.tagName)) {
                    hits.push(el.tagName);
                  }
                }
                return [t.textContent, hits]; }); })()""")
        assert [t for t, _ in labels] == ["бочка 880", "цель 1000"]
        assert all(hits == [] for _, hits in labels), f"drawn over: {labels}"
        page.locator("#chart").screenshot(path="/tmp/screen-12-chart.png")
    finally:
        ctx.close()


def header_in_view(page) -> list:
    """The first player's name in the protocol header: its top, bottom, text and not covered."""
    return page.evaluate("""(() => {
        const th = document.querySelector('#protocol thead th:nth-child(3)');
        const r = th.getBoundingClientRect();
        const el = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        // A narrow head shows a short form, the whole name in its title.
        const abbr = th.querySelector('abbr');
        const name = abbr && abbr.offsetParent ? abbr.title : th.innerText.trim();
        return [r.top, r.bottom, name, el === th || th.contains(el)]; })()""")


def test_protocol_header_stays_in_view(browser, live_server):
    """Item 13: scrolled to the oldest row of a long game, the player names are still at the top.

    Newest rows come first, so the header's own place is above the newest row; the check is
    made at the last of the 20 rows shown and again at row 1 of all 28 (``?rows=all``).
    """
    ctx, page = sized(browser, PHONE)
    try:
        game = open_game(page, live_server, long_game())
        newest = page.locator("#protocol tbody tr[id^=row-]").first.get_attribute("id")
        for url, oldest in ((game, "#protocol tbody tr[id^=row-] >> nth=-1"),
                            (game + "?rows=all", "#row-1")):
            page.goto(url)
            page.locator(oldest).evaluate("r => r.scrollIntoView({block: 'center'})")
            assert page.locator(f"#{newest}").bounding_box()["y"] < -300, "not scrolled far"
            head = header_in_view(page)
            assert head[0] >= -1 and head[1] <= 120, f"the names scrolled away at {url}: {head}"
            assert head[2] == NAMES[0] and head[3], f"the header is covered at {url}: {head}"
        page.screenshot(path="/tmp/screen-13-scrolled.png")
    finally:
        ctx.close()


@pytest.mark.parametrize(("step", "top"), [(5, 300), (10, 250)])
def test_higher_contracts_in_one_more_tap(browser, live_server, step, top):
    """Item 14: from 150 to the game's max_contract, in its bid_step, two taps away."""
    ctx, page = sized(browser, PHONE)
    try:
        game = open_game(page, live_server, short_game({"bid_step": step, "max_contract": top}))
        page.goto(game + "/deal")
        shown = [int(v) for v in page.locator("button.chip").evaluate_all(
            "cs => cs.map(c => c.dataset.contract)")]
        assert shown == list(range(100, top + 1, step))
        page.locator("#more-contracts summary").click()  # the one more tap
        high = page.locator(f"button.chip[data-contract='{top - step}']")
        assert high.is_visible()
        box = high.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44
        high.click()
        assert page.input_value("#contract") == str(top - step)
        no_page_overflow(page)
        if step == 5:
            page.screenshot(path="/tmp/screen-14-chips.png", full_page=True)
    finally:
        ctx.close()


def test_penalty_amount_follows_its_reason(browser, live_server):
    """Item 15: «три девятки при сдвиге» fills −penalty, four nines the bonus; ± flips the sign."""
    ctx, page = sized(browser, PHONE)
    try:
        game = open_game(page, live_server,
                         short_game({"penalty": 100, "four_nines_bonus": 150}))
        page.goto(game + "/deal")
        page.locator("#adjustment summary").click()
        page.select_option("#reason", "four_nines")
        assert page.input_value("#amount") == "150"
        page.select_option("#reason", "cut_nines")
        assert page.input_value("#amount") == "\u2212100"
        page.select_option("#reason", "other")
        assert page.locator("#player").input_value() == ""  # nobody by default: chosen
        page.select_option("#player", "0")
        page.fill("#amount", "50")
        sign = page.locator("#amount-sign")
        box = sign.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44
        amount = page.locator("#amount").bounding_box()
        assert abs(box["y"] - amount["y"]) < 10, "the ± sits beside the amount"
        sign.click()
        assert page.input_value("#amount") == "\u221250"
        sign.click()
        assert page.input_value("#amount") == "50"
        sign.click()
        page.screenshot(path="/tmp/screen-15-adjustment.png", full_page=True)
        page.click("button[value=adjustment]")
        page.wait_for_url(re.compile(r"/g/[^/]+(#.*)?$"))
        assert totals(page) == [50, 20, 0]
    finally:
        ctx.close()


def test_penalty_amount_without_javascript(browser, live_server):
    """Item 15 without script: a blank amount takes −penalty from the reason; «−» ticks the sign."""
    ctx, page = sized(browser, PHONE, js=False)
    try:
        game = open_game(page, live_server, short_game({"penalty": 100}))
        page.goto(game + "/deal")
        page.locator("#adjustment summary").click()
        assert page.input_value("#amount") == "\u2212100"  # a real value, not a placeholder
        page.select_option("#reason", "cut_nines")
        page.select_option("#player", "1")
        page.click("button[value=adjustment]")
        page.wait_for_url(re.compile(r"/g/[^/]+(#.*)?$"))
        assert totals(page) == [100, -80, 0]
        page.goto(game + "/deal")
        page.locator("#adjustment summary").click()
        page.select_option("#reason", "other")
        page.select_option("#player", "2")
        page.fill("#amount", "30")
        page.check("#amount-minus")
        page.click("button[value=adjustment]")
        page.wait_for_url(re.compile(r"/g/[^/]+(#.*)?$"))
        assert totals(page) == [100, -80, -30]
    finally:
        ctx.close()


def test_landscape_uses_the_width(browser, live_server):
    """Item 16: at 844×390 the protocol sits beside the totals, the preview beside the form."""
    ctx, page = sized(browser, LANDSCAPE)
    try:
        game = open_game(page, live_server, long_game())
        no_page_overflow(page)
        totals = page.locator("#totals").bounding_box()
        protocol = page.locator("#protocol").bounding_box()
        assert totals["x"] + totals["width"] <= protocol["x"], (totals, protocol)
        assert protocol["y"] < LANDSCAPE["height"], "the protocol starts on the first screen"
        # Item 1 in landscape: «Записать кон» and the newest row on the first screen too.
        record = page.locator("#record-deal").bounding_box()
        assert record["y"] + record["height"] <= LANDSCAPE["height"], record
        assert record["x"] + record["width"] <= protocol["x"], "beside the protocol"
        newest = page.locator("#protocol tbody tr").first.bounding_box()
        assert page.locator("#protocol tbody tr").first.get_attribute("id") == "row-28"
        assert newest["y"] + newest["height"] <= LANDSCAPE["height"], newest
        assert page.evaluate(SMALL_TARGETS) == []
        page.screenshot(path="/tmp/screen-16-game.png")
        page.goto(game + "/deal")
        no_page_overflow(page)
        form = page.locator("fieldset.declarer").bounding_box()
        preview = page.locator("#preview").bounding_box()
        save = page.locator("#save").bounding_box()
        assert form["x"] + form["width"] <= preview["x"], (form, preview)
        assert preview["y"] < LANDSCAPE["height"], "the preview is on the first screen"
        assert save["y"] + save["height"] <= LANDSCAPE["height"], "so is «Сохранить»"
        assert page.evaluate(SMALL_TARGETS) == [], "targets ≥ 44 px in landscape too"
        page.screenshot(path="/tmp/screen-16-deal.png")
    finally:
        ctx.close()
