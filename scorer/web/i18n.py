"""Languages: the switch's choice, else the browser's, else the instance's (Flask-Babel)."""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, request
from flask_babel import Babel, get_locale, get_translations
from jinja2 import pass_eval_context
from jinja2.nodes import EvalContext

# The one catalog, shared with the Flask-free engine, sheet and CLI.
from scorer.engine.texts import CATALOG, DEFAULT, LANGUAGES, NATIVE_NAMES

COOKIE = "lang"
# The instance's own language when neither the switch nor the browser names one of ours
# (`python -m scorer serve --lang uk`); Russian unless set.
CONFIG_KEY = "SCORER_LANGUAGE"

babel = Babel()


def instance_language() -> str:
    """The instance's default language (config SCORER_LANGUAGE), Russian if unset or unknown."""
    configured = current_app.config.get(CONFIG_KEY)
    return configured if configured in LANGUAGES else DEFAULT


def select_locale() -> str:
    """The language chosen with the switch; else the first of ours the browser asks for
    (Accept-Language, by weight: uk-UA finds uk); else the instance's."""
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    asked = request.accept_languages.best_match(LANGUAGES)
    return asked if asked in LANGUAGES else instance_language()


def lang() -> str:
    """The current language code, for the engine's ru/en texts."""
    return str(get_locale() or DEFAULT)


def init_app(app: Flask) -> None:
    """Wire Flask-Babel to the one catalog (scorer/translations) and the language cookie."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(CATALOG))
    babel.init_app(app, locale_selector=select_locale)
    app.jinja_env.globals.update(lang=lang, languages=LANGUAGES, native_names=NATIVE_NAMES)
    # Flask-Babel's own callables find the translations through the request context on
    # every string; these find them once per template render. Measured on a game page:
    # the edit page renders in 1.6 ms instead of 2.1, the read-only one in 1.4 instead of
    # 1.9, the deal form in 1.3 instead of 1.7.
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        template_gettext, template_ngettext, newstyle=True,
        pgettext=template_pgettext, npgettext=template_npgettext)


def translations(ev: EvalContext) -> Any:
    """This render's translations, looked up once and kept on its evaluation context (one
    render never changes language: force_locale starts another)."""
    found = getattr(ev, "scorer_translations", None)
    if found is None:
        found = ev.scorer_translations = get_translations()  # type: ignore[attr-defined]
    return found


@pass_eval_context
def template_gettext(ev: EvalContext, string: str) -> str:
    """gettext for templates (Jinja's newstyle i18n formats and escapes its result)."""
    return str(translations(ev).ugettext(string))


@pass_eval_context
def template_ngettext(ev: EvalContext, singular: str, plural: str, num: int) -> str:
    """ngettext for templates."""
    return str(translations(ev).ungettext(singular, plural, num))


@pass_eval_context
def template_pgettext(ev: EvalContext, context: str, string: str) -> str:
    """pgettext for templates."""
    return str(translations(ev).upgettext(context, string))


@pass_eval_context
def template_npgettext(ev: EvalContext, context: str, singular: str, plural: str,
                       num: int) -> str:
    """npgettext for templates."""
    return str(translations(ev).unpgettext(context, singular, plural, num))
