"""The read-only link: the live protocol, polled with ETags; it can post nothing."""

from __future__ import annotations

from flask import Blueprint, current_app, make_response, redirect, request, url_for

from scorer.web import access, game_page, sheet_files
from scorer.web.db import get_store
from scorer.web.i18n import lang

bp = Blueprint("view", __name__, url_prefix="/v")


def view_row(token: str):
    """The game behind a read-only token (an edit token is sent to its view link)."""
    row = access.game_for(token, edit=False)
    return row


def etag_for(row) -> str:
    """Changes whenever a deal is added, edited, deleted or restored (or the language)."""
    return f"g{row.id}-v{get_store().version(row.id)}-{lang()}"


@bp.get("/<token>")
def game(token: str):
    """The live protocol; answers 304 when nothing changed since the last poll."""
    row = view_row(token)
    if token != row.view_token:
        return redirect(url_for("view.game", token=row.view_token))
    access.remember(token)
    tag = etag_for(row)
    if request.if_none_match.contains(tag):
        response = make_response("", 304)
    else:
        response = make_response(game_page.render(row, editable=False, etag=f'"{tag}"'))
    response.set_etag(tag)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Poll-Seconds"] = str(current_app.config["POLL_SECONDS"])
    return response


@bp.get("/<token>/why/<int:n>")
def why(token: str, n: int):
    """Why every number of protocol row n is what it is, read-only."""
    return game_page.why_page(view_row(token), n, editable=False)


@bp.get("/<token>/export.json")
def export(token: str):
    """The game log as GAME-FORMAT JSON."""
    return sheet_files.export_json(view_row(token))


@bp.get("/<token>/sheet.pdf")
def sheet(token: str):
    """The printable protocol sheet."""
    return sheet_files.pdf(view_row(token))
