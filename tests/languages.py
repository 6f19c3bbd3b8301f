"""The app's languages, for tests parameterised over them.

PENDING lists languages whose catalog is still being written: their tests are skipped
(not failed) until the catalog arrives. The integrator empties PENDING when it does.
"""

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
# Catalogs not written yet: tests over them skip with this reason.
PENDING: set[str] = set()
# gettext plural forms each language needs.
PLURALS = {"ru": 3, "uk": 3, "pl": 3}


def po_path(lang: str) -> Path:
    """Where the catalog of ``lang`` lives."""
    return TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"


def ready(lang: str) -> str:
    """``lang`` for a test, or a skip while its catalog is pending."""
    if lang in PENDING:
        pytest.skip(f"the {lang} catalog is pending (tests/languages.py PENDING)")
    return lang


def po(lang: str) -> Catalog:
    """The parsed .po catalog of ``lang``."""
    with open(po_path(ready(lang)), "rb") as handle:
        return read_po(handle, locale=lang)


def each(langs: tuple[str, ...] = LANGUAGES) -> list[object]:
    """pytest params over ``langs``, the pending ones marked so a run shows why they skip."""
    return [pytest.param(code, id=code) for code in langs]
