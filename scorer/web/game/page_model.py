"""The game page's view model (GamePage), shared by the edit link and the read-only link."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import abort, render_template, request, session, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from scorer import chart, marks
from scorer.engine import Protocol, RuleError
from scorer.marks import Tally
from scorer.store import GameRow, JsonDict, PlaySpan
from scorer.web.db import get_store
from scorer.web.forms import ConfirmForm
from scorer.web.game import deal_input, protocol_rows
from scorer.web.game.page_cache import CSRF_BLANK, SID_BLANK
from scorer.web.game.versions import Broken, Loaded, Version, derived, load
from scorer.web.i18n import lang


def chart_svg(loaded: Loaded) -> Markup | None:
    """The running-totals chart as inline SVG, drawn once per version and language (both
    links and every phone watching share it); None before the first deal."""
    if not loaded.protocol.rows:
        return None
    code = lang()

    def drawn(_before: object) -> Markup:
        """The chart in this language, drawn through the version's (derived) lines."""
        rows, seats = loaded.protocol.rows, len(loaded.game.players)
        lines = derived(loaded, "lines", lambda before: chart.lines_of(
            rows, seats, chart.plot_width(chart.PHONE), before))
        return Markup(chart.totals_svg(loaded.game, loaded.protocol, lang=code,
                                       layout=chart.PHONE, drawn=lines))

    return derived(loaded, ("chart", code), drawn)


def tallies(loaded: Loaded) -> list[Tally]:
    """Each seat's counts over the game (marks.tallies), once per version."""
    rows, seats = loaded.protocol.rows, len(loaded.protocol.players)
    return list(derived(loaded, "tallies",
                        lambda before: marks.counted(rows, seats, before)).tallies)


@dataclass(frozen=True)
class Card:
    """What a player's total card says besides the score: how far to go, and warnings."""

    to_barrel: int | None  # points to the barrel (None: on it, past it, or no barrel)
    to_target: int | None  # points to the target (1000)
    bolts: int | None  # bolts counted towards the penalty, when the next one costs it
    falls: int  # falls off the barrel so far (in the whole game)
    target: int = 1000  # the score that wins


def short_names(players: list[str], longest: int = 7) -> list[str]:
    """Each name as a narrow column head says it: whole up to ``longest`` letters, else
    its shortest beginning (five letters or more) that no other name shares, and a dot."""
    out = []
    for name in players:
        short = name
        if len(name) > longest:
            others = [p for p in players if p != name]
            for k in range(5, len(name)):
                if all(p[:k] != name[:k] for p in others):
                    short = name[:k] + "."
                    break
        out.append(short)
    return out


def cards(protocol: Protocol, ag: Any, counts: list[Tally]) -> list[Card]:
    """Each seat's card additions, read from the protocol, the agreements and the game's
    counts (marks.tallies)."""
    # The barrel is entered at the threshold, so the distance matters only below it.
    threshold = ag["barrel_threshold"] if ag["barrel"] else None
    on = {b.seat for b in protocol.barrel}
    penalty = ag["bolt_penalty"] != "none"
    out = []
    for s, score in enumerate(protocol.score):
        below = threshold is not None and s not in on and score < threshold
        out.append(Card(
            to_barrel=threshold - score if below and threshold is not None else None,
            to_target=ag["target"] - score if score < ag["target"] else None,
            # Two of three: the scorekeeper warns the player before the penalty falls.
            bolts=protocol.bolts[s] if penalty and protocol.bolts[s] == 2 else None,
            falls=counts[s].falls, target=ag["target"]))
    return out


@dataclass(frozen=True)
class NextDeal:
    """The form for the next deal as the game page shows it (under the totals): one tap
    less than a link to the deal page, and it keeps recording while offline."""

    setup: deal_input.Setup
    entry: deal_input.Entry
    number: int  # the deal it records
    ahead: dict[str, Any]  # the seatings the outbox numbers and seats queued deals by


def ahead(loaded: Loaded) -> dict[str, Any]:
    """What the new deal's page needs to number and seat the deals it keeps while there is
    no connection: the live count and the engine's seatings (the page never scores)."""
    return {"count": len(loaded.slots.live), "states": [
        {"dealer": s.next.dealer, "forced": s.next.forced_declarer, "golden": s.next.golden,
         "active": list(s.next.active), "then": dict(s.then)}
        for s in loaded.timeline.seatings()]}


def next_deal(loaded: Loaded) -> NextDeal | None:
    """The next deal's form for the game page (None once the game is won)."""
    nxt = loaded.protocol.next
    if nxt is None or loaded.protocol.winner is not None:
        return None
    setup = deal_input.setup_for(loaded.game, nxt, agreements=loaded.timeline.agreements)
    return NextDeal(setup=setup, entry=deal_input.defaults(setup),
                    number=len(loaded.slots.live) + 1, ahead=ahead(loaded))


@dataclass(frozen=True)
class GamePage:
    """Everything the game page's templates show, as one object (``page`` in them)."""

    row: GameRow
    loaded: Version
    editable: bool
    players: list[str]
    marks: dict[str, str]
    rows: list[Any] = field(default_factory=list)  # ShownRows newest first, DeletedRows in place
    count: int = 0  # live rows in the whole protocol
    hidden: int = 0  # older rows left out of this page
    last: protocol_rows.ShownRow | None = None  # the newest live row (the totals' "last deal")
    barrel: dict[int, Any] = field(default_factory=dict)
    legend: list[tuple[str, str]] = field(default_factory=list)
    chart: Markup | None = None
    changed: dict[str, Any] | None = None  # which totals an edit moved, shown once
    refusal: str | None = None  # why a delete or restore was refused
    etag: str | None = None  # what the read-only page's poller sends back
    cards: list[Card] = field(default_factory=list)  # what each total card adds
    undo: int | None = None  # the newest live deal's slot: «Undo deal N…» deletes it
    edits: list[tuple[int, str]] = field(default_factory=list)  # (number, note) since the
    # newest deal was added: past deals edited, deleted or restored (read-only page)
    edited: frozenset[int] = frozenset()  # slots of those rows, marked in the protocol
    deal: NextDeal | None = None  # the next deal's form (edit link, game not won)
    span: PlaySpan | None = None  # when a finished game started and ended
    # What each player did over the game (bolts, penalties, falls, concessions): the
    # protocol's own counters are those towards the next penalty, reset by it.
    tallies: list[Tally] = field(default_factory=list)
    row_link: protocol_rows.RowLink | None = None  # what the rows are written with

    def written(self, shown: protocol_rows.ShownRow,
                write: Callable[[protocol_rows.ShownRow, protocol_rows.RowLink], Markup]
                ) -> Markup:
        """A live row's cells on this page's link, by the template's macro ``write``."""
        assert self.row_link is not None  # a page with rows has its link
        return protocol_rows.written(shown, self.row_link, write)

    @property
    def preset(self) -> str | None:
        """The game's preset: its own words for the barrel (marks.preset_word)."""
        return None if isinstance(self.loaded, Broken) else self.loaded.game.agreements.preset

    @property
    def short(self) -> list[str]:
        """The players' names as a narrow column head says them."""
        return short_names(self.players)

    @property
    def protocol(self) -> Protocol | None:
        """The version's protocol (None if its log no longer replays)."""
        return None if isinstance(self.loaded, Broken) else self.loaded.protocol

    @property
    def error(self) -> RuleError | None:
        """Why the version's log no longer replays (None if it does)."""
        return self.loaded.error if isinstance(self.loaded, Broken) else None


def wants_all() -> bool:
    """Whether the page was asked for every row (?rows=all)."""
    return request.args.get("rows") == "all"


def context(row: GameRow, editable: bool, loaded: Version | None = None, *,
            banner: bool = True, refusal: str | None = None,
            etag: str | None = None) -> GamePage:
    """The game page's view model (banner: show the "which totals changed" note)."""
    loaded = loaded or load(row)
    players = row.head.get("players", [])
    changed = session.pop("changed", None) if editable and banner else None
    base: dict[str, Any] = {
        "row": row, "loaded": loaded, "editable": editable, "players": players,
        "marks": marks.letters(lang()),
        "changed": changed if changed and changed.get("game") == row.id else None,
        "refusal": refusal, "etag": etag}
    if isinstance(loaded, Broken):
        return GamePage(**base)
    protocol = loaded.protocol
    limit = None if wants_all() else protocol_rows.SHOWN_ROWS
    kept = derived(loaded, ("rows", lang()), protocol_rows.carried)
    rows, hidden = protocol_rows.recent_rows(
        protocol, loaded.slots.every, limit, deleted_lookup(loaded) if editable else None,
        kept)
    edits = [] if editable else edited_since(loaded)
    counts = tallies(loaded)
    return GamePage(
        **base, rows=rows, count=len(protocol.rows), hidden=hidden,
        cards=cards(protocol, loaded.game.agreements, counts) if protocol.winner is None else [],
        undo=loaded.slots.live[-1].id if editable and loaded.slots.live else None,
        edits=[(n, note) for n, note, _slot in edits],
        edited=frozenset(slot for _n, _note, slot in edits),
        # The totals' "Last deal" says why it moved them.
        last=protocol_rows.shown_row(protocol, len(protocol.rows) - 1,
                                     preset=loaded.game.agreements.preset)
        if protocol.rows else None,
        # After the win nobody is "on the barrel" any more.
        barrel=protocol_rows.barrel_marks(protocol) if protocol.winner is None else {},
        legend=protocol_rows.legend(loaded.game.agreements, len(players)),
        tallies=counts, chart=chart_svg(loaded),
        # Only a finished game says how long it took: one query, once per version.
        span=get_store().span(row.id) if protocol.winner is not None else None,
        deal=next_deal(loaded) if editable else None, row_link=row_link(row, editable))


def row_link(row: GameRow, editable: bool) -> protocol_rows.RowLink:
    """What this page's protocol rows are written with besides each row."""
    game_url = url_for("game.page", link="g" if editable else "v",
                       token=row.edit_token if editable else row.view_token)
    return protocol_rows.RowLink(
        editable, row.edit_token, game_url, url_for("game.new_deal", token=row.edit_token),
        _("dealing:"), tuple(row.head.get("players", [])))


def edited_since(loaded: Loaded) -> list[tuple[int, str, int]]:
    """(deal number, note, slot) of the deals edited, deleted or restored since the newest
    deal was added: what a watcher's phone is told, until the next deal."""
    notes = get_store().changes_since_add(loaded.row.id)
    if not notes:
        return []
    out = []
    for slot_id, note in notes:
        # A deleted deal has no number now: it is told by the one it had.
        number = 1 + sum(1 for s in loaded.slots.every
                         if s.id < slot_id and s.record is not None)
        out.append((number, note, slot_id))
    return out


def deleted_lookup(loaded: Loaded) -> Callable[[list[int]], dict[int, JsonDict]]:
    """The records a restore brings back, by deleted slot id (one query for those shown)."""
    return lambda ids: get_store().last_records(loaded.row.id, ids)


def render(row: GameRow, editable: bool, loaded: Version | None = None, *,
           etag: str | None = None, refusal: str | None = None, banner: bool = True,
           blanks: bool = False) -> str:
    """The whole game page (refusal: why a delete or restore was refused; blanks: the write
    forms' CSRF token and one-time ids left blank, for page_cache.personal to fill in)."""
    page = context(row, editable, loaded, etag=etag, refusal=refusal, banner=banner)
    if editable and blanks:
        return render_template("game/page.html", page=page, confirm=BlankForm(),
                               new_sid=lambda: SID_BLANK, signs=deal_input.SUIT_SIGNS)
    return render_template("game/page.html", page=page, signs=deal_input.SUIT_SIGNS,
                           confirm=ConfirmForm() if editable else None)


class BlankForm:
    """A ConfirmForm whose CSRF field holds the blank every browser's token replaces
    (made once per render: every write form of the page writes the same input)."""

    @functools.cached_property
    def csrf_token(self) -> Markup:
        """The hidden input, as ConfirmForm writes it, with the blank for its value."""
        return Markup(ConfirmForm().csrf_token(value=CSRF_BLANK))


def why_page(row: GameRow, n: int, editable: bool) -> str:
    """The small page that says why every number of protocol row n is what it is."""
    loaded = load(row)
    if isinstance(loaded, Broken) or not 1 <= n <= len(loaded.protocol.rows):
        abort(404)
    protocol = loaded.protocol
    players = row.head.get("players", [])
    return render_template("game/why.html", row=row, players=players, editable=editable,
                           shown=protocol_rows.shown_row(
                               protocol, n - 1, preset=loaded.game.agreements.preset))
