"""Shared parts of the reliability tests: phones on the test client, a real server, a
cookie-keeping HTTP client, and the pattern of a long game of mostly ``play`` deals."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

HEAD = {"format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"],
        "agreements": {"preset": "classic", "overrides": {}}, "first_dealer": 0}


def csrf_of(html: str) -> str:
    """The CSRF token of a rendered form."""
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html)
    assert found, "no CSRF token on the page"
    return found.group(1)


def version_of(html: str) -> str:
    """The game version a rendered form was filled in for."""
    found = re.search(r'name="version" value="(\d+)"', html)
    assert found, "no version field on the page"
    return found.group(1)


class Phone:
    """One browser on the Flask test client (its own cookies)."""

    def __init__(self, app):
        self.client = app.test_client()

    def form(self, path: str) -> dict[str, str]:
        """The hidden fields a write carries: CSRF token and game version."""
        html = self.client.get(path).get_data(as_text=True)
        return {"csrf_token": csrf_of(html), "version": version_of(html)}

    def view_path(self, game: str) -> str:
        """The read-only path of a game, read from its share page."""
        html = self.client.get(game + "/share").get_data(as_text=True)
        return re.search(r'value="http://localhost(/v/[^"]+)" id="view-url"', html).group(1)

    def new_game(self, names=("Аня", "Борис", "Вика"), title: str | None = None) -> str:
        """Start a classic game through the form; return its edit path."""
        html = self.client.get("/new").get_data(as_text=True)
        data = {"csrf_token": csrf_of(html), "first_dealer": "0", "preset": "classic",
                "action": "start", **{f"name{i}": n for i, n in enumerate(names)}}
        if title:
            data["title"] = title
        r = self.client.post("/new", data=data)
        assert r.status_code == 302, r.get_data(as_text=True)[:1500]
        return r.headers["Location"]


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`python -m scorer serve` in a subprocess, on 127.0.0.1."""

    def __init__(self, instance: Path, port: int):
        self.instance, self.port = instance, port
        self.proc: subprocess.Popen | None = None
        self.starts = 0

    @property
    def base(self) -> str:
        """The server's base URL."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        """Start the real command and wait until it accepts connections."""
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("SCORER_INSTANCE", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "scorer", "serve", "--host", "127.0.0.1",
             "--port", str(self.port), "--instance", str(self.instance)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        self.starts += 1
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"server exited with {self.proc.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return self
            except OSError:
                time.sleep(0.05)
        raise AssertionError("server did not start")

    def kill(self) -> None:
        """SIGKILL: no clean shutdown, no flush, no checkpoint."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        if self.proc:
            self.proc.wait(30)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """Report a redirect as the response itself (a saved deal answers 302)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        """Do not follow."""
        return None


class Browser:
    """A cookie-keeping HTTP client that does not follow redirects."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect)

    def request(self, path: str, fields: dict | None = None) -> tuple[int, str, dict]:
        """GET (or POST fields); return (status, body, headers); HTTP errors are answers."""
        data = urllib.parse.urlencode(fields, doseq=True).encode() if fields else None
        req = urllib.request.Request(self.base + path, data=data)
        try:
            with self.opener.open(req, timeout=30) as r:
                return r.status, r.read().decode(), dict(r.headers)
        except urllib.error.HTTPError as err:
            return err.code, err.read().decode(errors="replace"), dict(err.headers)


def pattern(n: int) -> dict:
    """Deal number n+1 of a long game, as a function of its position only.

    Mostly ``play``: in each cycle of six play deals every seat makes 100 once
    (+100, defenders +5 each) and fails 120 once (-120), so every score stays within
    about 0..130 however long the game runs; every 7th deal is a redeal. Two
    neighbouring deals always differ, so a deal stored twice or lost shows as a
    mismatch with this pattern.
    """
    if n % 7 == 6:
        return {"type": "redeal"}
    k = (n - n // 7) % 6
    declarer = k % 3
    points = [5, 5, 5]
    points[declarer] = 110
    return {"type": "play", "declarer": declarer, "contract": 100 if k < 3 else 120,
            "points": points, "marriages": {}, "no_tricks": []}


def form_fields(record: dict) -> dict[str, str]:
    """The deal form's fields for a record made by pattern()."""
    if record["type"] == "redeal":
        return {"action": "redeal"}
    fields = {"action": "play", "declarer": str(record["declarer"]),
              "contract": str(record["contract"])}
    for seat, p in enumerate(record["points"]):
        if p is not None:
            fields[f"points_{seat}"] = str(p)
    return fields


def as_stored(record: dict) -> str:
    """A record as comparable text."""
    return json.dumps(record, sort_keys=True)
