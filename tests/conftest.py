"""Shared fixtures: a real app on a real SQLite file in a temporary instance folder;
the hypothesis profiles every property test runs under."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

from scorer import create_app

HOST_KEY = "test-host-key-0123456789abcdef"

# Replay time varies with the load of a shared 2-core machine: these checks would only
# report the machine.
_SLOW_IS_FINE = [HealthCheck.too_slow, HealthCheck.data_too_large]
# dev: a failure is shrunk to its smallest example, however long that takes.
settings.register_profile("dev", deadline=None, max_examples=100,
                          suppress_health_check=_SLOW_IS_FINE)
# ci: a broken rule must fail the run in about a minute, not shrink for five per test
# (with one rule broken, tests/engine ran past nine minutes). So no shrink or explain
# phase (the unshrunk example is printed with its reproduce blob; `dev` shrinks it),
# stop at the first failure, and a deadline far above any example's time that still
# stops a runaway one (10 s: one example of the compare cache took 3.8 s with two workers
# at load 15).
settings.register_profile(
    "ci", deadline=10_000, max_examples=100, suppress_health_check=_SLOW_IS_FINE,
    phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.target),
    report_multiple_bugs=False, print_blob=True)
# thorough: ten times the examples, when there is time to look for rare cases.
settings.register_profile("thorough", deadline=None, max_examples=1000,
                          suppress_health_check=_SLOW_IS_FINE)


def _profile() -> str:
    """HYPOTHESIS_PROFILE if given; else "ci" where CI is set (CI services set CI=true)."""
    ci = os.environ.get("CI", "").lower() not in ("", "0", "false")
    return os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if ci else "dev")


settings.load_profile(_profile())


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium (tests/browser/phone_browser.py says how it runs), one for the whole
    run: each test opens contexts of its own on it. A missing browser is an error, never a
    skip. Session scope, as a second sync Playwright cannot start beside a running one."""
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(Path(__file__).resolve().parent / "browser"))
    from phone_browser import ARGS, CHROMIUM

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def app(tmp_path):
    """The app with CSRF on, storing into tmp_path/instance."""
    app = create_app({
        "TESTING": True,
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "SECRET_KEY": "test-secret",
        "HOST_KEY": HOST_KEY,
    })
    yield app


@pytest.fixture
def client(app):
    """A browser-like test client (keeps cookies)."""
    return app.test_client()


@pytest.fixture
def runner(app):
    """The Flask CLI runner."""
    return app.test_cli_runner()



# Each directory's share of the run, printed at the end (CI's budget is ten minutes on
# two cores: this says where they go). Setup and teardown count, as fixtures cost too.
_DIR_SECONDS: dict[str, float] = {}


# Tables a test measured (its user property "summary": (title, text)), printed at the end:
# a worker's own output never reaches the terminal under pytest-xdist, its reports do.
_SUMMARIES: list[tuple[str, str]] = []


def pytest_runtest_logreport(report):
    """Add one phase of one test to its directory's time; keep the tables it measured."""
    where = report.nodeid.split("::", 1)[0].rsplit("/", 1)[0]
    _DIR_SECONDS[where] = _DIR_SECONDS.get(where, 0.0) + report.duration
    if report.when == "call":
        _SUMMARIES.extend(value for name, value in report.user_properties if name == "summary")


def pytest_terminal_summary(terminalreporter):
    """Print the tables tests measured, then the seconds each test directory took."""
    for title, text in _SUMMARIES:
        terminalreporter.section(title)
        terminalreporter.write_line(text)
    if not _DIR_SECONDS:
        return
    # Under pytest-xdist the workers' reports reach this hook too: the figures add up the
    # workers' time, so together they exceed the run's wall-clock time.
    terminalreporter.section("seconds per directory")
    for where, seconds in sorted(_DIR_SECONDS.items(), key=lambda kv: -kv[1]):
        terminalreporter.write_line(f"{seconds:8.1f}  {where}")
