"""Languages: the switch's choice, else the browser's, else the instance's (Flask-Babel)."""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, request
from flask_babel import Babel, get_locale, get_translations
from jinja2 import pass_eval_context
from jinja2.nodes import EvalContext
from markupsafe import Markup

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
    # The locale's language, not str(locale): the selector only ever gives a bare code, and
    # a page asks for it a few dozen times (str() of a Locale rebuilds the identifier).
    found = get_locale()
    return found.language if found is not None else DEFAULT


def init_app(app: Flask) -> None:
    """Wire Flask-Babel to the one catalog (scorer/translations) and the language cookie."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(CATALOG))
    babel.init_app(app, locale_selector=select_locale)
    app.jinja_env.globals.update(lang=lang, languages=LANGUAGES, native_names=NATIVE_NAMES)
    # The templates' _() and ngettext(), in place of Flask-Babel's, because a game page asks
    # for 50-70 strings per render. Flask-Babel's find the translations through the request
    # context on every string (about 25 us each); these look them up once per render. And
    # they take the evaluation context, not the template's, so a call inside a loop does not
    # copy the template's variables into a derived context (Jinja's i18n callables do).
    # Measured in docs/PERFORMANCE.md ("Templates' gettext").
    app.jinja_env.globals.update(_=template_gettext, gettext=template_gettext,
                                 ngettext=template_ngettext, preset_gettext=preset_gettext)


def translations(ev: EvalContext) -> Any:
    """This render's translations, looked up once and kept on its evaluation context (one
    render never changes language: force_locale starts another)."""
    found = getattr(ev, "scorer_translations", None)
    if found is None:
        found = ev.scorer_translations = get_translations()  # type: ignore[attr-defined]
    return found


@pass_eval_context
def template_gettext(ev: EvalContext, string: str, **variables: Any) -> str:
    """gettext as Jinja's newstyle i18n has it: the translation (trusted markup when
    autoescaping) always formatted with the variables, which are escaped."""
    found = translations(ev)
    if not variables:  # most calls: the same text every time for this catalog
        return plain_text(found, string, ev.autoescape)
    text = str(found.ugettext(string))
    return (Markup(text) if ev.autoescape else text) % variables


def plain_text(found: Any, string: str, markup: bool) -> str:
    """A translation with no variables, formatted once per catalog (``%%`` is ``%``).

    Kept on the catalog object itself, so a catalog Flask-Babel loads again (a new
    object) starts afresh; the keys are the templates' own msgids, a fixed set.
    """
    memo: dict[tuple[str, bool], str] | None = getattr(found, "scorer_plain", None)
    if memo is None:
        memo = found.scorer_plain = {}
    text = memo.get((string, markup))
    if text is None:
        text = str(found.ugettext(string))
        text = memo[(string, markup)] = (Markup(text) if markup else text) % {}
    return text


@pass_eval_context
def template_ngettext(ev: EvalContext, singular: str, plural: str, num: int,
                      **variables: Any) -> str:
    """ngettext as Jinja's newstyle i18n has it (``num`` is a variable too)."""
    variables.setdefault("num", num)
    found = str(translations(ev).ungettext(singular, plural, num))
    return (Markup(found) if ev.autoescape else found) % variables


@pass_eval_context
def preset_gettext(ev: EvalContext, preset: str | None, string: str, **variables: Any) -> str:
    """A word as the game's preset says it (docs/UX.md: the Polish preset's «pod kreską»):
    the entry under ``preset:NAME`` where the catalog has one, else the plain one. The
    entries are marked for extraction in scorer/marks.py (NATIVE_WORDS)."""
    found = translations(ev)
    text = str(found.upgettext(f"preset:{preset}", string)) if preset else string
    if text == string:
        text = str(found.ugettext(string))
    return (Markup(text) if ev.autoescape else text) % variables
