"""The app's limits, each refused with a clear message and nothing stored:
2 to 4 players, names up to 40 characters, titles up to 80, at most 2000 deals a game,
at most 2 MB a request. (The 413 for oversized requests is in test_access_attacks.)"""

from __future__ import annotations

import io
import json
import re

import pytest
from reliability_rig import HEAD, Phone, csrf_of, pattern

from scorer import engine, store
from scorer.web import app as web_app
from scorer.web import forms


def game_count(app) -> int:
    """How many games are stored."""
    db = store.connect(app.config["DATABASE"])
    try:
        return db.execute("select count(*) from games").fetchone()[0]
    finally:
        db.close()


def new_game(phone: Phone, **fields):
    """POST the new-game form."""
    html = phone.client.get("/new").get_data(as_text=True)
    data = {"csrf_token": csrf_of(html), "first_dealer": "0", "preset": "classic",
            "action": "start", **fields}
    return phone.client.post("/new", data=data)


def import_log(phone: Phone, log: dict):
    """POST a game file to the import form."""
    html = phone.client.get("/").get_data(as_text=True)
    return phone.client.post("/import", data={
        "csrf_token": csrf_of(html),
        "file": (io.BytesIO(json.dumps(log, ensure_ascii=False).encode()), "g.json")})


def errors(response) -> list[str]:
    """The refusal texts on a page."""
    # Beside a field (<p class="error">) or, for the form as a whole, in the summary on top.
    return re.findall(r'<(?:p|li) class="error[^"]*"[^>]*>([^<]+)</(?:p|li)>',
                      response.get_data(as_text=True))


def test_the_limits_are_the_documented_ones():
    """The limits in the code are the ones documented."""
    assert engine.MAX_DEALS == 2000
    assert forms.MAX_NAME == 40 and forms.MIN_PLAYERS == 2
    assert web_app.MAX_CONTENT_LENGTH == 2 * 1024 * 1024


@pytest.mark.parametrize("names, ok", [
    ((), False), (("Аня",), False), (("Аня", "Борис"), True),
    (("Аня", "Борис", "Вика", "Глеб"), True),
])
def test_two_to_four_players_in_the_form(app, names, ok):
    """The form takes 2 to 4 players and refuses other counts."""
    phone = Phone(app)
    r = new_game(phone, **{f"name{i}": n for i, n in enumerate(names)})
    if ok:
        assert r.status_code == 302
    else:
        assert r.status_code == 422
        assert "Введите имена от 2 до 4 игроков." in errors(r)
        assert game_count(app) == 0


def test_a_fifth_name_field_is_not_a_fifth_player(app):
    """A forged fifth name field does not make a fifth player."""
    phone = Phone(app)
    r = new_game(phone, name0="Аня", name1="Борис", name2="Вика", name3="Глеб", name4="Дина")
    assert r.status_code == 302
    html = phone.client.get(r.headers["Location"]).get_data(as_text=True)
    assert "Дина" not in html


@pytest.mark.parametrize("players", [["Аня"], ["А", "Б", "В", "Г", "Д"], []])
def test_two_to_four_players_on_import(app, players):
    """An imported log with too few or too many players is refused."""
    r = import_log(Phone(app), {**HEAD, "players": players, "deals": []})
    assert r.status_code == 422
    assert any("нужно от 2 до 4 игроков" in e for e in errors(r)), errors(r)
    assert game_count(app) == 0


def test_names_up_to_40_characters(app):
    """Names up to 40 characters are taken; longer ones are refused beside the field."""
    phone = Phone(app)
    r = new_game(phone, name0="Ж" * 41, name1="Борис")
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    assert re.search(r'id="name0"[^>]*maxlength="40"', html)
    assert "Значение не должно содержать более 40 символов." in errors(r)
    assert game_count(app) == 0
    r = import_log(phone, {**HEAD, "players": ["Ж" * 41, "Борис", "Вика"], "deals": []})
    assert r.status_code == 422
    assert any("не длиннее 40 символов" in e for e in errors(r)), errors(r)
    assert game_count(app) == 0
    assert new_game(phone, name0="Ж" * 40, name1="Борис").status_code == 302
    assert import_log(phone, {**HEAD, "players": ["Ж" * 40, "Б", "В"],
                              "deals": []}).status_code == 302


def test_titles_up_to_80_characters(app):
    """Titles up to 80 characters are taken; longer ones are refused."""
    phone = Phone(app)
    r = new_game(phone, name0="Аня", name1="Борис", title="Т" * 81)
    assert r.status_code == 422 and "Значение не должно содержать более 80 символов." in errors(r)
    assert new_game(phone, name0="Аня", name1="Борис", title="Т" * 80).status_code == 302


def test_at_most_2000_deals_a_game(app):
    """A game holds 2000 deals; the form refuses the 2001st."""
    phone = Phone(app)
    db = store.connect(app.config["DATABASE"])
    try:
        full = store.Store(db).create_game(HEAD, [pattern(i) for i in range(2000)])
    finally:
        db.close()
    game = f"/g/{full.edit_token}"
    page = phone.client.get(game)
    assert page.status_code == 200
    before = phone.client.get(game + "/export.json").get_json()
    r = phone.client.post(game + "/deal", data={**phone.form(game + "/deal"),
                                                "action": "redeal"})
    assert r.status_code == 422
    assert any("не больше 2000 конов" in e for e in errors(r)), errors(r)
    assert phone.client.get(game + "/export.json").get_json() == before
    # Import: 2000 deals are fine, 2001 are refused.
    assert import_log(phone, {**HEAD, "deals": [pattern(i) for i in range(2000)]}
                      ).status_code == 302
    count = game_count(app)
    r = import_log(phone, {**HEAD, "deals": [pattern(i) for i in range(2001)]})
    assert r.status_code == 422
    assert any("не больше 2000 конов" in e for e in errors(r)), errors(r)
    assert game_count(app) == count


def test_the_store_refuses_a_2001st_deal_itself(app):
    """The store itself refuses a 2001st deal."""
    db = store.connect(app.config["DATABASE"])
    try:
        st = store.Store(db)
        game = st.create_game(HEAD, [{"type": "redeal"}] * 2000)
        with pytest.raises(engine.RuleError), st.writing():
            st.add_deal(game.id, {"type": "redeal"})
        assert len(st.records(game.id)) == 2000
    finally:
        db.close()


HIDDEN = ["\u202e", "\u200b", "\x00", "\x1b", "\n", "\u2066", "\ufeff", "\u2028"]


@pytest.mark.parametrize("char", HIDDEN)
def test_hidden_characters_are_refused_in_names_and_titles(app, char):
    """A control or format character (U+202E, zero-width space, NUL, ESC, newline...) in a
    name or title is refused, in the form and on import; nothing is stored."""
    phone = Phone(app)
    code = f"U+{ord(char):04X}"
    for fields in ({"name0": f"Вася{char}05", "name1": "Борис"},
                   {"name0": "Аня", "name1": "Борис", "title": f"Пят{char}ница"}):
        r = new_game(phone, **fields)
        assert r.status_code == 422, fields
        assert any(code in e for e in errors(r)), errors(r)
    for log in ({**HEAD, "players": ["Аня", f"Б{char}орис"], "deals": []},
                {**HEAD, "title": f"x{char}y", "deals": []},
                {**HEAD, "notes": f"x{char}y" if char != "\n" else "\u202e", "deals": []}):
        r = import_log(phone, log)
        assert r.status_code == 422, log
        assert any("управляющих" in e for e in errors(r)), errors(r)
    assert game_count(app) == 0


def test_notes_may_hold_line_breaks(app):
    """A note of several lines is still a note."""
    assert import_log(Phone(app), {**HEAD, "notes": "первая\nвторая\tстрока",
                                   "deals": []}).status_code == 302


@pytest.mark.parametrize("twin, name", [("Аня\u200b", "Аня"), ("Ａnna", "Anna"),
                                        ("Аня\u00ad", "Аня")])
def test_names_that_look_the_same_are_duplicates(app, twin, name):
    """«Аня» and «Аня» with a zero-width space, a soft hyphen or a full-width letter are the
    same name (NFKC, hidden characters removed): refused on import."""
    from scorer.engine import RuleError, parse_game

    with pytest.raises(RuleError):
        parse_game({**HEAD, "players": [name, twin], "deals": []})
    from scorer.engine.names import name_key
    assert name_key(twin) == name_key(name)
    assert game_count(app) == 0


@pytest.mark.parametrize("huge", [10**400, -(10**400), 10**5000, -(10**5000) + 7],
                         ids=["1e400", "-1e400", "1e5000", "-1e5000"])
def test_the_chart_and_number_formatting_cannot_fail_on_huge_numbers(huge):
    """Whatever the engine lets through (or an old database holds), the chart and every
    number on a page or sheet are written without OverflowError or the int-to-str limit."""
    import xml.etree.ElementTree as ET
    from types import SimpleNamespace

    from scorer.chart import PAPER, PHONE, totals_svg
    from scorer.marks import number, signed

    ag = {"barrel": True, "barrel_threshold": 880, "target": 1000}
    game = SimpleNamespace(players=("Аня", "Борис"), agreements=ag)
    rows = [SimpleNamespace(score=(huge, 5)), SimpleNamespace(score=(huge, -huge))]
    for layout in (PAPER, PHONE):  # the phone's unit points fall back to positions
        svg = totals_svg(game, SimpleNamespace(rows=rows), layout=layout)
        ET.fromstring(svg)
        assert len(svg) < 20_000
    for text in (number(huge), signed(huge), number(-huge)):
        assert len(text) < 30 and "e" in text
    assert number(-120) == "−120" and signed(20) == "+20" and number(0) == "0"
