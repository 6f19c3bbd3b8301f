"""The one text catalog (gettext, ``scorer/translations``) for code that runs without Flask.

The web reads the same catalog through Flask-Babel; the engine, the PDF sheet and the CLI
read it here with plain Babel, so every user-facing word has one msgid (English) and one
Russian translation in ``messages.po``. Strings kept in tables are marked with ``N_`` so
``pybabel extract`` finds them, and translated when they are shown.
"""

from __future__ import annotations

import datetime
import functools
from pathlib import Path
from typing import NamedTuple

import babel.dates
from babel.support import NullTranslations, Translations

LANGUAGES = ("ru", "en")
DEFAULT = "ru"
# Beside the package's modules, so an installed wheel and a checkout find the same files.
CATALOG = Path(__file__).resolve().parents[1] / "translations"


class Text(NamedTuple):
    """A message of the engine: its English msgid and the agreement it rests on, if any."""

    msgid: str
    agreement: str | None = None


def N_(msgid: str) -> str:
    """Mark a msgid for extraction; the text is translated where it is shown."""
    return msgid


@functools.cache
def translations(lang: str) -> NullTranslations:
    """The catalog of ``lang`` (Russian for an unknown one); English is the msgids themselves."""
    if lang == "en":
        return NullTranslations()
    lang = lang if lang in LANGUAGES else DEFAULT
    return Translations.load(str(CATALOG), [lang], domain="messages")


def tr(lang: str, msgid: str) -> str:
    """One msgid in ``lang``."""
    return translations(lang).gettext(msgid)


def format_date(value: str | None, lang: str) -> str:
    """An ISO date in words (4 декабря 2026 / 4 December 2026); any other text as is."""
    if not value:
        return ""
    try:
        day = datetime.date.fromisoformat(value)
    except ValueError:
        return value
    return babel.dates.format_date(day, "d MMMM y", locale=lang if lang in LANGUAGES else DEFAULT)
