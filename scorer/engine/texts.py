"""The one text catalog (gettext, ``scorer/translations``) for code that runs without Flask.

The web reads the same catalog through Flask-Babel; the engine, the PDF sheet and the CLI
read it here with plain Babel, so every user-facing word has one msgid (English) and one
Russian translation in ``messages.po``. Strings kept in tables are marked with ``N_`` so
``pybabel extract`` finds them, and translated when they are shown.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import NamedTuple

import babel.dates
from babel.support import NullTranslations, Translations

# Russian first; then as a table would look for its own language in the switch.
LANGUAGES = ("ru", "uk", "pl", "en")
DEFAULT = "ru"
# Each language in its own name, for the switch in the header.
NATIVE_NAMES = {"ru": "Русский", "uk": "Українська", "pl": "Polski", "en": "English"}
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


def ptr(lang: str, context: str, msgid: str) -> str:
    """One msgid under ``context`` in ``lang``; the plain entry where the context has none."""
    found = str(translations(lang).pgettext(context, msgid))
    return found if found != msgid else tr(lang, msgid)


class Translated(Mapping[str, str]):
    """A catalog text kept as its msgid and read in any language: ``text["uk"]``.

    The agreement catalog keeps these instead of one string per language, so its words live
    in messages.po like every other word and the engine needs no Flask to show them.
    """

    __slots__ = ("msgid", "context")
    msgid: str
    context: str | None

    def __init__(self, msgid: str, context: str | None = None):
        object.__setattr__(self, "msgid", msgid)
        object.__setattr__(self, "context", context)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a catalog text is read-only")

    def __getitem__(self, lang: str) -> str:
        if self.context:
            return ptr(lang, self.context, self.msgid)
        return tr(lang, self.msgid)

    def __iter__(self) -> Iterator[str]:
        return iter(LANGUAGES)

    def __len__(self) -> int:
        return len(LANGUAGES)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Translated):
            return (self.msgid, self.context) == (other.msgid, other.context)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.msgid, self.context))

    def __repr__(self) -> str:
        return f"Translated({self.msgid!r}, {self.context!r})"

    def __str__(self) -> str:
        return self.msgid

    def under(self, context: str | None) -> Translated:
        """The same text read under ``context`` (a preset's own words), if there is one."""
        return Translated(self.msgid, context)


def format_date(value: str | None, lang: str) -> str:
    """An ISO date in words (4 декабря 2026 / 4 December 2026); any other text as is."""
    if not value:
        return ""
    try:
        day = datetime.date.fromisoformat(value)
    except ValueError:
        return value
    return babel.dates.format_date(day, "d MMMM y", locale=lang if lang in LANGUAGES else DEFAULT)



def duration_text(minutes: int, lang: str, short: bool = False) -> str:
    """A length of play in words: «2 часа 40 минут», or short as a sheet says it («2 ч 40 мин»)."""
    hours, mins = divmod(max(minutes, 0), 60)
    cat = translations(lang)
    parts = []
    if hours:
        parts.append(cat.gettext("%(num)d h") % {"num": hours} if short else
                     cat.ngettext("%(num)d hour", "%(num)d hours", hours) % {"num": hours})
    if mins or not hours:
        parts.append(cat.gettext("%(num)d min") % {"num": mins} if short else
                     cat.ngettext("%(num)d minute", "%(num)d minutes", mins) % {"num": mins})
    return " ".join(parts)


def played_for(minutes: int, lang: str, short: bool = False) -> str:
    """«Играли 2 ч 40 мин»: how long a game was played."""
    return tr(lang, "Played for %(time)s") % {"time": duration_text(minutes, lang, short)}
