"""Floods: a stranger without the host key starts and imports games at a bounded rate and
up to a cap per browser; the host is not limited; serving limits by default."""

from __future__ import annotations

import io
import json

import pytest
from reliability_rig import HEAD, Phone, csrf_of

from scorer import create_app, store

HOST = "flood-host-key-0123456789"


@pytest.fixture
def limited(tmp_path):
    """The app with the creation limits on, small enough to reach."""
    return create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "i"),
                       "SECRET_KEY": "s", "HOST_KEY": HOST, "CREATE_LIMITS": True,
                       "CREATE_PER_WINDOW": 5, "CREATE_WINDOW": 600,
                       "MAX_GAMES_PER_BROWSER": 8})


def games_stored(app) -> int:
    """How many games the database holds."""
    db = store.connect(app.config["DATABASE"])
    try:
        return db.execute("select count(*) from games").fetchone()[0]
    finally:
        db.close()


def start(phone: Phone):
    """POST the new-game form once."""
    html = phone.client.get("/new").get_data(as_text=True)
    return phone.client.post("/new", data={"csrf_token": csrf_of(html), "first_dealer": "0",
                                           "preset": "classic", "action": "start",
                                           "name0": "Аня", "name1": "Борис"})


def upload(phone: Phone):
    """POST one small game file to the import form."""
    html = phone.client.get("/").get_data(as_text=True)
    body = json.dumps({**HEAD, "deals": []}, ensure_ascii=False).encode()
    return phone.client.post("/import", data={"csrf_token": csrf_of(html),
                                              "file": (io.BytesIO(body), "g.json")})


def test_new_games_and_imports_are_rate_limited_per_address(limited):
    """Five creations (games and imports together) per window; the sixth is 429 with
    Retry-After and stores nothing, even from a fresh browser on the same address."""
    phone = Phone(limited)
    for i in range(5):
        assert (start(phone) if i % 2 else upload(phone)).status_code == 302
    for refused in (start(phone), upload(phone), start(Phone(limited))):
        assert refused.status_code == 429
        assert int(refused.headers["Retry-After"]) > 0
        assert "Слишком много новых игр" in refused.get_data(as_text=True)
    assert games_stored(limited) == 5


def test_a_browser_may_start_only_so_many_games(limited):
    """Past MAX_GAMES_PER_BROWSER one browser is refused even when the rate allows it."""
    limited.config["CREATE_PER_WINDOW"] = 100
    phone = Phone(limited)
    for _ in range(8):
        assert start(phone).status_code == 302
    refused = upload(phone)
    assert refused.status_code == 429 and "8" in refused.get_data(as_text=True)
    assert games_stored(limited) == 8


def test_the_host_is_not_limited(limited):
    """The browser holding the host key starts as many games as it likes."""
    host = Phone(limited)
    host.client.get("/?key=" + HOST)
    for _ in range(10):
        assert start(host).status_code == 302
    assert games_stored(limited) == 10


def test_a_served_app_limits_by_default(tmp_path):
    """Without TESTING (as `serve` builds it) the limits are on with their defaults."""
    from scorer.web import access

    app = create_app({"INSTANCE_PATH": str(tmp_path / "i"), "SECRET_KEY": "s",
                      "HOST_KEY": HOST})
    with app.test_request_context("/"):
        assert access.limits_on()
    assert access.CREATE_PER_WINDOW <= 30 and access.MAX_GAMES_PER_BROWSER <= 200
