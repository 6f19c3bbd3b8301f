"""The game page's view model (GamePage), shared by the edit link and the read-only link."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, fields
from typing import Any

from flask import abort, current_app, render_template, request, session
from markupsafe import Markup

from scorer import chart, marks
from scorer.store import GameRow
from scorer.web import protocol_rows
from scorer.web.db import get_store
from scorer.web.i18n import lang
from scorer.web.lru import Lru
from scorer.web.replay_cache import Loaded, load

# The protocol shows this many rows, newest first; the rest come with ?rows=all.
SHOWN_ROWS = 20


def colours(n: int) -> list[str]:
    """One colour per seat, the same as the chart's and the PDF's."""
    return [chart.colour(s) for s in range(n)]


class ChartCache(Lru):
    """Charts by (generation, game, version, language): the edit link and the read-only
    link of one version (and every phone watching) share one drawing."""


def chart_svg(loaded: Loaded) -> Markup | None:
    """The running-totals chart as inline SVG; None before the first deal."""
    if loaded.protocol is None or not loaded.protocol.rows:
        return None
    charts = current_app.extensions.setdefault("scorer_charts", ChartCache(32))
    key = (loaded.generation, loaded.row.id, loaded.version, lang())
    found = charts.get(key)
    if found is None:
        found = charts.put(key, Markup(chart.totals_svg(loaded.game, loaded.protocol,
                                                        lang=lang(), layout=chart.PHONE)))
    return found


@dataclass
class GamePage:
    """Everything the game page templates need."""

    row: GameRow
    loaded: Loaded
    protocol: Any
    players: list[str]
    colours: list[str]
    editable: bool
    rows: list[Any] = field(default_factory=list)  # LiveRows newest first, DeletedRows in place
    count: int = 0  # live rows in the whole protocol
    hidden: int = 0  # older rows left out of this page
    last: Any = None  # the newest live row (the totals' "last deal")
    barrel: dict[int, Any] = field(default_factory=dict)
    legend: list[tuple[str, str]] = field(default_factory=list)
    marks: dict[str, str] = field(default_factory=dict)
    chart: Markup | None = None
    changed: dict | None = None

    def variables(self) -> dict[str, Any]:
        """The fields as template variables."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def wants_all() -> bool:
    """Whether the page was asked for every row (?rows=all)."""
    return request.args.get("rows") == "all"


def context(row: GameRow, editable: bool, loaded: Loaded | None = None, *,
            banner: bool = True, every_row: bool | None = None) -> GamePage:
    """The game page's view model (banner: show the "which totals changed" note)."""
    loaded = loaded or load(row)
    protocol = loaded.protocol
    players = row.head.get("players", [])
    changed = session.pop("changed", None) if editable and banner else None
    page = GamePage(row=row, loaded=loaded, protocol=protocol, players=players,
                    colours=colours(len(players)), editable=editable,
                    marks=marks.letters(lang()), chart=chart_svg(loaded),
                    changed=changed if changed and changed.get("game") == row.id else None)
    if protocol is None:
        return page
    if protocol.winner is None:  # after the win nobody is "on the barrel" any more
        page.barrel = protocol_rows.barrel_marks(protocol)
    page.legend = protocol_rows.legend(loaded.game.agreements, len(players))
    limit = None if (wants_all() if every_row is None else every_row) else SHOWN_ROWS
    page.rows, page.hidden = protocol_rows.recent_rows(
        protocol, loaded.slots, limit, deleted_lookup(loaded) if editable else None)
    page.count = len(protocol.rows)
    if protocol.rows:  # the totals' "Last deal" says why it moved them
        page.last = protocol_rows.shown_row(protocol, len(protocol.rows) - 1)
    return page


def deleted_lookup(loaded: Loaded):
    """The records a restore brings back, by deleted slot id (one query for those shown)."""
    return lambda ids: get_store().last_records(loaded.row.id, ids)


class ShellCache(Lru):
    """The game page around its live part (head, header, links), by all it depends on:
    the language, the link and its token, the game's title and names, and the URL (the
    language switch comes back to it). A new version of the game renders only its live
    part (game/_live_part.html) into it."""


# Where the live part goes in a kept shell: a comment no page text can contain (every
# name and title is escaped, so none can carry a "<"), unknown outside this process.
SHELL_MARK = Markup(f"<!--live-{secrets.token_hex(8)}-->")


def shell(row: GameRow, editable: bool) -> tuple[str, str]:
    """The page before and after its live part, rendered once per shell key."""
    head = row.head
    key = (lang(), editable, row.id, row.edit_token if editable else row.view_token,
           head.get("title"), tuple(head.get("players", [])), request.full_path,
           request.script_root)
    shells = current_app.extensions.setdefault("scorer_shells", ShellCache())
    found = shells.get(key)
    if found is None:
        html = render_template("game/page.html", row=row, editable=editable,
                               players=head.get("players", []), shell_mark=SHELL_MARK)
        before, after = html.split(SHELL_MARK)
        found = shells.put(key, (before, after))
    return found


def render(row: GameRow, editable: bool, etag: str | None = None,
           loaded: Loaded | None = None, **extra: Any) -> str:
    """Render the whole game page (etag: what the read-only page's poller sends back):
    the kept shell around a fresh live part, or all of it when it shows a flash."""
    variables = context(row, editable, loaded).variables() | extra
    if session.get("_flashes"):  # base.html shows (and takes) them
        return render_template("game/page.html", etag=etag, **variables)
    before, after = shell(row, editable)
    return before + render_template("game/_live_part.html", etag=etag, **variables) + after


def why_page(row: GameRow, n: int, editable: bool):
    """The small page that says why every number of protocol row n is what it is."""
    loaded = load(row)
    protocol = loaded.protocol
    if protocol is None or not 1 <= n <= len(protocol.rows):
        abort(404)
    players = row.head.get("players", [])
    return render_template("game/why.html", row=row, players=players, editable=editable,
                           colours=colours(len(players)),
                           shown=protocol_rows.shown_row(protocol, n - 1))
