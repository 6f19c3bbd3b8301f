"""The game page, shared by the scorekeeper's edit link and the read-only link."""

from __future__ import annotations

from flask import render_template, session
from markupsafe import Markup

from scorer import chart, marks
from scorer.store import GameRow
from scorer.web import protocol_view
from scorer.web.db import get_store
from scorer.web.i18n import lang
from scorer.web.logs import Loaded, load


def colours(n: int) -> list[str]:
    """One colour per seat, the same as the chart's and the PDF's."""
    return [chart.colour(s) for s in range(n)]


def chart_svg(loaded: Loaded) -> Markup | None:
    """The running-totals chart as inline SVG; None before the first deal."""
    if loaded.protocol is None or not loaded.protocol.rows:
        return None
    return Markup(chart.totals_svg(loaded.game, loaded.protocol, lang=lang(), layout=chart.PHONE))


def context(row: GameRow, editable: bool, loaded: Loaded | None = None, *,
            banner: bool = True) -> dict:
    """Everything the game page templates need (banner: show the "which totals changed" note)."""
    loaded = loaded or load(row)
    protocol = loaded.protocol
    players = row.head.get("players", [])
    changed = session.pop("changed", None) if editable and banner else None
    return {
        "row": row,
        "loaded": loaded,
        "protocol": protocol,
        "players": players,
        "colours": colours(len(players)),
        "editable": editable,
        "rows": protocol_view.shown_rows(protocol, [s.id for s in loaded.live])
        if protocol else [],
        "barrel": protocol_view.barrel_marks(protocol) if protocol else {},
        "legend": protocol_view.legend(loaded.game.agreements, len(players))
        if loaded.game else [],
        "marks": marks.letters(lang()),
        "chart": chart_svg(loaded),
        "changed": changed if changed and changed.get("game") == row.id else None,
        "deleted": deleted_records(loaded) if editable else [],
    }


def deleted_records(loaded: Loaded) -> list:
    """(slot, the record a restore brings back) per deleted slot, in one query."""
    found = get_store().last_records([slot.id for slot in loaded.deleted])
    return [(slot, found.get(slot.id)) for slot in loaded.deleted]


def render(row: GameRow, editable: bool, etag: str | None = None,
           loaded: Loaded | None = None) -> str:
    """Render the whole game page (etag: what the read-only page's poller sends back)."""
    return render_template("game/page.html", etag=etag, **context(row, editable, loaded))
