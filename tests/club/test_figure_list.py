"""Each of a player's figures is declared once (scorer/club/player_figures.py): docs/STATS.md's
table, the page, the card and ``stats`` all read that one list."""

from __future__ import annotations

import json
from pathlib import Path

from club_games import add, finished_logs, new_store, seated

from scorer.cli import main
from scorer.club import COLUMNS, FIGURES, RECORDS, Club
from scorer.engine.texts import tr
from scorer.paths import DATABASE_NAME

STATS = Path(__file__).resolve().parents[2] / "docs" / "STATS.md"
HEAD = "| Name | Figure | Russian | Definition | Sources |"


def documented_rows() -> list[str]:
    """The rows of STATS.md's table of a player's figures."""
    text = STATS.read_text(encoding="utf-8")
    table = text[text.index(HEAD):].split("\n\n", 1)[0].splitlines()
    return table[2:]


def test_stats_md_lists_every_declared_figure_in_order():
    """One row per declared figure: its name, its label, the label in Russian (the
    catalog's), its definition and what its sources are; nothing else."""
    expected = [f"| `{d.name}` | {d.label} | {tr('ru', d.label)} | {d.definition} | "
                f"{d.sources} |" for d in FIGURES]
    assert documented_rows() == expected


def test_stats_md_names_the_records_and_the_table_columns_in_the_catalogs_words():
    """Each line of the records board and each column of the season table is described
    in STATS.md in the words the pages show (the label and its Russian)."""
    text = " ".join(STATS.read_text(encoding="utf-8").split())
    board = text[text.index("**Records board"):].split("- **", 1)[0]
    row = text[text.index("**Table row:**"):].split("- **", 1)[0]
    for _name, label in RECORDS:
        assert label.split(" (")[0] in board and tr("ru", label) in board, label
    for _name, label in COLUMNS:
        assert label in row, label


def test_every_figure_is_declared_well():
    """Unique names, a section the page has, sources of a known kind, a definition."""
    names = [d.name for d in FIGURES]
    assert len(set(names)) == len(names)
    assert {d.section for d in FIGURES} == {"results", "declarer", "events"}
    assert {d.sources for d in FIGURES} <= {"games", "deals", "deal"}
    assert all(d.definition and d.label for d in FIGURES)
    assert [name for name, _label in COLUMNS] == ["games", "wins", "points", "avg_place"]


def test_the_command_line_shows_each_declared_figure(tmp_path, capsys):
    """Every declared figure is counted for a player, printed by ``stats --player`` under
    its label and keyed by its name in ``--json``."""
    instance = tmp_path / "instance"
    instance.mkdir()
    st = new_store(instance / DATABASE_NAME)
    add(st, seated(finished_logs()[2], ["Аня", "Борис", "Вика"], date="2026-10-01"))
    club = Club(st.db)
    assert list(club.player(club.roster()[0].id).figures) == [d.name for d in FIGURES]
    st.db.close()
    assert main(["stats", "--instance", str(instance), "--player", "Аня", "--lang",
                 "en"]) == 0
    printed = capsys.readouterr().out
    for d in FIGURES:
        assert f"  {d.label}: " in printed, d.name
    assert main(["stats", "--instance", str(instance), "--player", "Аня", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)["player"]
    names = {d.name for d in FIGURES}
    assert [k for k in shown if k in names] == [d.name for d in FIGURES]
