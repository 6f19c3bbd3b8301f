"""The PDF sheet of a game whose rules changed mid-game, rendered by WeasyPrint, read with pypdf."""

import io

import pypdf

from scorer.engine import parse_game
from scorer.sheet import render_sheet

LOG = {
    "format": "thousand-game/2", "players": ["Аня", "Борис", "Вика"],
    "agreements": {"preset": "classic", "overrides": {}},
    "deals": [
        {"type": "raspis", "declarer": 0, "contract": 160},
        {"type": "agreements", "changes": {"raspis_payout": "sixty", "penalty": 100}},
        {"type": "raspis", "declarer": 1, "contract": 160},
    ],
}


def flat(pdf: bytes) -> str:
    """Every page's text without whitespace (a phrase may wrap inside its cell)."""
    text = "".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    return "".join(text.split())


def test_the_row_and_the_changed_agreements_are_printed():
    """The row «договорённости изменены» names each agreement with its from → to."""
    text = flat(render_sheet(parse_game(LOG)))
    assert "договорённостиизменены" in text
    assert "Выплатаприросписи" in text and "Суммаштрафа" in text
    for value in ("120→100", "→"):
        assert value in text


def test_the_english_sheet_words_the_row_too():
    """The same row in English."""
    text = flat(render_sheet(parse_game(LOG), lang="en"))
    assert "agreementschanged" in text and "120→100" in text


def test_the_header_says_which_rows_changed_the_agreements_it_lists():
    """The header lists the agreements the game started with; a game whose rules changed
    says so beside them, with the rows to read; a game without a change says nothing."""
    text = flat(render_sheet(parse_game(LOG)))
    assert "внаборе.Измененыпоходупартии:кон№2." in text
    english = flat(render_sheet(parse_game(LOG), lang="en"))
    assert "Changedduringthegame:deal№2." in english
    unchanged = {**LOG, "format": "thousand-game/1",
                 "deals": [d for d in LOG["deals"] if d["type"] != "agreements"]}
    assert "походупартии" not in flat(render_sheet(parse_game(unchanged)))


def test_the_rules_pdf_prints_the_agreements_in_force_now():
    """The rules PDF, like the rules page, shows the set after the change: the penalty
    of 100, not the 120 the game started with."""
    from scorer.papers import render_rules

    text = flat(render_rules(parse_game(LOG)))
    assert "Суммаштрафа:100(120)" in text
