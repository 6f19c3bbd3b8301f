"""Time the PDF sheet against a bare WeasyPrint table of the same size (the floor).

    python benchmarks/pdf.py [--sizes 30 100 300] [--repeat 3]

For each game size it renders the real sheet (replay, template, chart, WeasyPrint)
and a plain HTML table with the same rows and columns and the same cell text but no
stylesheet, takes the best of ``--repeat`` runs of each, and prints the ratio.
The goal is a sheet within 1.3x of the floor.
"""

from __future__ import annotations

import argparse
import io
import time
from html import escape

import pypdf
from weasyprint import HTML

from scorer.engine import parse_game, replay
from scorer.pdf import OfflineFetcher, protocol_rows, render_sheet

NAMES = ["Аня", "Борис", "Вика"]


def game_log(deals: int) -> dict:
    """A valid 3-player game of ``deals`` play records that never reaches the barrel."""
    records = []
    for i in range(deals):
        declarer, made = i % 3, (i // 3) % 2 == 0
        points = [10, 10, 10]
        points[declarer] = 100
        records.append({"type": "play", "declarer": declarer,
                        "contract": 100 if made else 120, "points": points})
    return {"format": "thousand-game/1", "title": "Бенчмарк", "players": NAMES,
            "agreements": {"preset": "classic"}, "deals": records}


def bare_table(game) -> str:
    """The floor: one unstyled table, same rows, columns and cell text as the sheet's."""
    rows = protocol_rows(game, replay(game), "ru")
    head = ["Кон", "Сдавал", "Заказчик", "Заказ", "Итог"]
    for name in game.players:
        head += [name, name]
    out = ["<table><thead><tr>", *(f"<th>{escape(h)}</th>" for h in head), "</tr></thead>"]
    for row in rows:
        cells = [str(row["n"]), row["dealer"], row["declarer"], row["contract"], row["result"]]
        for cell in row["cells"]:
            cells += [cell["delta"], f'{cell["marks"]} {cell["total"]}'.strip()]
        out.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
    out.append("</table>")
    return "".join(out)


def best_of(repeat: int, work) -> float:
    """The shortest wall time of ``repeat`` runs (the least disturbed by other load)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    """Measure each size and print a small table of times and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[30, 100, 300])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'deals':>6} {'sheet s':>9} {'floor s':>9} {'ratio':>7} {'pages':>6}")
    for size in args.sizes:
        game = parse_game(game_log(size))
        html = bare_table(game)
        pdf = render_sheet(game)
        sheet = best_of(args.repeat, lambda g=game: render_sheet(g))
        floor = best_of(args.repeat, lambda h=html: HTML(
            string=h, url_fetcher=OfflineFetcher()).write_pdf())
        pages = len(pypdf.PdfReader(io.BytesIO(pdf)).pages)
        print(f"{size:>6} {sheet:>9.2f} {floor:>9.2f} {sheet / floor:>6.2f}x {pages:>6}")


if __name__ == "__main__":
    main()
