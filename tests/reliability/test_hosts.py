"""DNS rebinding, against the real `serve` command: a request naming a host this machine
does not answer to is refused, so a page on another site cannot use a phone's browser
to act here, and no forged name reaches the share page's links."""

from __future__ import annotations

import http.client
from urllib.parse import urlsplit

import pytest
from reliability_rig import Browser, csrf_of, serve_with


def status_for(port: int, host: str, path: str = "/") -> tuple[int, str]:
    """GET path with this Host header: (status, body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        conn.request("GET", path, headers={"Host": host})
        answer = conn.getresponse()
        return answer.status, answer.read().decode(errors="replace")
    finally:
        conn.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One real server that also trusts a proxy's name (option) and another (config)."""
    server = serve_with(tmp_path_factory.mktemp("hosts") / "inst",
                        options=("--trusted-host", "scores.example"),
                        TRUSTED_HOSTS=["cards.example"])
    yield server
    server.kill()


def test_an_unknown_host_name_gets_400(served):
    """Host: evil.example (a rebinding page's name) is refused before any view runs."""
    assert status_for(served.port, "evil.example")[0] == 400
    assert status_for(served.port, f"evil.example:{served.port}", "/new")[0] == 400


def test_the_machine_s_own_names_and_the_configured_ones_answer(served):
    """The printed address, localhost, and the names given by option and config key."""
    for host in (f"127.0.0.1:{served.port}", f"localhost:{served.port}", "scores.example",
                 "cards.example"):
        assert status_for(served.port, host)[0] == 200, host


def test_the_share_page_never_carries_a_forged_host(served):
    """A game's share page asked for under a forged name is refused; under a trusted one its
    links carry that name."""
    phone = Browser(served.base)
    _, form, _ = phone.request("/new")
    status, _, headers = phone.request("/new", {
        "csrf_token": csrf_of(form), "name0": "Аня", "name1": "Борис", "first_dealer": "0",
        "action": "start"})
    assert status == 302
    game = urlsplit(headers["Location"]).path
    assert status_for(served.port, "evil.example", game + "/share")[0] == 400
    status, page = status_for(served.port, "scores.example", game + "/share")
    assert status == 200 and "http://scores.example/v/" in page and "evil" not in page
