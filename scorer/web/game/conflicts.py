"""A write the page's outbox sends late, typed on an older version of the game: it is not
stored; its holder is shown what was stored meanwhile beside it, and chooses (409).

Only the choice stores it: «record mine» sends the same write again on the version named
here, as any write; «drop mine» forgets it. UX.md, «When the network drops».
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from flask import Response, jsonify, request
from flask_babel import gettext as _

from scorer.marks import signed
from scorer.store import Change, JsonDict
from scorer.web.db import get_store
from scorer.web.game.deal_input import SUIT_SIGNS
from scorer.web.game.versions import Loaded

# What was stored meanwhile is listed up to this many changes (then «…»).
MEANWHILE_SHOWN = 12
Kind = Literal["new", "edit", "delete", "restore"]


@dataclass(frozen=True, slots=True)
class Conflict:
    """What the phone shows: what was stored meanwhile, what it holds, and the version and
    revision count a chosen re-send is made on."""

    kind: Kind
    title: str
    meanwhile: list[str]
    more: bool  # more was stored than is listed
    mine: str | None  # None: the page describes its own write
    number: int | None  # the deal number the write takes if recorded now
    can_keep: bool  # False: what it changes is gone (a deal deleted meanwhile)
    keep: str
    drop: str
    version: int
    seen: int
    ahead: dict[str, Any] | None  # the seatings from the game as it is now (game.ahead)


def is_late() -> bool:
    """Whether the page's outbox sent this write (it wants a conflict as JSON)."""
    return request.headers.get("X-Outbox") == "1"


def seen_of(values: Mapping[str, Any]) -> int | None:
    """The count of deal revisions the posted form was made with (None if missing)."""
    text = str(values.get("seen", "")).strip()
    return int(text) if re.fullmatch(r"[0-9]{1,9}", text) else None


def described(record: JsonDict | None, players: Sequence[str]) -> str:
    """A record in a line a player recognises: «Вика 120 · Аня 10 ♥, Борис 0, Вика 110»."""
    if record is None:
        return "—"

    def name(seat: Any) -> str:
        return str(players[seat]) if isinstance(seat, int) and 0 <= seat < len(players) else "?"

    kind = record.get("type")
    if kind == "redeal":
        return str(_("redeal"))
    if kind == "agreements":
        return str(_("agreements changed"))
    if kind == "adjustment":
        return f"{name(record.get('player'))} {signed(int(record.get('amount', 0)))}"
    head = f"{name(record.get('declarer'))} {record.get('contract', '')}"
    if kind == "raspis":
        return f"{head} · {_('concession (raspis)')}"
    marriages = record.get("marriages") or {}
    seats = []
    for seat, points in enumerate(record.get("points") or []):
        if points is None:
            continue
        signs = "".join(SUIT_SIGNS.get(k, "") for k in marriages.get(str(seat), []))
        seats.append(f"{name(seat)} {points}" + (f" {signs}" if signs else ""))
    return head + (" · " + ", ".join(seats) if seats else "")


def change_line(change: Change, loaded: Loaded) -> str:
    """One change stored meanwhile, named by the deal's number now («кон 8: …»)."""
    players = loaded.row.head.get("players", [])
    number = next((i + 1 for i, s in enumerate(loaded.slots.live) if s.id == change.slot), None)
    what = described(change.record, players)
    if change.note == "delete" or number is None:
        # A deal deleted (now or later) has no number: say what it held.
        return str(_("a deal deleted: %(what)s", what=what))
    if change.note == "add":
        return str(_("deal %(n)d: %(what)s", n=number, what=what))
    return str(_("deal %(n)d corrected: %(what)s", n=number, what=what))


def answer(loaded: Loaded, slot_id: int | None, kind: Kind, mine: JsonDict | None,
           ahead: dict[str, Any] | None) -> tuple[Response, int]:
    """409 with what the phone needs to show the conflict and store the write by choice."""
    players = loaded.row.head.get("players", [])
    seen = seen_of(request.form)
    changes = ([] if seen is None
               else get_store().changes_after(loaded.row.id, seen, MEANWHILE_SHOWN + 1))
    live = next((i + 1 for i, s in enumerate(loaded.slots.live) if s.id == slot_id), None)
    if kind == "new":
        number: int | None = len(loaded.slots.live) + 1
        mine_text = str(_("Your deal: %(what)s", what=described(mine, players))) if mine else None
        keep = str(_("Record mine as deal %(n)d", n=number))
        drop = str(_("Drop mine: it is the same deal"))
    else:
        number = live
        shown = "?" if live is None else str(live)
        mine_text = {
            "edit": str(_("Your correction of deal %(n)s: %(what)s", n=shown,
                          what=described(mine, players))) if mine else None,
            "delete": str(_("Yours: delete deal %(n)s", n=shown)),
            "restore": str(_("Yours: restore a deleted deal")),
        }[kind]
        keep = str(_("Save mine on top of it"))
        drop = str(_("Drop mine"))
    conflict = Conflict(
        kind=kind,
        # Nothing to list: a page made before forms said ``seen``, or a change of the
        # agreements from the start (no deal revision).
        title=str(_("While there was no connection, another phone saved:") if changes
                  else _("While there was no connection, the game changed on another phone.")),
        meanwhile=[change_line(c, loaded) for c in changes[:MEANWHILE_SHOWN]],
        more=len(changes) > MEANWHILE_SHOWN,
        mine=mine_text, number=number,
        can_keep=kind in ("new", "restore") or live is not None,
        keep=keep, drop=drop, version=loaded.version, seen=loaded.slots.seen, ahead=ahead)
    return jsonify(conflict=asdict(conflict)), 409
