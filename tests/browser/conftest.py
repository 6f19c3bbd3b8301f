"""A real server (waitress, loopback, temporary instance) and Debian's Chromium at phone size."""

from __future__ import annotations

import pytest
from phone_browser import ARGS, CHROMIUM, HOST_KEY, PHONE, served
from playwright.sync_api import sync_playwright

from scorer import create_app


@pytest.fixture
def live_server(tmp_path):
    """The app served by waitress on 127.0.0.1 and a free port, in a thread."""
    app = create_app({"INSTANCE_PATH": str(tmp_path / "instance"),
                      "SECRET_KEY": "browser-secret", "HOST_KEY": HOST_KEY})
    with served(app) as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    """Chromium from the system; a missing browser is an error, never a skip.

    Module scope: a sync Playwright left running would block other tests' own.
    """
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def phone(browser):
    """A fresh phone-sized browser context factory."""
    contexts = []

    def make(viewport=PHONE):
        """A new phone-sized page in its own context (390×844 unless told).

        No service worker: on the table's Wi-Fi (plain http) a browser allows none, and
        these tests are that phone; 127.0.0.1 would be a secure context and register one.
        The worker's own tests (test_offline_shell.py) open contexts that allow it."""
        ctx = browser.new_context(viewport=viewport, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, locale="ru-RU", service_workers="block")
        contexts.append(ctx)
        return ctx.new_page()

    yield make
    for ctx in contexts:
        ctx.close()
