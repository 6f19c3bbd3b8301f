"""``/healthz``: whether this instance can serve, for a reverse proxy or a supervisor."""

from __future__ import annotations

from flask import Blueprint, Response, current_app

from scorer.store import schema_problem

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> Response:
    """200 «ok» when the database file opens and its schema is current; else 503 and why.

    The file is opened afresh on every ask: a connection the app already holds would
    still read a file deleted or replaced under it."""
    problem = schema_problem(current_app.config["DATABASE"])
    response = Response("ok\n" if problem is None else f"{problem}\n",
                        status=200 if problem is None else 503, mimetype="text/plain")
    response.headers["Cache-Control"] = "no-store"
    return response
