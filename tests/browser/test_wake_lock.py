"""Awake while scoring: the scorekeeper's game page holds a screen wake lock in a secure
context (Chromium on 127.0.0.1), takes it again when the page comes back, lets it go with
the switch; over plain http on another address the switch says, once, that it cannot."""

from __future__ import annotations

import pytest
from phone_browser import ARGS, CHROMIUM, PHONE, axe_violations
from test_save_flow import new_game

pytestmark = pytest.mark.browser

# Every request and release the page makes, read through to Chromium's own API: the
# lock itself is the browser's (its sentinel's ``released`` says whether it is held).
SPY = """(() => {
  window.__wake = [];
  if (!('wakeLock' in navigator)) return;
  const real = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = (type) => real(type).then((s) => {
    window.__sentinel = s;
    window.__wake.push('request:' + type);
    s.addEventListener('release', () => window.__wake.push('release'));
    return s;
  });
})();"""


def held(page) -> bool:
    """Whether the page's newest wake lock sentinel is still held."""
    return page.evaluate("() => !!window.__sentinel && !window.__sentinel.released")


def hide_and_show(page) -> None:
    """The phone's screen goes to another app and back. Headless Chromium never hides a
    page (another tab, a minimized window: it stays «visible»), so the hide is played as
    the browser plays it: the lock released, then visibilitychange to hidden and back."""
    page.evaluate("""async () => {
        let state = 'hidden';
        Object.defineProperty(document, 'visibilityState', {configurable: true,
                                                             get: () => state});
        await window.__sentinel.release();
        document.dispatchEvent(new Event('visibilitychange'));
        state = 'visible';
        document.dispatchEvent(new Event('visibilitychange'));
    }""")


def test_the_lock_is_requested_released_and_taken_again(live_server, browser):
    """127.0.0.1 is a secure context: the lock is held on the game page; a hidden page
    loses it and takes it again on return; the switch releases it, and the choice stays."""
    ctx = browser.new_context(viewport=PHONE, locale="ru-RU",
                              bypass_csp=True)  # axe-core goes in as a script of its own
    ctx.add_init_script(SPY)
    page = ctx.new_page()
    try:
        new_game(page, live_server)
        assert page.evaluate("() => window.isSecureContext")
        assert page.locator("#wake").is_visible()
        assert page.is_checked("#wake-lock")
        page.wait_for_function("() => window.__wake.includes('request:screen')")
        assert held(page)
        assert page.locator(".wake-note").inner_text() == ""
        hide_and_show(page)
        page.wait_for_function("() => window.__wake.filter(w => w === 'request:screen')"
                               ".length === 2")
        assert "release" in page.evaluate("() => window.__wake") and held(page)
        page.uncheck("#wake-lock")
        page.wait_for_function("() => window.__sentinel.released")
        assert page.evaluate("() => window.__wake").count("release") == 2
        page.reload()
        assert not page.is_checked("#wake-lock")  # remembered on this phone
        page.wait_for_timeout(300)
        assert page.evaluate("() => window.__wake") == []
        assert axe_violations(page) == []
    finally:
        ctx.close()


def test_over_plain_http_the_switch_says_once_that_it_cannot(live_server, browser):
    """A LAN-like name over http (not loopback): no wake lock API; the switch is off and
    disabled, one note beside it; axe finds nothing on the page either way."""
    port = live_server.rsplit(":", 1)[1]
    # A second Chromium of the same Playwright, resolving a LAN-like name to loopback.
    chromium = browser.browser_type.launch(executable_path=CHROMIUM, headless=True, args=[
        *ARGS, "--host-resolver-rules=MAP thousand.lan 127.0.0.1"])
    try:
        ctx = chromium.new_context(viewport=PHONE, locale="ru-RU", bypass_csp=True)
        page = ctx.new_page()
        new_game(page, f"http://thousand.lan:{port}")
        assert not page.evaluate("() => window.isSecureContext")
        assert page.locator("#wake").is_visible()
        assert page.is_disabled("#wake-lock") and not page.is_checked("#wake-lock")
        assert page.locator(".wake-note").inner_text().startswith(
            "По обычному http телефон не может ни держать экран включённым, ни открыть игру")
        assert page.get_by_text("По обычному http").count() == 1
        assert axe_violations(page) == []
    finally:
        chromium.close()
