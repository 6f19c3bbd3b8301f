"""The board for the room: one game on a TV or a tablet in landscape, read-only.

It is the read-only page drawn large: the same view model, the same kept pages and
opaque ETags (its own URL is its own key), the same poller swapping ``#live``, and
without JavaScript the same refresh. The read-only link's QR code is an image of its
own, made for the address the board was opened at (the kept page is shared by every
address, so the code cannot live inside it).
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, redirect, render_template, url_for
from flask.typing import ResponseReturnValue

from scorer.store import GameRow
from scorer.web import access
from scorer.web.game import page_model
from scorer.web.game.page_cache import Render, cached_page
from scorer.web.game.versions import Version
from scorer.web.qr import qr_svg

bp = Blueprint("board", __name__, url_prefix="/v")

# The board shows this many deals, newest first: what the room asks about («what did
# Борис make?»), not the whole sheet.
LAST_DEALS = 5


@bp.get("/<token>/board")
def page(token: str) -> ResponseReturnValue:
    """The board; answers 304 when nothing changed since the last poll, like the view."""
    row = access.game_for(token, edit=False)
    if token != row.view_token:  # an edit token never shows on a screen the room sees
        return redirect(url_for("board.page", token=row.view_token))
    access.remember(token)
    response = cached_page(row, False, rendered(row))
    response.headers["X-Poll-Seconds"] = str(current_app.config["POLL_SECONDS"])
    return response


def rendered(row: GameRow) -> Render:
    """How the board of a version is rendered (with the ETag its poller sends)."""
    return lambda loaded, tag: render(row, loaded, tag)


def render(row: GameRow, loaded: Version, tag: str | None) -> str:
    """The whole board page of one version."""
    model = page_model.context(row, False, loaded, etag=tag)
    return render_template("game/board.html", page=model, last_deals=model.rows[:LAST_DEALS])


@bp.get("/<token>/board/qr.svg")
def qr(token: str) -> Response:
    """The read-only link's QR code, for the address this board was opened at."""
    row = access.game_for(token, edit=False)
    svg = qr_svg(url_for("game.page", link="v", token=row.view_token, _external=True))
    response = Response(str(svg), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, max-age=3600"
    return response
