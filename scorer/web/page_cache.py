"""The game pages (both links) with their opaque ETags, kept gzipped on their version."""

from __future__ import annotations

import gzip
import hashlib
import hmac
from collections.abc import Callable
from typing import Any

from flask import Response, current_app, make_response, request, session
from flask_wtf.csrf import generate_csrf

from scorer.store import GameRow
from scorer.web.db import get_store
from scorer.web.i18n import lang
from scorer.web.versions import Version, keep_page, load

# Gzip level 3, for every text answer: the first GET after each save compresses its page
# once, and the deal form is compressed on every GET. A 35 kB page of 1000 deals takes
# 0.17 ms to 8.6 kB (level 6: 0.52 ms to 7.9 kB).
GZIP_LEVEL = 3


def page_key(row: GameRow, editable: bool, generation: str,
             version: int) -> tuple[Any, ...] | None:
    """All a game page depends on, or None if it shows one-off session state (a flash,
    the "which totals changed" note), which is never kept.

    The database generation, game id and version (so a change or a restore never shows
    an old page), the language, the link kind, the URL (?rows=all, and the language
    switch comes back to it), and for the edit link the session's CSRF secret (its forms
    carry a token made from it).
    """
    if session.get("_flashes") or (editable and session.get("changed")):
        return None
    secret = ""
    if editable:
        if not isinstance(session.get("csrf_token"), str):  # none yet: generate_csrf puts
            generate_csrf()  # one in the session (and signs a token a kept page needs not)
        secret = str(session.get("csrf_token", ""))
    return (generation, row.id, version, lang(), editable, request.full_path, secret)


def opaque_etag(key: tuple[Any, ...]) -> str:
    """An ETag that says nothing about the game (no id, no version): a keyed hash."""
    secret = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(secret, repr(key).encode(), hashlib.sha256).hexdigest()[:32]


def wants_gzip() -> bool:
    """Whether the client accepts gzip."""
    return request.accept_encodings["gzip"] > 0


def cached_page(row: GameRow, editable: bool,
                render: Callable[[Version, str | None], str]) -> Response:
    """The game page with a weak opaque ETag: 304 if unchanged, else kept or rendered."""
    generation, version = get_store().version_key(row.id)
    key = page_key(row, editable, generation, version)
    if key is None:
        response = make_response(render(load(row, (generation, version)), None))
        response.headers["Cache-Control"] = "no-cache, private"
        return response
    tag = opaque_etag(key)
    if request.if_none_match.contains_weak(tag):
        response = make_response("", 304)
    else:
        loaded = load(row, (generation, version))
        if (loaded.generation, loaded.version) != (generation, version):  # moved meanwhile
            key = (loaded.generation, row.id, loaded.version, *key[3:])
            tag = opaque_etag(key)
        body = loaded.pages.get(key)
        if body is None:
            html = render(loaded, f'W/"{tag}"').encode()
            body = keep_page(loaded, key, gzip.compress(html, GZIP_LEVEL, mtime=0))
        response = page_response(body)
    response.set_etag(tag, weak=True)
    response.headers["Cache-Control"] = "no-cache, private"
    response.vary.add("Accept-Encoding")
    return response


def page_response(body: bytes) -> Response:
    """A 200 with a kept page: as kept if the client accepts gzip, else unpacked."""
    if not wants_gzip():
        return make_response(gzip.decompress(body))
    response = make_response(body)
    response.headers["Content-Encoding"] = "gzip"
    return response
