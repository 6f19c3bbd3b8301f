"""«А если бы…»: the comparison page on both links, a GET form that changes nothing."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

from scorer import store
from scorer.engine import resolve_agreements

LOG = {
    "format": "thousand-game/1", "players": ["Аня", "Борис", "Вика", "Гена"],
    "agreements": {"preset": "classic"},
}
DEALS = [
    {"type": "play", "declarer": 1, "contract": 100, "points": [None, 60, 30, 30],
     "marriages": {"1": ["hearts"]}, "prikup": {"points": 0, "aces": 0}},
    {"type": "raspis", "declarer": 2, "contract": 110, "prikup": {"points": 0, "aces": 0}},
    {"type": "play", "declarer": 3, "contract": 100, "points": [20, 20, None, 80],
     "marriages": {}, "prikup": {"points": 0, "aces": 0}},
]


@pytest.fixture
def game(app):
    """A four-player game stored in the app's real SQLite file."""
    games = store.Store(store.connect(app.config["DATABASE"]))
    row = games.create_game(dict(LOG), [dict(d) for d in DEALS])
    games.db.close()
    return row


def query(preset: str = "classic", **changes) -> str:
    """The form's query string: every agreement of the preset, with some changed."""
    values = {**dict(resolve_agreements(preset)), **changes}
    fields = {"agreements_shown": "1", "preset": preset, "action": "compare"}
    for key, value in values.items():
        if value is True:
            fields[f"ag_{key}"] = "1"
        elif value is not False:
            fields[f"ag_{key}"] = "" if value is None else str(value)
    return urlencode(fields)


def test_game_page_and_rules_sheet_link_to_the_comparison(client, game):
    """Both links' game pages and rules sheets have a «What if…» link to their own page."""
    for page, token, prefix in (("/g/{}", game.edit_token, "/g/"), ("/v/{}", game.view_token,
                                                                    "/v/")):
        for path in (page.format(token), page.format(token) + "/rules"):
            html = client.get(path).get_data(as_text=True)
            link = re.search(r'href="([^"]+)"[^>]*id="compare-link"', html)
            assert link and link.group(1) == f"{prefix}{token}/compare", path


def test_without_a_query_the_form_is_prefilled_with_the_games_set(client, game):
    """The form shows the game's values and no result yet."""
    html = client.get(f"/g/{game.edit_token}/compare").get_data(as_text=True)
    assert 'id="compare-form"' in html and 'method="get"' in html
    assert re.search(r'name="ag_target" value="1000"', html)
    assert 'id="result"' not in html


def test_a_different_set_shows_both_totals_the_differing_rows_and_why(client, game):
    """Barrel at 100: the scores part at deal 3 (Борис on the barrel), both «why» texts
    shown; the same on the read-only link; the game unchanged."""
    for token in (game.edit_token, game.view_token):
        prefix = "g" if token == game.edit_token else "v"
        before = client.get(f"/{prefix}/{token}").get_data(as_text=True)
        html = client.get(f"/{prefix}/{token}/compare?" + query(
            target=100, barrel_threshold=100)).get_data(as_text=True)
        assert 'id="result"' in html
        assert "Порог бочки" in html and "880 → <b>100</b>" in html
        assert re.search(r'id="cmp-3" class="differs', html)
        assert not re.search(r'id="cmp-[12]" class="differs', html)
        assert "Расходятся на коне 3:" in html
        assert "на бочке" in html  # the other set's reason
        assert client.get(f"/{prefix}/{token}").get_data(as_text=True) == before


def test_a_refused_deal_names_the_player_and_the_agreement(client, game):
    """Concession off: deal 2 (Вика's concession) is refused, with the agreement's title."""
    html = client.get(f"/v/{game.view_token}/compare?" + query(raspis=False)).get_data(
        as_text=True)
    refused = re.search(r'id="refused"[^>]*>(.*?)</p>', html, re.S).group(1)
    assert "Кон 2" in refused and "Вика" in refused and "Роспись разрешена" in refused
    assert 'id="cmp-2" class=" stopped"' in html


def test_an_early_win_ends_the_comparison_and_says_so(client, game):
    """To 100 without a barrel Борис wins at deal 1: not a refusal."""
    html = client.get(f"/g/{game.edit_token}/compare?" + query(
        target=100, barrel=False)).get_data(as_text=True)
    assert 'id="ended"' in html and 'id="refused"' not in html
    assert "Борис выигрывает на коне 1" in html


def test_apply_preset_takes_the_preset_as_it_is(client, game):
    """The «Apply preset» button compares with that preset, its fields shown."""
    html = client.get(f"/g/{game.edit_token}/compare?agreements_shown=1&preset=polish"
                      "&action=preset&ag_target=1000").get_data(as_text=True)
    polish = resolve_agreements("polish")
    assert f'name="ag_target" value="{polish["target"]}"' in html
    assert 'id="result"' in html


def test_a_bad_number_is_shown_next_to_its_field(client, game):
    """A non-number is refused beside the field; no comparison is made."""
    html = client.get(f"/g/{game.edit_token}/compare?" + query(target="abc")).get_data(
        as_text=True)
    assert 'id="result"' not in html
    assert 'class="error"' in html and 'name="ag_target" value="abc"' in html


def test_the_pdf_link_keeps_the_query(client, game):
    """The result's PDF link is the same comparison as a PDF."""
    html = client.get(f"/v/{game.view_token}/compare?" + query(raspis=False)).get_data(
        as_text=True)
    link = re.search(r'id="compare-pdf" href="([^"]+)"', html).group(1).replace("&amp;", "&")
    assert link.startswith(f"/v/{game.view_token}/compare.pdf?") and "ag_target=1000" in link


def test_unknown_tokens_are_404(client):
    """No game, no page."""
    assert client.get("/g/nope/compare").status_code == 404
    assert client.get("/v/nope/compare.pdf").status_code == 404
