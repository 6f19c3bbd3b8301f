"""The host's games list at phone size without JavaScript: archive and delete (asked
first, then undone) with 44 px targets, nothing wider than the screen, pages by links."""

from __future__ import annotations

from phone_browser import HOST_KEY, PHONE

from scorer import store

SMALL_TARGETS = """() => [...document.querySelectorAll('main a, main button, main summary')]
  .filter(e => e.offsetParent !== null)
  .map(e => { const r = e.getBoundingClientRect();
              return [e.outerHTML.slice(0, 60), Math.round(r.width), Math.round(r.height),
                      Math.round(r.right)]; })
  .filter(([h, w, ht, right]) => w < 44 || ht < 44 || right > innerWidth)"""


def test_the_host_archives_and_deletes_at_phone_size_without_javascript(browser, own_server):
    """55 games: the first page holds 50 and links to the next; «В архив» moves one away,
    «Удалить…» asks first, the list then shows «игра удалена — отменить», and undo brings
    the game back. Every button is a 44 px target inside the 390 px screen."""
    live_server = own_server.base  # every game on it is this test's: 55, no more
    db = store.connect(own_server.instance / "scorer.sqlite")
    try:
        st = store.Store(db)
        for i in range(55):
            st.create_game({"format": "thousand-game/1", "title": f"Игра {i}",
                            "players": ["Александра", "Константин", "Вика"],
                            "agreements": {"preset": "classic", "overrides": {}},
                            "first_dealer": 0})
    finally:
        db.close()
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                              java_script_enabled=False, locale="ru-RU")
    page = ctx.new_page()
    try:
        page.goto(f"{live_server}/?key={HOST_KEY}")
        assert page.locator("ul.games > li").count() == 50
        assert page.evaluate(SMALL_TARGETS) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        with page.expect_navigation():  # every tap here loads a page like the one before
            page.click("a[rel=next]")
        assert page.locator("ul.games > li").count() == 5
        with page.expect_navigation():
            page.click("a[rel=prev]")
        first = page.locator("ul.games > li").first
        assert "Игра 54" in first.inner_text()
        with page.expect_navigation():
            first.locator("button[value=archive]").click()
        assert "Игра 54" not in page.locator("ul.games").first.inner_text()
        with page.expect_navigation():
            page.click("#archived-link")
        assert "Игра 54" in page.locator("ul.games").first.inner_text()
        page.goto(f"{live_server}/")
        with page.expect_navigation():
            page.locator("ul.games > li").first.locator("button[value=delete]").click()
        assert page.locator("h1").inner_text() == "Удалить эту игру?"
        page.screenshot(path="/tmp/screen-list-delete.png", full_page=True)
        with page.expect_navigation():
            page.click("#confirm-delete")
        deleted = page.locator("#deleted-games li")
        assert "Игра 53 — игра удалена —" in deleted.inner_text()
        assert page.evaluate(SMALL_TARGETS) == []
        page.screenshot(path="/tmp/screen-list-deleted.png", full_page=True)
        with page.expect_navigation():
            deleted.locator("button[value=undelete]").click()
        assert page.locator("#deleted-games").count() == 0
        assert "Игра 53" in page.locator("ul.games > li").first.inner_text()
    finally:
        ctx.close()
