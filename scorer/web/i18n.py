"""Languages: Russian by default, English on request (Flask-Babel)."""

from __future__ import annotations

from typing import Any

from flask import Flask, request
from flask_babel import Babel, get_locale, get_translations
from jinja2 import pass_eval_context
from jinja2.nodes import EvalContext
from markupsafe import Markup

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


def _translations(ev: EvalContext) -> Any:
    """This render's translations, looked up once and kept on its evaluation context."""
    # Flask-Babel finds them through the request context on every call (about 13 µs; a
    # game page makes some 60 calls). One render never changes language (force_locale
    # starts a new render), and Jinja lets extensions attach attributes to the context.
    found = getattr(ev, "scorer_translations", None)
    if found is None:
        found = ev.scorer_translations = get_translations()
    return found


@pass_eval_context
def template_gettext(ev: EvalContext, string: str, **variables: Any) -> str:
    """gettext as Jinja's newstyle i18n does it: variables escaped, always %-formatted."""
    text = _translations(ev).ugettext(string)
    if ev.autoescape:
        text = Markup(text)
    return text % variables


@pass_eval_context
def template_ngettext(ev: EvalContext, singular: str, plural: str, num: int,
                      **variables: Any) -> str:
    """ngettext as Jinja's newstyle i18n does it, with ``num`` among the variables."""
    variables.setdefault("num", num)
    text = _translations(ev).ungettext(singular, plural, num)
    if ev.autoescape:
        text = Markup(text)
    return text % variables


def init_app(app: Flask) -> None:
    """Wire Flask-Babel to the one catalog (scorer/translations) and the language cookie."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(CATALOG))
    babel.init_app(app, locale_selector=select_locale)
    app.jinja_env.globals.update(lang=lang, languages=LANGUAGES)
    # In place of the callables Flask-Babel installed: one Jinja call per _() instead
    # of three, and one translations look-up per render instead of one per string.
    app.jinja_env.globals.update(_=template_gettext, gettext=template_gettext,
                                 ngettext=template_ngettext)
