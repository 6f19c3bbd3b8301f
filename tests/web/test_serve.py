"""`python -m scorer serve`: first start, the printed link, and no lost deal after a kill."""

from __future__ import annotations

import http.cookiejar
import re
import subprocess
import sys
import urllib.parse
import urllib.request

import pytest
from served import Server
from webtable import csrf_of, version_of


@pytest.fixture
def server(tmp_path):
    """The real serve command on a temporary instance, killed after the test."""
    srv = Server(tmp_path / "inst")
    yield srv
    srv.kill()


def browser():
    """An opener that keeps cookies, like a browser."""
    jar = http.cookiejar.CookieJar()
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))


def post(opener, url, fields):
    """POST a form."""
    data = urllib.parse.urlencode(fields).encode()
    return opener.open(urllib.request.Request(url, data=data))


def test_first_start_prints_link_with_host_key_and_qr(server, tmp_path):
    """The banner's link works, carries the host key from the new config.py, and a QR."""
    server.start()
    link = re.search(r"(http://127\.0\.0\.1:\d+/\?key=(\S+))", server.banner)
    assert link, server.banner
    config = (tmp_path / "inst" / "config.py").read_text()
    assert link.group(2) in config and "SECRET_KEY" in config
    assert "▀" in server.banner or "█" in server.banner  # the QR code
    page = browser().open(link.group(1)).read().decode()
    assert "ключ хозяина" in page


def test_port_zero_prints_the_port_it_bound(server):
    """--port 0: the system picks a free port, and the printed link names that one."""
    server.start()
    assert server.port and server.port != 0
    assert f"127.0.0.1:{server.port}/?key=" in server.banner
    assert urllib.request.urlopen(server.base + "/").status == 200


def test_a_port_in_use_is_refused_in_one_line(server, tmp_path):
    """A second server on the same port: one line on stderr, exit status 2."""
    server.start()
    done = subprocess.run(
        [sys.executable, "-m", "scorer", "serve", "--host", "127.0.0.1",
         "--port", str(server.port), "--instance", str(tmp_path / "other")],
        capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and f"127.0.0.1:{server.port}" in lines[0], done.stderr


def test_kill_and_restart_loses_no_deal(server):
    """A deal acknowledged just before kill -9 is there after the restart; keys are kept."""
    server.start()
    first_key = re.search(r"key=(\S+)", server.banner).group(1)
    b = browser()
    html = b.open(server.base + "/new").read().decode()
    r = post(b, server.base + "/new", {
        "csrf_token": csrf_of(html), "name0": "Аня", "name1": "Борис", "name2": "Вика",
        "first_dealer": "0", "action": "start"})
    game = urllib.parse.urlsplit(r.geturl()).path
    html = b.open(server.base + game + "/deal").read().decode()
    post(b, server.base + game + "/deal", {
        "csrf_token": csrf_of(html), "version": version_of(html), "action": "play",
        "declarer": "1", "contract": "120", "points_0": "20", "points_2": "20",
        "mar_1": "hearts"})
    server.kill()  # right after the deal was acknowledged
    server.start()  # a new port, the same data folder and cookies
    page = b.open(server.base + game).read().decode()
    totals = re.findall(r'class="score" data-seat="\d">(\u2212?\d+)<', page)
    assert totals == ["20", "120", "20"]
    assert re.search(r"key=(\S+)", server.banner).group(1) == first_key  # keys are kept


def test_serve_freezes_its_start_up_heap_before_serving(monkeypatch, tmp_path, capsys):
    """serve collects once and freezes what start-up built before the first request, so a
    full collection later walks only the evening's games (no 50-80 ms stalls)."""
    import argparse
    import gc

    from scorer.cli import serve

    frozen_when_serving = []

    class Listening:
        """Stands in for waitress: notes how much is frozen when serving begins."""

        effective_port = 8000

        def run(self):
            frozen_when_serving.append((gc.get_freeze_count(), gc.get_threshold()[2]))

    monkeypatch.setattr("waitress.create_server", lambda app, **options: Listening())
    monkeypatch.setenv("SCORER_INSTANCE", str(tmp_path))
    args = argparse.Namespace(host="127.0.0.1", port=8000, instance=str(tmp_path),
                              trusted_host=[])
    thresholds = gc.get_threshold()
    try:
        assert serve.run(args) == 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
    frozen, full_every = frozen_when_serving[0]
    assert frozen > 10_000 and full_every == serve.FULL_PASS_EVERY > thresholds[2]
    assert "http://127.0.0.1:8000/?key=" in capsys.readouterr().out
