"""The host's club pages: the roster (rename, merge), a game's seats (re-link, count),
the history with undo, the seasons and the read-only share links.

Every write is one Club call (scorer.club), one entry of the club's history; a refusal
(ClubError, RuleError) is shown as a flash and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from scorer.club import Club, ClubChange, ClubError
from scorer.engine import RuleError, check_date
from scorer.web import access
from scorer.web.club.pages import club, game_label, game_name
from scorer.web.forms import ConfirmForm
from scorer.web.i18n import lang
from scorer.web.params import arg_int
from scorer.web.qr import qr_svg

bp = Blueprint("club", __name__, url_prefix="/club")


@bp.before_request
def host_only() -> None:
    """Every page here is the host's."""
    if not access.is_host():
        abort(403)


@bp.get("")
def roster() -> ResponseReturnValue:
    """The players (recent first) with rename and merge, the guests' games apart, seasons."""
    return roster_page()


def roster_page(renamed: dict[str, Any] | None = None,
                added: dict[str, Any] | None = None) -> str:
    """The roster; ``renamed`` or ``added``: a refused rename ({player, name, error}) or
    new player ({name, error}) shown beside its field with the name as typed."""
    c = club()
    apart = [g for g in (c.store.game(i) for i in c.games_apart()[:50]) if g is not None]
    return render_template("club/roster.html", players=c.roster(), apart=apart,
                           labels={g.id: game_label(g) for g in apart},
                           seasons=c.seasons(), confirm=ConfirmForm(), renamed=renamed,
                           added=added)


@bp.get("/history")
def history() -> ResponseReturnValue:
    """The club's changes, newest first, each with undo."""
    c = club()
    return render_template("club/history.html", changes=[(ch, change_text(ch, c.names()))
                                                         for ch in c.history()],
                           confirm=ConfirmForm())


@bp.get("/games/<int:game_id>")
def seats(game_id: int) -> ResponseReturnValue:
    """One game's seats and the players they are linked to (re-link), and whether it counts."""
    c = club()
    row = c.store.game(game_id)
    if row is None:
        abort(404)
    links = c.links(game_id)
    counted = game_id not in set(c.games_apart())
    names = row.head.get("players", [])
    return render_template("club/seats.html", row=row, links=links, counted=counted,
                           label=game_label(row),
                           seated=[(s, n, links.get(s)) for s, n in enumerate(names)],
                           players=c.roster(), names=c.names(), confirm=ConfirmForm())


# -- the writes ------------------------------------------------------------------------


def done(change: ClubChange | None, back: str) -> ResponseReturnValue:
    """Say what was done and go back."""
    if change is not None:
        flash(change_text(change, club().names()), "done")
    return redirect(back)


def attempt(back: str, act: Any) -> ResponseReturnValue:
    """Run one change; a refusal is a flash naming why, and nothing changes."""
    try:
        return done(act(), back)
    except ClubError as err:
        flash(err.text(lang()), "error")
    except RuleError as err:
        flash(err.message(lang()), "error")
    return redirect(back)


def form_int(name: str) -> int:
    """A whole number from the form, or 400."""
    value = arg_int(request.form, name)  # 404 beyond SQLite's range: no such row
    if value is None or value < 0:
        abort(400)
    return value


@bp.post("/rename")
def rename() -> ResponseReturnValue:
    """Give a player another name (the logs keep what was written)."""
    player, name = form_int("player"), request.form.get("name", "")
    try:
        change = club().rename(player, name)
    except (ClubError, RuleError) as err:
        return roster_page({"player": player, "name": name, "error": refusal_text(err)}), 422
    return done(change, url_for("club.roster"))


def refusal_text(err: ClubError | RuleError) -> str:
    """A club or text refusal in the page's language, as shown beside its field."""
    return err.text(lang())


@bp.post("/add")
def add_player() -> ResponseReturnValue:
    """Put a player on the roster before their first game."""
    name = request.form.get("name", "")
    try:
        change = club().add_player(name)
    except (ClubError, RuleError) as err:
        return roster_page(added={"name": name, "error": refusal_text(err)}), 422
    return done(change, url_for("club.roster"))


@bp.post("/merge")
def merge() -> ResponseReturnValue:
    """Make two players one (two spellings of one person)."""
    keep, gone = form_int("keep"), form_int("gone")
    return attempt(url_for("club.roster"), lambda: club().merge(keep, gone))


@bp.post("/games/<int:game_id>/relink")
def relink(game_id: int) -> ResponseReturnValue:
    """Link one seat to another player, or to a new one named as written ("new")."""
    seat = form_int("seat")
    target = request.form.get("player", "")
    player = None if target == "new" else form_int("player")
    return attempt(url_for("club.seats", game_id=game_id),
                   lambda: club().relink(game_id, seat, player))


@bp.post("/games/<int:game_id>/count")
def count(game_id: int) -> ResponseReturnValue:
    """Count a game in the host's figures (a stranger's), or take it out."""
    counted = request.form.get("counted") == "1"
    back = request.form.get("back") == "roster"
    return attempt(url_for("club.roster") if back else url_for("club.seats", game_id=game_id),
                   lambda: club().count_game(game_id, counted))


@bp.post("/undo")
def undo() -> ResponseReturnValue:
    """Undo one change of the history."""
    change = form_int("change")

    def act() -> None:
        club().undo(change)
        flash(_("Undone."), "done")

    return attempt(url_for("club.history"), act)


# -- seasons -----------------------------------------------------------------------------


@bp.get("/seasons")
def seasons() -> ResponseReturnValue:
    """The named seasons and the form that names a new one."""
    return render_template("club/seasons.html", seasons=club().seasons(),
                           confirm=ConfirmForm(), form=request.args, errors={})


def points_field(text: str, size: int) -> list[float]:
    """League points typed as «3/1/0» (blank: the default), or ClubError."""
    parts = [p for p in text.replace(",", ".").replace(" ", "").split("/") if p]
    try:
        return [float(p) for p in parts]
    except ValueError:
        raise ClubError("league points: {size} numbers from 0 to 100 for {size} players",
                        size=size) from None


@bp.post("/seasons")
def add_season() -> ResponseReturnValue:
    """Name a season by its first and last day, with its league points."""
    f = request.form
    try:
        points: dict[int, Sequence[float]] = {
            size: points_field(f.get(f"points{size}", ""), size) for size in (2, 3, 4)
            if f.get(f"points{size}", "").strip()}
        made = club().add_season(f.get("name", ""), f.get("start", ""), f.get("end", ""),
                                 points)
    except (ClubError, RuleError) as err:
        # The form again as typed, the refusal beside the field it is about (422).
        errors = {season_field(err, f): refusal_text(err)}
        return render_template("club/seasons.html", seasons=club().seasons(),
                               confirm=ConfirmForm(), form=f, errors=errors), 422
    flash(_("Season «%(name)s» added.", name=made.name), "done")
    return redirect(url_for("club.seasons"))


def season_field(err: ClubError | RuleError, form: Any) -> str:
    """The season form's field a refusal is about."""
    if isinstance(err, RuleError):
        if err.field != "date":
            return "name"
        try:
            check_date(form.get("start", ""))
        except RuleError:
            return "start"
        return "end"
    if "size" in err.params:
        return f"points{err.params['size']}"
    return "end" if "ends" in err.msgid else "name"


@bp.post("/seasons/<int:season_id>/delete")
def delete_season(season_id: int) -> ResponseReturnValue:
    """Remove a season (its games stay)."""

    def act() -> None:
        club().delete_season(season_id)
        flash(_("Season removed; its games stay."), "done")

    return attempt(url_for("club.seasons"), act)


# -- share links -----------------------------------------------------------------------


def share_ref() -> tuple[str, int | None]:
    """(kind, id) of the share asked for (?kind=season|player&ref=id)."""
    kind = request.values.get("kind", "season")
    if kind not in ("season", "player"):
        abort(400)
    ref = arg_int(request.values, "ref")
    if kind == "player" and ref is None:
        abort(400)
    return kind, ref


@bp.get("/share")
def share() -> ResponseReturnValue:
    """The read-only link of a season table or a player page, with its QR code."""
    kind, ref = share_ref()
    c = club()
    try:
        title = (c.live_player(ref) if kind == "player" and ref is not None
                 else season_title(c, ref))
    except ClubError as err:
        abort(404, err.text(lang()))
    url = url_for("club_pages.shared", token=c.share_token(kind, ref), _external=True)
    return render_template("club/share.html", kind=kind, ref=ref, url=url, qr=qr_svg(url),
                           title=title, confirm=ConfirmForm())


def season_title(c: Club, season_id: int | None) -> str:
    """A season's name as shown («всё время» translated)."""
    season = c.season(season_id)
    return season.name if season.id is not None else str(_(season.name))


@bp.post("/share/replace")
def replace_share() -> ResponseReturnValue:
    """A new link for the page: the old one opens nothing from then on."""
    kind, ref = share_ref()
    club().replace_share(kind, ref)
    flash(_("The link was replaced: the old one opens nothing now."), "done")
    return redirect(url_for("club.share", kind=kind, ref=ref))


# -- the history in words -----------------------------------------------------------------


def change_text(change: ClubChange, names: dict[int, str]) -> str:
    """One change of the history as a sentence."""
    d = change.data

    def who(pid: Any) -> str:
        return names.get(int(pid), "?") if pid is not None else "?"

    if change.kind == "add":
        return str(_("Added: %(name)s", name=d["name"]))
    if change.kind == "rename":
        return str(_("Renamed: %(before)s → %(after)s", before=d["before"], after=d["after"]))
    if change.kind == "merge":
        return str(_("Merged: %(gone)s into %(keep)s", gone=who(d["gone"]), keep=who(d["keep"])))
    # A game as a person knows it (its title, else when and who), never its stored id.
    game = game_name(club().store.game(int(d["game"]))) if "game" in d else "?"
    if change.kind == "relink":
        return str(_("Re-linked: game %(game)s, seat %(seat)s: %(before)s → %(after)s",
                 game=game, seat=int(d["seat"]) + 1, before=who(d["before"]),
                 after=who(d["after"])))
    if d.get("counted"):
        return str(_("Game %(game)s counted", game=game))
    return str(_("Game %(game)s taken out of the figures", game=game))
