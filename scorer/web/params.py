"""Whole numbers from a URL, its query or a form: only what SQLite can hold.

SQLite's INTEGER is a signed 64-bit number; Python's int is not bounded, and the sqlite3
module raises OverflowError on binding 2**63 (a 500, and a traceback in the log). Every
id in a path goes through the app's ``int`` converter (RowIdConverter) and every number
read from a query or a form through ``arg_int``: a number beyond the range finds no row,
so it answers 404 like any other id that names nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from flask import abort
from werkzeug.routing import IntegerConverter, Map

SQLITE_MAX = 2**63 - 1
SQLITE_MIN = -(2**63)
MAX_DIGITS = len(str(SQLITE_MAX))  # 19
# ASCII digits only: str.isdigit() and \d take «²» (int() refuses it) and «١٢» (int()
# reads it as 12); neither is how a page writes a number.
_WHOLE = re.compile(r"-?[0-9]+")


def sqlite_int(text: str) -> int:
    """The whole number a text spells, within SQLite's INTEGER range, or ValueError.

    Checks the length first: int() of a 5000-digit text is refused by Python (past 4300
    digits) only after reading it, and a number that long is out of range anyway.
    """
    text = text.strip()
    if not _WHOLE.fullmatch(text) or len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"not a whole number within SQLite's range ({len(text)} characters)")
    value = int(text)
    if not SQLITE_MIN <= value <= SQLITE_MAX:
        raise ValueError("beyond SQLite's INTEGER range")
    return value


def arg_int(values: Mapping[str, Any], name: str, default: int | None = None) -> int | None:
    """A number from a query or form: ``default`` when it is absent or not a number
    (as ``values.get(name, type=int)`` gave), 404 when it is a number beyond SQLite's
    range (it names no row and no page)."""
    raw = values.get(name)
    if raw is None or not _WHOLE.fullmatch(str(raw).strip()):
        return default
    try:
        return sqlite_int(str(raw))
    except ValueError:
        abort(404)


class RowIdConverter(IntegerConverter):
    """``<int:…>`` in the app's routes: 1 to 19 ASCII digits, at most SQLite's maximum;
    anything else matches no route (404), never reaches a query."""

    regex = rf"[0-9]{{1,{MAX_DIGITS}}}"

    def __init__(self, map: Map, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", SQLITE_MAX)
        super().__init__(map, *args, **kwargs)
