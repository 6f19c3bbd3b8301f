"""The service worker's script (``/sw.js``): the app shell and the game pages a phone
keeps for a reload without a connection (docs/UX.md «Offline after a reload»).

Served from the site's root so its scope is every page; written per app: the shell's
content-hashed URLs and a version made of them, so any change of a static file is a new
worker, which replaces the old shell (the template: templates/offline/sw.js).
"""

from __future__ import annotations

import hashlib

from flask import Blueprint, Response, render_template, request

from scorer.web.assets import assets, static_url

bp = Blueprint("offline", __name__)

# What a page needs to be drawn and to work: styles, scripts, icons.
SHELL = ("app.css", "js-flag.js", "app.js", "outbox.js", "print.css", "board.css",
         "compare.css", "icon.svg", "icon-192.png", "icon-512.png")
# The game pages a phone keeps (paths under the script root): a game's edit page and its
# new-deal form, its read-only page and its board. Nothing else: no host page.
KEPT = (r"/g/[A-Za-z0-9_-]+", r"/g/[A-Za-z0-9_-]+/deal", r"/v/[A-Za-z0-9_-]+",
        r"/v/[A-Za-z0-9_-]+/board")


@bp.get("/sw.js")
def service_worker() -> Response:
    """The worker's script, revalidated on every check (a browser looks for updates)."""
    shell = [static_url(name) for name in SHELL if name in assets().by_name]
    root = request.script_root
    kept = [f"^{root}{pattern}$" for pattern in KEPT]
    version = hashlib.sha256("\n".join([*shell, *kept]).encode()).hexdigest()[:12]
    body = render_template("offline/sw.js", version=version, shell=shell, kept=kept)
    response = Response(body, mimetype="application/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response
