"""Error pages in the app's own look (and language)."""

from __future__ import annotations

from flask import Flask, Response, current_app, make_response, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, SecurityError


def messages() -> dict[int, str]:
    """A short explanation for each status code we show."""
    return {
        400: _("The request could not be understood. Reload the page and try again."),
        403: _("This link can only show the game; it cannot change it."),
        404: _("There is nothing here. Check the link."),
        405: _("This page cannot do that."),
        413: _("Too much data was sent (at most %(mb)d MB); nothing was saved.",
                mb=current_app.config["MAX_CONTENT_LENGTH"] // (1024 * 1024)),
    }


def http_error(exc: HTTPException) -> ResponseReturnValue:
    """Render any HTTP error with the site layout."""
    code = exc.code or 500
    text = messages().get(code, exc.description)
    if isinstance(exc, SecurityError):
        # An untrusted Host header: the page layout builds URLs, which would read it again.
        return current_app.response_class(text, status=code, mimetype="text/plain")
    if isinstance(exc, CSRFError):
        text = _("The form has expired or was not sent from this site. Reload and try again.")
    if request.accept_mimetypes.best == "application/json":
        return {"error": text}, code
    return render_template("errors/error.html", code=code, text=text), code


def try_later(code: int, text: str, retry: int) -> Response:
    """The error page ``code`` saying ``text``, with when to try again (Retry-After)."""
    response = make_response(render_template("errors/error.html", code=code, text=text), code)
    if retry:
        response.headers["Retry-After"] = str(retry)
    return response


def too_many(text: str, retry: int) -> Response:
    """The 429 page for a browser that starts games too fast (or has started too many)."""
    return try_later(429, text, retry)


def init_app(app: Flask) -> None:
    """Register the error handler."""
    app.register_error_handler(HTTPException, http_error)
