"""The game pages (both links) with their opaque ETags, kept gzipped on their version."""

from __future__ import annotations

import gzip
import hashlib
import hmac
import secrets
from collections.abc import Callable
from typing import Any

from flask import Response, current_app, make_response, request, session
from flask_wtf.csrf import generate_csrf

from scorer.store import GameRow
from scorer.web.compression import packed, wants_gzip
from scorer.web.db import get_store
from scorer.web.forms import new_sid
from scorer.web.game.versions import Version, keep_page, load
from scorer.web.i18n import lang
from scorer.web.polls import note_unchanged


def page_key(row: GameRow, editable: bool, generation: str,
             version: int) -> tuple[Any, ...] | None:
    """All a game page depends on, or None if it shows one-off session state (a flash,
    the "which totals changed" note), which is never kept.

    The database generation, game id and version (so a change or a restore never shows
    an old page), the language, the link kind, the URL (?rows=all, and the language
    switch comes back to it), and last, for the edit link, the session's CSRF secret (its
    forms carry a token made from it): the ETag is the browser's own, while the page is
    rendered once for every browser and filled in for each (kept_page).
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


Render = Callable[[Version, str | None], str]  # a page of a version, with its ETag


def cached_page(row: GameRow, editable: bool, render: Render) -> Response:
    """The game page with a weak opaque ETag: 304 if unchanged, else kept or rendered.

    ``render`` writes the edit page's write forms with blanks (CSRF_BLANK, SID_BLANK), so
    one render per version serves every browser; each gets it filled in with its own.
    """
    generation, version = get_store().version_key(row.id)
    key = page_key(row, editable, generation, version)
    if key is None:
        response = make_response(personal(render(load(row, (generation, version)), None)))
        response.headers["Cache-Control"] = "no-cache, private"
        return response
    tag = opaque_etag(key)
    if request.if_none_match.contains_weak(tag):
        response = make_response("", 304)
        if not editable:  # the same poll again is answered before Flask (polls.Unchanged)
            note_unchanged(row.id, generation, version)
    else:
        loaded = load(row, (generation, version))
        if (loaded.generation, loaded.version) != (generation, version):  # moved meanwhile
            key = (loaded.generation, row.id, loaded.version, *key[3:])
            tag = opaque_etag(key)
        response = page_response(kept_page(loaded, key, lambda: render(loaded, f'W/"{tag}"')))
    response.set_etag(tag, weak=True)
    response.headers["Cache-Control"] = "no-cache, private"
    response.vary.add("Accept-Encoding")
    return response


def kept_page(loaded: Version, key: tuple[Any, ...], render: Callable[[], str]) -> bytes:
    """The page for ``key`` gzipped: kept, else rendered once for every browser (one render
    per version and page however many phones ask at once), filled in for this one."""
    shared = key[:-1]  # the key without the browser's CSRF secret
    found = loaded.pages.get(shared)
    if found is None:
        with loaded.rendering:  # the others asking meanwhile wait for this render
            found = loaded.pages.get(shared)
            if found is None:
                html = render()
                found = keep_page(loaded, shared, html if CSRF_BLANK in html or SID_BLANK
                                  in html else packed(html.encode()))
    if isinstance(found, bytes):
        return found
    mine = loaded.pages.get(key)
    if isinstance(mine, bytes):
        return mine
    mine = packed(personal(found).encode())
    keep_page(loaded, key, mine)
    return mine


# Where the edit page's write forms (restore a deleted deal) hold what is the browser's
# own: random, so that no text a page shows can contain them.
CSRF_BLANK = "csrf-" + secrets.token_hex(16)
SID_BLANK = "sid-" + secrets.token_hex(16)


def personal(html: str) -> str:
    """A page rendered with blanks, for this browser: its CSRF token, and a fresh one-time
    id for each form."""
    first, *rest = html.split(SID_BLANK)
    html = first + "".join(new_sid() + part for part in rest)
    # Only a page with a form asks for the token (which starts a session if none).
    return html.replace(CSRF_BLANK, generate_csrf()) if CSRF_BLANK in html else html


def page_response(body: bytes) -> Response:
    """A 200 with a kept page: as kept if the client accepts gzip, else unpacked."""
    if not wants_gzip():
        return make_response(gzip.decompress(body))
    response = make_response(body)
    response.headers["Content-Encoding"] = "gzip"
    return response
