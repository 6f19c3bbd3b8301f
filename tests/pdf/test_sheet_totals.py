"""The sheet's «Итоги» and the game page count the game's events, not the counters a
penalty resets: after three falls and three bolts each, the paper says 3, as the club does.

Real PDFs from WeasyPrint, read back with pypdf, in every language; the game page through
the Flask test client on a real SQLite file.
"""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pypdf
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from languages import each, ready  # noqa: E402

from scorer.engine import parse_game, replay  # noqa: E402
from scorer.engine.texts import tr  # noqa: E402
from scorer.sheet import WORDS, html_to_pdf, sheet_html  # noqa: E402

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
BOLTS = {"type": "play", "declarer": 0, "contract": 100, "points": [120, 0, 0],
         "marriages": {}, "no_tricks": [1, 2]}


def counted_log(bolt_deals: int = 3) -> dict:
    """Аня falls off the barrel three times (her score and falls counter go to 0), then
    Борис and Вика take no trick in ``bolt_deals`` deals (three cost the penalty and
    reset their counters); Вика concedes last."""
    log = json.loads((SCENARIOS / "barrel" / "three_falls_zero.json").read_text())["game"]
    log["deals"] += [dict(BOLTS) for _ in range(bolt_deals)]
    log["deals"].append({"type": "raspis", "declarer": 2, "contract": 100})
    return log


def won_log() -> dict:
    """The same game, then Борис climbs to the barrel and wins (with a fourth bolt to Вика)."""
    log = counted_log()
    log["deals"] += [{"type": "adjustment", "player": 1, "amount": 880, "reason": "other"},
                     {"type": "play", "declarer": 1, "contract": 120, "points": [0, 120, 0],
                      "marriages": {}, "no_tricks": [0, 2]}]
    return log


def pdf_lines(game, lang: str) -> list[str]:
    """The sheet's text lines, read back from the real PDF."""
    pdf = html_to_pdf(sheet_html(game, lang=lang))
    text = "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    return [" ".join(line.split()) for line in text.splitlines()]


def standing(lines: list[str], name: str, lang: str) -> list[str]:
    """What follows the place and name in the player's line of the totals table."""
    head = [i for i, line in enumerate(lines) if line.startswith(tr(lang, WORDS["place"]))]
    assert len(head) == 1, lines
    found = [line for line in lines[head[0]:] if re.match(rf"\d+ {name} ", line)]
    assert len(found) == 1, (name, lines[-40:])
    return found[0].split(" ")[2:]


def test_the_engine_counters_are_reset_here():
    """The game is the issue's: the protocol's counters read 0 after the penalties."""
    protocol = replay(parse_game(counted_log()))
    assert protocol.falls[0] == 0 and protocol.bolts[1:] == (0, 0)


@pytest.mark.parametrize("lang", each())
def test_the_totals_count_the_games_events(lang):
    """Score, bolts, penalties, falls, concessions: Аня 3 falls and a penalty, Борис and
    Вика 3 bolts and a penalty each, Вика one concession; said to be the whole game's."""
    ready(lang)
    game = parse_game(won_log())
    lines = pdf_lines(game, lang)
    header = " ".join(tr(lang, WORDS[k]) for k in
                      ("score", "bolts", "penalties", "falls", "raspis"))
    assert any(line.endswith(header) for line in lines), (header, lines[-30:])
    assert standing(lines, "Борис", lang) == ["1000", "3", "1", "0", "0"]
    assert standing(lines, "Аня", lang) == ["350", "1", "1", "3", "0"]
    assert standing(lines, "Вика", lang) == ["−80", "4", "1", "0", "1"]
    assert " ".join(tr(lang, WORDS["counted"]).split()) in lines
    # A finished game has no counter towards a penalty to show.
    assert not any(tr(lang, WORDS["now"]) in line for line in lines)


@pytest.mark.parametrize("lang", each())
def test_a_counter_towards_the_penalty_is_shown_apart_and_named(lang):
    """Unfinished, with two bolts each: the totals say 2 bolts, and a column of its own
    says «болт 2 из 3» (the counter the next bolt's penalty reads)."""
    ready(lang)
    game = parse_game(counted_log(bolt_deals=2))
    lines = pdf_lines(game, lang)
    assert any(line.endswith(tr(lang, WORDS["now"])) for line in lines), lines[-30:]
    now = tr(lang, "bolt %(n)d of 3") % {"n": 2}
    assert " ".join(standing(lines, "Борис", lang)) == f"270 2 0 0 0 {now}"
    assert " ".join(standing(lines, "Аня", lang)) == "250 0 1 3 0"


def imported(client, log: dict) -> str:
    """Import a game log through the form (as the host would); its edit path."""
    html = client.get("/").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)
    r = client.post("/import", data={"csrf_token": token,
                                     "file": (io.BytesIO(json.dumps(log).encode()), "g.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    return r.headers["Location"]


@pytest.mark.parametrize("lang", each())
def test_the_game_page_counts_the_same_at_the_end(client, lang):
    """The finished game's page says, in each card's box and the counts line, what the
    paper says: the game's bolts, penalties, concessions and falls."""
    ready(lang)
    client.get(f"/lang/{lang}?next=/")
    path = imported(client, won_log())
    page = client.get(path).get_data(as_text=True)
    boxes = re.findall(r'<p class="tally">(.*?)</p>', page, re.S)
    said = [" ".join(b.split()) for b in boxes]
    assert len(said) == 3
    # bolts · penalties · concessions · falls
    assert [re.findall(r"\d+", s) for s in said] == [
        ["1", "1", "0", "3"], ["3", "1", "0", "0"], ["4", "1", "1", "0"]], said
    counts = " ".join(re.search(r'<p class="counts">(.*?)</p>', page, re.S).group(1).split())
    assert "Аня 1 · Борис 3 · Вика 4" in counts and "Вика 1" in counts, counts


def test_the_ukrainian_sheet_says_what_happened_without_a_gender():
    """The Ukrainian paper: «зіграно / не зіграно» in the rows, «зліт з бочки» in the
    legend (it said «зіграв», «злетів» of any player)."""
    text = " ".join(pdf_lines(parse_game(won_log()), "uk"))
    assert "зіграно" in text and "зліт з бочки" in text
    assert not re.search(r"\b(зіграв|злетів)\b", text), text
