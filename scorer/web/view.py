"""The read-only link: the live protocol, polled with ETags; it can post nothing."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from flask import Blueprint, Response, current_app, redirect, request, url_for
from flask.typing import ResponseReturnValue

from scorer.store import GameRow
from scorer.web import access, downloads, i18n, page_model
from scorer.web.page_cache import Render, cached_page, render_ahead, watched
from scorer.web.versions import Version, versions

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


def renderer(row: GameRow, path: str) -> Render:
    """How a watched page is rendered: the board (its own module, which imports the game
    pages and so this one) or the read-only page."""
    if urlsplit(path).path.endswith("/board"):
        from scorer.web import board

        return board.rendered(row)
    return rendered(row)


def ahead(row: GameRow, loaded: Version) -> Callable[[], None] | None:
    """What renders, once the scorekeeper's page of a new version is sent, the read-only
    pages a phone was sent on the version before or the one before that (each language
    and URL): a watcher's next poll then finds its page kept instead of waiting for a
    render."""
    before = versions().get((loaded.generation, row.id, loaded.version - 1))
    pages = watched(before) if before is not None else []
    if not pages:
        return None
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    root = request.url_root

    def render_all() -> None:
        """Each page in a request context of its own, as its poll would render it."""
        for (code, path), last in pages:
            try:
                with app.test_request_context(path, base_url=root,
                                              headers={"Cookie": f"{i18n.COOKIE}={code}"}):
                    render_ahead(row, loaded, renderer(row, path), last)
            except Exception:  # the poll renders it then
                app.logger.exception("rendering a read-only page ahead")
    return render_all


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
