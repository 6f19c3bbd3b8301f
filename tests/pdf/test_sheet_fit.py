"""Issue 19 on paper: nothing runs into the next cell, names whole where there is room,
and the chart's labels readable (laid out by WeasyPrint, read back with pypdf)."""

from __future__ import annotations

import io

from pypdf import PdfReader
from sheet_games import FOUR, four_log, long_log
from weasyprint import HTML
from weasyprint.formatting_structure import boxes

from scorer.engine import parse_game
from scorer.sheet import render_sheet, sheet_html


def overflowing(html: str) -> list[tuple[str, float, float]]:
    """(text, width used, width there is) of every table cell line wider than its cell,
    but for the names the sheet clips on purpose (class c)."""
    out = []
    for page in HTML(string=html).render().pages:
        for box in page._page_box.descendants():
            if not isinstance(box, boxes.TableCellBox):
                continue
            if "c" in (box.element.get("class") or "").split():
                continue
            for line in box.descendants():
                if isinstance(line, boxes.LineBox):
                    used = sum(child.width for child in line.children)
                    if used > box.width + 0.01:
                        words = "".join(t.text for t in line.descendants()
                                        if isinstance(t, boxes.TextBox))
                        out.append((words, used, box.width))
    return out


def test_no_cell_runs_into_the_next_with_four_players():
    """«— ! −1120», «# −1600», −1840 and «не сыграно» stay inside their cells, portrait
    and landscape."""
    game = parse_game(four_log())
    for landscape in (False, True):
        html = sheet_html(game, landscape=landscape)
        assert "\u2004!" in html and "\u22121840" in html  # the cells this is about
        assert overflowing(html) == [], landscape


def test_names_are_whole_where_there_is_room():
    """Landscape with four long names, and portrait with three: no «Алексан…»."""
    three = parse_game(long_log(12, ["Александра", "Константин", "Валентина"]))
    for game, landscape in ((parse_game(four_log()), True), (three, False)):
        pdf = render_sheet(game, landscape=landscape)
        html = sheet_html(game, landscape=landscape)
        assert overflowing(html) == []
        text = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
        assert "…" not in text
        # The players line, the column head, the standings and the rows it deals in.
        assert text.count(game.players[0]) >= 5, text[:500]


def test_four_players_on_portrait_keep_numbers_whole():
    """Portrait has no room for four long names: they are cut, the numbers never."""
    html = sheet_html(parse_game(four_log()))
    assert overflowing(html) == []
    assert all(name in html for name in FOUR)
