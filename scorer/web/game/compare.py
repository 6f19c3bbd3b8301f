"""«А если бы…»: a game's deals under another agreement set, beside the real ones.

A GET form (so a comparison is a link to share, and works without JavaScript); it
changes nothing. Also the comparison and the rules sheet as PDFs.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import (
    Callable,
    Mapping,
)
from typing import Any

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from markupsafe import Markup, escape

from scorer.engine import (
    AgreementChange,
    Agreements,
    Comparison,
    Game,
    Protocol,
    Row,
    catalog,
    compare,
    game_to_json,
    resolve_agreements,
)
from scorer.renders import comparison_paper, rules_paper
from scorer.store import GameRow
from scorer.web import access
from scorer.web.errors import try_later
from scorer.web.game import agreement_form, downloads
from scorer.web.game.agreement_form import label_of, loc
from scorer.web.game.deal_input import refusal
from scorer.web.game.versions import Broken, Loaded, load
from scorer.web.i18n import lang
from scorer.web.lru import Lru
from scorer.web.turns import Turns

bp = Blueprint("compare", __name__)

# A comparison replays the whole log a second time (0.1-0.6 s for 2000 deals) and its
# page lists every row (0.3 s more): anyone holding a read-only link could keep the
# server busy with them. Like PDF renders (downloads.py), the host has a turn of their
# own, other browsers share MAX_COMPARES, one per address at a time. An address with one
# in progress is answered 503 with Retry-After at once, and a wait for a shared turn
# lasts at most COMPARE_WAIT, so a crowd of requests never holds waitress' threads.
MAX_COMPARES = 2
HOST_COMPARES = 1
COMPARE_WAIT = 2.0
RETRY_AFTER = 5
_turns = Turns(MAX_COMPARES, HOST_COMPARES, COMPARE_WAIT)
# Comparisons kept, by (database generation, game id, version, other set), up to this
# many deals in all (a 2000-deal one is about 3 MB): the same question costs once.
COMPARED_DEALS = 10_000
# (generation, game id, version, the other set, its overrides): one exact question.
ComparisonKey = tuple[str, int, int, Agreements, tuple[tuple[str, Any], ...]]


def init_app(app: Flask) -> None:
    """Give the app its cache of comparisons, weighed by the deals they hold."""
    app.extensions["scorer_comparisons"] = Lru(COMPARED_DEALS, weight)


def weight(result: Comparison) -> int:
    """What a comparison weighs in the cache: its game's deals, and a little more."""
    return len(result.game.deals) + 50


def compared(loaded: Loaded, other: Agreements) -> Comparison:
    """The game version compared with the other set, worked out once per question (a
    version never changes, and neither do the two replays of it)."""
    cache: Lru[ComparisonKey, Comparison] = current_app.extensions["scorer_comparisons"]
    key = (loaded.generation, loaded.row.id, loaded.version, other,
           tuple(sorted(other.overrides.items())))
    found = cache.get(key)
    if found is None:
        found = cache.put(key, compare(loaded.game, other))
    return found


def loaded_game(token: str, editable: bool) -> tuple[GameRow, Game | None]:
    """The game row and its replayed game, or the broken-log page to answer with."""
    row = access.game_for(token, edit=editable)
    loaded = load(row)
    if isinstance(loaded, Broken):
        return row, None
    return row, loaded.game


def links(row: GameRow, link: str) -> dict[str, str]:
    """The game's page, rules sheet and this page, on the link the visitor holds."""
    token = row.edit_token if link == "g" else row.view_token
    return {"game": url_for("game.page", link=link, token=token),
            "rules": url_for("rules.page", link=link, token=token),
            "compare": url_for("compare.page", link=link, token=token),
            "pdf": url_for("compare.pdf", link=link, token=token),
            "token": token}


def other_set(game: Game, args: Mapping[str, str]) -> tuple[Agreements | None, str, dict[str, str]]:
    """The set asked for by the query: (agreements or None, preset, errors by agreement id).

    No query: the game's own set. "Apply preset": that preset as it is (the game's changes
    dropped). Otherwise the preset plus the fields as submitted.
    """
    preset = args.get("preset") or game.agreements.preset
    if preset not in catalog().presets:
        preset = game.agreements.preset
    if not args.get("agreements_shown"):
        if args.get("preset"):
            return resolve_agreements(preset), preset, {}
        return game.agreements, preset, {}
    if args.get("action") == "preset":
        return resolve_agreements(preset), preset, {}
    agreements, errors = agreement_form.parse(args, preset)
    return agreements, preset, errors


def set_differences(game: Game, other: Agreements) -> list[dict[str, Any]]:
    """Every agreement whose value differs between the game's set and the other set."""
    out = []
    for spec in catalog().agreements.values():
        mine, theirs = game.agreements[spec.id], other[spec.id]
        if mine != theirs:
            out.append({"spec": spec, "title": loc(spec.title), "mine": label_of(spec, mine),
                        "theirs": label_of(spec, theirs)})
    return out


def why_lines(row: Row, seat: int) -> list[dict[str, Any]]:
    """One seat's reasons in a row, each with the title of the agreement it rests on."""
    specs = catalog().agreements
    return [{"text": reason.text(lang(), tags=False),
             "title": loc(specs[reason.agreement].title) if reason.agreement in specs else None,
             "agreement": reason.agreement} for reason in row.why[seat]]


def row_views(result: Comparison) -> list[dict[str, Any]]:
    """Every row of the game beside the other replay's row (None past where it stopped)."""
    differing = set(result.differing)
    out = []
    for n in range(1, len(result.base.rows) + 1):
        base, other = result.pair(n)
        out.append({"n": n, "differs": n in differing, "stopped": other is None,
                    "cells": [{"base": (base.delta[s], base.score[s]),
                               "other": None if other is None else (other.delta[s],
                                                                     other.score[s])}
                              for s in range(len(result.game.players))]})
    return out


def parting(result: Comparison) -> dict[str, Any] | None:
    """The first deal where the replays part, with both «why» texts of every player."""
    n = result.first_difference
    if n is None:
        return None
    base, other = result.pair(n)
    assert other is not None  # a difference is only among the rows both have
    return {"n": n, "players": [
        {"name": name, "base": (base.delta[s], base.score[s]), "other": (other.delta[s],
                                                                         other.score[s]),
         "base_why": why_lines(base, s), "other_why": why_lines(other, s)}
        for s, name in enumerate(result.game.players)]}


def winner_name(game: Game, protocol: Protocol) -> str | None:
    """The winner's name, or None."""
    return None if protocol.winner is None else game.players[protocol.winner]


@bp.get("/<any(g, v):link>/<token>/compare")
def page(link: str, token: str) -> ResponseReturnValue:
    """«А если бы…» from the game page of either link: the form, prefilled, and (for a set
    that differs from the game's) the comparison."""
    editable = link == "g"
    row = access.game_for(token, edit=editable)
    loaded = load(row)
    if isinstance(loaded, Broken):
        return render_template("game/broken.html", row=row, error=loaded.error), 409
    game = loaded.game
    other, preset, errors = other_set(game, request.args)
    values = dict(other if other is not None else game.agreements)
    if other is None:  # show what was submitted where it was readable
        for spec in catalog().agreements.values():
            try:
                values[spec.id] = agreement_form.read_value(spec, request.args)
            except ValueError:  # shown back as typed, beside its complaint
                values[spec.id] = request.args.get(agreement_form.PREFIX + spec.id, "")
    urls = links(row, link)
    context: dict[str, Any] = {
        "row": row, "game": game, "editable": editable, "urls": urls, "preset": preset,
        "preset_choices": [(pid, loc(p.title) or pid) for pid, p in catalog().presets.items()],
        "groups": agreement_form.groups(values, errors), "errors": errors, "result": None,
        "query": request.query_string.decode("ascii", "replace"),
    }
    if other is None or not request.args:
        return render_template("game/compare.html", **context)
    # The replay and the page of every row both cost: the whole answer waits for a turn.
    with _turns.turn(access.is_host(), request.remote_addr or "") as turn:
        if not turn:
            text = _("The server is working out other comparisons; try again in a few seconds.")
            return try_later(503, text, RETRY_AFTER)
        context.update(result_context(game, compared(loaded, other), urls["rules"]))
        return render_template("game/compare.html", **context)


def result_context(game: Game, result: Comparison, rules_url: str) -> dict[str, Any]:
    """What the result part of the page shows."""
    refused = None
    err = result.refused
    if err is not None:
        seat = result.refused_seat()
        where = escape(_("Deal %(n)d", n=err.deal))
        # The web's wording names the player already when the rule is about a seat.
        if err.seat is None and seat is not None:
            where += escape(", " + game.players[seat])
        words = refusal(err, game.players, lang(), rules_url, deal=False)
        refused = {"deal": err.deal, "text": Markup("%s: %s") % (where, words)}
    return {
        "result": result, "changes": set_differences(game, result.other_agreements),
        "base_winner": winner_name(game, result.base),
        "other_winner": winner_name(game, result.other),
        "rows": row_views(result), "parting": parting(result), "refused": refused,
        "ended_at": result.ended_at, "changed_at": changed_at(game),
    }


def changed_at(game: Game) -> list[int]:
    """The numbers of the log's ``agreements`` records: they apply on the other set too."""
    return [n for n, record in enumerate(game.deals, 1) if isinstance(record, AgreementChange)]


# -- PDFs: rendered in a child process within the sheet's limits, cached by content -----


def pdf_response(row: GameRow, render: Callable[..., bytes], game: Game,
                 options: dict[str, Any], name: str) -> Response:
    """A PDF made by ``render(game, **options)`` in a child process, or a 503 to retry."""
    log = game_to_json(game)
    body = json.dumps([log, render.__name__, options], ensure_ascii=False, sort_keys=True)
    key = hashlib.sha256(body.encode()).hexdigest()
    return downloads.pdf_response(row, render, log, key, options, name)


@bp.get("/<any(g, v):link>/<token>/compare.pdf")
def pdf(link: str, token: str) -> Response:
    """The comparison asked for by the query, as a one-page PDF."""
    row, game = loaded_game(token, link == "g")
    if game is None:
        abort(404)
    other, _preset, errors = other_set(game, request.args)
    if other is None:
        abort(400, "; ".join(errors.values()))
    options = {"lang": lang(), "preset": other.preset, "overrides": dict(other.overrides)}
    return pdf_response(row, comparison_paper, game, options, "compare")


@bp.get("/<any(g, v):link>/<token>/rules.pdf")
def rules_pdf(link: str, token: str) -> Response:
    """The game's agreement set on paper."""
    row, game = loaded_game(token, link == "g")
    if game is None:
        abort(404)
    return pdf_response(row, rules_paper, game, {"lang": lang()}, "rules")
