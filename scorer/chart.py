"""The running-totals chart: a small hand-made SVG shared by the web page and the PDF."""

from html import escape

from scorer.marks import number

# One colour per seat, the same on every page and in the chart (Okabe–Ito hues,
# darkened where needed so a thin line stays readable on white paper and in sunlight).
PLAYER_COLOURS = ("#0b62a4", "#c2410c", "#047857", "#7e22ce")

_WIDTH, _HEIGHT = 640, 280
_LEFT, _RIGHT, _TOP, _BOTTOM = 46, 12, 12, 52
_TEXT = {
    "ru": {"deal": "кон", "barrel": "бочка", "target": "цель", "title": "Ход игры"},
    "en": {"deal": "deal", "barrel": "barrel", "target": "target", "title": "Running totals"},
}


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


def _series(game, protocol) -> list[list[int]]:
    """Each seat's running total, starting from 0 before the first deal."""
    seats = len(game.players)
    series = [[0] for _ in range(seats)]
    for row in protocol.rows:
        for seat in range(seats):
            series[seat].append(int(row.score[seat]))
    return series


def _lines(game) -> list[tuple[str, int]]:
    """The horizontal reference lines: the barrel threshold (if the barrel is on), the target."""
    agreements = game.agreements
    lines = []
    if agreements.get("barrel"):
        lines.append(("barrel", int(agreements["barrel_threshold"])))
    lines.append(("target", int(agreements["target"])))
    return lines


def totals_svg(game, protocol, lang: str = "ru") -> str:
    """Return an inline SVG of every player's running total, deal by deal."""
    text = _TEXT.get(lang, _TEXT["ru"])
    series = _series(game, protocol)
    lines = _lines(game)
    deals = len(protocol.rows)
    values = [v for s in series for v in s] + [v for _, v in lines]
    low, high = min(0, *values), max(values)
    ystep = _nice_step(high - low, 5)
    low = (low // ystep) * ystep
    high = -((-high) // ystep) * ystep
    xspan = max(deals, 1)
    plot_w, plot_h = _WIDTH - _LEFT - _RIGHT, _HEIGHT - _TOP - _BOTTOM

    def x(i: float) -> float:
        """The horizontal position of deal ``i``."""
        return round(_LEFT + plot_w * i / xspan, 1)

    def y(v: float) -> float:
        """The vertical position of score ``v``."""
        # int / int stays exact for any size; the quotient is between 0 and 1.
        return round(_TOP + plot_h * (high - v) / max(high - low, 1), 1)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="totals-chart" role="img" '
        f'viewBox="0 0 {_WIDTH} {_HEIGHT}" width="100%" '
        f'font-family="DejaVu Sans, sans-serif" font-size="11">',
        f"<title>{escape(text['title'])}</title>",
        f'<rect x="{_LEFT}" y="{_TOP}" width="{plot_w}" height="{plot_h}" '
        f'fill="#fff" stroke="#444" stroke-width="1"/>',
    ]
    out += _grid(low, high, ystep, deals, x, y, text)
    for name, value in lines:
        # Dashed so the reference lines never read as a player's line.
        out.append(
            f'<line x1="{x(0)}" x2="{x(xspan)}" y1="{y(value)}" y2="{y(value)}" '
            f'stroke="#222" stroke-width="1" stroke-dasharray="6 4"/>'
            f'<text x="{x(xspan) - 4}" y="{y(value) + (13 if name == "barrel" else -4)}" '
            f'text-anchor="end" fill="#222">'
            f"{escape(text[name])} {number(value)}</text>"
        )
    for seat, points in enumerate(series):
        coords = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(points))
        out.append(
            f'<polyline fill="none" stroke="{colour(seat)}" stroke-width="2.2" '
            f'stroke-linejoin="round" points="{coords}"/>'
        )
    out += _legend(game.players)
    out.append("</svg>")
    return "\n".join(out)


def _grid(low, high, ystep, deals, x, y, text) -> list[str]:
    """Horizontal grid lines with score labels and deal-number ticks along the bottom."""
    out = []
    for value in range(int(low), int(high) + 1, int(ystep)):
        out.append(
            f'<line x1="{x(0)}" x2="{x(max(deals, 1))}" y1="{y(value)}" y2="{y(value)}" '
            f'stroke="#ccc" stroke-width="0.6"/>'
            f'<text x="{_LEFT - 4}" y="{y(value) + 4}" text-anchor="end" fill="#222">'
            f"{number(value)}</text>"
        )
    xstep = _nice_step(max(deals, 1), 10)
    for i in range(0, deals + 1, xstep):
        out.append(
            f'<text x="{x(i)}" y="{_HEIGHT - _BOTTOM + 14}" text-anchor="middle" '
            f'fill="#222">{i}</text>'
        )
    out.append(
        f'<text x="{_LEFT + (_WIDTH - _LEFT - _RIGHT) / 2}" y="{_HEIGHT - _BOTTOM + 28}" '
        f'text-anchor="middle" fill="#222">{escape(text["deal"])}</text>'
    )
    return out


def _legend(players) -> list[str]:
    """One coloured swatch and name per player under the plot."""
    out = []
    slot = (_WIDTH - _LEFT - _RIGHT) / max(len(players), 1)
    room = int((slot - 34) / 7)  # about 7 user units per character at font-size 11
    for seat, name in enumerate(players):
        left = _LEFT + slot * seat
        top = _HEIGHT - 12
        out.append(
            f'<line x1="{left}" x2="{left + 22}" y1="{top - 4}" y2="{top - 4}" '
            f'stroke="{colour(seat)}" stroke-width="3"/>'
            f'<text x="{left + 28}" y="{top}" fill="#111">{escape(_shorten(name, room))}</text>'
        )
    return out
