"""CSV files the app hands out, written so that no cell can run as a spreadsheet formula.

A spreadsheet reads a cell that begins with «=», «+», «-» or «@» as a formula, and a
leading tab or carriage return can hide such a start: a player named
``=HYPERLINK("http://…","Вова")`` would be a live link, or worse, in the host's table and
in everyone's who opens a share link. As OWASP recommends (CSV Injection), every text
cell that begins so gets a leading ``'``, which a spreadsheet shows as text and does not
print. Numbers are written as numbers: a score of −120 stays ``-120``. Every CSV of the
app is written by ``csv_text``; nothing else calls ``csv.writer``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

# OWASP's list, and the full-width forms some spreadsheets (East Asian locales) also
# take for the start of a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def safe_cell(value: Any) -> Any:
    """A cell as written: a text that could start a formula with a leading ``'``; numbers,
    None (an empty cell) and other texts as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def csv_text(rows: Iterable[Sequence[Any]]) -> str:
    """The rows as CSV text (CRLF line ends, as RFC 4180), every cell made safe."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerows([safe_cell(cell) for cell in row] for row in rows)
    return out.getvalue()
