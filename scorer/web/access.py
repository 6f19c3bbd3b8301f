"""Who sees what: the host key, and the game links a browser has opened.

The session cookie is signed with the instance's secret key, so a browser cannot
forge the tokens or the host key it claims to hold.
"""

from __future__ import annotations

import secrets

from flask import abort, current_app, session

from scorer.store import GameRow
from scorer.web.db import get_store

MAX_REMEMBERED = 80  # keeps the cookie well under the 4 KB browsers accept


def is_host() -> bool:
    """True if this browser holds the host key."""
    held = session.get("host")
    key = current_app.config.get("HOST_KEY")
    return bool(held and key) and secrets.compare_digest(str(held), str(key))


def claim_host(key: str) -> bool:
    """Remember the host key in this browser if it is the right one."""
    expected = str(current_app.config.get("HOST_KEY") or "")
    if not expected or not secrets.compare_digest(key, expected):
        return False
    session["host"] = key
    session.permanent = True
    return True


def held_tokens() -> list[str]:
    """The game tokens this browser has opened."""
    tokens = session.get("tokens", [])
    return [t for t in tokens if isinstance(t, str)]


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
