"""The protocol as the game page shows it: rows, cells, traditional marks and a legend.

Everything shown is read from the engine's Protocol; this module only decides how
it looks (which mark goes in which cell).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _

from scorer.web.i18n import lang

# Russian initials in Russian; the letters of UX.md (Leadage's notation) in English.
MARKS = {
    "ru": {"bolt": "—", "penalty": "!", "barrel": "Б", "fall": "↓", "samosval": "С",
           "raspis": "Р", "golden": "З", "dark": "Т", "win": "★"},
    "en": {"bolt": "—", "penalty": "!", "barrel": "B", "fall": "↓", "samosval": "Z",
           "raspis": "R", "golden": "G", "dark": "D", "win": "★"},
}
EVENT_MARK = {
    "bolt": "bolt", "bolt_penalty": "penalty", "raspis_penalty": "penalty",
    "barrel_fall": "fall", "three_falls_zero": "penalty", "samosval": "samosval",
    "win": "win",
}


def marks() -> dict[str, str]:
    """The mark letters for the current language."""
    return MARKS.get(lang(), MARKS["ru"])


def legend() -> list[tuple[str, str]]:
    """(mark, meaning) pairs for the legend under the protocol."""
    m = marks()
    return [
        (m["bolt"], _("bolt (took no trick)")),
        (m["penalty"], _("penalty")),
        (m["barrel"], _("on the barrel")),
        (m["fall"], _("fell off the barrel")),
        (m["samosval"], _("samosval: score reset to 0")),
        (m["raspis"], _("concession (raspis)")),
        (m["golden"], _("golden deal (doubled)")),
        (m["dark"], _("dark game (doubled)")),
        (m["win"], _("winner")),
    ]


@dataclass
class Cell:
    """One seat's entry in one row."""

    delta: int | None
    score: int
    marks: str
    why: list[str]
    active: bool = True


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


def cell_marks(row: Any, seat: int, on_barrel: set[int], m: dict[str, str]) -> str:
    """The marks for one seat in one row (bolts, penalties, barrel, falls...)."""
    out = []
    for ev in row.events:
        if ev.seat != seat or ev.kind not in EVENT_MARK:
            continue
        sign = m[EVENT_MARK[ev.kind]]
        weight = int(ev.extra.get("weight", 1)) if ev.kind == "bolt" else 1
        out.append(sign * weight)
    if row.result == "raspis" and row.declarer == seat:
        out.append(m["raspis"])
    if seat in on_barrel:
        out.append(m["barrel"])
    return "".join(out)


def update_barrel(row: Any, on_barrel: set[int]) -> None:
    """Follow who sits on the barrel after this row, from its events."""
    for ev in row.events:
        if ev.kind == "golden_reset":
            on_barrel.clear()
        elif ev.kind == "barrel_enter":
            on_barrel.add(ev.seat)
        elif ev.kind in ("barrel_fall", "barrel_leave", "win"):
            on_barrel.discard(ev.seat)


def shown_rows(protocol: Any, slot_ids: list[int] | None = None) -> list[ShownRow]:
    """Every protocol row with its cells and marks, in order."""
    m = marks()
    code = lang()
    words = {"redeal": _("redeal"), "adjustment": _("adjustment")}
    on_barrel: set[int] = set()
    out = []
    for i, row in enumerate(protocol.rows):
        update_barrel(row, on_barrel)
        why = row.why_text(code)
        row_marks = (m["golden"] if row.golden else "") + (m["dark"] if row.dark else "")
        shown = ShownRow(
            n=row.n, slot_id=slot_ids[i] if slot_ids and i < len(slot_ids) else None,
            kind=row.type, dealer=row.dealer, declarer=row.declarer, contract=row.contract,
            row_marks=row_marks, result=result_text(row, m, words),
        )
        for seat in range(len(protocol.players)):
            shown.cells.append(Cell(
                delta=row.delta[seat], score=row.score[seat],
                marks=cell_marks(row, seat, on_barrel, m),
                why=why[seat] if seat < len(why) else [],
            ))
        out.append(shown)
    return out


def barrel_marks(protocol: Any) -> dict[int, Any]:
    """Seat -> BarrelSeat for the seats on the barrel now."""
    return {b.seat: b for b in protocol.barrel}
