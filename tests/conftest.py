"""Shared fixtures: a real app on a real SQLite file in a temporary instance folder."""

from __future__ import annotations

import pytest

from scorer import create_app

HOST_KEY = "test-host-key-0123456789abcdef"


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

