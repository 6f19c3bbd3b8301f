"""A player's rating over the rated games: a small SVG the app serves (no script needed)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from scorer.club import MIN_GAMES, RatingStep

WIDTH, HEIGHT = 360, 150
LEFT, RIGHT, TOP, BOTTOM = 40, 10, 10, 26
LINE = "#0b62a4"


def rating_svg(steps: Sequence[RatingStep], words: dict[str, str]) -> str:
    """The chart: the shown rating after each rated game, the first MIN_GAMES dashed (the
    rating is not shown before them), from the first game's date to the last's; words:
    "title", "none" (no games) and "games" (how many, under the axis)."""
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
            f'width="{WIDTH}" height="{HEIGHT}" font-family="sans-serif" font-size="12" '
            f'role="img"><title>{escape(words["title"])}</title>')
    if not steps:
        return (f'{head}<text x="{WIDTH // 2}" y="{HEIGHT // 2}" text-anchor="middle" '
                f'fill="#333">{escape(words["none"])}</text></svg>')
    values = [steps[0].before] + [s.after for s in steps]
    low, high = min(values), max(values)
    span = max(high - low, 1)
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def point(i: int, v: int) -> str:
        x = LEFT + inner_w * i / max(len(values) - 1, 1)
        y = TOP + inner_h * (high - v) / span
        return f"{x:.1f},{y:.1f}"

    points = [point(i, v) for i, v in enumerate(values)]
    early = points[:MIN_GAMES + 1]
    late = points[MIN_GAMES:]
    parts = [head,
             f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}" stroke="#999"/>',
             f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" '
             f'y2="{HEIGHT - BOTTOM}" stroke="#999"/>',
             f'<text x="{LEFT - 4}" y="{TOP + 10}" text-anchor="end" fill="#333">{high}</text>',
             f'<text x="{LEFT - 4}" y="{HEIGHT - BOTTOM}" text-anchor="end" '
             f'fill="#333">{low}</text>',
             f'<text x="{LEFT}" y="{HEIGHT - 6}" fill="#333">{escape(steps[0].date)}</text>',
             f'<text x="{(LEFT + WIDTH - RIGHT) // 2}" y="{HEIGHT - 6}" text-anchor="middle" '
             f'fill="#333">{escape(words["games"])}</text>',
             f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 6}" text-anchor="end" fill="#333">'
             f'{escape(steps[-1].date)}</text>',
             f'<polyline fill="none" stroke="{LINE}" stroke-width="2" stroke-dasharray="4 3" '
             f'points="{" ".join(early)}"/>']
    if len(late) > 1:
        parts.append(f'<polyline fill="none" stroke="{LINE}" stroke-width="2.5" '
                     f'points="{" ".join(late)}"/>')
    last = points[-1].split(",")
    parts.append(f'<circle cx="{last[0]}" cy="{last[1]}" r="3.5" fill="{LINE}"/></svg>')
    return "".join(parts)
