"""The deal form at 390×844: points that correct themselves, refusals that name the right
player and field, forms that do not pretend, and «Сохранить» within reach."""

from __future__ import annotations

import pytest
from phone_browser import PHONE, open_form
from playwright.sync_api import expect
from test_save_flow import GAME, deal, fill_deal, imported, in_view, new_game

pytestmark = pytest.mark.browser

NAMES = ("Маргарита", "Вениамин", "Вика")


def typed(page, selector, keys):
    """Tap a field and press keys on the keypad, one by one (as a thumb does)."""
    page.click(selector)
    for key in keys:
        page.keyboard.press(key)


def settled(page):
    """Let the live preview (200 ms debounce, then a fetch) answer."""
    page.wait_for_timeout(700)


# -- 1. correcting points ----------------------------------------------------------------

def test_edit_form_rederives_the_declarers_points(live_server, phone):
    """On the edit form a defender's 30 → 25 makes the declarer's 90 → 95."""
    page = phone()
    new_game(page, live_server)
    deal(page, 0, 100, {1: 30, 2: 0})
    open_form(page, "#row-1 td.n a")
    assert page.input_value("#points_0") == "90"
    page.fill("#points_1", "25")
    assert page.input_value("#points_0") == "95"
    page.click("#save")
    page.wait_for_url(GAME)
    assert "Ничего не сохранено" not in page.content()


def test_erasing_the_declarers_points_and_typing_gives_what_was_typed(live_server, phone):
    """Backspace twice in an auto-filled 90, type 95: 95, never 9595; it stays theirs."""
    page = phone()
    new_game(page, live_server)
    fill_deal(page, 0, 100, {1: 30, 2: 0})
    assert page.input_value("#points_0") == "90"
    typed(page, "#points_0", ["End", "Backspace", "Backspace", "9", "5"])
    assert page.input_value("#points_0") == "95"
    page.fill("#points_1", "25")  # typed by hand: no longer follows the others
    assert page.input_value("#points_0") == "95"


def test_two_players_points_are_not_derived(live_server, phone):
    """With two players the points need not sum to 120: nothing fills itself, no such hint."""
    page = phone()
    new_game(page, live_server, names=("Аня", "Борис"))
    fill_deal(page, 0, 100, {1: 30})
    settled(page)
    assert page.input_value("#points_0") == ""
    assert "120 минус" not in page.locator("fieldset.points").inner_text()
    typed(page, "#points_0", ["7", "5"])
    page.click("#save")
    page.wait_for_url(GAME)


def test_a_typo_is_blamed_on_the_field_that_was_typed(live_server, phone):
    """Вениамин 125: his field is marked and named, live and after a save; the declarer's
    field is not −20."""
    page = phone()
    new_game(page, live_server, names=NAMES)
    fill_deal(page, 0, 100, {1: 125, 2: 0})
    page.click("#contract")  # leaves the points field, as the next tap would
    # The live preview's answer (a debounce, then a fetch): its words, however slow.
    expect(page.locator("#preview-msg")).to_contain_text("Вениамин")
    assert page.input_value("#points_0") in ("", "0")
    live = page.locator("#preview-msg").inner_text()
    assert "Вениамин" in live and "125" in live and "Маргарита" not in live
    expect(page.locator("#points_1")).to_have_attribute("aria-invalid", "true")
    page.click("#save")
    page.wait_for_selector("#error-summary")
    summary = page.locator("#error-summary").inner_text()
    assert "Вениамин" in summary and "125" in summary
    assert "Маргарита" not in summary and "-20" not in summary and "\u221220" not in summary
    # The summary shows while the page is parsed; the focus comes from its script later.
    expect(page.locator("#points_1")).to_be_focused()
    assert page.locator("#err-points-1").count() == 1


# -- 2. refusals that name the right player and say what ---------------------------------

def test_golden_refusal_names_the_player_who_must_play(live_server, phone):
    """A tap on another seat on a golden deal: the refusal names who must play."""
    page = phone()
    new_game(page, live_server, golden=True)
    open_form(page)
    forced = page.locator("input[name=declarer]:checked").get_attribute("value")
    must = ("Аня", "Борис", "Вика")[int(forced)]
    other = (int(forced) + 1) % 3
    page.click(f"label.pick.p{other}")
    page.fill(f"#points_{(other + 1) % 3}", "20")
    page.fill(f"#points_{(other + 2) % 3}", "20")
    page.click("#save")
    page.wait_for_selector("#error-summary")
    text = page.locator("#error-summary").inner_text()
    assert must in text and ("Аня", "Борис", "Вика")[other] not in text, text


def test_summary_items_say_which_field_and_player(live_server, phone):
    """Blank contract, blank points and a contract of 103: each item names its field/player."""
    page = phone()
    new_game(page, live_server)
    open_form(page)
    page.click("label.pick.p0")
    page.click("#save")
    page.wait_for_selector("#error-summary")
    items = page.locator("#error-summary li").all_inner_texts()
    assert "Обязательное поле." not in items
    assert any("заказ" in i.lower() for i in items), items
    assert any("Борис" in i for i in items) and any("Вика" in i for i in items), items
    page.wait_for_load_state()  # the form's script has run
    page.fill("#contract", "103")
    page.fill("#points_1", "10")
    page.fill("#points_2", "10")
    page.click("#save")
    # The first Save's summary is still on the page until the second answer replaces it:
    # wait for the new summary's words, not for an element the old page already has.
    summary = page.locator("#error-summary")
    expect(summary).to_contain_text("кратен 5")
    assert "аказ" in summary.inner_text()


def test_the_scroll_to_a_wrong_field_keeps_the_summary_heading(live_server, phone):
    """The focused wrong field and the refusal's heading are both on the screen."""
    page = phone()
    new_game(page, live_server)
    fill_deal(page, 0, 100, {1: 20, 2: 1})
    page.click("#save")
    page.wait_for_selector("#error-summary")
    expect(page.locator("#points_2")).to_be_focused()  # the page's script has run
    assert in_view(page, "#refused") and in_view(page, "#points_2")


def test_a_server_error_goes_once_its_field_changes(live_server, phone):
    """The refusal beside «Заказ» disappears as soon as the contract is changed."""
    page = phone()
    new_game(page, live_server)
    fill_deal(page, 0, 103, {1: 10, 2: 10})
    page.click("#save")
    page.wait_for_selector("#err-contract")
    page.wait_for_load_state()
    page.fill("#contract", "105")
    assert page.locator("#err-contract").count() == 0
    assert "кратен" not in page.locator("#error-summary").inner_text()


# -- 4. forms that do not pretend ---------------------------------------------------------

def test_an_empty_contract_looks_empty_and_dark_sets_120(live_server, phone):
    """No grey «100» in a blank contract; ticking «Втёмную» makes it 120."""
    page = phone()
    page.goto(live_server + "/new")
    for i, name in enumerate(("Аня", "Борис", "Вика")):
        page.fill(f"#name{i}", name)
    page.click("summary:has-text('Игра втёмную')")
    page.check("input[name=ag_dark]")
    page.click("button.primary:has-text('Начать игру')")
    page.wait_for_url(GAME)
    open_form(page)
    assert page.input_value("#contract") == ""
    assert not page.get_attribute("#contract", "placeholder")
    page.check("#dark")
    assert page.input_value("#contract") == "120"


def test_the_adjustment_shows_its_amount_and_player(live_server, phone):
    """The default reason's amount is a real value; the player is the one it concerns."""
    page = phone()
    new_game(page, live_server)  # first dealer Аня: Вика, on her right, cuts
    open_form(page)  # the game page's «Штраф или премия» opens the deal page with it open
    assert page.locator("#adjustment").get_attribute("open") is not None
    assert page.locator("#reason").input_value() == "cut_nines"
    assert page.input_value("#amount") == "\u2212120"
    assert page.locator("#player").input_value() == "2"
    page.select_option("#reason", "misdeal")
    assert page.locator("#player").input_value() == "0"  # the dealer
    assert page.input_value("#amount") == ""


def test_reasons_that_are_not_agreed_are_not_offered(live_server, phone, tmp_path):
    """Cut-nines off and a four-nines bonus of 0: neither reason is in the list."""
    log = {"format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"],
           "agreements": {"preset": "classic",
                          "overrides": {"cut_nines_penalty": False, "four_nines_bonus": 0}},
           "first_dealer": 0, "deals": []}
    page = phone()
    imported(page, live_server, log, tmp_path)
    open_form(page)
    reasons = page.locator("#reason option").evaluate_all("os => os.map(o => o.value)")
    assert reasons == ["misdeal", "other"]


def test_redeal_stands_apart_and_asks_again(live_server, phone):
    """«Пересдача» is not a tap under «Сохранить»: apart, and a second tap records it."""
    page = phone()
    new_game(page, live_server)
    open_form(page)
    assert page.locator("#redeal").is_hidden()
    save = page.locator("#save").bounding_box()
    ask = page.locator("#redeal-ask").bounding_box()
    assert ask["y"] - (save["y"] + save["height"]) >= 44
    page.click("#redeal-ask")
    page.click("#redeal")
    page.wait_for_url(GAME)
    assert "пересдача" in page.locator("#row-1").inner_text().lower()


def test_the_first_dealer_is_one_of_the_named_players(live_server, phone):
    """Three names typed: «Игрок 4» is not offered as the first dealer."""
    page = phone()
    page.goto(live_server + "/new")
    for i, name in enumerate(("Аня", "Борис", "Вика")):
        page.fill(f"#name{i}", name)
    shown = page.locator("#first_dealer option").evaluate_all(
        "os => os.filter(o => !o.hidden && !o.disabled).map(o => o.textContent.trim())")
    assert shown == ["Аня", "Борис", "Вика"]


def test_without_javascript_preview_lands_on_it_and_no_box_pretends(live_server, browser):
    """No script: no «no trick» box is ticked beside blank points, and «Предпросмотр»
    lands on the preview."""
    ctx = browser.new_context(viewport=PHONE, java_script_enabled=False, locale="ru-RU")
    page = ctx.new_page()
    try:
        new_game(page, live_server)
        open_form(page)
        assert page.locator(".notrick input:checked").count() == 0
        page.click("label.pick.p0")
        page.fill("#contract", "100")
        page.fill("#points_1", "20")
        page.fill("#points_2", "0")
        with page.expect_navigation():  # the same form again, not the page before it
            page.click("button.nojs-only:has-text('Предпросмотр')")
        assert page.url.endswith("#preview")
        assert in_view(page, "#preview h2")
        assert page.locator(".pv-delta[data-seat='0']").inner_text() == "+100"
        page.click("#save")
        page.wait_for_url(GAME)
        assert "—" in page.locator("#row-1 td.cell").nth(2).inner_text()  # still a bolt
    finally:
        ctx.close()


# -- 3 (last bullet). four players: the preview and «Сохранить» within reach -------------

def test_four_players_keep_the_preview_and_save_in_reach(live_server, phone):
    """At the top of a 4-player form the preview and «Сохранить» are on the screen; the
    last field is still reachable, never under the bar."""
    page = phone()
    game = new_game(page, live_server, names=("Аня", "Борис", "Вика", "Гена"))
    page.goto(game + "/deal")  # the deal page (the game page's link lands on its penalty)
    assert page.evaluate("window.scrollY") == 0
    assert in_view(page, "#save") and in_view(page, "#preview .pv-delta")
    last = page.locator("#deal-form input:not([type=hidden]), #deal-form select").last
    last.scroll_into_view_if_needed()
    box = last.bounding_box()
    hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y).id",
                        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
    assert hit == last.get_attribute("id")
    page.focus("#points_1")
    box = page.locator("#points_1").bounding_box()
    bar = page.locator("#save").bounding_box()
    assert box["y"] + box["height"] <= bar["y"] or box["y"] >= bar["y"] + bar["height"]


def test_a_typed_125_is_marked_on_its_field_before_it_is_left(live_server, phone):
    """The last field typed, 125, still focused: the live preview marks it and names it
    (a value typed wrong needs no leaving; only a blank field's complaint waits)."""
    page = phone()
    new_game(page, live_server, names=NAMES)
    fill_deal(page, 0, 100, {2: 0})
    typed(page, "#points_1", ["1", "2", "5"])
    expect(page.locator("#preview-msg")).to_contain_text("Вениамин")  # the preview answered
    assert page.evaluate("document.activeElement.id") == "points_1"
    expect(page.locator("#points_1")).to_have_attribute("aria-invalid", "true")
    live = page.locator("#preview-msg").inner_text()
    assert "Вениамин" in live and "125" in live


def test_the_concession_shows_what_it_changes_before_its_second_tap(live_server, phone):
    """«Роспись…» opened: each player's change and new total are in the box above «Да,
    записать роспись», and the saved row has those totals."""
    page = phone()
    new_game(page, live_server, names=NAMES)
    open_form(page)
    page.click("label.pick.p1")
    page.fill("#contract", "110")
    page.click("#raspis-ask")
    page.wait_for_selector("#raspis-preview:not([hidden])")
    page.wait_for_function("() => document.querySelector('.rv-score').textContent !== ''")
    shown = page.locator("#raspis-preview .rv-score").all_inner_texts()
    box = page.locator("#raspis-preview").bounding_box()
    assert box["y"] < page.locator("#raspis").bounding_box()["y"]
    page.click("#raspis")
    page.wait_for_url(GAME)
    totals = page.locator("#totals .score").all_inner_texts()
    assert [s.replace("→", "").strip() for s in shown] == totals


def test_the_adjustment_shows_what_it_changes_before_it_is_saved(live_server, phone):
    """The penalty panel: a player and an amount typed, each player's change and new
    total show above «Сохранить поправку»."""
    page = phone()
    new_game(page, live_server, names=NAMES)
    open_form(page)  # the game page's «Штраф или бонус»: the panel comes open
    page.select_option("#player", "2")
    page.select_option("#reason", "other")
    page.fill("#amount", "-120")
    page.wait_for_selector("#adjustment-preview:not([hidden])")
    page.wait_for_function("() => document.querySelector('#adjustment-preview .rv-delta')"
                           ".textContent !== ''")
    deltas = page.locator("#adjustment-preview .rv-delta").all_inner_texts()
    assert deltas == ["0", "0", "\u2212120"], deltas
