"""The protocol as the game page shows it: rows, cells, traditional marks and a legend.

Everything shown is read from the engine's Protocol; which mark goes in which cell is
decided by scorer.marks, the same as on the PDF sheet.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _

from scorer import marks
from scorer.engine import catalog
from scorer.web.i18n import lang


def legend(ag, players: int) -> list[tuple[str, str]]:
    """(mark, meaning) for the marks this game can show, in the page's language."""
    return marks.legend(lang(), ag, players)


@dataclass(frozen=True)
class Why:
    """One reason behind a delta, and the agreement it names (an anchor on the rules sheet)."""

    text: str
    agreement: str | None = None
    title: str = ""  # the catalog title of that agreement, in the page's language


@dataclass
class Cell:
    """One seat's entry in one row."""

    delta: int | None
    score: int
    marks: str
    why: list[Why]
    active: bool = True


def reasons(row: Any, seat: int, code: str) -> list[Why]:
    """A seat's reasons in a row, worded without the raw "[agreement_id]" tags."""
    specs = catalog().agreements
    out = []
    for reason in row.why[seat] if seat < len(row.why) else ():
        named = reason.agreement
        title = specs[named].title[code] if named in specs else ""
        out.append(Why(reason.text(code, tags=False), named if title else None, title))
    return out


@dataclass
class ShownRow:
    """One protocol row ready for the template."""

    n: int
    slot_id: int | None
    kind: str
    dealer: int
    declarer: int | None
    contract: int | None
    row_marks: str
    result: str
    cells: list[Cell] = field(default_factory=list)


def result_text(row: Any, m: dict[str, str], words: dict[str, str]) -> str:
    """A short word for how the row ended."""
    if row.type in words:
        return words[row.type]
    if row.result == "made":
        return "✓"
    if row.result == "failed":
        return "✗"
    if row.result == "raspis":
        return m["raspis"]
    return ""


def shown_row(protocol: Any, i: int, slot_id: int | None = None) -> ShownRow:
    """Protocol row i (from 0) with its cells and marks."""
    code = lang()
    m = marks.letters(code)
    seats = len(protocol.players)
    words = {"redeal": _("redeal"), "adjustment": _("adjustment")}
    row = protocol.rows[i]
    shown = ShownRow(
        n=row.n, slot_id=slot_id, kind=row.type, dealer=row.dealer, declarer=row.declarer,
        contract=row.contract, row_marks=" ".join(marks.row_marks(row, code)),
        result=result_text(row, m, words),
    )
    for seat in range(seats):
        shown.cells.append(Cell(
            delta=row.delta[seat], score=row.score[seat],
            marks=marks.seat_marks(row, seat, code, seats), why=reasons(row, seat, code),
        ))
    return shown


@dataclass
class DeletedRow:
    """A deleted deal, shown where it was (after live row `after`), with what it said."""

    slot_id: int
    after: int
    record: dict | None
    kind: str = "deleted"


def recent_rows(protocol: Any, slots: list[Any], limit: int | None,
                last_record: Callable[[int], dict | None] | None) -> tuple[list[Any], int]:
    """The newest `limit` live rows (all if None), newest first, deleted deals in place.

    Returns (rows, how many older live rows were left out). last_record is None on the
    read-only page, which shows no deleted deals.
    """
    count = len(protocol.rows)
    first = 0 if limit is None else max(0, count - limit)
    out: list[Any] = []
    live = 0
    for slot in slots:
        if slot.record is not None:
            if live >= first:
                out.append(shown_row(protocol, live, slot.id))
            live += 1
        elif last_record is not None and live >= first:
            out.append(DeletedRow(slot.id, live, last_record(slot.id)))
    out.reverse()
    return out, first


def barrel_marks(protocol: Any) -> dict[int, Any]:
    """Seat -> BarrelSeat for the seats on the barrel now."""
    return {b.seat: b for b in protocol.barrel}
