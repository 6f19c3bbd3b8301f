"""No CSV the app hands out can run a formula: a text cell that begins with =, +, -, @, a
tab or a carriage return gets a leading ' (OWASP, «CSV Injection»); numbers stay numbers.
Every CSV route of the app's url_map is read, the share link's included."""

from __future__ import annotations

import csv
import io
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from club_web import as_host  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "club"))
from club_games import add, finished_log, seated  # noqa: E402

from scorer.club import Club  # noqa: E402
from scorer.csvfile import csv_text, safe_cell  # noqa: E402
from scorer.web.db import get_store  # noqa: E402

SCORER = Path(__file__).resolve().parents[2] / "scorer"
HOSTILE = ["=A1+Б", "+Вова", "@Гена", '=HYPERLINK("http://e.x","Вова")', "-Дима"]
FORMULA = re.compile(r"[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]")


def number(cell: str) -> bool:
    """Whether a cell is a plain number (a spreadsheet reads it as one)."""
    return re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", cell) is not None


@pytest.fixture
def hostile_club(app):
    """Two finished games and a running one (its first deal a concession: a negative total)
    whose players are named like formulas; a share link of «всё время»."""
    with app.app_context():
        st = get_store()
        add(st, seated(finished_log(3, 7), HOSTILE[:3], "2026-09-05"))
        add(st, seated(finished_log(3, 7), [HOSTILE[3], HOSTILE[4], "Аня"], "2026-09-12"))
        add(st, {"format": "thousand-game/1", "players": [HOSTILE[0], "Аня", "Борис"],
                 "agreements": {"preset": "classic"}, "date": "2026-09-19",
                 "deals": [{"type": "raspis", "declarer": 0, "contract": 160}]})
    client = app.test_client()
    as_host(client)
    client.get("/club")  # links the seats to players
    with app.app_context():
        share = Club(get_store().db).share_token("season", None)
    return client, share


def csv_routes(app, share: str) -> list[str]:
    """Every route of the app that answers CSV, with this share link's token."""
    out = []
    for rule in app.url_map.iter_rules():
        if ".csv" not in rule.rule:
            continue
        if "<any(table, results):what>" in rule.rule:
            out += [rule.rule.replace("<token>", share).replace(
                "<any(table, results):what>", what) for what in ("table", "results")]
        else:
            assert not rule.arguments, f"a CSV route this test does not know: {rule.rule}"
            out.append(rule.rule)
    return out


def test_every_csv_route_writes_typed_texts_inert_and_numbers_as_numbers(app, hostile_club):
    """Host and share CSVs: each formula-like name is there with a leading ', no cell
    starts a formula, every total and place is a plain number and −160 is written -160."""
    client, share = hostile_club
    routes = csv_routes(app, share)
    assert len(routes) == 4, routes  # /club/table.csv, /club/results.csv, the share's two
    for path in routes:
        answer = client.get(path) if path.startswith("/club") else app.test_client().get(path)
        assert answer.status_code == 200 and answer.mimetype == "text/csv", path
        rows = list(csv.reader(io.StringIO(answer.get_data(as_text=True))))
        header, body = rows[0], rows[1:]
        cells = [cell for row in body for cell in row]
        for name in HOSTILE:
            assert "'" + name in cells, (path, name)
            assert name not in cells, (path, name)
        for cell in cells:
            assert number(cell) or not FORMULA.match(cell), (path, cell)
        for column in ("games", "points", "total", "place"):
            if column in header:
                values = [row[header.index(column)] for row in body]
                assert all(number(v) or v == "" for v in values), (path, column, values)
        if "total" in header:
            totals = [row[header.index("total")] for row in body]
            assert "-160" in totals, totals


def test_one_helper_writes_every_csv():
    """Only scorer/csvfile.py makes a csv.writer; the club's CSV answer goes through it."""
    writers = [str(p.relative_to(SCORER)) for p in SCORER.rglob("*.py")
               if "csv.writer" in p.read_text(encoding="utf-8")]
    assert writers == ["csvfile.py"]
    assert "csv_text(" in (SCORER / "web" / "club" / "pages.py").read_text(encoding="utf-8")


@pytest.mark.parametrize("value, written", [
    ("=1+2", "'=1+2"), ("+Вова", "'+Вова"), ("-Дима", "'-Дима"), ("@Гена", "'@Гена"),
    ("\tВася", "'\tВася"), ("\rВася", "'\rВася"), ("\uff1dSUM(A1)", "'\uff1dSUM(A1)"),
    ("Аня", "Аня"), ("a=b", "a=b"), ("", ""), (-120, -120), (-1.5, -1.5), (None, None),
    (0, 0),
])
def test_a_cell_is_neutralised_only_when_it_is_text_that_starts_a_formula(value, written):
    """The OWASP rule, cell by cell; numbers and empty cells pass as they are."""
    assert safe_cell(value) == written


def test_negative_numbers_are_written_bare_and_texts_quoted():
    """-120 as a number is -120 in the file; «-120» typed as text is '-120."""
    assert csv_text([[-120, "-120", "=A1"]]) == "-120,'-120,'=A1\r\n"
