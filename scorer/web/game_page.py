"""The game page, shared by the scorekeeper's edit link and the read-only link."""

from __future__ import annotations

import importlib

from flask import render_template, session
from markupsafe import Markup

from scorer.store import GameRow
from scorer.web import protocol_view
from scorer.web.db import get_store
from scorer.web.i18n import lang
from scorer.web.logs import Loaded, load

FALLBACK_COLOURS = ("#0b62a4", "#c2410c", "#047857", "#7e22ce")


def optional_module(name: str):
    """Import an optional part (the chart, the PDF) if it is there."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def colours(n: int) -> list[str]:
    """One colour per seat, the same as the chart's and the PDF's."""
    chart = optional_module("scorer.chart")
    if chart is not None and hasattr(chart, "colour"):
        return [chart.colour(s) for s in range(n)]
    return [FALLBACK_COLOURS[s % 4] for s in range(n)]


def chart_svg(loaded: Loaded) -> Markup | None:
    """The running-totals chart as inline SVG, or None if it is not available."""
    chart = optional_module("scorer.chart")
    if chart is None or loaded.protocol is None or not loaded.protocol.rows:
        return None
    try:
        return Markup(chart.totals_svg(loaded.game, loaded.protocol, lang=lang()))
    except Exception:  # noqa: BLE001 - a chart failure must never take the page down
        return None


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
        "legend": protocol_view.legend(),
        "marks": protocol_view.marks(),
        "chart": chart_svg(loaded),
        "changed": changed if changed and changed.get("game") == row.id else None,
        "deleted": [(slot, get_store().last_record(slot.id)) for slot in loaded.deleted]
        if editable else [],
    }


def render(row: GameRow, editable: bool, etag: str | None = None) -> str:
    """Render the whole game page (etag: what the read-only page's poller sends back)."""
    return render_template("game/page.html", etag=etag, **context(row, editable))
