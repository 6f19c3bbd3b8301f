"""Two real phones (Chromium at 390x844) on one game: the one whose form went stale is
warned by the live preview, refused on Save with the fresh protocol, and saves on the
second press. Nothing waits on a clock: every wait is for something to appear."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect
from reliability_rig import HEAD

from scorer import create_app, store

# How the browser tests run Chromium (one copy); tests/browser is on sys.path only when
# its own tests run.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
from phone_browser import served  # noqa: E402

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[1] / "browser" / "screenshots"


@pytest.fixture
def served_game(tmp_path):
    """The app on 127.0.0.1 (waitress, in a thread) with one 3-player game."""
    app = create_app({"INSTANCE_PATH": str(tmp_path / "inst"), "SECRET_KEY": "s",
                      "HOST_KEY": "stale-browser-host-key-0123456789"})
    db = store.connect(app.config["DATABASE"])
    try:
        token = store.Store(db).create_game(HEAD).edit_token
    finally:
        db.close()
    with served(app) as base:
        yield f"{base}/g/{token}"


def test_a_stale_phone_is_warned_refused_and_then_saves(served_game, browser):
    """A phone whose form went stale is warned by the preview, refused, then saves."""
    contexts = [browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                    has_touch=True, locale="ru-RU") for _ in range(2)]
    try:
        a, b = (ctx.new_page() for ctx in contexts)
        a.goto(served_game + "/deal")
        b.goto(served_game + "/deal")
        # Phone B records deal 1 while phone A still has its form open.
        b.locator("label.pick.p1").click()
        b.fill("#contract", "120")
        b.fill("#points_0", "20")
        b.fill("#points_2", "20")
        b.click("#save")
        expect(b.locator("#protocol tbody tr")).to_have_count(1)
        # Phone A types its deal: the live preview already says it is stale.
        a.locator("label.pick.p2").click()
        a.fill("#contract", "100")
        a.fill("#points_0", "10")
        a.fill("#points_1", "10")
        expect(a.locator("#preview-msg")).to_contain_text("Ничего не сохранено")
        a.click("#save")
        # The stale refusal is the summary's heading (said once).
        expect(a.locator("#refused")).to_contain_text("игра изменилась")
        expect(a.locator("#fresh #protocol tbody tr")).to_have_count(1)
        expect(a.locator("#fresh #record-deal")).to_have_count(0)
        expect(a.locator("#contract")).to_have_value("100")  # what A typed is kept
        SHOTS.mkdir(parents=True, exist_ok=True)
        a.screenshot(path=str(SHOTS / "stale-refusal.png"), full_page=True)
        a.click("#save")
        expect(a.locator("#protocol tbody tr")).to_have_count(2)
        expect(a.locator("#totals .score")).to_have_text(["30", "\u2212110", "120"])
    finally:
        for ctx in contexts:
            ctx.close()
