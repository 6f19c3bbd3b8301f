"""Names and free texts of a game log: bounded, visible, and names compared as read.

A name with U+202E reverses the text around it on every page, a zero-width space or a
Hangul filler makes «Аня» and «Аня» two players, NUL or ESC confuse terminals and files,
a lone surrogate cannot even be stored: such characters are refused wherever a game log
carries text (players, title, place, notes, a redeal's reason) and wherever the club
keeps one (a player's new name, a season's name, who changed a game's rules), and every
text has a length cap. The web forms, import, restore and the CLI all go through these
checks (scorer/web/forms.py lists every form field that becomes stored text).
"""

from __future__ import annotations

import datetime
import functools
import json
import re
import unicodedata
from importlib import resources
from typing import Any

from scorer.engine.errors import RuleError

MAX_NAME = 40
MAX_TITLE = 80
MAX_PLACE = 80
MAX_NOTES = 2000
MAX_REASON = 200
MAX_SEASON = 80  # a club season's name («Осень 2026»)
MAX_WHO = 40  # who changed a game's rules: a first name or a nickname
# Combining marks in a row on one letter: Vietnamese needs two (ệ = e + ̣ + ̂), Thai a
# vowel and a tone mark; dozens of them ("Zalgo" text) paint over the lines around.
MAX_MARKS = 2
TEXT_LIMITS = {"players": MAX_NAME, "title": MAX_TITLE, "place": MAX_PLACE,
               "notes": MAX_NOTES, "reason": MAX_REASON, "season": MAX_SEASON,
               "who": MAX_WHO}

# Control (Cc), format (Cf: zero-width and bidi controls such as U+202E), line and
# paragraph separators: invisible or reordering text, never part of a name. A note may
# still hold line breaks and tabs.
_HIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp"})
_NOTE_SPACE = frozenset("\n\r\t")
# Unassigned (Cn) and private-use (Co) code points draw as nothing, a box, or whatever a
# font happens to put there: nobody at the table can read them.
_UNREADABLE = frozenset({"Cn", "Co"})
_MARKS = frozenset({"Mn", "Me"})  # non-spacing and enclosing marks stack on their letter
# Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties) beyond the format
# characters refused above: the variation selectors and Other_Default_Ignorable_Code_Point
# that are assigned (the unassigned rest is refused as unassigned). Fonts draw them as
# nothing, so «Аня» + U+3164 looks exactly like «Аня». U+2800 (braille blank) is not
# default-ignorable but draws as a blank too.
_INVISIBLE_RANGES = (
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180D), (0x180F, 0x180F),  # Mongolian free variation selectors
    (0x2800, 0x2800),  # braille pattern blank
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0xE0100, 0xE01EF),  # variation selectors supplement
)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _invisible(ch: str) -> bool:
    """Whether a character draws as nothing (see _INVISIBLE_RANGES)."""
    code = ord(ch)
    return any(low <= code <= high for low, high in _INVISIBLE_RANGES)


def _code(ch: str) -> str:
    """A character as ``U+XXXX``: safe to print, whatever the character is."""
    return f"U+{ord(ch):04X}"


def refusal(text: str, *, multiline: bool = False) -> tuple[str, dict[str, Any]] | None:
    """The first thing wrong with a text's characters: (rule, params), or None."""
    marks = 0
    for ch in text:
        if multiline and ch in _NOTE_SPACE:
            marks = 0
            continue
        category = unicodedata.category(ch)
        if category == "Cs":  # half of a UTF-16 pair, alone: not text at all
            return "text.surrogate", {"char": _code(ch)}
        if category in _HIDDEN:
            return "text.hidden", {"char": _code(ch)}
        if category in _UNREADABLE:
            return "text.unreadable", {"char": _code(ch)}
        if _invisible(ch):
            return "text.invisible", {"char": _code(ch)}
        marks = marks + 1 if category in _MARKS else 0
        if marks > MAX_MARKS:
            return "text.marks", {"max": MAX_MARKS}
    return None


def check_text(field: str, text: str, deal: int | None = None) -> None:
    """Refuse a name, title, place, note or reason that is too long or holds a character
    nobody can read (control, format, invisible, unassigned, private-use, a lone
    surrogate, or too many stacked marks)."""
    limit = TEXT_LIMITS.get(field)
    if limit is not None and len(text) > limit:
        raise RuleError(deal, field, "text.long", max=limit, got=len(text))
    found = refusal(text, multiline=field == "notes")
    if found:
        rule, params = found
        raise RuleError(deal, field, rule, **params)


def visible_only(text: str) -> str:
    """The text without the characters check_text refuses one by one (control, format,
    invisible, unassigned, private-use, lone surrogates): what a file name or a quote of
    text stored before these rules may carry."""
    return "".join(ch for ch in text if refusal(ch) is None)


def check_name(name: str) -> None:
    """A player's name: a text as above that shows at least one letter."""
    check_text("players", name)
    if not any(unicodedata.category(ch).startswith("L") for ch in name):
        raise RuleError(None, "players", "players.letter", name=name)


def check_date(value: str) -> None:
    """A game's date: an ISO 8601 calendar date, YYYY-MM-DD."""
    try:
        ok = bool(_DATE.fullmatch(value)) and datetime.date.fromisoformat(value) is not None
    except ValueError:
        ok = False
    if not ok:
        raise RuleError(None, "date", "date.iso", got=value[:20])


def name_key(name: str) -> str:
    """What two player names are compared by: NFKC, spaces folded, hidden characters
    removed, then the confusables skeleton of Unicode TR39 (Latin «A» = Cyrillic «А»)."""
    folded = unicodedata.normalize("NFKC", name)
    visible = "".join(ch for ch in folded if unicodedata.category(ch) not in _HIDDEN
                      and not _invisible(ch))
    return skeleton(" ".join(visible.split()))


def skeleton(text: str) -> str:
    """TR39's skeleton: decompose, map every character to its prototype, decompose again."""
    table = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in decomposed))


@functools.cache
def _prototypes() -> dict[str, str]:
    """{character: its prototype} from the confusables table that confusable-homoglyphs ships.

    The package keeps Unicode's confusables.txt (source → prototype) as a symmetric list of
    partners. In that file every source has one prototype and no prototype is a source,
    so each character's partners form a star around its prototype: a character with one
    partner that has several is a source of that partner. Where two characters only name
    each other, either may be the prototype; the one taken (the longer, then the lower)
    gives both the same skeleton, which is all a comparison needs.
    """
    path = resources.files("confusable_homoglyphs").joinpath("confusables.json")
    data = json.loads(path.read_text(encoding="utf-8"))

    def clean(text: str) -> str:
        """The file's right-to-left entries carry U+200E marks from its comments."""
        return text.replace("\u200e", "")

    partners = {clean(k): [clean(p["c"]) for p in v] for k, v in data.items()}
    table = {}
    for char, others in partners.items():
        if len(char) != 1 or len(others) != 1:
            continue
        other = others[0]
        if len(partners.get(other, ())) > 1 or (len(other), -ord(other[0])) > (1, -ord(char)):
            table[char] = other
    return table
