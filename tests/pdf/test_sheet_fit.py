"""On paper: nothing runs into the next cell, names whole where there is room,
and the chart's labels readable (laid out by WeasyPrint, read back with pypdf)."""

from __future__ import annotations

import io
import re

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


def test_the_chart_labels_are_visible_in_a_pdf(make_long, pdftoppm, tmp_path):
    """Printed by WeasyPrint and rasterised by pdftoppm, «бочка 900» and «цель 1000» have
    dark letters (a white backing drawn over them left nothing but a hole)."""
    import subprocess
    import xml.etree.ElementTree as ET

    from scorer.chart import PAPER, totals_svg
    from scorer.engine import replay

    game = make_long(30)
    svg = totals_svg(game, replay(game), layout=PAPER)
    height = float(ET.fromstring(svg).get("viewBox").split()[3])
    page = (f"<style>@page {{ size: {PAPER.width}px {height}px; margin: 0 }} body {{ margin: 0 }}"
            f"</style><div style='width: {PAPER.width}px'>{svg}</div>")
    (tmp_path / "chart.pdf").write_bytes(HTML(string=page).write_pdf())
    subprocess.run([pdftoppm, "-r", "96", "-gray", "-singlefile", str(tmp_path / "chart.pdf"),
                    str(tmp_path / "chart")], check=True)
    data = (tmp_path / "chart.pgm").read_bytes()
    magic, width, rows, _max, pixels = data.split(maxsplit=4)
    width, rows = int(width), int(rows)
    assert magic == b"P5"
    for label in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text"):
        if not re.match(r"(бочка|цель) ", label.text or ""):
            continue
        x, y = float(label.get("x")), float(label.get("y"))
        if label.get("text-anchor") == "end":
            x -= 50
        dark = sum(1 for row in range(int(y - PAPER.font), int(y) + 1)
                   for col in range(int(x), int(x + 50)) if pixels[row * width + col] < 110)
        assert dark >= 40, (label.text, dark)
