"""The game page's marks and legend agree with the PDF sheet's (both come from scorer.marks)."""

from __future__ import annotations

import html as htmllib
import io
import json
import re

import pytest
from scenario_logs import SCENARIOS, replayable_logs

from scorer import marks, sheet
from scorer.engine import parse_game, replay


def imported(table, log: dict) -> str:
    """Import a game log through the form; return its edit path."""
    r = table.client.post("/import", data={
        "csrf_token": table.token("/"),
        "file": (io.BytesIO(json.dumps(log).encode()), "g.json")},
        content_type="multipart/form-data")
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    return r.headers["Location"]


def page_marks(page: str) -> dict[int, list[str]]:
    """Row number -> each seat's marks as the page shows them."""
    rows = {}
    for n, body in re.findall(r'<tr id="row-(\d+)".*?>(.*?)</tr>', page, re.S):
        cells = re.findall(r'<td class="cell"><a class="why"[^>]*>(.*?)</a>', body, re.S)
        rows[int(n)] = [htmllib.unescape(m.group(1)) if m else "" for m in
                        (re.search(r'<span class="mark">(.*?)</span>', c) for c in cells)]
    return rows


def page_legend(page: str) -> list[tuple[str, str]]:
    """The (mark, meaning) pairs of the page's legend."""
    box = re.search(r'<details class="legend".*?</details>', page, re.S).group(0)
    return [(htmllib.unescape(m), htmllib.unescape(t.strip())) for m, t in
            re.findall(r'<li><span class="mark">(.*?)</span>(.*?)</li>', box, re.S)]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_scenario_shows_the_pdf_marks_and_legend(table, lang):
    """Each replayable scenario: the page's cell marks and legend equal the PDF sheet's."""
    table.client.get(f"/lang/{lang}")
    games = replayable_logs()
    assert len(games) > 50
    seen = set()
    for log in games:
        game = parse_game(log)
        printed = sheet.sheet_context(game, replay(game), lang=lang)
        page = table.client.get(imported(table, log) + "?rows=all").get_data(as_text=True)
        shown = page_marks(page)
        for row in printed["rows"]:
            if row["type"] == "redeal":  # the sheet spans a redeal row with one word
                continue
            assert shown[row["n"]] == [c["marks"] for c in row["cells"]], (log, row["n"])
            seen.update(m for c in row["cells"] for m in c["marks"].split())
        assert page_legend(page) == printed["legend"], log
    # The scenarios really exercise the marks (three falls, sitting out, penalties...).
    letters = marks.letters(lang)
    assert {letters[k] for k in ("bolt", "penalty", "barrel", "fall", "sitting_out",
                                 "samosval", "win")} <= seen


def test_legend_lists_only_what_the_game_can_show(table):
    """Polish play: no samosval, no falls, no penalties, so no such marks in the legend."""
    game = table.new_game(preset="polish")
    legend = dict(page_legend(table.client.get(game).get_data(as_text=True)))
    assert set(legend) == {"—", "Б", "Р", "★"}


def test_three_falls_zero_is_marked_like_on_the_sheet(table):
    """The third fall resets the score: both the page and the PDF mark it ↓ and !."""
    log = json.loads((SCENARIOS / "barrel" / "three_falls_zero.json").read_text())["game"]
    shown = page_marks(table.client.get(imported(table, log) + "?rows=all")
                       .get_data(as_text=True))
    game = parse_game(log)
    last = replay(game).rows[-1]
    seat = next(e.seat for e in last.events if e.kind == "three_falls_zero")
    assert shown[last.n][seat] == "↓ !"
