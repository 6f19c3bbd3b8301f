"""Changing the rules of a running game, by the edit link only (docs/RULES.md §11).

From the next deal on: an "agreements" record appended to the log (or an existing one
edited). From the start: the game's whole set replaced, kept as a revision that can be
undone. Either way the form (a GET, so it works without JavaScript) first shows the
«А если бы…» comparison; only the confirm button (a POST carrying a digest of exactly
what was shown) changes the game.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import replace
from typing import Any

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from markupsafe import Markup

from scorer.engine import (
    Agreements,
    RuleError,
    Timeline,
    catalog,
    compare,
    current_agreements,
    resolve_agreements,
)
from scorer.store import GameRow, StaleError
from scorer.web import access
from scorer.web.db import get_store
from scorer.web.forms import ConfirmForm, text_refusal
from scorer.web.game import agreement_form
from scorer.web.game.agreement_form import label_of, loc
from scorer.web.game.compare import links, result_context
from scorer.web.game.deal_input import refusal
from scorer.web.game.versions import Broken, Loaded, load
from scorer.web.i18n import lang
from scorer.web.params import arg_int

bp = Blueprint("rule_change", __name__, url_prefix="/g")

WHEN = ("next", "start")


def loaded_game(token: str) -> tuple[GameRow, Loaded]:
    """The game behind the edit link and its replayed version (409 page if broken)."""
    row = access.game_for(token, edit=True)
    loaded = load(row)
    if isinstance(loaded, Broken):
        abort(409)
    return row, loaded


def slot_index(loaded: Loaded, slot_id: int | None) -> int | None:
    """The live position of an "agreements" record's slot (404 for any other slot)."""
    if slot_id is None:
        return None
    for i, slot in enumerate(loaded.slots.live):
        if slot.id == slot_id and slot.record and slot.record.get("type") == "agreements":
            return i
    abort(404)


def base_set(loaded: Loaded, when: str, index: int | None) -> Agreements:
    """The set a change is made from: the game's own, in force now, or before the record."""
    game = loaded.game
    if when == "start":
        return game.agreements
    return current_agreements(game if index is None else game.with_deals(game.deals[:index]))


def shown_set(loaded: Loaded, base: Agreements, index: int | None) -> Agreements:
    """What the form starts from: the base, or for an edited record the base with it."""
    if index is None:
        return base
    record = loaded.slots.live[index].record or {}
    return resolve_agreements(base.preset, {**base.overrides, **record.get("changes", {})})


def differences(base: Agreements, new: Agreements) -> dict[str, Any]:
    """Each agreement whose value differs, in catalog order."""
    return {id: new[id] for id in catalog().agreements if new[id] != base[id]}


def digest(row: GameRow, version: int, when: str, slot: int | None, changes: str) -> str:
    """A keyed digest of exactly what the confirm button changes, at which version."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    text = f"{row.id}|{version}|{when}|{slot}|{changes}".encode()
    return hmac.new(key, text, hashlib.sha256).hexdigest()


def candidate(loaded: Loaded, when: str, index: int | None, new: Agreements,
              changes: dict[str, Any]) -> Timeline:
    """The game after the change; RuleError (naming the first refused deal) if it will not."""
    game = loaded.game
    if when == "start":
        return Timeline.of(replace(game, agreements=new))
    record = {"type": "agreements", "changes": changes}
    if index is None:
        return loaded.timeline.append(record)
    return loaded.timeline.replace(index, record)


def change_rows(base: Agreements, new: Agreements) -> list[dict[str, str]]:
    """The changes as the page lists them: title, from, to."""
    specs = catalog().agreements
    return [{"id": id, "title": loc(specs[id].title), "from": label_of(specs[id], base[id]),
             "to": label_of(specs[id], new[id])} for id in differences(base, new)]


def read_form(base: Agreements, when: str) -> tuple[Agreements | None, dict[str, str]]:
    """The submitted set, or errors by agreement id (an unchangeable one, mid-game)."""
    new, errors = agreement_form.parse(request.args, base.preset)
    if new is None:
        return None, errors
    if when == "next":
        for id in differences(base, new):
            if not catalog().agreements[id].changeable:
                errors[id] = _("This agreement cannot change in a running game; "
                               "change it from the start.")
    return (None, errors) if errors else (new, {})


@bp.get("/<token>/agreements")
def change_form(token: str) -> ResponseReturnValue:
    """The form, prefilled with the set in force; with a submitted set, the comparison."""
    row, loaded = loaded_game(token)
    when = request.args.get("when", "next")
    when = when if when in WHEN else "next"
    slot_id = arg_int(request.args, "slot")
    if slot_id is not None:
        when = "next"
    index = slot_index(loaded, slot_id)
    base = base_set(loaded, when, index)
    context = page_context(row, loaded, when, slot_id)
    urls = context["urls"]
    values: Agreements | None = shown_set(loaded, base, index)
    if request.args.get("agreements_shown"):
        values, context["errors"] = read_form(base, when)
    if values is not None and request.args.get("agreements_shown"):
        context.update(proposal(row, loaded, when, index, slot_id, base, values, urls))
    shown = dict(values) if values is not None else typed_back(base)
    context["groups"] = agreement_form.groups(shown, context["errors"])
    return render_template("game/rule_change.html", **context)


def page_context(row: GameRow, loaded: Loaded, when: str, slot_id: int | None
                 ) -> dict[str, Any]:
    """What the change form shows before any comparison."""
    return {"row": row, "game": loaded.game, "when": when, "slot": slot_id,
            "urls": links(row, "g"), "result": None, "refused_change": None,
            "confirm": None, "change_list": [], "errors": {}, "history": history(row),
            "form": ConfirmForm(), "version": loaded.version, "who": "", "who_error": None}


def who_refused(row: GameRow, loaded: Loaded, when: str, slot_id: int | None,
                changes: dict[str, Any], who: str, error: str) -> ResponseReturnValue:
    """The comparison and its confirm button again, the «who» field as typed with its
    refusal beside it (422); nothing is saved."""
    index = slot_index(loaded, slot_id)
    base = base_set(loaded, when, index)
    new = (resolve_agreements(**changes) if when == "start"
           else resolve_agreements(base.preset, {**base.overrides, **changes}))
    context = page_context(row, loaded, when, slot_id)
    context.update(proposal(row, loaded, when, index, slot_id, base, new, context["urls"]))
    context.update(who=who, who_error=error, groups=agreement_form.groups(dict(new), {}))
    return render_template("game/rule_change.html", **context), 422


def typed_back(base: Agreements) -> dict[str, Any]:
    """The submitted values where readable, else the base's (shown beside the errors)."""
    values = dict(base)
    for spec in catalog().agreements.values():
        try:
            values[spec.id] = agreement_form.read_value(spec, request.args)
        except ValueError:
            values[spec.id] = request.args.get(agreement_form.PREFIX + spec.id, "")
    return values


def proposal(row: GameRow, loaded: Loaded, when: str, index: int | None,
             slot_id: int | None, base: Agreements, new: Agreements,
             urls: dict[str, str]) -> dict[str, Any]:
    """The comparison, and the confirm button if the game takes the change."""
    changes = differences(base, new)
    out: dict[str, Any] = {"change_list": change_rows(base, new)}
    if not changes:
        out["refused_change"] = _("Nothing to change: every agreement is as it is now.")
        return out
    game = loaded.game
    out.update(result_context(game, compare(game, new), urls["rules"]))
    try:
        candidate(loaded, when, index, new, changes)
    except RuleError as err:
        rules = url_for("rules.page", link="g", token=row.edit_token)
        out["refused_change"] = refusal(err, game.players, lang(), rules, deal=True)
        return out
    text = json.dumps(new.to_json() if when == "start" else changes, sort_keys=True,
                      ensure_ascii=False)
    out["confirm"] = {"changes": text, "version": loaded.version,
                      "digest": digest(row, loaded.version, when, slot_id, text)}
    return out


def history(row: GameRow) -> list[dict[str, Any]]:
    """The game's changes of its whole set, newest first, each with what it changed."""
    out = []
    found = get_store().agreement_history(row.id)
    for i, rev in enumerate(reversed(found)):
        try:
            before = resolve_agreements(**rev["before"])
            after = resolve_agreements(**rev["after"])
        except (RuleError, TypeError):  # a set the catalog no longer knows: listed plainly
            before = after = resolve_agreements()
        out.append({"rev": rev["rev"], "note": rev["note"], "who": rev["who"],
                    "created": rev["created"], "changes": change_rows(before, after),
                    "undo": i == 0})
    return out


@bp.post("/<token>/agreements")
def confirm(token: str) -> ResponseReturnValue:
    """Apply the change the comparison showed, if the game is still as it was then."""
    row, loaded = loaded_game(token)
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    when = request.form.get("when", "")
    slot_id = arg_int(request.form, "slot")
    text = request.form.get("changes", "")
    version = arg_int(request.form, "version")
    if when not in WHEN or version is None:
        abort(400)
    if not hmac.compare_digest(request.form.get("digest", ""),
                               digest(row, version, when, slot_id, text)):
        abort(400)
    if version != loaded.version:
        return stale(row)
    typed = request.form.get("who", "")
    who = " ".join(typed.split()) or None
    bad_who = text_refusal("who", who) if who else None
    if bad_who:
        return who_refused(row, loaded, when, slot_id, json.loads(text), typed, bad_who)
    try:
        apply(row, loaded, when, slot_id, json.loads(text), who)
    except StaleError:
        return stale(row)
    except RuleError as err:
        return refused(row, loaded, err)
    return redirect(url_for("game.page", link="g", token=row.edit_token))


def apply(row: GameRow, loaded: Loaded, when: str, slot_id: int | None,
          changes: dict[str, Any], who: str | None) -> None:
    """Store the change: a record (appended or edited) or a revision of the set."""
    st = get_store()
    index = slot_index(loaded, slot_id)
    if when == "start":
        new = resolve_agreements(**changes)
        candidate(loaded, when, index, new, {})
        with st.writing():
            st.change_agreements(row.id, new.to_json(), "change", who, based_on=loaded.version)
        return
    base = base_set(loaded, when, index)
    new = resolve_agreements(base.preset, {**base.overrides, **changes})
    candidate(loaded, when, index, new, changes)
    record = {"type": "agreements", "changes": changes}
    with st.writing():
        if slot_id is None:
            st.add_deal(row.id, record, based_on=loaded.version)
        else:
            st.revise_deal(row.id, slot_id, record, "edit", based_on=loaded.version)


def stale(row: GameRow) -> ResponseReturnValue:
    """The game changed after the comparison was shown: nothing saved, compare again."""
    message = Markup("%s <a href=\"%s\">%s</a>") % (
        _("The game changed after this comparison was shown: nothing was saved."),
        url_for("rule_change.change_form", token=row.edit_token),
        _("Compare again"))
    return render_template("game/rule_change_refused.html", row=row, message=message), 409


@bp.post("/<token>/agreements/undo")
def undo(token: str) -> ResponseReturnValue:
    """Put back the set a change from the start replaced (only the newest change)."""
    row, loaded = loaded_game(token)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    rev = arg_int(request.form, "rev")
    found = get_store().agreement_history(row.id)
    if not found or found[-1]["rev"] != rev:
        return stale(row)
    before = resolve_agreements(**found[-1]["before"])
    try:
        candidate(loaded, "start", None, before, {})
        with get_store().writing():
            get_store().change_agreements(row.id, before.to_json(), "undo",
                                          based_on=arg_int(request.form, "version"))
    except StaleError:
        return stale(row)
    except RuleError as err:
        return refused(row, loaded, err)
    return redirect(url_for("game.page", link="g", token=row.edit_token))


def refused(row: GameRow, loaded: Loaded, err: RuleError) -> ResponseReturnValue:
    """The page that says which deal the new set refuses, and why (422)."""
    rules = url_for("rules.page", link="g", token=row.edit_token)
    return render_template("game/rule_change_refused.html", row=row,
                           message=refusal(err, loaded.game.players, lang(), rules,
                                           deal=True)), 422
