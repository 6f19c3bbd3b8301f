"""`python -m scorer serve`: first start, the printed link, and no lost deal after a kill."""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request

import pytest


def free_port() -> int:
    """A port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """The real command in a subprocess."""

    def __init__(self, instance, port):
        self.instance, self.port = instance, port
        self.proc = None
        self.banner = ""

    def start(self):
        """Start and wait until the printed link answers."""
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("SCORER_INSTANCE", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "scorer", "serve", "--host", "127.0.0.1",
             "--port", str(self.port), "--instance", str(self.instance)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        lines = []
        for line in self.proc.stdout:
            lines.append(line)
            if line.startswith("data:"):
                break
        self.banner = "".join(lines)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return self
            except OSError:
                time.sleep(0.1)
        raise AssertionError("server did not start:\n" + self.banner)

    def kill(self):
        """SIGKILL: no clean shutdown."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.proc.stdout.close()


@pytest.fixture
def server(tmp_path):
    srv = Server(tmp_path / "inst", free_port())
    yield srv
    if srv.proc and srv.proc.poll() is None:
        srv.kill()


def browser():
    """An opener that keeps cookies, like a browser."""
    jar = http.cookiejar.CookieJar()
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))


def post(opener, url, fields):
    """POST a form."""
    data = urllib.parse.urlencode(fields).encode()
    return opener.open(urllib.request.Request(url, data=data))


def csrf(html: str) -> str:
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)


def test_first_start_prints_link_with_host_key_and_qr(server, tmp_path):
    server.start()
    link = re.search(r"(http://127\.0\.0\.1:\d+/\?key=(\S+))", server.banner)
    assert link, server.banner
    config = (tmp_path / "inst" / "config.py").read_text()
    assert link.group(2) in config and "SECRET_KEY" in config
    assert "▀" in server.banner or "█" in server.banner  # the QR code
    page = browser().open(link.group(1)).read().decode()
    assert "ключ хозяина" in page


def test_kill_and_restart_loses_no_deal(server):
    server.start()
    first_key = re.search(r"key=(\S+)", server.banner).group(1)
    base = f"http://127.0.0.1:{server.port}"
    b = browser()
    html = b.open(base + "/new").read().decode()
    r = post(b, base + "/new", {"csrf_token": csrf(html), "name0": "Аня", "name1": "Борис",
                                "name2": "Вика", "first_dealer": "0", "action": "start"})
    game = r.geturl()
    html = b.open(game + "/deal").read().decode()
    version = re.search(r'name="version" value="(\d+)"', html).group(1)
    post(b, game + "/deal", {"csrf_token": csrf(html), "version": version, "action": "play",
                             "declarer": "1", "contract": "120", "points_0": "20",
                             "points_2": "20", "mar_1": "hearts"})
    server.kill()  # right after the deal was acknowledged
    server.start()
    page = b.open(game).read().decode()
    totals = re.findall(r'class="score" data-seat="\d">(\u2212?\d+)<', page)
    assert totals == ["20", "120", "20"]
    assert re.search(r"key=(\S+)", server.banner).group(1) == first_key  # keys are kept
