"""The host key in the cookie, and replacing a game's links, against the real `serve`:
the cookie never shows the key; the host can give one game (share page) or every game
(`host-key --rotate --links`) new links, and the old ones answer 404."""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
import zlib
from urllib.parse import urlsplit

import pytest
from reliability_rig import Browser, csrf_of, serve_with

HOST_KEY = "h" * 32  # the key serve_with writes into config.py


@pytest.fixture
def server(tmp_path):
    """A real server on a fresh instance, killed after the test."""
    srv = serve_with(tmp_path / "inst")
    yield srv
    srv.kill()


def cookie_json(browser: Browser) -> dict:
    """The session cookie's payload as anyone who sees it can read it (it is only signed)."""
    jar = next(h.cookiejar for h in browser.opener.handlers if hasattr(h, "cookiejar"))
    value = next(c.value for c in jar if c.name == "session")
    compressed = value.startswith(".")
    payload = value.lstrip(".").split(".")[0]
    raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    return json.loads(zlib.decompress(raw) if compressed else raw)


def new_game(browser: Browser) -> str:
    """Start a game from this browser; return its edit path."""
    _, form, _ = browser.request("/new")
    status, _, headers = browser.request("/new", {
        "csrf_token": csrf_of(form), "name0": "Аня", "name1": "Борис", "first_dealer": "0",
        "action": "start"})
    assert status == 302
    return urlsplit(headers["Location"]).path


def view_path(browser: Browser, game: str) -> str:
    """The read-only path the share page gives."""
    _, page, _ = browser.request(game + "/share")
    return re.search(r"(/v/[A-Za-z0-9_-]{16,})", page).group(1)


def test_the_cookie_never_carries_the_host_key(server):
    """After opening the host link the browser is host, yet its cookie's JSON holds no trace
    of the key (it held the key itself in plain JSON before)."""
    host = Browser(server.base)
    host.request(f"/?key={HOST_KEY}")
    payload = cookie_json(host)
    assert payload.get("host") and HOST_KEY not in json.dumps(payload)
    stranger_game = new_game(Browser(server.base))
    assert stranger_game in host.request("/")[1]  # host rights: every game is listed


def test_the_host_replaces_one_game_s_links(server):
    """The share page's confirmed POST (with CSRF) gives the game new links: the old edit and
    read-only links answer 404, the new ones open the game; the scorekeeper who held the
    old link no longer sees it. Without the CSRF token it is refused; a browser that is not
    the host gets 403."""
    keeper = Browser(server.base)
    game = new_game(keeper)
    old_view = view_path(keeper, game)
    host = Browser(server.base)
    host.request(f"/?key={HOST_KEY}")
    _, share, _ = host.request(game + "/share")
    assert 'id="replace-links"' in share
    assert 'id="replace-links"' not in keeper.request(game + "/share")[1]
    assert keeper.request(game + "/share/replace",
                          {"csrf_token": csrf_of(keeper.request("/new")[1])})[0] == 403
    assert host.request(game + "/share/replace", {"confirm": "1"})[0] == 400
    status, _, headers = host.request(game + "/share/replace", {"csrf_token": csrf_of(share)})
    assert status == 302
    new_game_path = urlsplit(headers["Location"]).path.removesuffix("/share")
    assert new_game_path != game
    for path in (game, old_view, game + "/share"):
        assert keeper.request(path)[0] == 404, path
        assert host.request(path)[0] == 404, path
    assert host.request(new_game_path)[0] == 200
    assert host.request(view_path(host, new_game_path))[0] == 200
    assert new_game_path not in keeper.request("/")[1]


def test_rotate_with_links_replaces_every_game_s_links(server, tmp_path):
    """`host-key --rotate --links` while the server runs: every old link answers 404 at once,
    and the host (after the restart that takes the new key) finds the games with new links."""
    keeper = Browser(server.base)
    games = [new_game(keeper) for _ in range(3)]
    views = [view_path(keeper, g) for g in games]
    done = subprocess.run([sys.executable, "-m", "scorer", "host-key", "--rotate", "--links",
                           "--instance", str(server.instance)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert "3 games" in done.stdout
    new_key = re.search(r"new host key (\S+)", done.stdout).group(1)
    for path in games + views:
        assert keeper.request(path)[0] == 404, path
    server.kill()
    server.start()
    host = Browser(server.base)
    host.request(f"/?key={new_key}")
    listed = set(re.findall(r'href="(/g/[A-Za-z0-9_-]{16,})"', host.request("/")[1]))
    assert len(listed) == 3 and not listed & set(games)
    for path in listed:
        assert host.request(path)[0] == 200
