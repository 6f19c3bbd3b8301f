"""The running-totals chart: a small hand-made SVG shared by the web page and the PDF."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from itertools import chain

from scorer import marks
from scorer.engine import Game, Protocol, Row
from scorer.engine.texts import N_
from scorer.marks import number

# One colour per seat, the same on every page and in the chart (Okabe–Ito hues,
# darkened where needed so a thin line stays readable on white paper and in sunlight).
PLAYER_COLOURS = ("#0b62a4", "#c2410c", "#047857", "#7e22ce")



@dataclass(frozen=True)
class Layout:
    """The chart's user-unit geometry; text size is in the same units as the viewBox."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    font: float
    legend_columns: int  # at most this many names on one legend line


# Paper: a wide, low chart across the A4 page (about 11 units = 8 pt there).
PAPER = Layout(640, 280, 46, 12, 12, 52, 11, 4)
# Phone: drawn about as wide as the screen (336–406 CSS px for 360–430 px phones), so a
# user unit is about a CSS pixel and 12.5 units stay ≥ 11 px; the legend takes two lines.
PHONE = Layout(360, 262, 44, 8, 10, 60, 12.5, 2)
# Totals below this are exact as floats (2**53), so the chart may draw them in floats.
FLOAT_EXACT = 2**53
# Words of the chart (msgids of the one catalog, scorer/translations).
_TEXT = {"deal": N_("deal"), "barrel": N_("barrel"), "target": N_("target"),
         "title": N_("Running totals")}


def colour(seat: int) -> str:
    """Return the colour of a seat (wrapping round if there are ever more seats)."""
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def _shorten(name: str, room: int) -> str:
    """Cut a long name to fit its legend slot, marking the cut with an ellipsis."""
    return name if len(name) <= room else name[: max(room - 1, 1)] + "…"


def _nice_step(span: float, ticks: int) -> int:
    """Pick a round grid step (1, 2 or 5 times a power of ten) giving about ``ticks`` lines."""
    # Integer arithmetic throughout: a float overflows on a span past 1e308.
    raw = max(-(-int(span) // max(ticks, 1)), 1)
    power = 1
    while power * 10 <= raw:
        power *= 10
    for mult in (1, 2, 5, 10):
        if power * mult >= raw:
            return power * mult
    return power * 10


def _lines(game: Game) -> list[tuple[str, int]]:
    """The horizontal reference lines: the barrel threshold (if the barrel is on), the target."""
    agreements = game.agreements
    lines = []
    if agreements.get("barrel"):
        lines.append(("barrel", int(agreements["barrel_threshold"])))
    lines.append(("target", int(agreements["target"])))
    return lines


def _block(count: int, width: int) -> int:
    """Points per thinning block of a long line: at most one block per two units of
    width (about the line's own width), so the line keeps every peak and dip."""
    # Blocks of four units would halve the cost but visibly smooth a long game's line.
    return -(-count // max(width // 2, 1))


def _kept(points: Sequence[int], block: int) -> list[int]:
    """Indices of the points to draw, in order: per block the first lowest and the first
    highest."""
    if block == 1:  # every point
        return list(range(len(points)))
    keep: list[int] = []
    for first in range(0, len(points), block):
        # A slice and C-level min/max/index: the first lowest and highest of the block.
        seg = points[first:first + block]
        low, high = first + seg.index(min(seg)), first + seg.index(max(seg))
        keep += (low,) if low == high else (min(low, high), max(low, high))
    return keep


def _thinned(points: list[int], width: int) -> list[tuple[int, int]]:
    """(deal, total) pairs to draw: every point while there are no more points than user
    units across; beyond that the first and the last point and, per block of deals
    (_block), only the lowest and the highest, so a 1000-deal line costs what a
    150-deal one does and looks the same (no peak or dip is lost). The rule stated
    whole, over every point; the chart draws Lines, which keep it per version of a game
    (tests/pdf/test_chart_lines.py checks that they draw the same points).

    >>> _thinned([0, 5, 9], 10)
    [(0, 0), (1, 5), (2, 9)]
    >>> _thinned([0, 9, 1, 2, 8, 3, 7, 4, 6], 4)
    [(0, 0), (1, 9), (5, 3), (6, 7), (8, 6)]
    """
    count = len(points)
    keep = sorted({0, count - 1, *_kept(points, _step(count, width))})
    return [(i, points[i]) for i in keep]


def _step(count: int, width: int) -> int:
    """Points per block of a line: 1 (every point) while it fits the width, else _block."""
    return 1 if count <= max(width, 1) else _block(count, width)


@dataclass(frozen=True)
class Lines:
    """Each seat's line as a chart of these rows draws it on a plot ``width`` units wide
    (the points _thinned keeps), with the lowest and the highest total (0 included).

    Kept per version of a game: the next version, the same rows and more, thins only the
    points it adds, since a block of ``step`` points, once whole, keeps the same lowest and
    highest whatever comes after it. Made from scratch (every block) when the rows differ,
    or when the game has grown into another ``step`` (once per ``width // 2`` deals).
    """

    width: int
    rows: Sequence[Row]  # the rows the lines are drawn from
    step: int  # points per block (_step)
    done: int  # points in whole blocks: their kept points stay as the game grows
    whole: tuple[tuple[tuple[int, int], ...], ...]  # per seat, the whole blocks' kept points
    whole_low: int  # the lowest and the highest point of the whole blocks (0 if none)
    whole_high: int
    kept: tuple[tuple[tuple[int, int], ...], ...]  # per seat, every (deal, total) drawn
    low: int  # the lowest and the highest total of all, 0 included
    high: int


def lines_of(rows: Sequence[Row], seats: int, width: int, before: Lines | None = None
             ) -> Lines:
    """The lines of ``rows`` for a plot ``width`` units wide: only the points after
    ``before``'s whole blocks are thinned when ``before`` was made from the first of these
    rows with the same step, else every block. Equal to ``lines_of(rows, seats, width)``."""
    count = len(rows) + 1  # a 0 before the first deal, then one point per row
    step = _step(count, width)
    if (before is None or before.width != width or before.step != step
            or len(before.whole) != seats
            or len(before.rows) > len(rows) or rows[:len(before.rows)] != before.rows):
        before = Lines(width, (), step, 0, ((),) * seats, 0, 0, (), 0, 0)
    done = before.done
    new = rows[max(done - 1, 0):]  # the rows of points done, done + 1, … (point i is row i-1)
    if any(len(row.score) != seats for row in new):  # a short row would shift the seats
        raise ValueError("every protocol row has one total per seat")
    ends = done + (count - done) // step * step  # where the whole blocks end now
    full = (ends - done) // step  # how many of the new blocks are whole
    low, high = before.whole_low, before.whole_high
    whole, kept, rest = [], [], []
    for seat in range(seats):
        points = [row.score[seat] for row in new]
        if done == 0:
            points.insert(0, 0)
        pairs, lows, highs = _blocks(points, done, step)
        whole.append((*before.whole[seat], *chain.from_iterable(pairs[:full])))
        drawn = [*whole[seat], *chain.from_iterable(pairs[full:])]
        if drawn[0][0] != 0:  # the first and the last point are always drawn
            drawn.insert(0, (0, 0))
        if drawn[-1][0] != count - 1:
            drawn.append((count - 1, rows[-1].score[seat]))
        kept.append(tuple(drawn))
        low, high = min(low, *lows[:full], 0), max(high, *highs[:full], 0)
        rest += lows[full:] + highs[full:]
    return Lines(width, rows, step, ends, tuple(whole), low, high, tuple(kept),
                 min(low, *rest, 0), max(high, *rest, 0))


def _blocks(points: list[int], first: int, step: int
            ) -> tuple[list[tuple[tuple[int, int], ...]], list[int], list[int]]:
    """Per block of ``step`` points (the first numbered ``first``): the points kept, its
    first lowest and first highest in order (one if they are the same); and each block's
    lowest and highest total."""
    pairs: list[tuple[tuple[int, int], ...]]
    if step == 1:  # every point is its own block
        pairs = [((i, v),) for i, v in enumerate(points, first)]
        return pairs, points, points
    pairs, lows, highs = [], [], []
    for at in range(0, len(points), step):
        # A slice and C-level min/max/index: the first lowest and highest of the block.
        seg = points[at:at + step]
        low, high = min(seg), max(seg)
        i, j = at + seg.index(low), at + seg.index(high)
        if i == j:
            pairs.append(((first + i, low),))
        elif i < j:
            pairs.append(((first + i, low), (first + j, high)))
        else:
            pairs.append(((first + j, high), (first + i, low)))
        lows.append(low)
        highs.append(high)
    return pairs, lows, highs


def _polyline(kept: Sequence[tuple[int, int]], lay: Layout, xspan: int, high: int,
              yspan: int) -> str:
    """The points attribute of a line: "x,y" per kept (deal, total), a tenth of a unit."""
    # The x() and y() of totals_svg inlined: this is the hot loop of a long game.
    left, top = lay.left, lay.top
    plot_w, plot_h = lay.width - lay.left - lay.right, lay.height - lay.top - lay.bottom
    if abs(high) + yspan < FLOAT_EXACT:  # a float product: twice as fast as int / int
        kx, ky = plot_w / xspan, plot_h / yspan
        flat: list[float] = [0.0] * (2 * len(kept))  # x, y, x, y, …: two C-level fills
        flat[::2] = [left + i * kx for i, _v in kept]
        flat[1::2] = [top + (high - v) * ky for _i, v in kept]
        # One % over all the points formats them in C, a third quicker than one by one.
        return ("%.1f,%.1f " * len(kept) % tuple(flat))[:-1]
    # int * int / int stays exact for totals of any size (a float would overflow).
    return " ".join([f"{left + plot_w * i / xspan:.1f},{top + plot_h * (high - v) / yspan:.1f}"
                     for i, v in kept])


def plot_width(layout: Layout) -> int:
    """The width of a layout's plot, in user units (what a line is thinned to)."""
    return layout.width - layout.left - layout.right


def totals_svg(game: Game, protocol: Protocol, lang: str = "ru", layout: Layout = PAPER,
               drawn: Lines | None = None) -> str:
    """Return an inline SVG of every player's running total, deal by deal (drawn: the
    protocol's lines for the layout's plot width, when the caller keeps them)."""
    # «kreska 800» with the Polish preset: the preset's own word (marks.preset_word).
    text = {key: marks.preset_word(lang, game.agreements, msgid) for key, msgid in _TEXT.items()}
    lay = layout
    legend_rows = -(-len(game.players) // lay.legend_columns)
    height = lay.height + _legend_line(lay) * (legend_rows - 1)
    if drawn is None:
        drawn = lines_of(protocol.rows, len(game.players), plot_width(lay))
    low, high = drawn.low, drawn.high
    lines = _lines(game)
    deals = len(protocol.rows)
    ref = [v for _, v in lines]
    low, high = min(low, *ref), max(high, *ref)
    ystep = _nice_step(high - low, 5)
    low = (low // ystep) * ystep
    high = -((-high) // ystep) * ystep
    xspan = max(deals, 1)
    plot_w, plot_h = lay.width - lay.left - lay.right, lay.height - lay.top - lay.bottom
    # Room above the highest reference line for its label, so that label never has to
    # go below it, where the next line down (880 under 1000) would run through it.
    top_ref = max(ref)
    room = int((lay.font + 6) * 10)  # tenths of a unit: integers, exact for any total
    while (high - top_ref) * plot_h * 10 < room * max(high - low, 1):
        high += ystep
    yspan = max(high - low, 1)

    def x(i: float) -> float:
        """The horizontal position of deal ``i``."""
        return round(lay.left + plot_w * i / xspan, 1)

    def y(v: float) -> float:
        """The vertical position of score ``v``."""
        # int / int stays exact for any size; the quotient is between 0 and 1.
        return round(lay.top + plot_h * (high - v) / yspan, 1)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="totals-chart" role="img" '
        f'viewBox="0 0 {lay.width} {height}" width="100%" '
        f'font-family="DejaVu Sans, sans-serif" font-size="{lay.font}">',
        f"<title>{escape(text['title'])}</title>",
        f'<rect x="{lay.left}" y="{lay.top}" width="{plot_w}" height="{plot_h}" '
        f'fill="#fff" stroke="#444" stroke-width="1"/>',
    ]
    out += _grid(low, high, ystep, deals, x, y, text, lay)
    for _name, value in lines:
        # Dashed so the reference lines never read as a player's line.
        out.append(
            f'<line x1="{x(0)}" x2="{x(xspan)}" y1="{y(value)}" y2="{y(value)}" '
            f'stroke="#222" stroke-width="1" stroke-dasharray="6 4"/>'
        )
    out += _player_lines(drawn.kept, lay, xspan, high, yspan)
    # The labels sit at the left end, where every line still starts from 0, so nothing
    # runs through them and they need no white backing (which erased the lines of the
    # players on the barrel, and which the PDF drew over the letters): the target's
    # above its line (room is kept there), the barrel's below its own.
    for name, value in lines:
        below = name == "barrel" and len(lines) > 1
        out.append(
            f'<text x="{x(0) + 4}" y="{y(value) + (lay.font + 2 if below else -4)}" '
            f'text-anchor="start" fill="#222">{escape(text[name])} {number(value)}</text>'
        )
    out += _legend(game.players, lay)
    out.append("</svg>")
    return "\n".join(out)


def _player_lines(kept: Sequence[Sequence[tuple[int, int]]], lay: Layout, xspan: int,
                  high: int, yspan: int) -> list[str]:
    """One polyline per player, through the points kept (Lines.kept)."""
    out = []
    for seat, points in enumerate(kept):
        coords = _polyline(points, lay, xspan, high, yspan)
        out.append(f'<polyline fill="none" stroke="{colour(seat)}" stroke-width="2.2" '
                   f'stroke-linejoin="round" points="{coords}"/>')
    return out


def _legend_line(lay: Layout) -> float:
    """The height of one legend line."""
    return round(lay.font * 1.6, 1)


def _grid(low: int, high: int, ystep: int, deals: int, x: Callable[[float], float],
          y: Callable[[float], float], text: dict[str, str], lay: Layout) -> list[str]:
    """Horizontal grid lines with score labels and deal-number ticks along the bottom."""
    xspan = max(deals, 1)
    out = []
    for value in range(int(low), int(high) + 1, int(ystep)):
        out.append(
            f'<line x1="{x(0)}" x2="{x(xspan)}" y1="{y(value)}" y2="{y(value)}" '
            f'stroke="#ccc" stroke-width="0.6"/>'
            f'<text x="{lay.left - 4}" y="{y(value) + lay.font / 3:.1f}" text-anchor="end" '
            f'fill="#222">'
            f"{number(value)}</text>"
        )
    xstep = _nice_step(xspan, 10)
    for i in range(0, deals + 1, xstep):
        out.append(
            f'<text x="{x(i)}" y="{lay.height - lay.bottom + lay.font + 3}" text-anchor="middle" '
            f'fill="#222">{i}</text>'
        )
    out.append(
        f'<text x="{lay.left + (lay.width - lay.left - lay.right) / 2}" '
        f'y="{lay.height - lay.bottom + 2 * lay.font + 6}" '
        f'text-anchor="middle" fill="#222">{escape(text["deal"])}</text>'
    )
    return out


def _legend(players: Sequence[str], lay: Layout) -> list[str]:
    """One coloured swatch and name per player under the plot, on as many lines as needed."""
    out = []
    columns = min(max(len(players), 1), lay.legend_columns)
    slot = (lay.width - lay.left - lay.right) / columns
    room = int((slot - 34) / (lay.font * 0.64))  # a character is about 0.64 em wide
    for seat, name in enumerate(players):
        left = lay.left + slot * (seat % columns)
        top = lay.height - 12 + _legend_line(lay) * (seat // columns)
        out.append(
            f'<line x1="{left}" x2="{left + 22}" y1="{top - 4}" y2="{top - 4}" '
            f'stroke="{colour(seat)}" stroke-width="3"/>'
            f'<text x="{left + 28}" y="{top}" fill="#111">{escape(_shorten(name, room))}</text>'
        )
    return out
