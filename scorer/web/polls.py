"""Unchanged polls answered before Flask: a watcher's 304 costs one SQL read.

A read-only phone polls its page every few seconds and, between two deals, almost every
poll is a 304. Through Flask each one paid a request context, the session cookie's
signature, the locale, the token's row and the ETag's HMAC (2.4 M instructions, a bare
route 1.8 M): three watchers per table made 304s three quarters of a hosted club's CPU.

This WSGI middleware notes each 304 the app itself gave a read-only page, keyed by every
request header the app's answer depended on (path and query, the ETag asked for, the
cookies, the languages): with the same headers the app computes the same page key, so
while the game's (generation, version) is the one the app answered on, the same 304 is
the app's answer. A new deal, an edit, a restore or new links bump the version, a deleted
game is no longer found, a new cookie (a flash, another language) or other headers miss
the note; each goes to the app.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flask import request

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

    from scorer.web.db import ThreadStores

# Where the read-only page tells this middleware which version its 304 was about.
ENVIRON_KEY = "scorer.unchanged"
# Notes kept: a few per watcher's phone (one per page and language it polls).
NOTES_KEPT = 4096
# The request headers a read-only page's ETag and 304 depend on (page_cache.page_key).
HEADERS = ("PATH_INFO", "QUERY_STRING", "HTTP_IF_NONE_MATCH", "HTTP_COOKIE",
           "HTTP_ACCEPT_LANGUAGE", "HTTP_ACCEPT_ENCODING", "HTTP_HOST", "SCRIPT_NAME")


@dataclass(frozen=True, slots=True)
class Answered:
    """A 304 the app gave: the game and (generation, version) it was about, its headers."""

    game: int
    generation: str
    version: int
    headers: tuple[tuple[str, str], ...]


def note_unchanged(game: int, generation: str, version: int) -> None:
    """Tell the middleware that this request's answer is about this version of the game
    (called by the read-only page when it answers 304)."""
    request.environ[ENVIRON_KEY] = (game, generation, version)


class Unchanged:
    """The middleware: a noted 304 again while its game's version has not moved."""

    def __init__(self, wsgi: WSGIApplication, stores: ThreadStores):
        self.wsgi = wsgi
        self.stores = stores
        self.notes: OrderedDict[tuple[str, ...], Answered] = OrderedDict()
        self.lock = threading.Lock()

    def __call__(self, environ: WSGIEnvironment,
                 start_response: StartResponse) -> Iterable[bytes]:
        """Answer a noted poll at once, else ask the app and note its 304."""
        if environ.get("REQUEST_METHOD") != "GET" or "HTTP_IF_NONE_MATCH" not in environ \
                or not str(environ.get("PATH_INFO", "")).startswith("/v/"):
            return self.wsgi(environ, start_response)
        key = tuple(str(environ.get(name, "")) for name in HEADERS)
        found = self.notes.get(key)
        if found is not None and self.current(found.game) == (found.generation, found.version):
            start_response("304 NOT MODIFIED", list(found.headers))
            return []
        return self.wsgi(environ, self.noting(environ, key, start_response))

    def current(self, game: int) -> tuple[str, int] | None:
        """The game's (generation, version) now, or None if it was deleted or cannot be
        read (the app answers then)."""
        try:
            return self.stores.get().shown_version_key(game)
        except Exception:  # the app answers (and reports) whatever is wrong
            return None

    def noting(self, environ: WSGIEnvironment, key: tuple[str, ...],
               start_response: StartResponse) -> StartResponse:
        """start_response, noting a 304 the app marked and that sets no cookie."""
        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            mark: tuple[int, str, int] | None = environ.get(ENVIRON_KEY)
            if (mark is not None and status.startswith("304")
                    and not any(name.lower() == "set-cookie" for name, _ in headers)):
                game, generation, version = mark
                self.note(key, Answered(game, generation, version, tuple(headers)))
            return start_response(status, headers, exc_info)
        return start

    def note(self, key: tuple[str, ...], answered: Answered) -> None:
        """Keep a note, dropping the oldest beyond NOTES_KEPT."""
        with self.lock:
            self.notes[key] = answered
            self.notes.move_to_end(key)
            while len(self.notes) > NOTES_KEPT:
                self.notes.popitem(last=False)
