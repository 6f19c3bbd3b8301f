"""Languages: Russian by default, English on request (Flask-Babel)."""

from __future__ import annotations

from flask import Flask, request
from flask_babel import Babel, get_locale

# The one catalog, shared with the Flask-free engine, sheet and CLI.
from scorer.engine.texts import CATALOG, DEFAULT, LANGUAGES

COOKIE = "lang"

babel = Babel()


def select_locale() -> str:
    """The language the browser chose with the switch, else Russian."""
    chosen = request.cookies.get(COOKIE)
    return chosen if chosen in LANGUAGES else DEFAULT


def lang() -> str:
    """The current language code, for the engine's ru/en texts."""
    return str(get_locale() or DEFAULT)


def init_app(app: Flask) -> None:
    """Wire Flask-Babel to the one catalog (scorer/translations) and the language cookie."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(CATALOG))
    babel.init_app(app, locale_selector=select_locale)
    app.jinja_env.globals.update(lang=lang, languages=LANGUAGES)
