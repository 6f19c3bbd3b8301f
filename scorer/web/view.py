"""The read-only link: the live protocol, polled with ETags; it can post nothing."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, redirect, url_for
from flask.typing import ResponseReturnValue

from scorer.store import GameRow
from scorer.web import access, downloads, page_model
from scorer.web.page_cache import Render, cached_page

# The blueprint keeps its short name: its endpoints ("view.page", …) name the /v/ link.
bp = Blueprint("view", __name__, url_prefix="/v")


def view_row(token: str) -> GameRow:
    """The game behind a read-only token (an edit token is sent to its view link)."""
    row = access.game_for(token, edit=False)
    return row


@bp.get("/<token>")
def page(token: str) -> ResponseReturnValue:
    """The live protocol; answers 304 when nothing changed since the last poll."""
    row = view_row(token)
    if token != row.view_token:
        return redirect(url_for("view.page", token=row.view_token))
    access.remember(token)
    response = cached_page(row, False, rendered(row))
    response.headers["X-Poll-Seconds"] = str(current_app.config["POLL_SECONDS"])
    return response


def rendered(row: GameRow) -> Render:
    """How the read-only page of a version is rendered (with the ETag its poller sends)."""
    return lambda loaded, tag: page_model.render(row, False, loaded, etag=tag)


@bp.get("/<token>/why/<int:n>")
def why(token: str, n: int) -> ResponseReturnValue:
    """Why every number of protocol row n is what it is, read-only."""
    return page_model.why_page(view_row(token), n, editable=False)


@bp.get("/<token>/export.json")
def export(token: str) -> Response:
    """The game log as GAME-FORMAT JSON."""
    return downloads.export_json(view_row(token))


@bp.get("/<token>/sheet.pdf")
def sheet(token: str) -> Response:
    """The printable protocol sheet."""
    return downloads.pdf(view_row(token))
