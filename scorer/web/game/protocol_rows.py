"""The protocol as the game page shows it: rows, cells, traditional marks and a legend.

Everything shown is read from the engine's Protocol; which mark goes in which cell is
decided by scorer.marks, the same as on the PDF sheet.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, cast

from flask_babel import gettext as _
from markupsafe import Markup

from scorer import marks
from scorer.engine import Agreements, catalog, word
from scorer.marks import number, signed
from scorer.store import DealSlot, JsonDict
from scorer.web.game.deal_input import SUIT_SIGNS as MARRIAGE_SIGNS
from scorer.web.i18n import lang


def legend(ag: Agreements, players: int) -> list[tuple[str, str]]:
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
    active: bool = True
    marriages: str = ""  # the suits declared, as signs («♥♠»)
    path: str = ""  # how a samosval came about: «+60 → 555 → 0» in place of the delta
    # (row, seat, lang, preset): what the reasons are worded from, when a page shows them
    source: tuple[Any, int, str, str | None] | None = field(default=None, repr=False)

    @property
    def change(self) -> str:
        """What the cell says moved the total: the samosval's path, else the signed delta."""
        return self.path or signed(cast(int, self.delta))  # as the template's |signed did

    @cached_property
    def why(self) -> list[Why]:
        """The seat's worded reasons, made only where a page shows them."""
        # Only the why page and the totals' "Last deal" read them: wording every cell of
        # the 20 protocol rows (catalog look-ups, gettext) would be thrown away.
        return reasons(*self.source) if self.source is not None else []


def reasons(row: Any, seat: int, code: str, preset: str | None = None) -> list[Why]:
    """A seat's reasons in a row, worded without the raw "[agreement_id]" tags (in the
    preset's own words where it has them)."""
    specs = catalog().specs_for(preset) if preset else catalog().agreements
    out = []
    for reason in row.why[seat] if seat < len(row.why) else ():
        named = reason.agreement
        title = specs[named].title[code] if named in specs else ""
        out.append(Why(reason.text(code, tags=False, preset=preset), named if title else None,
                       title))
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
    # An "agreements" row: (title, from, to) of each changed agreement, worded.
    changes: list[tuple[str, str, str]] = field(default_factory=list)
    player: int | None = None  # whom an adjustment concerns (its reason is the result)
    edit_label: str = ""  # the edit link's label on the edit page: «Исправить кон 7»
    # The row's cells as the template wrote them, by RowLink: a row the next version
    # shows again (Kept) is not written again.
    written: dict[RowLink, Markup] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class RowLink:
    """What a row's cells are written with besides the row: the link they are on (edit or
    read-only, its URLs) and the game's names and words."""

    editable: bool
    edit_token: str
    game_url: str  # the page's own link (/g/… or /v/…)
    edit_base: str  # the edit page's deal form of slot s is this, a slash and s
    dealer_word: str  # «сдавал:»
    players: tuple[str, ...]

    @property
    def why_base(self) -> str:
        """The link's why page of row n is this plus n."""
        return self.game_url + "/why/"


def written(shown: ShownRow, link: RowLink, write: Callable[[ShownRow, RowLink], Markup]
            ) -> Markup:
    """The row's cells on ``link``, as ``write`` (the template's macro) writes them: once
    per row and link, however many versions show the row (see Kept)."""
    found = shown.written.get(link)
    if found is None:
        found = shown.written.setdefault(link, write(shown, link))
    return found


# The newest rows a version showed, by slot id: (the engine's row, the slot's record, the
# row worded). A version made by a write carries its predecessor's forward (carried): a
# row whose engine row and record are the very objects the new version holds reads the
# same, so the newest 20 rows of a page are worded and written once, not on every version
# (a fifth of the GET after a deal at 1000 deals, PERFORMANCE.md).
Kept = dict[int, tuple[Any, JsonDict | None, ShownRow]]
# The protocol shows this many rows, newest first; the rest come with ?rows=all.
SHOWN_ROWS = 20
# Rows kept: those a page shows and the one a deal pushes out of view. Older rows (a
# ?rows=all page) are worded for that page only: kept, every version a watcher of that
# page polls would hold all its rows, 2.5 kB each per language and link.
KEPT_ROWS = SHOWN_ROWS + 1


def carried(before: Kept | None) -> Kept:
    """What a version starts from: the rows its predecessor kept (the newest KEPT_ROWS
    slot ids of them, once the game has moved on)."""
    kept = dict(before or {})  # one C-level copy: another thread may be adding to before
    if len(kept) > 2 * KEPT_ROWS:
        kept = dict(sorted(kept.items())[-KEPT_ROWS:])
    return kept


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


@dataclass(frozen=True)
class Words:
    """What every row of one page is worded with, looked up once per page, not per row."""

    code: str
    letters: dict[str, str]
    results: dict[str, str]
    edit: str = "%(n)d"  # the edit link's label, «Исправить кон %(n)d»


def words() -> Words:
    """The current language's row words."""
    code = lang()
    return Words(code, marks.letters(code), {"redeal": _("redeal"), "adjustment": _("adjustment"),
                                             "agreements": _("agreements changed")},
                 # Formatted per row here: a gettext call per row from the template cost a
                 # fifth of the rows' loop. Without variables gettext leaves the format be.
                 _("Edit deal %(n)d"))


def change_texts(row: Any, code: str) -> list[tuple[str, str, str]]:
    """(title, from, to) of each agreement an "agreements" row changed, in ``code``."""
    specs = catalog().agreements
    return [(specs[id].title[code], specs[id].value_text(old, code),
             specs[id].value_text(new, code)) for id, old, new in row.changes]


def shown_row(protocol: Any, i: int, slot_id: int | None = None,
              preset: str | None = None) -> ShownRow:
    """Protocol row i (from 0) with its cells and marks (its reasons in the words of the
    game's preset)."""
    return row_view(protocol.rows[i], len(protocol.players), slot_id, words(), preset=preset)


def row_view(row: Any, seats: int, slot_id: int | None, said: Words,
             record: JsonDict | None = None, preset: str | None = None) -> ShownRow:
    """An engine row with its cells and marks, worded with ``said`` (record: the stored
    deal behind it, which says the marriages declared)."""
    code = said.code
    shown = ShownRow(
        n=row.n, slot_id=slot_id, kind=row.type, dealer=row.dealer, declarer=row.declarer,
        contract=row.contract, row_marks=" ".join(marks.row_marks(row, code)),
        result=result_text(row, said.letters, said.results),
        changes=change_texts(row, code) if row.changes else [],
        # A translation is trusted text (as the template's own _() makes it), n a number.
        edit_label=Markup(said.edit % {"n": row.n}),
    )
    for seat in range(seats):
        shown.cells.append(Cell(
            delta=row.delta[seat], score=row.score[seat],
            marks=marks.seat_marks(row, seat, code, seats), source=(row, seat, code, preset),
            marriages=declared(record, seat), path=samosval_path(row, seat),
        ))
    if row.type == "adjustment":  # said as the PDF says it: «Аня: три девятки»
        shown.player, shown.result = adjusted(row, code)
    return shown


def declared(record: JsonDict | None, seat: int) -> str:
    """The signs of the marriages a seat declared in a deal («♥♠»; "" if none)."""
    found = (record or {}).get("marriages") or {}
    suits = found.get(str(seat), ()) if isinstance(found, dict) else ()
    return "".join(MARRIAGE_SIGNS.get(s, "") for s in suits if isinstance(s, str))


def samosval_path(row: Any, seat: int) -> str:
    """«+60 → 555 → 0» for a seat this row's samosval sent to 0, else ""."""
    if not any(e.kind == "samosval" and e.seat == seat for e in row.events):
        return ""
    hit = next((r.params.get("value") for r in row.why[seat] if r.code == "samosval"), None)
    if hit is None:
        return ""
    before = row.score[seat] - row.delta[seat]
    return f"{signed(int(hit) - before)} → {number(int(hit))} → {number(row.score[seat])}"


def adjusted(row: Any, code: str) -> tuple[int | None, str]:
    """(the seat an adjustment concerns, its reason worded), from the row's reasons."""
    for seat, reasons in enumerate(row.why):
        for r in reasons:
            if r.code == "adjustment":
                return seat, word(str(r.params.get("reason", "other")), code)
    return None, _("adjustment")


@dataclass(frozen=True)
class DeletedRow:
    """A deleted deal, shown where it was (after live row `after`), with what it said."""

    slot_id: int
    after: int
    record: JsonDict | None
    kind: str = "deleted"


def recent_rows(protocol: Any, slots: Sequence[DealSlot], limit: int | None,
                last_records: Callable[[list[int]], dict[int, JsonDict]] | None,
                kept: Kept | None = None) -> tuple[list[Any], int]:
    """The newest `limit` live rows (all if None) worded, newest first, deleted deals in
    place.

    Returns (rows, how many older live rows were left out). last_records (slot ids ->
    the record a restore brings back) is None on the read-only page, which shows no
    deleted deals. kept: the rows worded already (in this language), given the newest
    KEPT_ROWS of those worded now.
    """
    count, seats = len(protocol.rows), len(protocol.players)
    first = 0 if limit is None else max(0, count - limit)
    said = words()
    out: list[Any] = []
    live = count  # live slots before the one looked at
    # From the newest slot back, stopping at the first row left out: a 1000-deal game
    # costs what a 20-deal one does.
    for slot in reversed(slots):
        if slot.record is not None:
            live -= 1
            if live < first:
                break
            out.append(worded(protocol.rows[live], seats, slot, said, kept,
                              keep=live >= count - KEPT_ROWS))
        elif last_records is not None:
            out.append(DeletedRow(slot.id, live, None))
    if last_records is not None:
        out = with_records(out, last_records)
    return out, first


def worded(row: Any, seats: int, slot: DealSlot, said: Words, kept: Kept | None,
           keep: bool) -> ShownRow:
    """The slot's row worded: as kept, if kept for this very engine row and record (keep:
    keep it if it was not)."""
    found = kept.get(slot.id) if kept is not None else None
    if found is not None and found[0] is row and found[1] is slot.record:
        return found[2]
    shown = row_view(row, seats, slot.id, said, slot.record)
    if kept is not None and keep:
        kept[slot.id] = (row, slot.record, shown)
    return shown


def with_records(rows: list[Any], last_records: Callable[[list[int]], dict[int, JsonDict]]
                 ) -> list[Any]:
    """The rows with each deleted deal given the record a restore brings back (one query
    for all)."""
    gone = [r.slot_id for r in rows if isinstance(r, DeletedRow)]
    if not gone:
        return rows
    found = last_records(gone)
    return [replace(r, record=found.get(r.slot_id)) if isinstance(r, DeletedRow) else r
            for r in rows]


def barrel_marks(protocol: Any) -> dict[int, Any]:
    """Seat -> BarrelSeat for the seats on the barrel now."""
    return {b.seat: b for b in protocol.barrel}
