"""A real server (waitress, loopback, temporary instance) and Debian's Chromium at phone size.

What costs seconds is shared: one Chromium for the whole run (the `browser` fixture of
tests/conftest.py) and one server per test module. What a test sees is its own: a fresh
browser context (cookies, storage) and the games it makes itself. A test that needs an
instance nobody else writes to (it counts every game, or writes rows behind the server's
back) takes `own_server`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from phone_browser import HOST_KEY, PHONE, served

from scorer import create_app


@dataclass(frozen=True)
class Served:
    """A running app: its URL and its instance folder."""

    base: str
    instance: Path


def serve_fresh(folder: Path, **settings):
    """The app on a new instance in ``folder``, served by waitress on 127.0.0.1."""
    app = create_app({"INSTANCE_PATH": str(folder / "instance"),
                      "SECRET_KEY": "browser-secret", "HOST_KEY": HOST_KEY, **settings})
    with served(app) as base:
        yield Served(base, folder / "instance")


@pytest.fixture(scope="module")
def module_server(tmp_path_factory):
    """One app per test module, served in a thread; the tests make their own games on it."""
    # A module's phones all come from 127.0.0.1 and most start games as guests: the
    # limit of new games per address and 10 minutes (tests/reliability's to test) would
    # refuse the 21st, which a server of its own per test never reached.
    yield from serve_fresh(tmp_path_factory.mktemp("served"), CREATE_PER_WINDOW=10_000)


@pytest.fixture
def live_server(module_server):
    """The module's server's URL."""
    return module_server.base


@pytest.fixture
def own_server(tmp_path):
    """A server on an instance of this test's own (in tmp_path/instance)."""
    yield from serve_fresh(tmp_path)


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
