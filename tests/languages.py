"""The app's languages, for tests parameterised over them."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from scorer.engine.texts import LANGUAGES

ROOT = Path(__file__).resolve().parents[1]
TRANSLATIONS = ROOT / "scorer" / "translations"
# Languages with a messages.po (English is the msgids themselves).
TRANSLATED = tuple(code for code in LANGUAGES if code != "en")
# gettext plural forms each language needs.
PLURALS = {"ru": 3, "uk": 3, "pl": 3}


def po_path(lang: str) -> Path:
    """Where the catalog of ``lang`` lives."""
    return TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"


def ready(lang: str) -> str:
    """``lang`` for a test; a translated language without its catalog fails, never skips."""
    assert lang == "en" or po_path(lang).is_file(), f"no catalog for {lang}"
    return lang


def po(lang: str) -> Catalog:
    """The parsed .po catalog of ``lang``."""
    with open(po_path(ready(lang)), "rb") as handle:
        return read_po(handle, locale=lang)


def each(langs: tuple[str, ...] = LANGUAGES) -> list[object]:
    """pytest params over ``langs``, named by their codes."""
    return [pytest.param(code, id=code) for code in langs]
