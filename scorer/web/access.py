"""Who sees what: the host key, and the game links a browser has opened.

The session cookie is signed with the instance's secret key, so a browser cannot
forge the tokens or the host key it claims to hold; it keeps a keyed hash of the host
key, never the key.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import deque

from flask import abort, current_app, request, session
from flask_babel import gettext as _
from flask_babel import ngettext

from scorer.store import GameRow, GuestCapError, JsonDict, Totals
from scorer.web.db import get_store

MAX_REMEMBERED = 80  # keeps the cookie well under the 4 KB browsers accept


def host_mark(key: str) -> str:
    """What the cookie keeps for the host key: a keyed hash of it, never the key itself.

    The cookie is signed, not encrypted: anyone who sees it reads its JSON. A mark made
    with the secret key tells a leaked cookie's reader nothing about the host key, and a
    new host key makes every old mark worthless.
    """
    secret = str(current_app.config.get("SECRET_KEY") or "").encode()
    return hmac.new(secret, b"host-key:" + key.encode(), hashlib.sha256).hexdigest()


def is_host() -> bool:
    """True if this browser holds the mark of the current host key."""
    held = session.get("host")
    key = str(current_app.config.get("HOST_KEY") or "")
    if not (held and key and isinstance(held, str)):
        return False
    if secrets.compare_digest(held, host_mark(key)):
        return True
    if secrets.compare_digest(held, key):  # a cookie from before marks: keep the mark only
        session["host"] = host_mark(key)
        return True
    return False


def claim_host(key: str) -> bool:
    """Remember (the mark of) the host key in this browser if it is the right one."""
    expected = str(current_app.config.get("HOST_KEY") or "")
    if not expected or not secrets.compare_digest(key, expected):
        return False
    session["host"] = host_mark(expected)
    session.permanent = True
    return True


def held_tokens() -> list[str]:
    """The game tokens this browser has opened."""
    tokens = session.get("tokens", [])
    return [t for t in tokens if isinstance(t, str)]


def forget(token: str) -> None:
    """Drop a game token from this browser's list (its links were replaced)."""
    held = held_tokens()
    if token in held:
        session["tokens"] = [t for t in held if t != token]


def remember(token: str) -> None:
    """Add a game token to this browser's list (newest last)."""
    held = held_tokens()
    if held and held[-1] == token:
        return  # nothing new: leave the cookie alone (no Set-Cookie on every poll)
    tokens = [t for t in held if t != token]
    tokens.append(token)
    session["tokens"] = tokens[-MAX_REMEMBERED:]
    session.permanent = True


def visible_games() -> list[GameRow]:
    """The games this browser may list: all for the host, else those it holds."""
    return get_store().games(None if is_host() else held_tokens())


def game_for(token: str, *, edit: bool) -> GameRow:
    """The game behind a link, or 404; an edit page needs the edit token.

    Every miss is the same 404 (unknown token, or a view token on an edit page), so a
    stranger learns nothing about which games exist.
    """
    st = get_store()
    if edit:
        row = st.game_by_edit_token(token)
    else:
        found = st.game_by_token(token)
        row = found[0] if found else None
    if row is None:
        abort(404)
    return row


# -- floods: new games and imports from browsers without the host key ---------------

# Per network address, over a sliding window (the app's config may change these): a
# stranger on the Wi-Fi cannot fill the database or slow the host's list down.
CREATE_WINDOW = 600  # seconds
CREATE_PER_WINDOW = 20  # new games and imports together, per address
# Games one browser may start or import in all. A new cookie starts this count again, so
# it only slows a careless phone down: the per-address window and the guests' cap below
# are the real limits.
MAX_GAMES_PER_BROWSER = 100
# Games all guests (browsers without the host key) may hold together, however many
# addresses they come from; the host's list says when it is reached.
MAX_GUEST_GAMES = 300
_recent_lock = threading.Lock()


def _recent() -> dict[str, deque[float]]:
    """This app's creation times per address (one server process, forgotten on restart)."""
    recent: dict[str, deque[float]] = current_app.extensions.setdefault("scorer_creations", {})
    return recent


def limits_on() -> bool:
    """Whether creation is limited: always when serving; tests turn it on when they test it."""
    return bool(current_app.config.get("CREATE_LIMITS", not current_app.testing))


def creation_refusal() -> tuple[str, int] | None:
    """Why this browser may not start or import a game now, and when to retry; None if it may."""
    if is_host() or not limits_on():
        return None
    cap = current_app.config.get("MAX_GAMES_PER_BROWSER", MAX_GAMES_PER_BROWSER)
    if int(session.get("made", 0)) >= cap:
        return ngettext("This browser has started %(num)d game; ask the host for more.",
                        "This browser has started %(num)d games; ask the host for more.",
                        cap), 0
    cap = guest_game_cap()
    if get_store().guest_games() >= cap:  # every guest together: rotating addresses too
        return guests_full(cap)
    window = current_app.config.get("CREATE_WINDOW", CREATE_WINDOW)
    limit = current_app.config.get("CREATE_PER_WINDOW", CREATE_PER_WINDOW)
    now = time.monotonic()
    with _recent_lock:
        times = _recent().get(request.remote_addr or "", deque())
        while times and times[0] <= now - window:
            times.popleft()
        if len(times) >= limit:
            wait = int(times[0] + window - now) + 1
            return _("Too many new games from this device; try again in %(s)d s.", s=wait), wait
    return None


def guest_game_cap() -> int:
    """How many games (not deleted) browsers without the host key may hold in all."""
    return int(current_app.config.get("MAX_GUEST_GAMES", MAX_GUEST_GAMES))


def guests_full(cap: int) -> tuple[str, int]:
    """The refusal when guests hold ``cap`` games already (no time to retry after)."""
    return ngettext("This server already holds %(num)d game started by guests, as many "
                    "as the host allows; ask the host to delete some.",
                    "This server already holds %(num)d games started by guests, as "
                    "many as the host allows; ask the host to delete some.", cap), 0


def create_game(head: JsonDict, records: list[JsonDict] | None = None,
                totals: Totals | None = None) -> GameRow:
    """Store a game started or imported by this browser: a guest's counts against the
    guests' cap inside the write (GuestCapError), since a check before it lets guests
    who create at the same moment all pass (17 at once left 307 under a cap of 300)."""
    guest = not is_host()
    cap = guest_game_cap() if guest and limits_on() else None
    return get_store().create_game(head, records, guest=guest, totals=totals, guest_cap=cap)


def start_game(head: JsonDict) -> GameRow | tuple[str, int]:
    """A new empty game for this browser, counted and remembered; or, if it may not start
    one now, the refusal and the seconds to retry after."""
    flood = creation_refusal()
    if flood:
        return flood
    try:
        row = create_game(head)
    except GuestCapError as full:
        return guests_full(full.cap)
    count_creation()
    remember(row.edit_token)
    return row


def count_creation() -> None:
    """Record that this browser started or imported a game (the host is not counted)."""
    if is_host() or not limits_on():
        return
    session["made"] = int(session.get("made", 0)) + 1
    now = time.monotonic()
    with _recent_lock:
        recent = _recent()
        if len(recent) > 10_000:  # forget idle addresses rather than grow without end
            recent.clear()
        recent.setdefault(request.remote_addr or "", deque()).append(now)
