"""Text the engine refuses, and names it compares as read: every text of a log has a
length cap and only characters somebody can see; look-alike names are one name."""

from __future__ import annotations

import json

import pytest

from scorer.engine import RuleError, load_game, parse_game
from scorer.engine.names import MAX_NOTES, MAX_PLACE, MAX_REASON, MAX_TITLE, name_key

HEAD = {"format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"]}


def refused(log: dict) -> RuleError:
    """The engine's refusal of a log (it must refuse with a RuleError, nothing else)."""
    with pytest.raises(RuleError) as err:
        parse_game(log)
    # The message prints and encodes whatever the text held (a lone surrogate too).
    for lang in ("ru", "en"):
        err.value.message(lang).encode("utf-8")
    return err.value


@pytest.mark.parametrize("char", ["\u3164", "\uffa0", "\ufe0f", "\u034f", "\u180b", "\u17b4",
                                  "\u2800", "\U000e0100", "\u115f"])
def test_names_with_a_character_that_shows_as_nothing_are_refused(char):
    """«Аня» + an invisible character beside «Аня» (it would pass as a second Аня)."""
    err = refused({**HEAD, "players": ["Аня", f"Аня{char}", "Борис"]})
    assert (err.deal, err.field, err.rule) == (None, "players", "text.invisible")
    assert f"U+{ord(char):04X}" in err.message("ru")


@pytest.mark.parametrize("blank", ["\u2800", "\u3164", "\u3000", "-", "42", "\u0301\u0301"])
def test_a_name_needs_a_visible_letter(blank):
    """A blank-looking name, digits or a dash alone do not make a player."""
    err = refused({**HEAD, "players": [blank, "Борис"]})
    assert err.field == "players"
    assert err.rule in ("players.letter", "text.invisible", "players.name")


@pytest.mark.parametrize("twin", ["Aня", "Αня", "Ａня", "А\u043dя"])
def test_look_alike_names_are_one_name(twin):
    """Latin, Greek or full-width «A» beside Cyrillic «А»: the same name to the eye (TR39
    skeleton), refused as look-alikes naming both."""
    err = refused({**HEAD, "players": ["Аня", twin] if twin != "Аня" else ["Аня", "Аня"]})
    assert err.rule in ("players.lookalike", "players.duplicate")
    assert name_key(twin) == name_key("Аня")


@pytest.mark.parametrize("a, b", [("Иван", "Йван"), ("Петя", "Пётя"), ("Миша", "Маша"),
                                  ("Юля", "Юлия"), ("Оля", "Коля"), ("Аня", "аня")])
def test_different_names_stay_different(a, b):
    """The skeleton keeps what a reader tells apart (й, ё, other letters, case)."""
    assert name_key(a) != name_key(b)
    parse_game({**HEAD, "players": [a, b]})


@pytest.mark.parametrize("text, rule", [
    ("\ue000", "text.unreadable"), ("\U000f0000", "text.unreadable"),
    ("\u0378", "text.unreadable"), ("\ud800", "text.surrogate"), ("\udfff", "text.surrogate"),
    ("Z" + "\u0301" * 30, "text.marks"), ("e\u0323\u0302\u0301", "text.marks"),
])
@pytest.mark.parametrize("field", ["players", "title", "place", "notes"])
def test_unreadable_characters_are_refused_everywhere(text, rule, field):
    """Private-use, unassigned, lone surrogates, stacked marks: in names and every text."""
    log = ({**HEAD, "players": ["Аня", "Ф" + text]} if field == "players"
           else {**HEAD, field: "x" + text})
    err = refused(log)
    assert (err.field, err.rule) == (field, rule)


def test_two_marks_on_a_letter_are_fine():
    """Vietnamese ệ written decomposed (e + two marks), й decomposed: accepted."""
    game = parse_game({**HEAD, "players": ["Nguye\u0323\u0302n", "И\u0306ван"]})
    assert len(game.players) == 2


@pytest.mark.parametrize("field, cap", [("title", MAX_TITLE), ("place", MAX_PLACE),
                                        ("notes", MAX_NOTES)])
def test_every_text_of_the_head_has_a_cap(field, cap):
    """Exactly the cap is taken; one more character is refused naming field and rule."""
    assert getattr(parse_game({**HEAD, field: "Ж" * cap}), field) == "Ж" * cap
    err = refused({**HEAD, field: "Ж" * (cap + 1)})
    assert (err.deal, err.field, err.rule) == (None, field, "text.long")
    assert err.message("ru") .startswith(f"игра: {field}: ")
    assert str(cap) in err.message("ru")


def test_a_redeal_reason_is_checked_like_any_text():
    """A redeal's reason: capped, no hidden characters, no lone surrogate; the refusal
    names the deal."""
    ok = [{"type": "redeal", "reason": "Ж" * MAX_REASON}]
    assert parse_game({**HEAD, "deals": ok}).deals[0].reason == "Ж" * MAX_REASON
    for reason, rule in (("Ж" * (MAX_REASON + 1), "text.long"), ("\ud800", "text.surrogate"),
                         ("a\u202eb", "text.hidden"), ("\u3164", "text.invisible")):
        deals = [{"type": "redeal"}, {"type": "redeal", "reason": reason}]
        err = refused({**HEAD, "deals": deals})
        assert (err.deal, err.field, err.rule) == (2, "reason", rule)
        assert err.message("ru").startswith("кон 2: reason: ")


def test_a_lone_surrogate_from_json_is_a_refusal_not_a_crash():
    """JSON may spell a lone surrogate as \\ud800: as a reason, a key or a name."""
    for log in ('{"players": ["Аня", "Борис"], "deals": [{"type": "redeal", "reason": "\\ud800"}]}',
                '{"players": ["Аня", "Б\\udc00"]}', '{"players": ["Аня", "Борис"], "\\ud800": 1}',
                '{"players": ["Аня", "Борис"], "title": "\\ud83d"}'):
        with pytest.raises(RuleError) as err:
            load_game(log)
        err.value.message("ru").encode("utf-8")


@pytest.mark.parametrize("value", ["2026-12-04", "1999-01-31"])
def test_an_iso_date_is_taken(value):
    """YYYY-MM-DD."""
    assert parse_game({**HEAD, "date": value}).date == value


@pytest.mark.parametrize("value", ["04.12.2026", "20261204", "2026-13-01", "2026-02-30",
                                   "2026-12-04T10:00", "вчера", "", "２０２６-12-04"])
def test_other_dates_are_refused(value):
    """Anything but an ISO calendar date (Python alone would read 20261204 too)."""
    err = refused({**HEAD, "date": value})
    assert (err.field, err.rule) == ("date", "date.iso")


def play(marriages: dict) -> dict:
    """A played deal with these marriages."""
    return {"type": "play", "declarer": 1, "contract": 100, "points": [0, 120, 0],
            "marriages": marriages}


@pytest.mark.parametrize("key", ["00", "01", " 1", "1 ", "+1", "١", "۱", "１", "1.0", "-0"])
def test_marriage_seat_keys_are_only_the_canonical_ones(key):
    """"0" and "00" were one seat, so one declaration was silently dropped; Arabic-Indic
    and full-width digits were seats too. Only "0".."3" (as written) are taken."""
    err = refused({**HEAD, "deals": [play({"1": ["hearts"], key: ["spades"]})]})
    assert (err.deal, err.field, err.rule) == (1, "marriages", "seat")
    assert json.dumps(key)[1:-1] in err.message("en") or key in err.message("en")


def test_canonical_marriage_keys_still_read():
    """The keys record_to_json writes."""
    game = parse_game({**HEAD, "deals": [play({"1": ["hearts"]})]})
    assert game.deals[0].marriages == {1: ("hearts",)}


@pytest.mark.parametrize("spaced", ["Аня  Б", " Аня Б", "Аня Б ", "Аня\u00a0Б"])
def test_spaces_are_folded_before_names_are_compared(spaced):
    """Doubled, leading, trailing or no-break spaces make no other name."""
    assert name_key(spaced) == name_key("Аня Б")


@pytest.mark.parametrize("field, cap", [("season", 80), ("who", 40)])
def test_the_clubs_texts_have_caps_and_the_same_character_rules(field, cap):
    """A season's name and who changed the rules: the caps, and every character the log's
    texts refuse (these were stored as typed before)."""
    from scorer.engine.names import check_text

    check_text(field, "Ж" * cap)
    with pytest.raises(RuleError) as err:
        check_text(field, "Ж" * (cap + 1))
    assert err.value.rule == "text.long"
    for ch, rule in (("\u202e", "text.hidden"), ("\x00", "text.hidden"),
                     ("\x1b", "text.hidden"), ("\u200b", "text.hidden"),
                     ("\ue000", "text.unreadable"), ("\U000e0041", "text.hidden"),
                     ("\u2800", "text.invisible"), ("\u3164", "text.invisible")):
        with pytest.raises(RuleError) as err:
            check_text(field, f"Ос{ch}ень")
        assert (err.value.field, err.value.rule) == (field, rule), hex(ord(ch))


def test_visible_only_keeps_what_the_rules_take():
    """A file name made of a text stored before the rules loses exactly the refused
    characters; marks, letters, digits and spaces stay."""
    from scorer.engine.names import visible_only

    assert visible_only("Ос\u202eень\u200b 2026\u3164\x00\ue000") == "Осень 2026"
    assert visible_only("Nguyễn Zoë") == "Nguyễn Zoë"
