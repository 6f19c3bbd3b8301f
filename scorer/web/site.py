"""Site-wide routes: the language switch and the web app manifest."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, Response, jsonify, redirect, request, send_from_directory, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response as WerkzeugResponse

from scorer.engine.texts import LANGUAGES
from scorer.paths import data_dir
from scorer.web.assets import static_url
from scorer.web.i18n import COOKIE

bp = Blueprint("site", __name__)


def safe_back(target: str | None) -> str:
    """Where to return after switching language: only a path on this site."""
    if not target:
        return url_for("games.index")
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/"):
        return url_for("games.index")
    return parts.path + (f"?{parts.query}" if parts.query else "")


@bp.get("/lang/<code>")
def switch_language(code: str) -> WerkzeugResponse:
    """Remember the chosen language in a cookie and go back."""
    target = safe_back(request.args.get("next") or request.referrer)
    response = redirect(target)
    if code in LANGUAGES:
        response.set_cookie(COOKIE, code, max_age=60 * 60 * 24 * 365, samesite="Lax")
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest, so a phone can put the app on its home screen."""
    data = {
        "name": _("Thousand: score sheet"),
        "short_name": _("Thousand"),
        "start_url": url_for("games.index"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#14532d",
        "icons": [
            {"src": static_url("icon-192.png"), "sizes": "192x192",
             "type": "image/png"},
            {"src": static_url("icon-512.png"), "sizes": "512x512",
             "type": "image/png"},
            {"src": static_url("icon.svg"), "sizes": "any",
             "type": "image/svg+xml"},
        ],
    }
    response = jsonify(data)
    response.mimetype = "application/manifest+json"
    return response


@bp.get("/favicon.ico")
def favicon() -> WerkzeugResponse:
    """Browsers ask for this path; point them at the icon."""
    return redirect(static_url("icon-192.png"))


@bp.get("/print.css")
def print_css() -> Response:
    """The print stylesheet at the address pages linked before static files were named by
    content (pages now link /static/print.<hash>.css); it lives with the PDF sheet."""
    return send_from_directory(data_dir("templates") / "sheet", "print.css", mimetype="text/css",
                               max_age=3600)
