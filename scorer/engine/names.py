"""Names and free texts of a game log: no hidden characters, and names compared as read.

A name with U+202E reverses the text around it on every page, a zero-width space makes
«Аня» and «Аня» two players, NUL or ESC confuse terminals and files: such characters are
refused wherever a game log carries text (players, title, place, notes).
"""

from __future__ import annotations

import unicodedata

from scorer.engine.errors import RuleError

# Control (Cc), format (Cf: zero-width and bidi controls such as U+202E), line and
# paragraph separators and surrogates: invisible or reordering text, never part of a
# name. A note may still hold line breaks and tabs.
_HIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
_NOTE_SPACE = frozenset("\n\r\t")


def hidden_character(text: str, *, multiline: bool = False) -> str | None:
    """The first control or format character in text, as ``U+XXXX``, or None."""
    for ch in text:
        if multiline and ch in _NOTE_SPACE:
            continue
        if unicodedata.category(ch) in _HIDDEN:
            return f"U+{ord(ch):04X}"
    return None


def name_key(name: str) -> str:
    """What two player names are compared by: NFKC, without hidden characters, trimmed."""
    folded = unicodedata.normalize("NFKC", name)
    return "".join(ch for ch in folded if unicodedata.category(ch) not in _HIDDEN).strip()


def check_text(field: str, text: str) -> None:
    """Refuse a name, title, place or note holding a control or format character."""
    found = hidden_character(text, multiline=field == "notes")
    if found:
        raise RuleError(None, field, "text.hidden", char=found)
