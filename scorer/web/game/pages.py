"""The game's pages: the game under both links, and the scorekeeper's recording a deal,
editing, deleting, restoring."""

from __future__ import annotations

import functools
import hashlib
import re
import sqlite3
from collections.abc import Mapping
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import Markup
from werkzeug.exceptions import HTTPException

from scorer.engine import Row, RuleError, Timeline
from scorer.store import GameRow, JsonDict, StaleError
from scorer.web import access, storage
from scorer.web.db import get_store
from scorer.web.forms import ConfirmForm, new_sid
from scorer.web.game import conflicts, deal_input, downloads, page_cache, page_model
from scorer.web.game.deal_input import Entry, Key, Setup
from scorer.web.game.versions import Broken, Loaded, Version, load, remember, rescored
from scorer.web.i18n import lang
from scorer.web.params import arg_int
from scorer.web.qr import qr_svg

# The game's two links share the pages that only read it (the page, why, the downloads):
# /g/<edit token> shows the scorekeeper's buttons, /v/<token> the same page read-only.
bp = Blueprint("game", __name__)

# Fields the deal form shows beside their inputs; any other error goes on top.
FORM_FIELDS = {"declarer", "contract", "dark", "points", "marriages", "no_tricks", "prikup",
               "player", "amount", "reason"}
MAX_CHANGED_IDS = 60  # keeps the session cookie small
HISTORY_PAGE = 20  # revisions of a deal shown at once on its edit form
SID = re.compile(r"[A-Za-z0-9_-]{8,64}")


bp.add_app_template_global(new_sid, "new_sid")


def submission() -> str | None:
    """This post's one-time id with a digest of what it says, or None if it has none.

    The digest keeps two different forms that somehow carry one id (a cached page on two
    phones) from being taken for a repeat: only the same id with the same body is one.
    """
    sid = str(request.form.get("sid", ""))
    if not SID.fullmatch(sid):
        return None
    body = sorted((k, v) for k, v in request.form.items(multi=True) if k != "csrf_token")
    return sid + ":" + hashlib.sha256(repr(body).encode()).hexdigest()[:16]


def repeated(row: GameRow) -> bool:
    """Whether this very form was already stored for the game (a double tap, a re-send)."""
    key = submission()
    return key is not None and get_store().submitted(row.id, key)


def landing(row: GameRow) -> str:
    """Where every save lands: the game page's top (totals, the next deal's form, newest rows)."""
    return url_for("game.page", link="g", token=row.edit_token)


def edit_row(token: str) -> GameRow:
    """The game behind an edit token (404 for anything else), remembered."""
    row = access.game_for(token, edit=True)
    access.remember(token)
    return row


def opened(link: str, token: str) -> GameRow:
    """The game a page opens: /g/ needs the edit token (and remembers it), /v/ opens with
    either token, read-only."""
    if link == "g":
        return edit_row(token)
    return access.game_for(token, edit=False)


@bp.get("/<any(g, v):link>/<token>")
def page(link: str, token: str) -> ResponseReturnValue:
    """The game page with totals, state and protocol; the scorekeeper's buttons on /g/, and
    on /v/ a 304 when nothing changed since the last poll."""
    if link == "g":
        row = edit_row(token)
        return page_cache.cached_page(row, True, lambda loaded, _tag: page_model.render(
            row, True, loaded, blanks=True))
    row = access.game_for(token, edit=False)
    if token != row.view_token:  # an edit token is sent to its view link
        return redirect(url_for("game.page", link="v", token=row.view_token))
    access.remember(token)
    response = page_cache.cached_page(row, False, lambda loaded, tag: page_model.render(
        row, False, loaded, etag=tag))
    response.headers["X-Poll-Seconds"] = str(current_app.config["POLL_SECONDS"])
    return response


@bp.get("/<any(g, v):link>/<token>/why/<int:n>")
def why(link: str, token: str, n: int) -> ResponseReturnValue:
    """Why every number of protocol row n is what it is (the link behind each number)."""
    return page_model.why_page(opened(link, token), n, editable=link == "g")


def setup_of(loaded: Loaded, slot_id: int | None = None) -> deal_input.Setup:
    """The form setup for the next deal, or for the deal being edited."""
    if slot_id is None:
        return deal_input.setup_for(loaded.game, loaded.protocol.next,
                                    agreements=loaded.timeline.agreements)
    index = live_index(loaded, slot_id)
    nxt = loaded.timeline.before(index).next
    if nxt is None:  # editing the winning deal: the state before it still has a next
        abort(409)
    return deal_input.setup_for(loaded.game, nxt, before=index)


def live_index(loaded: Version, slot_id: int) -> int:
    """The position of a live slot among the live records (404 if not live)."""
    for i, slot in enumerate(loaded.slots.live):
        if slot.id == slot_id:
            return i
    abort(404)


def deal_number(loaded: Version, slot_id: int | None) -> int:
    """The number a posted record takes: the next deal, or that of the slot it edits."""
    return len(loaded.slots.live) + 1 if slot_id is None else live_index(loaded, slot_id) + 1


def beside(setup: deal_input.Setup, field: str, seat: int | None) -> bool:
    """Whether the form shows this field (for this seat), so an error can sit beside it;
    an error about a field it does not show (a forged "dark" where dark is off) goes on top."""
    if field not in FORM_FIELDS:
        return False
    if field == "dark":
        return setup.dark_shown
    if field == "prikup":
        return setup.four and setup.prikup != "none"
    return seat is None or seat in setup.active


def keyed(loaded: Version, err: RuleError, deal_no: int) -> dict[tuple[str, int | None], str]:
    """Place an engine refusal beside its field (or on top if it is about another deal),
    worded with the players' names and the agreement's title linked to the rules sheet."""
    players = loaded.row.head.get("players", [])
    rules = url_for("rules.page", link="g", token=loaded.row.edit_token)
    if err.deal == deal_no and err.field in FORM_FIELDS:
        key = (err.field, err.seat if err.field != "declarer" else None)
        return {key: deal_input.refusal(err, players, lang(), rules, deal=False)}
    return {("top", None): deal_input.refusal(err, players, lang(), rules, deal=True)}


def candidate(loaded: Loaded, record: JsonDict, slot_id: int | None) -> Timeline:
    """The game with this record added (or put in place of live slot slot_id), scored
    from the version's kept states; raises RuleError."""
    if slot_id is None:
        return loaded.timeline.append(record)
    return loaded.timeline.replace(live_index(loaded, slot_id), record)


def preview_of(loaded: Loaded, record: JsonDict, slot_id: int | None) -> Row | dict[Key, str]:
    """Score the candidate; return the new deal's protocol row, or the errors by field."""
    deal_no = deal_number(loaded, slot_id)
    try:
        protocol = candidate(loaded, record, slot_id).protocol
    except RuleError as err:
        return keyed(loaded, err, deal_no)
    return protocol.rows[deal_no - 1]


def entry_for(loaded: Version, setup: Setup) -> tuple[str, Entry, JsonDict | None]:
    """Read the posted form; return (action, entry, record)."""
    action, entry = deal_input.read(setup, request.form, request.form.getlist)
    return action, entry, built(loaded, setup, action, entry)


def built(loaded: Version, setup: Setup, action: str, entry: Entry) -> JsonDict | None:
    """The record the form describes, or None with the errors put in entry: the form's own
    (a field it cannot read) or the engine's refusal met on the way, beside its field."""
    try:
        return deal_input.build(setup, action, entry)
    except RuleError as err:
        entry.errors.update(keyed(loaded, err, setup.deal))
        return None


@bp.route("/g/<token>/deal", methods=["GET", "POST"])
def new_deal(token: str) -> ResponseReturnValue:
    """The form for the next deal; posted, it is previewed or saved."""
    row = edit_row(token)
    return show_deal(row, None) if request.method == "GET" else post_deal(row, None)


@bp.route("/g/<token>/deal/<int:slot_id>", methods=["GET", "POST"])
def edit_deal(token: str, slot_id: int) -> ResponseReturnValue:
    """The form to fix an earlier deal; posted, everything after it is replayed."""
    row = edit_row(token)
    return show_deal(row, slot_id) if request.method == "GET" else post_deal(row, slot_id)


def based_on(values: Mapping[str, Any]) -> int | None:
    """The game version a posted form was filled in for (None if missing or garbled)."""
    text = str(values.get("version", "")).strip()
    return int(text) if re.fullmatch(r"[0-9]{1,15}", text) else None


def chained_base(row: GameRow, loaded: Version) -> int | None:
    """The version a posted write counts as filled in for.

    Its own, unless the page wrote it while earlier writes were waiting (no connection):
    then it follows the page's last waiting write (``after``, that write's one-time id),
    and is current if that write was stored last. Nothing else makes a stale write current
    (no header): a write late from the outbox is stored only by its holder's choice.
    """
    base = based_on(request.form)
    if base == loaded.version:
        return base
    after = str(request.form.get("after", ""))
    if SID.fullmatch(after) and get_store().submission_version(row.id, after) == loaded.version:
        return loaded.version
    return base


def stale_text(base: int | None, loaded: Version) -> str:
    """Why a write based on an older (or unknown) state of the game was refused."""
    if base is None:
        return str(_("Nothing was saved: the form did not say which state of the game it was "
                 "filled in for. Check the protocol below, then save again."))
    return str(ngettext(
        "Nothing was saved: the game changed while this form was open (someone else "
        "recorded or changed a deal); it now has %(num)d deal. Check the protocol below, "
        "then save again.",
        "Nothing was saved: the game changed while this form was open (someone else "
        "recorded or changed a deal); it now has %(num)d deals. Check the protocol below, "
        "then save again.",
        len(loaded.slots.live),
    ))


def show_deal(row: GameRow, slot_id: int | None) -> ResponseReturnValue:
    """Show the deal form: defaults for the next deal, or the record being edited."""
    loaded = load(row)
    if isinstance(loaded, Broken):
        return broken(loaded)
    if slot_id is None and loaded.protocol.winner is not None:
        return redirect(landing(row))
    setup = setup_of(loaded, slot_id)
    if slot_id is None:
        entry = deal_input.defaults(setup)
    else:
        record = loaded.slots.live[live_index(loaded, slot_id)].record
        assert record is not None  # a live slot holds a record
        if record.get("type") == "agreements":  # edited on its own form
            return redirect(url_for("rule_change.change_form", token=row.edit_token,
                                    slot=slot_id))
        entry = deal_input.from_record(setup, record)
    return show_form(loaded, setup, entry, slot_id)


def post_deal(row: GameRow, slot_id: int | None) -> ResponseReturnValue:
    """A posted deal form: answered as before if repeated, else previewed or saved."""
    loaded = load(row)
    base = based_on(request.form)
    # A repeat was filled in for the version its first post replaced, so only a stale
    # post can be one: a current one needs no lookup.
    if base != loaded.version and repeated(row):  # answered as the first post was
        return redirect(landing(row))
    if isinstance(loaded, Broken):
        return broken(loaded)
    base = chained_base(row, loaded)
    if base != loaded.version:
        return refuse_stale(loaded, slot_id, base)
    if slot_id is None and loaded.protocol.winner is not None:
        return after_change(row, _("The game is over: nothing was saved."), 409)
    setup = setup_of(loaded, slot_id)
    action, entry, record = entry_for(loaded, setup)
    if record is None:
        return show_form(loaded, setup, entry, slot_id, status=422)
    if action in ("preview", "preview_raspis", "preview_adjustment"):
        return preview_deal(loaded, setup, entry, record, slot_id)
    return save(loaded, record, slot_id, entry, setup)


def broken(loaded: Broken) -> ResponseReturnValue:
    """409: the game's log no longer replays, so no deal can be recorded or edited."""
    return render_template("game/broken.html", row=loaded.row, error=loaded.error), 409


def preview_deal(loaded: Loaded, setup: Setup, entry: Entry, record: JsonDict,
                 slot_id: int | None) -> ResponseReturnValue:
    """The form again with every player's delta for this record (nothing is stored)."""
    shown = preview_of(loaded, record, slot_id)
    if isinstance(shown, dict):
        entry.errors.update(shown)
        return show_form(loaded, setup, entry, slot_id, status=422)
    if record.get("type") == "raspis":  # shown in the concession's own box, by its button
        return show_form(loaded, setup, entry, slot_id, raspis_preview=shown)
    if record.get("type") == "adjustment":  # and an adjustment's in its panel
        return show_form(loaded, setup, entry, slot_id, adjustment_preview=shown)
    return show_form(loaded, setup, entry, slot_id, preview=shown)


def refuse_stale(loaded: Version, slot_id: int | None,
                 base: int | None) -> ResponseReturnValue:
    """409: the form was filled in for another state; show it again on the fresh one."""
    if isinstance(loaded, Broken):
        return broken(loaded)
    editable_slot = slot_id is None or any(s.id == slot_id for s in loaded.slots.live)
    if conflicts.is_late():  # the holder chooses; the page needs the words as data
        mine = None
        if editable_slot and (slot_id is not None or loaded.protocol.winner is None):
            try:
                mine = entry_for(loaded, setup_of(loaded, slot_id))[2]
            except HTTPException:  # the winning deal has no form: the page says what it is
                mine = None
        return conflicts.answer(loaded, slot_id, "new" if slot_id is None else "edit", mine,
                                ahead(loaded))
    text = stale_text(base, loaded)
    if not editable_slot or (slot_id is None and loaded.protocol.winner is not None):
        return after_change(loaded.row, text, 409)
    setup = setup_of(loaded, slot_id)
    _action, entry = deal_input.read(setup, request.form, request.form.getlist)
    entry.errors[("stale", None)] = text
    fresh = page_model.context(loaded.row, editable=True, loaded=loaded, banner=False)
    return show_form(loaded, setup, entry, slot_id, status=409, fresh=fresh)


def save(loaded: Loaded, record: JsonDict, slot_id: int | None, entry: Entry,
         setup: Setup) -> ResponseReturnValue:
    """Store the record if the game is still at the version the form was filled in for."""
    st = get_store()
    row = loaded.row
    # Replay outside the lock, so phones posting at once do not queue behind each other's
    # replays; inside it we only confirm that the game is still at the replayed version.
    checked = checked_replay(loaded, record, slot_id, entry)
    if checked is None:
        return show_form(loaded, setup, entry, slot_id, status=422)
    key = submission()
    try:
        with st.writing():
            # A twin of this post stored meanwhile moved the version: StaleError below.
            if slot_id is None:
                version = st.add_deal(row.id, record, based_on=loaded.version)
            else:
                version = st.revise_deal(row.id, slot_id, record, "edit",
                                         based_on=loaded.version)
            if key is not None:
                st.note_submission(row.id, key, version)
    except StaleError:
        if repeated(row):
            return redirect(landing(row))
        return refuse_stale(load(row), slot_id, loaded.version)
    except RuleError as err:  # the engine's deal limit, as the store checks it too
        entry.errors.update(keyed(loaded, err, deal_number(loaded, slot_id)))
        return show_form(loaded, setup, entry, slot_id, status=422)
    except sqlite3.Error as err:  # the disk refused: the form again, with what was typed
        refused = storage.noted(err)
        if refused is None:
            raise
        entry.errors[("disk", None)] = refused[0]  # on top, without "fix what is marked"
        return show_form(loaded, setup, entry, slot_id, status=refused[1])
    # The page we redirect to needs no replay.
    remember(loaded, version, loaded.slots.after(slot_id, record), checked)
    if slot_id is not None:
        note_changes(loaded, load(row), "edit", slot_id)
    return redirect(landing(row))


def checked_replay(loaded: Loaded, record: JsonDict, slot_id: int | None, entry: Entry
                   ) -> Timeline | None:
    """The game with the record in place, or None with the refusal put in entry."""
    deal_no = deal_number(loaded, slot_id)
    try:
        return candidate(loaded, record, slot_id)
    except RuleError as err:
        entry.errors.update(keyed(loaded, err, deal_no))
        return None


# The seatings a new deal's form carries (the game page's form has them too).
ahead = page_model.ahead


def show_form(loaded: Loaded, setup: Setup, entry: Entry, slot_id: int | None, *,
              status: int = 200, preview: Row | None = None,
              raspis_preview: Row | None = None, adjustment_preview: Row | None = None,
              fresh: page_model.GamePage | None = None) -> ResponseReturnValue:
    """Render the deal form (fresh: the current protocol, shown after a stale refusal)."""
    players = loaded.row.head.get("players", [])
    shown = functools.partial(beside, setup)
    return render_template(
        "game/deal.html", row=loaded.row, setup=setup, entry=entry, slot_id=slot_id,
        players=players, preview=preview, raspis_preview=raspis_preview,
        adjustment_preview=adjustment_preview,
        deal_no=deal_number(loaded, slot_id),
        signs=deal_input.SUIT_SIGNS,
        top_errors=[v for (f, seat), v in entry.errors.items() if not shown(f, seat)],
        wrong=[(deal_input.input_id(setup, f, seat), v) for (f, seat), v in entry.errors.items()
               if shown(f, seat)],
        focus=deal_input.first_wrong(setup, entry.errors, shown),
        confirm=ConfirmForm(),
        version=loaded.version, seen=loaded.slots.seen, fresh=fresh,
        ahead=ahead(loaded) if slot_id is None else None,
        **history_page(loaded.row.id, slot_id),
    ), status


def history_page(game_id: int, slot_id: int | None) -> dict[str, Any]:
    """One page of the deal's history (?history=N, 1 = the newest) and its neighbours:
    a deal toggled 1500 times must not make a page of every revision."""
    if not slot_id:
        return {"history": [], "history_pages": 0, "history_at": 1}
    st = get_store()
    pages = max(1, -(-st.history_length(game_id, slot_id) // HISTORY_PAGE))
    at = min(max(arg_int(request.args, "history", 1) or 1, 1), pages)
    return {"history": st.history(game_id, slot_id, HISTORY_PAGE, (at - 1) * HISTORY_PAGE),
            "history_pages": pages, "history_at": at}


@bp.get("/g/<token>/preview")
def preview(token: str) -> Response:
    """The live preview: every player's delta for the deal being typed, as JSON."""
    row = edit_row(token)
    loaded = load(row)
    slot_id = arg_int(request.args, "edit")
    if isinstance(loaded, Broken):
        return jsonify(ok=False, errors=[{"field": "top", "seat": None,
                                          "text": loaded.error.message(lang())}])
    setup = setup_of(loaded, slot_id)
    action, entry = deal_input.read(setup, request.args, request.args.getlist)
    if action == "preview":
        action = "play"
    elif action.startswith("preview_"):
        action = action.removeprefix("preview_")
    record = built(loaded, setup, action, entry)
    if record is None:
        return jsonify(ok=False, errors=errors_json(entry.errors), **freshness(loaded))
    shown = preview_of(loaded, record, slot_id)
    if isinstance(shown, dict):
        return jsonify(ok=False, errors=errors_json(shown), **freshness(loaded))
    code = lang()
    preset = loaded.game.agreements.preset
    why = [[r.text(code, tags=False, preset=preset) for r in seat] for seat in shown.why]
    filled = {k: v for k, v in entry.values.items() if k.startswith("points_")}
    return jsonify(ok=True, delta=list(shown.delta), score=list(shown.score), why=why,
                   filled=filled, **freshness(loaded))


def freshness(loaded: Version) -> dict[str, Any]:
    """The game's version, and a warning if the form was filled in for another one."""
    # The preview writes nothing, but it is where a phone first learns that someone
    # else changed the game: saving this form would then be refused.
    base = based_on(request.args) if "version" in request.args else loaded.version
    out: dict[str, Any] = {"version": loaded.version, "stale": base != loaded.version}
    if out["stale"]:
        out["stale_text"] = stale_text(base, loaded)
    return out


def errors_json(errors: dict[Key, str]) -> list[dict[str, Any]]:
    """Errors as a JSON list for the preview."""
    return [{"field": f, "seat": s, "text": Markup(t).striptags() if isinstance(t, Markup) else t}
            for (f, s), t in errors.items()]


def change_slot(row: GameRow, slot_id: int, note: str,
                base: int | None) -> tuple[str, int] | None:
    """Delete or restore a deal if the game is unchanged and still replays.

    Returns (refusal text, status) or None when done.
    """
    st = get_store()
    key = submission()
    with st.writing():
        if key is not None and st.submitted(row.id, key):  # a repeat: done the first time
            return None
        before = load(row)
        slot = next((s for s in before.slots.every if s.id == slot_id), None)
        if slot is None:
            abort(404)
        if base != before.version and chained_base(row, before) != before.version:
            return stale_text(base, before), 409
        new_record = None if note == "delete" else st.last_record(row.id, slot_id)
        if (slot.record is None) == (new_record is None):  # already deleted, or live
            return None
        slots = before.slots.after(slot_id, new_record)
        index = sum(1 for s in before.slots.every if s.seq < slot.seq and s.record is not None)
        try:
            timeline = rescored(before, slots, lambda t: t.replace(index, None)
                                if new_record is None else t.insert(index, new_record))
            version = st.revise_deal(row.id, slot_id, new_record, note)
        except RuleError as err:  # the record's, or the engine's deal limit in the store
            rules = url_for("rules.page", link="g", token=row.edit_token)
            return deal_input.refusal(err, row.head.get("players", []), lang(), rules,
                                      deal=True), 422
        if key is not None:
            st.note_submission(row.id, key, version)
    remember(before, version, slots, timeline)
    note_changes(before, load(row), note, slot_id)
    return None


@bp.post("/g/<token>/deal/<int:slot_id>/delete")
def delete_deal(token: str, slot_id: int) -> ResponseReturnValue:
    """Delete a deal (a new revision; it can be restored)."""
    return slot_change(token, slot_id, "delete")


@bp.post("/g/<token>/deal/<int:slot_id>/restore")
def restore_deal(token: str, slot_id: int) -> ResponseReturnValue:
    """Bring a deleted deal back in its place."""
    return slot_change(token, slot_id, "restore")


def slot_change(token: str, slot_id: int, note: str) -> ResponseReturnValue:
    """Delete or restore through the posted form, then back to the game page."""
    row = edit_row(token)
    refusal = change_slot(row, slot_id, note, based_on(request.form))
    if refusal and refusal[1] == 409 and conflicts.is_late():
        loaded = load(row)
        if isinstance(loaded, Loaded):
            return conflicts.answer(loaded, slot_id, "delete" if note == "delete" else "restore",
                                    None, ahead(loaded))
    return after_change(row, *refusal) if refusal else after_change(row, None)


def after_change(row: GameRow, error: str | None, status: int = 422) -> ResponseReturnValue:
    """Back to the game page, or the (fresh) page with the refusal on top."""
    if error:
        return page_model.render(row, True, refusal=error, banner=False), status
    return redirect(landing(row))


def note_changes(before: Version, after: Version, note: str, slot_id: int) -> None:
    """Remember which totals an edit changed, for the game page to show once."""
    if isinstance(before, Broken) or isinstance(after, Broken):
        return
    old = {s.id: r.score for s, r in zip(before.slots.live, before.protocol.rows, strict=True)}
    new = {s.id: r.score for s, r in zip(after.slots.live, after.protocol.rows, strict=True)}
    rows = [sid for sid in new if sid in old and old[sid] != new[sid] and sid != slot_id]
    number = next((i + 1 for i, s in enumerate(after.slots.live) if s.id == slot_id), None)
    if number is None:
        number = next((i + 1 for i, s in enumerate(before.slots.live) if s.id == slot_id),
                      None)
    session["changed"] = {
        "game": after.row.id, "note": note, "deal": number, "slot": slot_id,
        "before": list(before.protocol.score), "after": list(after.protocol.score),
        "rows": len(rows), "ids": rows[:MAX_CHANGED_IDS],
    }


@bp.get("/g/<token>/share")
def share(token: str) -> str:
    """The read-only link with its QR code, and the edit link."""
    row = edit_row(token)
    view_url = url_for("game.page", link="v", token=row.view_token, _external=True)
    edit_url = url_for("game.page", link="g", token=row.edit_token, _external=True)
    return render_template("game/share.html", row=row, view_url=view_url, edit_url=edit_url,
                           view_qr=qr_svg(view_url), edit_qr=qr_svg(edit_url),
                           host=access.is_host(), confirm=ConfirmForm())


@bp.post("/g/<token>/share/replace")
def replace_links(token: str) -> ResponseReturnValue:
    """The host gives a game new links: whoever held the old ones opens nothing now."""
    row = access.game_for(token, edit=True)
    if not access.is_host():
        abort(403)
    get_store().replace_links([row.id])
    access.forget(token)
    fresh = get_store().stored(row.id)
    access.remember(fresh.edit_token)
    return redirect(url_for("game.share", token=fresh.edit_token))


@bp.get("/<any(g, v):link>/<token>/export.json")
def export(link: str, token: str) -> Response:
    """The game log as GAME-FORMAT JSON."""
    return downloads.export_json(opened(link, token))


@bp.get("/<any(g, v):link>/<token>/sheet.pdf")
def sheet(link: str, token: str) -> Response:
    """The printable protocol sheet."""
    return downloads.pdf(opened(link, token))
