"""Words a new user's walk through the app found wrong, held here: an
agreement is named by its title, never its id; Ukrainian past forms have no gender."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from languages import TRANSLATED, each, po

from scorer.engine.texts import tr

ROOT = Path(__file__).resolve().parents[2]
# Ids that are not also plain words: "dark" or "golden" may stand in a sentence.
IDS = {key for key in tomllib.loads((ROOT / "rules" / "catalog.toml").read_text("utf-8"))
       ["agreements"] if "_" in key}


def texts(message) -> list[str]:
    """Every string of a catalog entry: its msgid(s) and translation(s)."""
    ids = [message.id] if isinstance(message.id, str) else list(message.id)
    found = [message.string] if isinstance(message.string, str) else list(message.string)
    return [t for t in ids + found if t]


@pytest.mark.parametrize("lang", each(TRANSLATED))
def test_no_sentence_names_an_agreement_by_its_id(lang):
    """«…przy barrel_defender_win…»: every sentence of every language (the English msgids
    included) says the agreement's title instead."""
    said = [(w, t) for m in po(lang) for t in texts(m) for w in re.findall(r"\w+", t)
            if w in IDS]
    assert not said, said[:5]


# Masculine past forms a Ukrainian sheet or legend would say of any player.
MASCULINE = re.compile(r"\b(зіграв|злетів|не зіграв|скинув|сів)\b")


@pytest.mark.parametrize("msgid", ["made", "failed", "fell off the barrel",
                                   "fell off the barrel: {amount}"])
def test_ukrainian_says_what_happened_without_a_gender(msgid):
    """The sheet's «зіграно / не зіграно» (as the web), the legend's «зліт з бочки»."""
    assert not MASCULINE.search(tr("uk", msgid)), tr("uk", msgid)
    assert tr("uk", msgid) != msgid


def empty_game(preset: str, **overrides):
    """A game of three with no deal yet under ``preset``."""
    from scorer.engine import parse_game

    return parse_game({"format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"],
                       "agreements": {"preset": preset, "overrides": overrides}, "deals": []})


def test_the_polish_preset_says_kreska_in_the_legend_and_the_chart():
    """UX.md's glossary: a Polish-preset game is «pod kreską», its chart line «kreska 800»;
    the same line of a classic game in Polish stays «beczka»."""
    from scorer import chart, marks
    from scorer.engine import replay

    polish = empty_game("polish")
    meanings = dict(marks.legend("pl", polish.agreements, 3))
    assert meanings["B"] == "pod kreską"
    assert "kreska 800" in chart.totals_svg(polish, replay(polish), "pl")
    classic = empty_game("classic")
    assert dict(marks.legend("pl", classic.agreements, 3))["B"] == "na beczce"
    assert "beczka 880" in chart.totals_svg(classic, replay(classic), "pl")
    # Other languages read the plain word (their context entries are empty).
    assert dict(marks.legend("ru", polish.agreements, 3))["Б"] == "на бочке"


@pytest.mark.parametrize("lang", each())
def test_the_legend_follows_the_games_agreements(lang):
    """Where a bolt is 0 points (with marriages), the legend does not say «no trick»;
    where bolts cost nothing, the penalty is not said to come from bolts."""
    from scorer import marks

    zero = dict(marks.legend(lang, empty_game("classic", bolt_counts="zero_points")
                             .agreements, 3))
    assert zero["—"] == tr(lang, marks.BOLT_ZERO_POINTS)
    trick = dict(marks.legend(lang, empty_game("classic").agreements, 3))
    assert trick["—"] == tr(lang, marks.MEANINGS["bolt"]) != zero["—"]
    free = dict(marks.legend(lang, empty_game("classic", bolt_penalty="none",
                                              raspis_third_penalty=True).agreements, 3))
    assert free["!"] == tr(lang, marks.PENALTY_NO_BOLTS)


def page_text(html: str) -> str:
    """A page's text, tags dropped and entities read."""
    import html as htmllib

    return htmllib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def banner(table, game: str, **changed) -> str:
    """The change summary the game page shows once after an edit (its session note)."""
    with table.client.session_transaction() as session:
        session["changed"] = {"game": 1, "note": "edit", "deal": 1, "slot": 1, "ids": [],
                              **changed}
    page = table.client.get(game).get_data(as_text=True)
    return page_text(page.split('id="changed"', 1)[1].split("</section>", 1)[0])


def test_after_an_edit_the_summary_says_one_true_sentence(table):
    """Later rows moved, the scores did not: one sentence says both (it said «Итоги
    изменились в 2 следующих конах.» and then «Ни один итог не изменился.»)."""
    game = table.new_game()
    table.deal(game, declarer="0", contract="100", points_1="20", points_2="0")
    said = banner(table, game, before=[100, 20, 0], after=[100, 20, 0], rows=2)
    assert "Итоги изменились в 2 следующих конах, а счёт сейчас прежний." in said
    assert "Ни один итог не изменился" not in said
    said = banner(table, game, before=[100, 20, 0], after=[100, 20, 0], rows=0)
    assert "Ни один итог не изменился." in said and "следующих конов" not in said
    said = banner(table, game, before=[100, 20, 0], after=[105, 15, 0], rows=0)
    assert "Итоги следующих конов не изменились." in said and "прежний" not in said


@pytest.mark.parametrize("lang", each(TRANSLATED))
def test_a_restored_deal_is_told_in_the_buttons_word(lang):
    """«Вернуть» brings a deal back: the scorekeeper's summary, the watcher's note and the
    history say the same word («возвращён», not «восстановлен» on one and «возвращён» on
    the other)."""
    said = [tr(lang, m) for m in ("Deal %(n)s restored.", "deal %(n)d restored", "restored")]
    stems = {"ru": "возвращ", "uk": "поверну", "pl": "przywróc"}[lang]
    assert all(stems in s.lower() for s in said), said


def imported(table, log: dict) -> str:
    """Import a game log through the form; its edit path."""
    import io
    import json

    r = table.client.post("/import", data={
        "csrf_token": table.token("/"),
        "file": (io.BytesIO(json.dumps(log).encode()), "g.json")},
        content_type="multipart/form-data")
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    return r.headers["Location"]


DARK_LOG = {"format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"],
            "agreements": {"preset": "classic", "overrides": {"dark": True}},
            "first_dealer": 0, "deals": [
                {"type": "play", "declarer": 1, "contract": 100, "points": [10, 100, 10],
                 "marriages": {}, "no_tricks": []},
                {"type": "play", "declarer": 2, "contract": 120, "dark": True,
                 "points": [10, 10, 100], "marriages": {"2": ["hearts"]}, "no_tricks": []}]}


def test_what_if_refused_says_where_its_totals_stand_and_names_the_rule_once(table):
    """Dark off under the classic set: the refusal at deal 2 names «Игра втёмную» once
    (as a link to the rules sheet), and the what-if totals say they are after deal 1."""
    game = imported(table, DARK_LOG)
    page = table.client.get(f"{game}/compare?preset=classic").get_data(as_text=True)
    refused = page.split('id="refused"', 1)[1].split("</p>", 1)[0]
    said = page_text(refused)
    assert "Кон 2" in said
    assert said.casefold().count("игра втёмную") == 1, said
    assert re.search(r'<a href="[^"]*/rules#dark">игра втёмную</a>', refused), refused
    head = page_text(page.split('id="totals"', 1)[1].split("</thead>", 1)[0])
    assert "после кона 1, на котором разбор остановился" in head, head


def test_the_known_players_chips_sit_above_the_name_fields(app, client):
    """UX.md: «the known players as chips above the name fields» (they were below)."""
    from club_web import as_host, store_club

    store_club(app)
    as_host(client)
    page = client.get("/new").get_data(as_text=True)
    assert 'id="player-chips"' in page
    assert page.index('id="player-chips"') < page.index('id="name0"')


def test_a_concession_previews_what_it_changes_before_it_is_recorded(table):
    """Without script «Показать, что изменится» in the «Роспись…» box: the box comes back
    open with every player's change as the engine scores the concession; nothing stored."""
    from webtable import version_of

    from scorer.engine import parse_game, replay

    game = table.new_game()
    table.deal(game, declarer="0", contract="100", points_1="20", points_2="0")
    form = table.form(game + "/deal")
    r = table.client.post(game + "/deal", data={**form, "action": "preview_raspis",
                                                "declarer": "1", "contract": "110"})
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    box = page.split('id="raspis-confirm"', 1)[1].split("</details>", 1)[0]
    assert box.startswith(" open>"), box[:40]
    assert 'id="raspis-preview" aria-live="polite">' in box  # not hidden
    shown = [page_text(c).strip() for c in re.findall(r'class="rv-delta"[^>]*>(.*?)</td>', box)]
    log = {"format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"], "deals": [
        {"type": "play", "declarer": 0, "contract": 100, "points": [100, 20, 0],
         "marriages": {}, "no_tricks": [2]},
        {"type": "raspis", "declarer": 1, "contract": 110}]}
    from scorer.marks import signed

    assert shown == [signed(d) for d in replay(parse_game(log)).rows[-1].delta], shown
    assert version_of(table.client.get(game + "/deal").get_data(as_text=True)) == form["version"]
    assert len(table.slot_ids(game)) == 1


def test_an_adjustment_previews_what_it_changes_before_it_is_saved(table):
    """Every record kind says what it changes first: «Показать, что изменится» in the
    penalty panel shows each player's change; nothing is stored."""
    game = table.new_game()
    form = table.form(game + "/deal")
    r = table.client.post(game + "/deal", data={**form, "action": "preview_adjustment",
                                                "player": "2", "amount": "-120",
                                                "reason": "other"})
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    panel = page.split('id="adjustment"', 1)[1].split("</details>", 1)[0]
    assert panel.lstrip().startswith("open"), panel[:40]
    shown = [page_text(c).strip() for c in re.findall(r'class="rv-delta"[^>]*>(.*?)</td>', panel)]
    assert shown == ["0", "0", "\u2212120"], shown
    assert table.slot_ids(game) == []


@pytest.mark.parametrize(("lang", "preset", "said"), [
    ("pl", "polish", ["do kreski 800", "Pod kreską:"]),
    ("pl", "classic", ["do beczki 880", "Na beczce:"]),
    ("ru", "polish", ["до бочки 800", "На бочке:"])])
def test_the_game_page_says_the_presets_word_for_the_barrel(table, lang, preset, said):
    """A Polish-preset game in Polish is «pod kreską» on its page too; other games and other
    languages keep the barrel."""
    table.client.get(f"/lang/{lang}?next=/")
    log = {"format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"],
           "agreements": {"preset": preset}, "deals": [
               {"type": "adjustment", "player": 0, "amount": 900, "reason": "other"}]}
    page = page_text(table.client.get(imported(table, log)).get_data(as_text=True))
    assert all(s in page for s in said), (said, page[:3000])
