"""The games list, a new game and importing a game log."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from datetime import date
from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from scorer.engine import (
    FORMAT,
    MAX_LOG_BYTES,
    Agreements,
    RuleError,
    catalog,
    checked_parts,
    end_totals,
    load_game,
    parse_game,
    resolve_agreements,
)
from scorer.store import DELETED_DAYS, GameRow, GuestCapError, Store
from scorer.web import access, storage
from scorer.web.club.new_game import apply_chip, chips, link_new
from scorer.web.db import get_store
from scorer.web.errors import too_many
from scorer.web.forms import MIN_PLAYERS, ImportForm, NewGameForm
from scorer.web.game import agreement_form
from scorer.web.game.agreement_form import loc
from scorer.web.game.versions import Broken, load
from scorer.web.i18n import lang
from scorer.web.params import SQLITE_MAX, arg_int

bp = Blueprint("games", __name__)

PAGE = 50  # games on one page of the list

# Imports decoded and checked at once. Decoding a 1 MB file builds up to ~20 MB of Python
# objects (a flat list of 200 000 short strings); eight at once took the server from 50 to
# 230 MB and left 30-50 MB of it in the allocator's arenas. The work holds the GIL, so
# running more at once is no faster: the others wait their turn, each for well under a
# second, holding only their raw bytes.
IMPORT_SLOTS = 1
_import_slots = threading.BoundedSemaphore(IMPORT_SLOTS)

# What the list says once the host has done each action.
SHELF_ACTIONS = {
    "archive": lambda: _("Game archived: it is listed under «Archived games»."),
    "unarchive": lambda: _("Game brought back from the archive."),
    "delete": lambda: _("Game deleted. It stays in the list as «deleted — undo» for a few "
                        "days."),
    "undelete": lambda: _("Game brought back."),
}


@bp.get("/")
def index() -> ResponseReturnValue:
    """The games this browser may see, 50 a page (?page=N), newest first, ongoing apart
    from finished; ?shelf=archived: the archived ones; ?key= claims the host key."""
    key = request.args.get("key")
    if key is not None:
        if access.claim_host(key):
            flash(_("This browser now holds the host key and sees every game."))
        else:
            flash(_("That host key is wrong."), "error")
        return redirect(url_for("games.index"))
    host = access.is_host()
    shelf = "archived" if request.args.get("shelf") == "archived" else "current"
    page = max(arg_int(request.args, "page", 1) or 1, 1)
    if (page - 1) * PAGE > SQLITE_MAX:  # an offset SQLite cannot take: no such page
        abort(404)
    tokens = None if host else access.held_tokens()
    st = get_store()
    if host:
        purge_quietly(st)
    # One more than a page: whether an older page exists, without counting every game.
    rows = st.games(tokens, shelf, PAGE + 1, (page - 1) * PAGE)
    older, rows = len(rows) > PAGE, rows[:PAGE]
    ongoing, finished = entries(rows, host)
    return render_template(
        "games/list.html", ongoing=ongoing, finished=finished, host=host,
        import_form=ImportForm(), shelf=shelf, page=page,
        older=older, archived=st.count_games(tokens, "archived") if shelf == "current" else 0,
        deleted=st.games(None, "deleted", PAGE) if host else [],
        keep_days=DELETED_DAYS, guests=guest_cap() if host else None,
    )


def entries(rows: list[GameRow], host: bool) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The list entries of these games (ongoing ones, finished ones), with their totals."""
    ongoing: list[dict[str, Any]] = []
    finished: list[dict[str, Any]] = []
    totals = list_totals(rows)
    held = set(access.held_tokens())
    for row in rows:
        winner, score = totals[row.id]
        editable = host or row.edit_token in held
        entry = {"row": row, "winner": winner, "editable": editable, "score": score}
        (finished if winner is not None else ongoing).append(entry)
    return ongoing, finished


def purge_quietly(st: Store) -> None:
    """Remove games deleted more than DELETED_DAYS ago (never fails the list)."""
    with contextlib.suppress(sqlite3.Error):
        st.purge_deleted()


def guest_cap() -> tuple[int, int] | None:
    """(guests' games, the cap) when guests may start no more games, else None."""
    if not access.limits_on():
        return None
    count, cap = get_store().guest_games(), access.guest_game_cap()
    return (count, cap) if count >= cap else None


@bp.post("/manage")
def manage() -> ResponseReturnValue:
    """The host archives, unarchives, deletes (after a confirmation) or undeletes a game."""
    if not access.is_host():
        abort(403)
    action = request.form.get("action", "")
    game_id = arg_int(request.form, "game")
    if action not in SHELF_ACTIONS or game_id is None:
        abort(400)
    row = get_store().game(game_id)
    if row is None:
        abort(404)
    if action == "delete" and request.form.get("confirm") != "yes":
        return render_template("games/delete.html", row=row, keep_days=DELETED_DAYS)
    get_store().set_shelf(row.id, action)
    flash(SHELF_ACTIONS[action](), "done")
    back = "archived" if request.form.get("shelf") == "archived" else None
    return redirect(url_for("games.index", shelf=back))


def list_totals(rows: list[GameRow]) -> dict[int, tuple[int | None, list[int] | None]]:
    """{game id: (winner, score)} from the stored totals of each game's current version;
    only a game whose version has none yet is replayed (once, then remembered)."""
    cached = get_store().cached_totals([r.id for r in rows])
    out: dict[int, tuple[int | None, list[int] | None]] = {}
    fresh: list[tuple[int, int, int | None, list[int] | None]] = []
    for row in rows:
        found = cached.get(row.id)
        if found is not None and found[0] == row.version:
            out[row.id] = found[1:]
            continue
        loaded = load(row)
        protocol = None if isinstance(loaded, Broken) else loaded.protocol
        winner = protocol.winner if protocol else None
        score = list(protocol.score) if protocol else None
        fresh.append((row.id, loaded.version, winner, score))
        out[row.id] = (winner, score)
    get_store().put_many_totals(fresh)  # one transaction, not one per game
    return out


def preset_choices() -> list[tuple[str, str]]:
    """(id, title) for each preset in the catalog."""
    return [(pid, loc(p.title) or pid) for pid, p in catalog().presets.items()]


def known_names() -> list[str]:
    """Player names from the games this browser can see, for autocomplete."""
    rows = access.visible_games()
    return get_store().player_names([r.id for r in rows])


@bp.route("/new", methods=["GET", "POST"])
def new_game() -> ResponseReturnValue:
    """Choose players, first dealer, preset and agreements; start the game."""
    form = NewGameForm()
    presets = dict(preset_choices())
    preset = request.values.get("preset", "classic")
    if preset not in presets:
        preset = "classic"
    form.preset.data = preset
    errors: dict[str, str] = {}
    agreements = resolve_agreements(preset)
    action = request.form.get("action", "start")
    if request.method == "POST" and "chip" in request.form:  # a known player's chip, no JS
        action = "chip"
        apply_chip(form, request.form["chip"])
    status = None
    if request.method == "POST" and action != "preset":
        parsed, ag_errors = agreement_form.parse(request.form, preset)
        errors.update({f"ag:{k}": v for k, v in ag_errors.items()})
        if parsed is not None:
            agreements = parsed
        if action == "start" and not errors:
            try:
                created = create_from_form(form, agreements, errors)
            except sqlite3.Error as err:  # the disk refused: the form again, as typed
                refused = storage.noted(err)
                if refused is None:
                    raise
                (errors["disk"], status), created = refused, None
            if created:
                return created
    values = dict(agreements)
    return render_template(
        "games/new.html", form=form, errors=errors, preset=preset,
        presets=catalog().presets, preset_choices=list(presets.items()),
        groups=agreement_form.groups(values, ag_only(errors), preset=agreements.preset),
        diffs=agreement_form.differences(agreements, "preset"),
        diffs_classic=agreement_form.differences(agreements, "classic"),
        names=known_names(), chips=chips(form),
        checked=request.method == "POST" and action == "check",
        preset_values={pid: dict(resolve_agreements(pid)) for pid in presets},
    ), status or (422 if errors else 200)


def ag_only(errors: dict[str, str]) -> dict[str, str]:
    """The agreement errors keyed by agreement id."""
    return {k[3:]: v for k, v in errors.items() if k.startswith("ag:")}


def create_from_form(form: NewGameForm, agreements: Agreements,
                     errors: dict[str, str]) -> ResponseReturnValue | None:
    """Validate the fixed fields, store the game and redirect to it (None on error)."""
    if not form.validate():
        for name, msgs in form.errors.items():
            errors[name] = " ".join(str(m) for m in msgs)
        return None
    names = form.names()
    if len(names) < MIN_PLAYERS:
        errors["players"] = _("Enter 2 to 4 player names.")
        return None
    dealer = form.dealer_seat()
    if dealer is None:
        errors["first_dealer"] = _("The first dealer must be one of the players.")
        return None
    head = {
        "format": FORMAT,
        "players": names,
        "agreements": {"preset": agreements.preset, "overrides": dict(agreements.overrides)},
        "first_dealer": dealer,
        "date": date.today().isoformat(),
    }
    if form.title.data and form.title.data.strip():
        head["title"] = form.title.data.strip()
    try:
        parse_game({**head, "deals": []})
    except RuleError as err:
        errors["players" if err.field == "players" else err.field] = err.text(lang())
        return None
    row = access.start_game(head)
    if isinstance(row, tuple):
        return too_many(*row)
    link_new(row.id, names)
    return redirect(url_for("game.page", link="g", token=row.edit_token))


@bp.post("/import")
def import_game() -> ResponseReturnValue:
    """Create a game from an uploaded GAME-FORMAT file, refusing a bad one."""
    form = ImportForm()
    error = None
    flood = access.creation_refusal()
    if flood:
        return too_many(*flood)
    # Every attempt counts, refused ones too: a bad file costs the server as much work as
    # a good one, and a flood of them must meet the same limit.
    access.count_creation()
    if not form.validate():
        error = _("Choose a game file to import.")
    else:
        # One byte past the limit is enough for the engine to refuse it as too large.
        try:
            error, row = import_file(form.file.data.read(MAX_LOG_BYTES + 1))
        except GuestCapError as full:
            return too_many(*access.guests_full(full.cap))
        if row is not None:
            access.remember(row.edit_token)
            flash(_("Game imported."))
            return redirect(url_for("game.page", link="g", token=row.edit_token))
    return render_template("games/import.html", import_form=form, error=error), 422


def import_file(raw: bytes) -> tuple[str | None, GameRow | None]:
    """Validate a game file and store it; return (error text, GameRow); GuestCapError if
    guests may hold no more games."""
    try:  # the engine decodes, checks depth and shape, and replays every deal
        with _import_slots:
            log, records = checked_parts(load_game(raw))
            totals = end_totals(log, records)
        # The store checks the engine's deal limit again as it writes (RuleError).
        return None, access.create_game(log, records, totals)
    except RuleError as err:
        return err.message(lang()), None
