"""The Flask app factory: instance folder, keys, storage, i18n, CSRF and blueprints."""

from __future__ import annotations

import logging
import os
import re
import secrets
from pathlib import Path
from typing import Any

from flask import Flask, Response, abort, current_app, request
from flask_wtf.csrf import CSRFProtect

from scorer.instance import instance_folder
from scorer.marks import number, signed
from scorer.paths import DATABASE_NAME, data_dir
from scorer.web import assets, compression, dates, db, i18n, params, polls
from scorer.web.game import downloads, versions

csrf = CSRFProtect()

# Enough for an imported 2000-deal game log with room to spare; refuses anything huge.
MAX_CONTENT_LENGTH = 2 * 1024 * 1024

CONFIG_TEMPLATE = '''"""Settings of this scorer instance (made on first start; private)."""

# Signs the session cookie (which remembers game links and the host key).
SECRET_KEY = {secret!r}

# Whoever opens the app with ?key=<HOST_KEY> sees and manages every game.
HOST_KEY = {host!r}
'''


def ensure_instance(path: str) -> None:
    """Create the instance folder and its config.py with fresh keys on first start."""
    Path(path).mkdir(parents=True, exist_ok=True)
    config = Path(path) / "config.py"
    text = CONFIG_TEMPLATE.format(secret=secrets.token_hex(32), host=secrets.token_urlsafe(24))
    try:
        # O_EXCL: two workers starting at once must not end up with different keys.
        fd = os.open(config, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the table app."""
    app = Flask(
        "scorer",
        instance_path=str(instance_folder((test_config or {}).get("INSTANCE_PATH"))),
        instance_relative_config=True,
        template_folder=str(data_dir("templates")),
        static_folder=str(Path(__file__).parent / "static"),
    )
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, DATABASE_NAME),
        MAX_CONTENT_LENGTH=MAX_CONTENT_LENGTH,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 365,
        SESSION_REFRESH_EACH_REQUEST=False,  # a poll every 5 s need not rewrite the cookie
        # Checked by our own guard below, after the read-only refusal (403 first).
        WTF_CSRF_CHECK_DEFAULT=False,
        WTF_CSRF_TIME_LIMIT=None,
        POLL_SECONDS=5,
    )
    if test_config is None:
        ensure_instance(app.instance_path)
        app.config.from_pyfile("config.py")
    else:
        app.config.from_mapping(test_config)
        if not app.config.get("SECRET_KEY") or not app.config.get("HOST_KEY"):
            ensure_instance(app.instance_path)
            app.config.from_pyfile("config.py")
            app.config.from_mapping(test_config)
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)

    csrf.init_app(app)
    i18n.init_app(app)
    db.init_app(app)
    versions.init_app(app)
    downloads.init_app(app)
    assets.init_app(app)
    app.config["CONTENT_SECURITY_POLICY"] = CONTENT_SECURITY_POLICY
    # Scores as the PDF writes them: +20, −120 (a real minus sign).
    app.add_template_filter(signed, "signed")
    app.add_template_filter(number, "number")
    app.add_template_filter(dates.human_date, "human_date")
    app.add_template_filter(dates.played, "played_for")
    app.add_template_filter(dates.duration, "duration")
    app.before_request(guard_writes)
    app.after_request(safety_headers)
    app.after_request(compression.compressed)
    redact_token_logs(app)
    # Before any route is added: each <int:…> is bound to its converter as it is added.
    app.url_map.converters["int"] = params.RowIdConverter
    register_blueprints(app)
    # A watcher's unchanged poll is answered before Flask's per-request work.
    app.wsgi_app = polls.Unchanged(  # type: ignore[method-assign]
        app.wsgi_app, app.extensions["scorer_stores"])
    return app


# -- Content-Security-Policy and token-free logs ------------------------------------------


# No page has an inline <script>, <style>, style= or on…= handler: every script and
# stylesheet is a file of our own, so the policy needs neither 'unsafe-inline', nor
# nonces, nor hashes, and a cached page is safe to answer as it is.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'")


_TOKEN_PATH = re.compile(r"/([gvs])/[A-Za-z0-9_-]{16,}")
# No id has 20 digits (SQLite's largest has 19): a longer run in a path is someone's
# probe, and a 5000-digit one would fill the log.
_LONG_NUMBER = re.compile(r"[0-9]{20,}")


def redacted(text: str) -> str:
    """A log line with every /g/, /v/ or /s/ (club share) token cut to /g/<…>, and every
    number of 20 digits or more to <N digits>."""
    text = _LONG_NUMBER.sub(lambda m: f"<{len(m.group())} digits>", text)
    return _TOKEN_PATH.sub(r"/\1/<…>", text)


class RedactTokens(logging.Filter):
    """A logging filter that keeps game tokens out of log records (message and traceback)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record's text without tokens; never drop it."""
        record.msg = redacted(record.getMessage())
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = redacted(logging.Formatter().formatException(record.exc_info))
        elif record.exc_text:
            record.exc_text = redacted(record.exc_text)
        return True


def redact_token_logs(app: Flask) -> None:
    """Flask logs 'Exception on /g/<token> [GET]': the token is a key to the game."""
    app.logger.addFilter(RedactTokens())
    for name in ("waitress", "waitress.queue"):
        logging.getLogger(name).addFilter(RedactTokens())


def safety_headers(response: Response) -> Response:
    """Links carry secret tokens: never send them on as a Referer; no framing, no sniffing."""
    response.headers.setdefault("Content-Security-Policy",
                                current_app.config["CONTENT_SECURITY_POLICY"])
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response


def guard_writes() -> None:
    """Refuse any write through a read-only link, then check CSRF on every POST."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    if request.path.startswith(("/v/", "/s/")):
        abort(403)
    csrf.protect()


def register_blueprints(app: Flask) -> None:
    """Attach one blueprint per feature: the games list, the game's pages, the club's."""
    from scorer.web import errors, games, health, offline, site, storage
    from scorer.web.club import manage, new_game
    from scorer.web.club import pages as club_pages
    from scorer.web.game import board, compare, pages, rule_change, rules

    app.register_blueprint(site.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(board.bp)
    app.register_blueprint(health.bp)
    app.register_blueprint(offline.bp)
    app.register_blueprint(rules.bp)
    app.register_blueprint(compare.bp)
    app.register_blueprint(manage.bp)
    app.register_blueprint(club_pages.bp)
    app.register_blueprint(new_game.bp)
    app.register_blueprint(rule_change.bp)
    errors.init_app(app)
    storage.init_app(app)
    compare.init_app(app)
    club_pages.init_app(app)
