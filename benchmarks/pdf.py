"""Time the PDF sheet against a WeasyPrint table of the same size (the floor).

    python benchmarks/pdf.py [--sizes 30 100 300 1000] [--repeat 5]

For each size of a card-dealt game (benchmarks/games.py: marriages, bolts, the barrel)
it renders the real sheet (replay, template, chart, WeasyPrint) and the floor: one
table with the same rows and columns and the same cell text, in the sheet's font and
size, with its fixed table layout, cell borders and padding, page margins and a header
repeated on every page. The two alternate ``--repeat`` times; it prints the best wall
and CPU times, and the median over the pairs of runs of the sheet's time over the
floor's (see race). The goal is a sheet within 1.3x of the floor.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from html import escape
from pathlib import Path

import pypdf
from weasyprint import HTML

sys.path.insert(0, str(Path(__file__).resolve().parent))

from games import card_dealt  # noqa: E402

from scorer.engine import parse_game, replay  # noqa: E402
from scorer.sheet import OfflineFetcher, protocol_rows, render_sheet, words  # noqa: E402

FLOOR_CSS = """
@page { margin: 12mm 11mm 14mm 11mm; }
html { font-family: "DejaVu Sans", sans-serif; font-size: 8.5pt; line-height: 1.25; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
thead { display: table-header-group; }
th, td { border: 0.5pt solid #777; padding: 0.5mm 1mm; white-space: nowrap; }
"""


def bare_table(game) -> str:
    """The floor: one table, same rows, columns and cell text as the sheet's, in the
    sheet's font with its fixed layout, borders and margins (nothing else)."""
    rows = protocol_rows(game, replay(game), "ru")
    head = [words("ru")[key] for key in ("deal", "dealer", "declarer", "contract", "result")]
    for name in game.players:
        head += [name, name]
    out = [f"<style>{FLOOR_CSS}</style><table><thead><tr>",
           *(f"<th>{escape(h)}</th>" for h in head), "</tr></thead>"]
    for row in rows:
        cells = [str(row["n"]), row["dealer"], row["declarer"], row["contract"], row["result"]]
        for cell in row["cells"]:
            cells += [cell["delta"], f'{cell["marks"]} {cell["total"]}'.strip()]
        out.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
    out.append("</table>")
    return "".join(out)


def race(repeat: int, sheet, floor) -> dict[str, float]:
    """Run the two tasks alternately; their best wall and CPU seconds, and the median over
    the pairs (sheet, then floor right after it) of the sheet's time over the floor's.

    The machine's speed drifts by a third over seconds, so the best times of the two can
    come from different moments; a pair's two runs are seconds apart, so its ratio
    cancels most of the drift, and the median of those ratios is the figure to read.
    """
    wall = {"sheet": [], "floor": []}
    cpu = {"sheet": [], "floor": []}
    for _ in range(repeat):
        for name, work in (("sheet", sheet), ("floor", floor)):
            start_wall, start_cpu = time.perf_counter(), time.process_time()
            work()
            wall[name].append(time.perf_counter() - start_wall)
            cpu[name].append(time.process_time() - start_cpu)
    pair = {kind: statistics.median(s / f for s, f in zip(t["sheet"], t["floor"], strict=True))
            for kind, t in (("wall", wall), ("cpu", cpu))}
    return {"wall sheet": min(wall["sheet"]), "wall floor": min(wall["floor"]),
            "cpu sheet": min(cpu["sheet"]), "cpu floor": min(cpu["floor"]),
            "wall ratio": pair["wall"], "cpu ratio": pair["cpu"]}


def main() -> None:
    """Measure each size and print a small table of times and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[30, 100, 300, 1000])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"{args.repeat} alternating runs of each: best seconds, and the median over the "
          "pairs of sheet / floor (each pair runs seconds apart, so the drift of the "
          "machine's speed cancels)")
    print(f"{'deals':>6} {'pages':>6} {'sheet s':>8} {'floor s':>8} {'ratio':>6}"
          f" {'sheet cpu':>10} {'floor cpu':>10} {'ratio':>6}")
    for size in args.sizes:
        game = parse_game(card_dealt(size))
        html = bare_table(game)
        pages = len(pypdf.PdfReader(io.BytesIO(render_sheet(game))).pages)  # also warms up
        got = race(args.repeat, lambda g=game: render_sheet(g),
                   lambda h=html: HTML(string=h, url_fetcher=OfflineFetcher()).write_pdf())
        print(f"{size:>6} {pages:>6} {got['wall sheet']:>8.2f} {got['wall floor']:>8.2f}"
              f" {got['wall ratio']:>5.2f}x {got['cpu sheet']:>10.2f} {got['cpu floor']:>10.2f}"
              f" {got['cpu ratio']:>5.2f}x", flush=True)


if __name__ == "__main__":
    main()
