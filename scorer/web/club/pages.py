"""The club's read pages: a player's figures, the season table, where a figure comes from,
the rating chart, CSV and PDF; for the host under /club, read-only under /s/<token>.

Every page is made of the club's state (scorer.club, figures kept per game version) and
kept once per state (Club.cached) in the app's club memory (two Lru caches, emptied with
the app's others); the ETag is Club.etag, so a page that did not change is a 304 and a
changed one never replays a game log.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    g,
    make_response,
    render_template,
    request,
    session,
)
from flask import url_for as flask_url
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import ngettext

from scorer.club import (
    COLUMNS,
    FIGURES,
    KEEP_STATES,
    KEEP_SUMMARIES,
    RECORDS,
    SIZE_COLUMNS,
    Club,
    ClubError,
    Figure,
    Memory,
    Played,
    PlayerFigures,
    Reading,
    SeasonTable,
)
from scorer.csvfile import csv_text
from scorer.engine.texts import N_
from scorer.marks import number
from scorer.renders import RenderFailed, html_paper
from scorer.store import GameRow
from scorer.web import access
from scorer.web.club.chart import rating_svg
from scorer.web.db import get_store
from scorer.web.game import downloads
from scorer.web.i18n import lang
from scorer.web.lru import Lru
from scorer.web.params import arg_int, sqlite_int

bp = Blueprint("club_pages", __name__)

# A player's figures by section of the page, in order: (name, msgid), as the club
# declares them (scorer/club/player_figures.py).
LABELS = {d.name: d.label for d in FIGURES}
RESULTS, DECLARER, EVENTS = (tuple((d.name, d.label) for d in FIGURES if d.section == part)
                             for part in ("results", "declarer", "events"))
FALL_WORDS = {"attempts": N_("out of attempts"), "push_off": N_("pushed off"),
              "simultaneous": N_("together")}
TABLE_COLUMNS = tuple(name for name, _label in COLUMNS)
MARRIAGE_MARKS = {"hearts": "♥", "diamonds": "♦", "clubs": "♣", "spades": "♠"}


@dataclass(frozen=True)
class Viewer:
    """Who reads: the host (token None) or a read-only share link, and what it opens."""

    token: str | None = None
    kind: str = ""  # a share's kind: "season" or "player"
    ref: int | None = None  # the season or player the share opens

    @property
    def host(self) -> bool:
        """Whether this is the host's page (with links to edit pages and host actions)."""
        return self.token is None


def worded(pairs: tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
    """(key, msgid) pairs with the msgids translated (a label may hold a % sign, which a
    template's gettext would take for a format)."""
    return [(key, str(_(msgid))) for key, msgid in pairs]


def init_app(app: Flask) -> None:
    """Give the app the club's memory: its states and its parsed summaries (two Lru
    caches, so that clear_caches empties them with the rest)."""
    app.extensions["scorer_club_states"] = Lru(KEEP_STATES)
    app.extensions["scorer_club_summaries"] = Lru(KEEP_SUMMARIES)


def memory() -> Memory:
    """This app's club memory."""
    return Memory(current_app.extensions["scorer_club_states"],
                  current_app.extensions["scorer_club_summaries"])


def club() -> Club:
    """The club over this request's database, with the app's memory."""
    return Club(get_store().db, memory())


def reading() -> Reading:
    """The club for this (read-only) request: its state is found once per request."""
    if "club_reading" not in g:
        g.club_reading = Reading(get_store().db, memory())
    found: Reading = g.club_reading
    return found


def host_viewer() -> Viewer:
    """The host's viewer, or 403 for anyone else."""
    if not access.is_host():
        abort(403)
    return Viewer()


def season_arg() -> int | None:
    """The ?season= of the host's pages (None: «всё время»)."""
    return arg_int(request.args, "season")


# -- caching ---------------------------------------------------------------------------


def kept(c: Club, viewer: Viewer, make: Callable[[], str | bytes],
         mimetype: str = "text/html") -> Response:
    """An answer made once per club state, language and URL, with its ETag (304 if the
    browser has it). A page that shows a flash is made fresh and not kept."""
    # The path and the one argument a page reads: another query string (a stranger with a
    # share link trying ?x=1, ?x=2…) is the same page, never one more kept in memory.
    key = (request.path, season_arg() if viewer.host else None, lang(),
           viewer.token or "host")
    tag = hashlib.sha256(repr((c.etag(),) + key).encode()).hexdigest()[:32]
    if session.get("_flashes"):
        response = make_response(make())
        response.mimetype = mimetype
        response.headers["Cache-Control"] = "no-cache, private"
        return response
    if request.if_none_match.contains_weak(tag):
        response = make_response("", 304)
    else:
        response = make_response(c.cached(key, make))
        response.mimetype = mimetype
    response.set_etag(tag, weak=True)
    response.headers["Cache-Control"] = "no-cache, private"
    return response


def refused(err: ClubError) -> ResponseReturnValue:
    """A club refusal (an unknown player or season) as a 404 page."""
    return make_response(render_template("errors/error.html", code=404,
                                         text=err.text(lang())), 404)


# -- the figures' words and sources ---------------------------------------------------


def season_name(c: Club, season_id: int | None) -> str:
    """The season's name as shown («всё время» translated)."""
    season = c.season(season_id)
    return season.name if season.id is not None else str(_(season.name))


def player_figure(f: PlayerFigures, key: str) -> tuple[str, Figure] | None:
    """(label, figure) of a player's page by its key, or None."""
    labels = LABELS
    if key in labels:
        return _(labels[key]), f[key]
    head, _sep, rest = key.partition("-")
    if head == "size":
        size, _sep, attr = rest.partition("-")
        for s in f.by_size:
            if str(s.players) == size and attr in SIZE_COLUMNS:
                return f"{_(labels[attr])} ({size_word(s.players)})", getattr(s, attr)
    if head == "fall" and rest in f.falls_by_cause:
        return f"{_('barrel falls')}: {_(FALL_WORDS[rest])}", f.falls_by_cause[rest]
    if head == "marriage" and rest in f.marriages:
        return f"{_('Marriages')}: {marriage_word(rest)}", f.marriages[rest]
    if head == "h2h":
        opponent, _sep, attr = rest.partition("-")
        for h in f.head_to_head:
            if str(h.opponent.id) == opponent and attr in ("shared", "above", "below", "level"):
                return f"{h.opponent.name}: {_(H2H_WORDS[attr])}", getattr(h, attr)
    return None


H2H_WORDS = {"shared": N_("shared games"), "above": N_("finished above"),
             "below": N_("finished below"), "level": N_("level")}


def size_word(players: int) -> str:
    """«за столом из 3» / «every size»."""
    if not players:
        return str(_("any number of players"))
    return str(_("%(num)d players", num=players))


def marriage_word(key: str) -> str:
    """A marriage's mark: ♥ ♦ ♣ ♠, the ace marriage, or half ones (½♥)."""
    if key == "ace":
        return str(_("ace marriage"))
    if key.startswith("half_"):
        return "½" + MARRIAGE_MARKS.get(key[5:], key)
    return MARRIAGE_MARKS.get(key, key)


def table_figure(table: SeasonTable, key: str) -> tuple[str, Figure] | None:
    """(label, figure) of one cell of the season table ("<player id>-<column>")."""
    player, _sep, column = key.partition("-")
    words = dict(COLUMNS)
    for row in table.rows:
        if str(row.player.id) == player and column in TABLE_COLUMNS:
            return f"{row.player.name}: {_(words[column])}", getattr(row, column)
    return None


def shown(value: float | None) -> str:
    """A figure's value as the page writes it (— for none, 36.4, 12)."""
    if value is None:
        return "—"
    if float(value).is_integer():
        return number(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".").replace("-", "\u2212")


def game_links(c: Club, viewer: Viewer, game_ids: list[int]) -> dict[int, str]:
    """{game id: its page}: the edit page for the host, the read-only one for a share."""
    return {game_id: (flask_url("game.page", link="g", token=found.edit_token) if viewer.host
                      else flask_url("game.page", link="v", token=found.view_token))
            for game_id, found in c.game_links(game_ids).items()}


def game_label(row: GameRow | None) -> str:
    """A game as a person knows it: its title, else the day and the time it was started
    (four games of one evening are four times, not four «2026-12-07»)."""
    if row is None:
        return "?"
    title = str(row.head.get("title") or "").strip()
    if title:
        return title
    day = str(row.head.get("date") or row.created[:10])
    try:  # the stored stamp is UTC: the time the table saw is the server's own
        started = datetime.fromisoformat(row.created).astimezone().strftime("%H:%M")
    except ValueError:
        return day
    return f"{day}, {started}"


def game_name(row: GameRow | None) -> str:
    """A game named on its own (a record, the history): its label, and its players
    where it has no title."""
    label = game_label(row)
    if row is None:
        return label
    if row.head.get("title"):
        quotes = QUOTES.get(lang(), "«»")
        return f"{quotes[0]}{label}{quotes[1]}"
    return f"{label} ({' · '.join(map(str, row.head.get('players', [])))})"


# A title quoted in a sentence as each language quotes.
QUOTES = {"ru": "«»", "uk": "«»", "pl": "„”", "en": "“”"}


def game_labels(c: Club, game_ids: list[int]) -> dict[int, str]:
    """{game id: game_label} of some games."""
    return {g: game_label(c.store.game(g)) for g in dict.fromkeys(game_ids)}


def source_games(c: Club, viewer: Viewer, figure: Figure) -> list[dict[str, Any]]:
    """The games a figure is made of, each with its deals: what the sources page lists."""
    played = {p.game_id: p for p in c.state().played}
    deals: dict[int, list[int]] = {}
    for game_id, deal in figure.sources:
        found = deals.setdefault(game_id, [])
        if deal is not None and deal not in found:
            found.append(deal)
    links = game_links(c, viewer, list(deals))
    labels = game_labels(c, list(deals))
    return [game_entry(played.get(g), g, links.get(g), d, labels.get(g))
            for g, d in deals.items()]


def game_entry(p: Played | None, game_id: int, link: str | None,
               deals: list[int], label: str | None = None) -> dict[str, Any]:
    """One game of a sources list: its name, players and totals, its link and deal
    anchors."""
    return {"id": game_id, "date": label or (p.date if p else ""), "link": link,
            "deals": deals,
            "players": list(zip(p.summary.players, p.summary.score, strict=False)) if p
            else [], "finished": bool(p and p.finished)}


# -- the host's pages ---------------------------------------------------------------------


@bp.get("/club/players/<int:player_id>")
def player(player_id: int) -> ResponseReturnValue:
    """A player's page (?season=<id>: that season's figures)."""
    return player_page(host_viewer(), player_id, season_arg())


@bp.get("/club/table")
def table() -> ResponseReturnValue:
    """The season table (?season=<id>; none: «всё время») and the records board."""
    return table_page(host_viewer(), season_arg())


@bp.get("/club/sources/<what>")
def sources(what: str) -> ResponseReturnValue:
    """The games and deals one figure is made of (?season=)."""
    return sources_page(host_viewer(), what, season_arg())


@bp.get("/club/players/<int:player_id>/rating.svg")
def chart(player_id: int) -> ResponseReturnValue:
    """The player's rating over the games (?season=), as SVG."""
    return chart_answer(host_viewer(), player_id, season_arg())


@bp.get("/club/table.csv")
def table_csv() -> ResponseReturnValue:
    """The season table as CSV (?season=)."""
    return csv_answer(host_viewer(), "table", season_arg())


@bp.get("/club/results.csv")
def results_csv() -> ResponseReturnValue:
    """Every counted game's results per seat as CSV (?season=)."""
    return csv_answer(host_viewer(), "results", season_arg())


@bp.get("/club/table.pdf")
def table_pdf() -> ResponseReturnValue:
    """The season table on paper (?season=)."""
    return paper(host_viewer(), "season", None, season_arg())


@bp.get("/club/players/<int:player_id>/card.pdf")
def card_pdf(player_id: int) -> ResponseReturnValue:
    """A player's card on paper (?season=)."""
    return paper(host_viewer(), "player", player_id, season_arg())


# -- the read-only share links ------------------------------------------------------------


def share_viewer(token: str) -> Viewer:
    """The viewer a share token makes, or 404 (every miss is the same 404)."""
    found = reading().resolve_share(token)
    if found is None:
        abort(404)
    return Viewer(token, found[0], found[1])


@bp.get("/s/<token>")
def shared(token: str) -> ResponseReturnValue:
    """The shared season table or player page (all time for a player)."""
    viewer = share_viewer(token)
    if viewer.kind == "player":
        return player_page(viewer, int(viewer.ref or 0), None)
    return table_page(viewer, viewer.ref)


@bp.get("/s/<token>/sources/<what>")
def shared_sources(token: str, what: str) -> ResponseReturnValue:
    """Where a figure of the shared page comes from."""
    viewer = share_viewer(token)
    return sources_page(viewer, what, viewer.ref if viewer.kind == "season" else None)


@bp.get("/s/<token>/rating.svg")
def shared_chart(token: str) -> ResponseReturnValue:
    """The shared player's rating chart."""
    viewer = share_viewer(token)
    if viewer.kind != "player":
        abort(404)
    return chart_answer(viewer, int(viewer.ref or 0), None)


@bp.get("/s/<token>/<any(table, results):what>.csv")
def shared_csv(token: str, what: str) -> ResponseReturnValue:
    """The shared season's table, or its per-game results, as CSV."""
    viewer = share_viewer(token)
    if viewer.kind != "season":
        abort(404)
    return csv_answer(viewer, what, viewer.ref)


@bp.get("/s/<token>/paper.pdf")
def shared_pdf(token: str) -> ResponseReturnValue:
    """The shared page on paper."""
    viewer = share_viewer(token)
    if viewer.kind == "player":
        return paper(viewer, "player", viewer.ref, None)
    return paper(viewer, "season", None, viewer.ref)


# -- the pages ----------------------------------------------------------------------------


def player_page(viewer: Viewer, player_id: int, season_id: int | None) -> ResponseReturnValue:
    """A player's page for this viewer."""
    c = reading()
    try:
        figures = c.player(player_id, season_id)
    except ClubError as err:
        return refused(err)
    if figures.player.merged_into is not None and viewer.host:
        return make_response("", 302, {"Location": flask_url(
            "club_pages.player", player_id=figures.player.merged_into, season=season_id)})
    return kept(c, viewer, lambda: render_template(
        "club/player.html", f=figures, viewer=viewer, season_id=season_id,
        season_name=season_name(c, season_id), seasons=c.seasons() if viewer.host else [],
        figures=worded(RESULTS), declarer=worded(DECLARER), events=worded(EVENTS),
        fall_words=dict(worded(tuple(FALL_WORDS.items()))),
        size_columns=SIZE_COLUMNS, shown=shown, size_word=size_word,
        marriage_word=marriage_word, links=game_links(
            c, viewer, [g.game_id for g in figures.results + figures.unfinished]),
        labels=game_labels(c, [g.game_id for g in figures.results + figures.unfinished]),
        src=lambda key: source_url(viewer, f"p{player_id}.{key}", season_id)))


def table_page(viewer: Viewer, season_id: int | None) -> ResponseReturnValue:
    """The season table and the records board for this viewer."""
    c = reading()
    try:
        table_ = c.season_table(season_id)
        board = c.records(season_id)
    except ClubError as err:
        return refused(err)
    records = [(key, label, getattr(board, key)) for key, label in RECORDS]
    found = [r.game_id for _k, _l, r in records if r is not None]
    return kept(c, viewer, lambda: render_template(
        "club/table.html", table=table_, viewer=viewer, season_id=season_id,
        season_name=season_name(c, season_id), seasons=c.seasons() if viewer.host else [],
        records=[(k, str(_(label)), r) for k, label, r in records], lengths=board.lengths,
        links=game_links(c, viewer, found), shown=shown, columns=TABLE_COLUMNS,
        names={g: game_name(c.store.game(g)) for g in found},
        unfinished=source_games(c, viewer, Figure(None, tuple(
            (g, None) for g in table_.unfinished))),
        src=lambda key: source_url(viewer, f"t{key}", season_id)))


def source_url(viewer: Viewer, what: str, season_id: int | None) -> str:
    """The sources page of one figure."""
    if viewer.host:
        return flask_url("club_pages.sources", what=what, season=season_id)
    return flask_url("club_pages.shared_sources", token=viewer.token, what=what)


def sources_page(viewer: Viewer, what: str, season_id: int | None) -> ResponseReturnValue:
    """The games and deals behind one figure ("p<player>.<key>" or "t<player>-<column>");
    a share opens only the figures of its own page."""
    c = reading()
    try:
        found = figure_of(c, viewer, what, season_id)
    except ClubError as err:
        return refused(err)
    if found is None:
        abort(404)
    label, figure, back = found
    return kept(c, viewer, lambda: render_template(
        "club/sources.html", label=label, figure=figure, viewer=viewer, back=back,
        games=source_games(c, viewer, figure), shown=shown,
        season_name=season_name(c, season_id)))


def figure_of(c: Club, viewer: Viewer, what: str, season_id: int | None
              ) -> tuple[str, Figure, str] | None:
    """(label, figure, the page it belongs to) of a sources key, or None."""
    if what.startswith("p") and "." in what:
        head, _sep, key = what[1:].partition(".")
        try:
            player_id = sqlite_int(head) if head.isascii() and head.isdigit() else -1
        except ValueError:  # more digits than any id
            return None
        if player_id < 0 or (not viewer.host and (
                viewer.kind != "player" or viewer.ref != player_id)):
            return None
        found = player_figure(c.player(player_id, season_id), key)
        back = (flask_url("club_pages.player", player_id=player_id, season=season_id)
                if viewer.host else flask_url("club_pages.shared", token=viewer.token))
    elif what.startswith("t"):
        if not viewer.host and viewer.kind != "season":
            return None
        found = table_figure(c.season_table(season_id), what[1:])
        back = (flask_url("club_pages.table", season=season_id) if viewer.host
                else flask_url("club_pages.shared", token=viewer.token))
    else:
        return None
    return None if found is None else (found[0], found[1], back)


def chart_answer(viewer: Viewer, player_id: int, season_id: int | None) -> ResponseReturnValue:
    """The rating chart of a player as an SVG image."""
    c = reading()
    try:
        figures = c.player(player_id, season_id)
    except ClubError:
        abort(404)
    rated = len(figures.rating_steps)
    words = {"title": str(_("Rating after each rated game")),
             "none": str(_("No rated games yet.")),
             "games": str(ngettext("%(num)d rated game", "%(num)d rated games", rated))}
    return kept(c, viewer, lambda: rating_svg(figures.rating_steps, words),
                "image/svg+xml")


def csv_answer(viewer: Viewer, kind: str, season_id: int | None) -> ResponseReturnValue:
    """The season table or the per-game results as a CSV download."""
    c = reading()
    try:
        rows = c.season_csv(season_id) if kind == "table" else c.results_csv(season_id)
        name = season_name(c, season_id)
    except ClubError as err:
        return refused(err)
    response = kept(c, viewer, lambda: csv_text(rows), "text/csv")
    response.headers["Content-Disposition"] = downloads.attachment(
        f"{name}-{kind}.csv", f"club-{kind}.csv")
    return response


def paper(viewer: Viewer, kind: str, player_id: int | None,
          season_id: int | None) -> ResponseReturnValue:
    """The season table or a player's card as PDF, in the sheet's style."""
    c = reading()
    try:
        if kind == "player":
            figures = c.player(int(player_id or 0), season_id)
            html = render_template("club/paper_player.html", f=figures, shown=shown,
                                   season_name=season_name(c, season_id),
                                   figures=worded(RESULTS), declarer=worded(DECLARER),
                                   events=worded(EVENTS))
            name = figures.player.name
        else:
            table_ = c.season_table(season_id)
            board = c.records(season_id)
            name = season_name(c, season_id)
            records = [(key, str(_(label)), getattr(board, key)) for key, label in RECORDS]
            html = render_template(
                "club/paper_season.html", table=table_, shown=shown, season_name=name,
                records=records, lengths=board.lengths,
                names={r.game_id: game_name(c.store.game(r.game_id))
                       for _key, _label, r in records if r is not None})
    except ClubError as err:
        return refused(err)
    return pdf_answer(html, name)


def pdf_answer(html: str, name: str) -> Response:
    """The PDF of a club paper, rendered in a child (cached by its HTML), inline."""
    key = "club:" + hashlib.sha256(html.encode()).hexdigest()
    try:
        data = downloads.rendered(html_paper, {}, key, {"html": html})
    except RenderFailed:
        return downloads.retry_later(_("The sheet could not be printed: it took too long "
                                       "or needed too much memory."))
    if data is None:
        return downloads.retry_later(_("Other sheets are being printed; try again in a few "
                                       "seconds."))
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = downloads.attachment(
        f"{name}.pdf", "club.pdf").replace("attachment", "inline", 1)
    return response
