"""Shared parts of the reliability tests: phones on the test client, a real server, a
cookie-keeping HTTP client, and the pattern of a long game of mostly ``play`` deals.
The phone, the server and the form helpers are the web tests' own, imported."""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

# One copy of the web tests' helpers; tests/web is on sys.path only when its tests run.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from scenario_logs import replayable_logs  # noqa: E402
from served import Server  # noqa: E402
from webtable import Table, csrf_of, version_of  # noqa: E402

from scorer.web.lru import clear_caches  # noqa: E402

__all__ = ["Browser", "HEAD", "Phone", "Server", "Upload", "as_stored", "csrf_of",
           "forget_caches", "form_fields", "pattern", "replayable_logs", "serve_with",
           "snapshot", "version_of"]

HEAD = {"format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"],
        "agreements": {"preset": "classic", "overrides": {}}, "first_dealer": 0}


class Phone(Table):
    """One browser on the Flask test client (its own cookies)."""

    def __init__(self, app):
        """A new browser (its own cookies) on this app."""
        super().__init__(app.test_client())


def snapshot(db) -> tuple:
    """Every row of the three tables (db: any connection): what a refusal must not change."""
    return tuple(
        tuple(tuple(r) for r in db.execute(f"select * from {t} order by 1").fetchall())
        for t in ("games", "deals", "revisions"))


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """Report a redirect as the response itself (a saved deal answers 302)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        """Do not follow."""
        return None


class Browser:
    """A cookie-keeping HTTP client that does not follow redirects."""

    def __init__(self, base: str):
        """A browser with no cookies yet, talking to base."""
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


def forget_caches(app) -> None:
    """Drop every cache of the app: the rig deletes rows behind the app's back, so a game
    id and version come back with other content, which no real write does (a restore
    changes the database generation; ids never go back otherwise)."""
    clear_caches(app)


def serve_with(folder: Path, open_files: int | None = None, options: tuple = (),
               **settings) -> Server:
    """A real server on a fresh instance whose config.py adds these settings (started)."""
    folder.mkdir(parents=True)
    lines = [f"SECRET_KEY = {'s' * 64!r}", f"HOST_KEY = {'h' * 32!r}"]
    lines += [f"{name} = {value!r}" for name, value in settings.items()]
    (folder / "config.py").write_text("\n".join(lines) + "\n")
    return Server(folder, open_files=open_files, options=options).start()


BOUNDARY = "scorer-test-boundary"


class Upload:
    """One browser posting game files to /import (its own cookie and CSRF token)."""

    def __init__(self, port: int, source: str = "127.0.0.1"):
        """Open the list page once for a session cookie and the form's token (source: the
        loopback address this browser connects from)."""
        self.port, self.source = port, source
        conn = self.connection(120)
        conn.request("GET", "/")
        answer = conn.getresponse()
        self.cookie = "; ".join(c.split(";")[0]
                                for c in answer.headers.get_all("Set-Cookie") or ())
        self.token = csrf_of(answer.read().decode())
        conn.close()

    def connection(self, timeout: float) -> http.client.HTTPConnection:
        """A new connection to the server from this browser's address."""
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout,
                                          source_address=(self.source, 0))

    def post(self, body: bytes) -> tuple[int, str]:
        """POST one file; (status, page)."""
        data = (f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n"
                f"{self.token}\r\n--{BOUNDARY}\r\nContent-Disposition: form-data; "
                f"name=\"file\"; filename=\"g.json\"\r\nContent-Type: application/json\r\n\r\n"
                ).encode() + body + f"\r\n--{BOUNDARY}--\r\n".encode()
        conn = self.connection(300)
        try:
            conn.request("POST", "/import", body=data, headers={
                "Content-Type": f"multipart/form-data; boundary={BOUNDARY}",
                "Cookie": self.cookie})
            answer = conn.getresponse()
            return answer.status, answer.read().decode(errors="replace")
        finally:
            conn.close()
