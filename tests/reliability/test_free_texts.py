"""One text rule for every free text: each form field that becomes stored text goes
through scorer/engine/names.py, and the tests find the fields themselves.

- every WTForms text field carries the TextRule validator (or is a declared choice);
- every input a person types into, on every page (host, game, club, rule change), is
  either declared as free text in scorer.web.forms.FREE_TEXTS with its rule, or as a
  number/date/agreement in NOT_TEXT; a new field in neither fails the test;
- each declared field, posted with a character nobody can read, is refused (422) with
  the reason beside the field, and nothing is stored;
- every argument of the command line is accounted for (none becomes stored text; a file
  to import goes through parse_game);
- a download's file name carries none of those characters, even for a text stored
  before the rules.
"""

from __future__ import annotations

import json
import re
import sqlite3
from urllib.parse import unquote, urlsplit

import pytest
from app_forms import forms_of, pages, query, typed_inputs, walk_app

from scorer.cli import build_parser
from scorer.engine.names import refusal, visible_only
from scorer.web import forms

# What a text must not hold: zero-width space, right-to-left override, NUL, ESC, a
# private-use character, a tag character, the braille blank, the Hangul filler.
UNREADABLE = ["\u200b", "\u202e", "\x00", "\x1b", "\ue000", "\U000e0041", "\u2800", "\u3164"]
# Valid texts of the declared fields' kinds, one bad character goes in the middle.
GOOD = {"players": "Аня", "title": "Пятница", "season": "Осень", "who": "Вова"}
# Valid values of the other fields a form needs for the text to be what is refused.
FILLED = {"games.new_game": {"name0": "Ганна", "name1": "Борис", "name2": "Вика",
                             "action": "start"},
          "club.add_season": {"start": "2026-12-01", "end": "2026-12-31"}}


def endpoint(app, method: str, action: str) -> str:
    """The endpoint a form's action goes to."""
    found, _args = app.url_map.bind("localhost").match(urlsplit(action).path, method=method)
    return found


@pytest.fixture
def walked(app):
    """The app with something on every form (app_forms.walk_app)."""
    return walk_app(app)


def every_page(w) -> list[str]:
    """The walk's pages and the other pages with a form (what-if, rules, compare)."""
    edit = w["row"].edit_token
    return pages(w) + [f"/g/{edit}/compare", f"/v/{w['row'].view_token}/compare",
                       f"/g/{edit}/rules"]


def test_every_wtforms_text_field_goes_through_the_text_rules(app):
    """Each StringField of each FlaskForm of the app has a TextRule, or is a choice the
    view checks against its list."""
    from flask_wtf import FlaskForm
    from wtforms import StringField

    def subclasses(cls):
        """Every subclass, at any depth."""
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    found = [f for f in subclasses(FlaskForm) if f.__module__.startswith("scorer.")]
    assert {f.__name__ for f in found} >= {"NewGameForm", "ImportForm", "ConfirmForm"}
    checked = 0
    for form in found:
        for name, unbound in vars(form).items():
            field_class = getattr(unbound, "field_class", None)
            if field_class is None or not issubclass(field_class, StringField):
                continue
            rules = [v for v in unbound.kwargs.get("validators", [])
                     if isinstance(v, forms.TextRule)]
            if name in getattr(form, "CHOICES", ()):
                assert not rules, (form.__name__, name)
                continue
            assert rules, f"{form.__name__}.{name} skips the text rules"
            checked += 1
    assert checked == 5  # four names and the title


def test_every_input_on_every_page_is_declared(app, walked):
    """A text input that is neither free text (with its rule) nor a number, date or
    agreement fails here; and every declared field is on some page."""
    client = walked["client"]
    seen, undeclared = set(), []
    for page in every_page(walked):
        html = client.get(page).get_data(as_text=True)
        for method, action, field, _id, _form in typed_inputs(html):
            where = endpoint(app, method, action)
            seen.add((where, field))
            if field in forms.FREE_TEXTS.get(where, {}):
                continue
            if not any(re.fullmatch(p, field) for p in forms.NOT_TEXT.get(where, ())):
                undeclared.append(f"{page}: {method} {where} {field}")
    assert undeclared == [], undeclared
    declared = {(e, f) for e, fields in forms.FREE_TEXTS.items() for f in fields}
    assert declared <= seen, declared - seen


def snapshot(app) -> dict[str, list]:
    """Every row of every table of the app's file."""
    db = sqlite3.connect(app.config["DATABASE"])
    try:
        names = [n for (n,) in db.execute("select name from sqlite_master where type='table'")]
        return {n: db.execute(f"select * from [{n}]").fetchall() for n in names}
    finally:
        db.close()


def declared_forms(app, w) -> list[tuple[str, str, str, dict[str, str], str]]:
    """(endpoint, field, kind, body, input id) of each declared field, one form each."""
    client, out, done = w["client"], [], set()
    for page in every_page(w):
        html = client.get(page).get_data(as_text=True)
        for method, action, field, input_id, form in typed_inputs(html):
            where = endpoint(app, method, action)
            kind = forms.FREE_TEXTS.get(where, {}).get(field)
            if kind is None or (where, field) in done:
                continue
            done.add((where, field))
            body = {**form, **FILLED.get(where, {})}
            out.append((where, field, kind, {"_action": action, **body}, input_id))
    return out


def test_each_free_text_refuses_unreadable_characters_beside_the_field(app, walked):
    """U+200B, U+202E, NUL, ESC, private-use, tag, U+2800 and U+3164 in each declared
    field: 422, the reason (naming the character) right after the field, nothing stored."""
    client = walked["client"]
    targets = declared_forms(app, walked)
    assert {(e, f) for e, f, *_ in targets} == {
        (e, f) for e, fields in forms.FREE_TEXTS.items() for f in fields}
    before = snapshot(app)
    for where, field, kind, body, input_id in targets:
        action = body.pop("_action")
        for ch in UNREADABLE:
            text = GOOD[kind][:2] + ch + GOOD[kind][2:]
            answer = client.post(action, data={**body, field: text})
            html = answer.get_data(as_text=True)
            assert answer.status_code == 422, (where, field, hex(ord(ch)), answer.status_code)
            found = re.search(rf'id="{input_id}".*?<p class="error" id="{input_id}-error"[^>]*>'
                              r"([^<]*)</p>", html, re.S)
            assert found, (where, field, hex(ord(ch)))
            between = html[html.index(f'id="{input_id}"'):found.start(1)]
            assert between.count("<input") <= 1, (where, field, "the error is not beside it")
            assert f"U+{ord(ch):04X}" in found.group(1), (where, field, found.group(1))
    assert snapshot(app) == before


def test_a_clean_text_is_stored_as_typed_with_spaces_folded(app, walked):
    """The declared fields still take a good text: «who» with doubled spaces is stored
    with one, a season name is kept."""
    client = walked["client"]
    for where, field, _kind, body, _id in declared_forms(app, walked):
        if where != "club.add_season":
            continue
        action = body.pop("_action")
        answer = client.post(action, data={**body, field: "  Вова   Петров "})
        assert answer.status_code == 302, (where, answer.status_code)
    # «who» is kept with a change from the start (a change from the next deal is a record).
    page = client.get(f"/g/{walked['row'].edit_token}/agreements?"
                      + query("start", penalty=200)).get_data(as_text=True)
    confirms = [(a, b) for m, a, b in forms_of(page) if m == "POST" and "who" in b]
    assert len(confirms) == 1
    action, body = confirms[0]
    assert client.post(action, data={**body, "who": "  Вова   Петров "}).status_code == 302
    db = sqlite3.connect(app.config["DATABASE"])
    try:
        assert ("Вова Петров",) in db.execute("select who from agreement_revisions").fetchall()
        assert ("Вова Петров",) in db.execute("select name from seasons").fetchall()
    finally:
        db.close()


# Every argument of every subcommand, and why none of them becomes stored text.
CLI_ARGUMENTS = {
    "path": "a file to write", "backup": "a file to read (restore checks its rows)",
    "file": "a file to import: every text goes through parse_game",
    "game": "a file or a game id to read", "game_file": "a file to read",
    "output": "a file to write", "instance": "the data folder", "lang": "a choice",
    "preset": "looked up in the catalog", "flips": "ID=VALUE, checked by the catalog",
    "json": "a switch", "landscape": "a switch", "appendix": "a switch",
    "host": "an address to listen on", "port": "a number", "trusted_host": "a host name",
    "season": "looked up among the seasons", "player": "looked up among the players",
    "rotate": "a switch", "links": "a switch", "shelf": "a choice", "id": "a number",
    "yes": "a switch", "help": "argparse's own",
    "replicate": "a replica destination (a folder or URL), never stored",
}


def test_every_cli_argument_is_accounted_for():
    """A new argument of the command line fails here until someone says what it is; none
    of today's is stored as text."""
    import argparse

    def parsers(parser):
        """The parser and its subcommands' parsers, at any depth."""
        yield parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    yield from parsers(sub)

    unknown = sorted({f"{p.prog}: {a.dest}" for p in parsers(build_parser())
                      for a in p._actions if not isinstance(a, argparse._SubParsersAction)
                      and a.dest not in CLI_ARGUMENTS and a.dest != "command"})
    assert unknown == [], unknown


def test_the_cli_import_refuses_an_unreadable_title_in_one_line(tmp_path, capsys):
    """`import` (the one CLI path that stores text) refuses U+202E in a title: exit 2,
    one line naming the field."""
    from scorer.cli import main

    log = {"format": "thousand-game/1", "players": ["Аня", "Борис"], "title": "a\u202eb",
           "agreements": {"preset": "two-players"}, "deals": []}
    path = tmp_path / "g.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    assert main(["import", str(path), "--instance", str(tmp_path / "i")]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "title" in err and "U+202E" in err


def test_download_names_carry_no_unreadable_character(app, walked):
    """A season and a game title stored before the rules, holding U+202E, U+200B and
    U+3164: the CSV and JSON downloads are named without them (filename and filename*)."""
    client = walked["client"]
    db = sqlite3.connect(app.config["DATABASE"])
    with db:
        db.execute("update seasons set name = ? where id = ?",
                   ["Ос\u202eень\u200b\u3164", walked["season"]])
        head = json.loads(db.execute("select head from games where id = ?",
                                     [walked["row"].id]).fetchone()[0])
        head["title"] = "exe.\u202etxt"
        db.execute("update games set head = ? where id = ?",
                   [json.dumps(head), walked["row"].id])
    db.close()
    answers = [client.get(f"/club/table.csv?season={walked['season']}"),
               client.get(f"/club/results.csv?season={walked['season']}"),
               client.get(f"/g/{walked['row'].edit_token}/export.json")]
    for answer in answers:
        header = answer.headers["Content-Disposition"]
        plain = re.search(r'filename="([^"]*)"', header).group(1)
        wide = unquote(re.search(r"filename\*=UTF-8''(\S+)", header).group(1))
        for name in (plain, wide):
            assert visible_only(name) == name and all(refusal(c) is None for c in name), name
            assert not re.search(r'[\\/:*?"<>|]', name), name
        assert "%E2%80%AE" not in header and "%E2%80%8B" not in header, header
    assert unquote(re.search(r"filename\*=UTF-8''(\S+)", answers[0].headers[
        "Content-Disposition"]).group(1)) == "Осень-table.csv"
