"""The club at the start of a game: known players as chips on the new-game form, typed
names linked to the players they match, and «Ещё партию с теми же» at a game's end."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import Blueprint, redirect, url_for
from flask.typing import ResponseReturnValue

from scorer.club import Club, Player
from scorer.engine import name_key
from scorer.web import access
from scorer.web.club.pages import club
from scorer.web.errors import too_many
from scorer.web.forms import NewGameForm

bp = Blueprint("club_new", __name__)

MAX_CHIPS = 16  # the most recent players; older ones are typed (the list suggests them)


def chips(form: NewGameForm) -> list[dict[str, Any]]:
    """The host's known players, recent first, each marked when a name field holds it
    (guests see none: the roster is the host's)."""
    if not access.is_host():
        return []
    typed = {name_key(f.data) for f in form.name_fields() if f.data and f.data.strip()}
    players: list[Player] = club().roster()[:MAX_CHIPS]
    return [{"name": p.name, "on": name_key(p.name) in typed} for p in players]


def apply_chip(form: NewGameForm, name: str) -> None:
    """A chip tapped without JavaScript: its name goes into the first empty field, or out
    of the field that holds it (a second tap takes it back)."""
    key = name_key(name)
    fields = form.name_fields()
    for f in fields:
        if f.data and name_key(f.data) == key:
            f.data = ""
            return
    for f in fields:
        if not (f.data and f.data.strip()):
            f.data = name
            return


def link_new(game_id: int, names: list[str]) -> None:
    """Link a host's new game: each seat to the player its name matches, else a new one."""
    if access.is_host():
        club().link_new_game(game_id, names)


@bp.post("/g/<token>/again")
def again(token: str) -> ResponseReturnValue:
    """A new game with the same players and agreements, the first dealer moved on one seat;
    the host's new game sits the same players (their links), a guest's stays apart."""
    row = access.game_for(token, edit=True)
    head = row.head
    players = list(head.get("players", []))
    fresh: dict[str, Any] = {
        "format": head.get("format"), "players": players,
        "agreements": head.get("agreements"),
        "first_dealer": (int(head.get("first_dealer", 0)) + 1) % max(len(players), 1),
        "date": date.today().isoformat(),
    }
    if head.get("title"):
        fresh["title"] = head["title"]
    made = access.start_game(fresh)
    if isinstance(made, tuple):
        return too_many(*made)
    if access.is_host():
        same_seats(club(), row.id, made.id, players)
    return redirect(url_for("game.page", link="g", token=made.edit_token))


def same_seats(c: Club, old: int, new: int, names: list[str]) -> None:
    """Link the new game's seats to the players of the old one's (a re-linked seat stays
    re-linked), and any seat the old game had no link for by name."""
    c.copy_links(old, new, names)
    c.link_new_game(new, names)
