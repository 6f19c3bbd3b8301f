"""Helpers of the club's web tests: a host client and a club of finished games stored in
the app's own SQLite file."""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "club"))

from club_games import CLUB, add, finished_log, seated  # noqa: E402

from scorer.web.db import get_store  # noqa: E402

HOST_KEY = "test-host-key-0123456789abcdef"


def as_host(client) -> None:
    """Give this browser the host key."""
    # Followed: the page that shows the «host key» flash is behind us.
    assert client.get(f"/?key={HOST_KEY}", follow_redirects=True).status_code == 200


def csrf(html: str) -> str:
    """The CSRF token of a rendered form."""
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html)
    assert found, "no CSRF token on the page"
    return found.group(1)


def store_club(app, guest_game: bool = False) -> dict[str, int]:
    """Six finished games of four club members (and optionally a guest's game) stored in
    the app's database; returns {name: game id of the first game}."""
    games = [((3, 7), ["Аня", "Борис", "Вика"], "2026-09-05"),
             ((4, 1), ["Аня", "Борис", "Вика", "Гоша"], "2026-09-12"),
             ((2, 8), ["Аня", "Борис"], "2026-10-03"),
             ((2, 9), ["Вика", "Аня"], "2026-10-10"),
             ((3, 7), ["Борис", "Вика", "Аня"], "2026-11-07"),
             ((3, 7), ["Гоша", "Аня", "Борис"], "2026-11-14")]
    ids = {}
    with app.app_context():
        st = get_store()
        for (n, seed), names, day in games:
            ids.setdefault(names[0], add(st, seated(finished_log(n, seed), names, day)))
        if guest_game:
            ids["guest"] = add(st, seated(finished_log(3, 7), ["Дина", "Аня", "Вика"],
                                          "2026-11-20"), guest=True)
    return ids


__all__ = ["CLUB", "HOST_KEY", "as_host", "csrf", "store_club"]
