"""The deal form on the server: slips blamed on the field that was typed, derived points
only where the rules make a sum, refusals that name their field and player, and the
adjustment's defaults."""

from __future__ import annotations

import html as htmllib
import re

from webtable import csrf_of

from scorer.engine import RuleError
from scorer.web.game import deal_input

NAMES = ("Маргарита", "Вениамин", "Вика")


def errors(r) -> list[str]:
    """The error texts beside the fields of a refused form."""
    page = r.get_data(as_text=True)
    return [htmllib.unescape(re.sub(r"<[^>]+>", "", e))
            for e in re.findall(r'<p class="error" id="err-[^"]*" role="alert">(.*?)</p>', page)]


def test_a_typed_slip_is_told_beside_its_field_not_as_a_derived_value(table):
    """Вениамин 125 with the declarer's points blank: his field, never Маргарита's −20."""
    game = table.new_game(names=NAMES)
    r = table.deal(game, expect=422, declarer="0", contract="100", points_1="125",
                   points_2="0")
    page = r.get_data(as_text=True)
    assert 'id="err-points-1"' in page and 'id="err-points-0"' not in page
    assert errors(r) == ["Вениамин: очки — от 0 до 120 (указано 125)."]
    assert "-20" not in page and "\u221220" not in page


def test_a_sum_beyond_120_is_blamed_on_the_typed_fields(table):
    """60 and 70 typed: the error names both typed players, none goes to the declarer."""
    game = table.new_game(names=NAMES)
    r = table.deal(game, expect=422, declarer="0", contract="100", points_1="60",
                   points_2="70")
    assert errors(r) == ["Вениамин, Вика: вместе 130 очков, больше 120."]
    assert 'id="err-points-1"' in r.get_data(as_text=True)


def test_points_the_script_filled_in_are_not_blamed(table):
    """The script's 1 for the declarer (auto=0) is the typed fields' slip: 60 + 59."""
    game = table.new_game(names=NAMES)
    r = table.deal(game, expect=422, declarer="0", contract="100", points_0="1",
                   points_1="60", points_2="59", auto="0")
    [text] = errors(r)
    assert text.startswith("Вениамин, Вика: вместе 119 очков") and "Маргарита" in text
    assert 'id="err-points-1"' in r.get_data(as_text=True)


def test_two_players_points_are_not_derived(table):
    """With two players a blank field is asked for, never filled as 120 minus the other."""
    game = table.new_game(names=("Аня", "Борис"))
    r = table.deal(game, expect=422, declarer="0", contract="100", points_1="30")
    assert errors(r) == ["Введите очки: Аня."]
    page = table.client.get(game + "/deal").get_data(as_text=True)
    assert "120 минус" not in page
    table.deal(game, declarer="0", contract="100", points_0="75", points_1="30")
    assert table.totals(game) == [-100, 30]


def test_every_field_error_names_its_field(table):
    """Blank contract and points, a word, a contract of 103: each error says what."""
    game = table.new_game()
    r = table.deal(game, expect=422, declarer="0")
    texts = errors(r)
    assert "Введите заказ." in texts
    assert any("Борис" in t for t in texts) and any("Вика" in t for t in texts)
    assert "Обязательное поле." not in texts
    r = table.deal(game, expect=422, declarer="0", contract="сто", points_1="10", points_2="x")
    assert "Заказ: введите целое число (указано сто)." in errors(r)
    assert "Очки: Вика: введите целое число (указано x)." in errors(r)
    r = table.deal(game, expect=422, declarer="0", contract="103", points_1="10",
                   points_2="10")
    assert errors(r)[0].startswith("Заказ должен быть кратен 5 (указано 103).")


def test_refusals_name_the_player_they_are_about(app):
    """A golden deal names who must play; a concession on the barrel names who sits there."""
    players = ("Аня", "Борис", "Вика")
    with app.test_request_context("/", headers={"Accept-Language": "ru"}):
        golden = RuleError(1, "declarer", "declarer.golden", seat=0, expected=1)
        assert "Борис" in deal_input.refusal_words(golden, players, "ru")
        assert "Аня" not in deal_input.refusal_words(golden, players, "ru")
        barrel = RuleError(4, "declarer", "raspis.barrel_player", seat=2)
        assert deal_input.refusal_words(barrel, players, "ru") == (
            "Вика на бочке: на бочке расписаться нельзя.")


def test_the_adjustment_amount_filled_in_follows_the_reason(table):
    """Without script: the −120 the form filled in, left alone, is the chosen reason's
    amount; with «other» it is asked for, not taken."""
    game = table.new_game()
    page = table.client.get(game + "/deal").get_data(as_text=True)
    assert 'name="amount" value="\u2212120"' in page
    assert re.search(r'<option value="2" selected>Вика</option>', page)  # the cutter
    r = table.deal(game, expect=422, action="adjustment", player="1", reason="other",
                   amount="\u2212120", amount_auto="\u2212120")
    assert "Введите сумму штрафа или бонуса." in errors(r)
    table.deal(game, action="adjustment", player="1", reason="other", amount="\u221230",
               amount_auto="\u2212120")
    table.deal(game, action="adjustment", player="2", reason="cut_nines",
               amount="\u2212120", amount_auto="\u2212120")
    assert table.totals(game) == [0, -30, -120]


def test_the_first_dealer_is_counted_among_the_named_players(client):
    """Names in fields 1, 2 and 4, dealer «field 4»: the third player deals first."""
    data = {"csrf_token": csrf_of(client.get("/new").get_data(as_text=True)),
            "first_dealer": "3", "preset": "classic", "action": "start",
            "name0": "Аня", "name1": "Борис", "name3": "Гена"}
    r = client.post("/new", data=data)
    assert r.status_code == 302
    log = client.get(r.headers["Location"] + "/export.json").get_json()
    assert log["players"] == ["Аня", "Борис", "Гена"] and log["first_dealer"] == 2
    data["first_dealer"] = "2"  # a blank field is nobody
    r = client.post("/new", data=data)
    assert r.status_code == 422
