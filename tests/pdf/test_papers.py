"""The comparison on one page and the agreement set on one or two, read back with pypdf."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pypdf
from sheet_games import long_log

from scorer import store
from scorer.engine import catalog, parse_game, resolve_agreements

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from test_compare_page import DEALS, LOG, query  # noqa: E402


def pages(pdf: bytes) -> list[str]:
    """The text of every page."""
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def stored(app, log: dict, deals: list[dict]):
    """A game in the app's real SQLite file."""
    games = store.Store(store.connect(app.config["DATABASE"]))
    row = games.create_game(dict(log), [dict(d) for d in deals])
    games.db.close()
    return row


def test_the_comparison_prints_on_one_page(app, client):
    """Both sets' differing agreements, both totals and the differing rows, on one page."""
    row = stored(app, LOG, DEALS)
    served = client.get(f"/v/{row.view_token}/compare.pdf?" + query(
        target=100, barrel_threshold=100))
    assert served.status_code == 200 and served.mimetype == "application/pdf"
    text = pages(served.data)
    assert len(text) == 1
    one = re.sub(r"\s+", " ", text[0])
    assert "Порог бочки 880 100" in one and "Цель игры 1000 100" in one
    assert "Борис 120 100" in one  # both totals of one player
    assert "Расходятся на коне 3" in one
    assert "+20 = 120" in one and "0 = 100" in one  # deal 3, as played and what if


def test_a_long_comparison_still_fits_one_page_and_says_what_is_cut(app, client):
    """A 200-deal game under another preset: one page, the rest counted."""
    log = long_log(200)
    head = {k: v for k, v in log.items() if k != "deals"}
    row = stored(app, head, log["deals"])
    served = client.get(f"/g/{row.edit_token}/compare.pdf?agreements_shown=1"
                        "&preset=classic&action=compare&ag_bolt_penalty=none"
                        "&ag_raspis=1&ag_barrel=1&ag_samosval=1")
    assert served.status_code == 200, served.get_data(as_text=True)
    text = pages(served.data)
    assert len(text) == 1, len(text)
    assert "ещё" in text[0] and "конов записаны по-другому" in text[0]


def test_a_comparison_with_another_preset_fits_one_page(app, client):
    """Every preset against classic: many agreements differ, still one page."""
    log = long_log(120)
    row = stored(app, {k: v for k, v in log.items() if k != "deals"}, log["deals"])
    for name in catalog().presets:
        served = client.get(f"/v/{row.view_token}/compare.pdf?preset={name}")
        assert served.status_code == 200, name
        assert len(pages(served.data)) == 1, name


def test_the_rules_sheet_prints_on_at_most_two_pages_with_differences_marked(app, client):
    """Every agreement's title, grouped; those that differ from the preset marked ●."""
    overrides = {"target": 500, "bolt_penalty": "none"}
    row = stored(app, {**LOG, "agreements": {"preset": "classic", "overrides": overrides}},
                 DEALS)
    rules = client.get(f"/g/{row.edit_token}/rules").get_data(as_text=True)
    link = re.search(r'id="rules-pdf" href="([^"]+)"', rules).group(1)
    served = client.get(link)
    assert served.status_code == 200 and served.mimetype == "application/pdf"
    text = pages(served.data)
    assert 1 <= len(text) <= 2
    whole = re.sub(r"\s+", " ", " ".join(text))
    cat = catalog()
    for spec in cat.agreements.values():
        assert spec.title["ru"] in whole, spec.id
    for group in cat.groups.values():
        assert group.title["ru"] in whole
    assert whole.count("●") == len(overrides) + 1  # the marks and the legend's own mark
    assert "Цель игры: 500 (1000)" in whole


def test_every_preset_rules_sheet_fits_two_pages(app, client):
    """The longest explanations of any preset still fit two pages (read-only link)."""
    for name in catalog().presets:
        players = 2 if resolve_agreements(name)["target"] and name == "two-players" else 3
        log = {"format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"][:players],
               "agreements": {"preset": name}}
        parse_game({**log, "deals": []})
        row = stored(app, log, [])
        served = client.get(f"/v/{row.view_token}/rules.pdf")
        assert served.status_code == 200, name
        assert len(pages(served.data)) <= 2, name
