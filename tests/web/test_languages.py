"""Choosing the language, and every page speaking it: ru, uk, pl and en.

The first visit follows Accept-Language among our four (Russian when none matches, or the
instance's own language); the header's switch names the four in their own words and its
choice sticks. No page of any language shows a msgid where that language translates it.
"""

from __future__ import annotations

import html as html_lib
import re
import subprocess
import sys

import pytest
from club_web import as_host
from languages import ROOT, TRANSLATED, each, po, ready

from scorer import create_app
from scorer.engine import catalog
from scorer.engine.catalog_extract import extract
from scorer.engine.texts import LANGUAGES, NATIVE_NAMES, Translated, tr

NAMES = ("Ann", "Bob", "Kate")  # Latin names: Cyrillic or English left over stands out


def lang_of(html: str) -> str:
    """The language a page says it is in (<html lang>)."""
    found = re.search(r'<html lang="(\w+)"', html)
    assert found
    return found.group(1)


@pytest.mark.parametrize(("header", "expected"), [
    (None, "ru"), ("", "ru"), ("uk-UA,uk;q=0.9,en;q=0.5", "uk"), ("pl-PL", "pl"),
    ("de-DE,pl;q=0.8,ru;q=0.7", "pl"), ("en-GB,en;q=0.9", "en"), ("fr,de", "ru"),
    ("ru;q=0.2,uk;q=0.9", "uk"), ("*", "ru"),
])
def test_first_visit_follows_accept_language(client, header, expected):
    """Without a chosen language the browser's first match among ru/uk/pl/en wins."""
    headers = {"Accept-Language": header} if header is not None else {}
    assert lang_of(client.get("/", headers=headers).get_data(as_text=True)) == expected


def test_pages_vary_by_accept_language(client):
    """A page's words depend on Accept-Language, so caches are told (Vary)."""
    r = client.get("/", headers={"Accept-Language": "uk"})
    assert "Accept-Language" in r.headers["Vary"]


def test_the_switch_wins_over_the_browser_and_sticks(client):
    """A language chosen with the switch is kept in a cookie over Accept-Language."""
    r = client.get("/lang/pl?next=/", headers={"Accept-Language": "uk"})
    assert r.status_code == 302 and "lang=pl" in r.headers["Set-Cookie"]
    for _ in range(2):
        html = client.get("/new", headers={"Accept-Language": "uk"}).get_data(as_text=True)
        assert lang_of(html) == "pl"


def test_the_switch_lists_four_languages_in_their_own_names(client):
    """Русский, Українська, Polski, English: each a link (but the current one) with its lang."""
    html = client.get("/", headers={"Accept-Language": "uk"}).get_data(as_text=True)
    switch = re.search(r'<details class="langs">(.*?)</details>', html, re.S).group(1)
    assert re.findall(r'lang="(\w+)"[^>]*>([^<]+)<', switch.split("<nav", 1)[1]) == [
        (code, NATIVE_NAMES[code]) for code in LANGUAGES]
    assert '<b lang="uk" aria-current="true">Українська</b>' in switch
    assert switch.count('href="/lang/') == 3
    assert list(NATIVE_NAMES.values()) == ["Русский", "Українська", "Polski", "English"]


def test_the_instance_default_serves_browsers_asking_for_none_of_ours(tmp_path):
    """SCORER_LANGUAGE (serve --lang) is the language when neither the switch nor the
    browser names one of ours."""
    app = create_app({"INSTANCE_PATH": str(tmp_path / "instance"), "SECRET_KEY": "x",
                      "SCORER_LANGUAGE": "uk", "TESTING": True})
    client = app.test_client()
    assert lang_of(client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)) \
        == "uk"
    assert lang_of(client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)) \
        == "en"


def test_serve_takes_lang():
    """`python -m scorer serve --lang` accepts our four languages and nothing else."""
    run = [sys.executable, "-m", "scorer", "serve", "--help"]
    out = subprocess.run(run, capture_output=True, text=True, cwd=ROOT, check=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}).stdout
    assert "--lang {ru,uk,pl,en}" in out
    bad = subprocess.run([*run[:-1], "--lang", "de"], capture_output=True, text=True,
                         cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert bad.returncode == 2 and "invalid choice" in bad.stderr


# ------------------------------------------------------------------ every page, each language

def pages(table) -> list[str]:
    """Every page of a played game (golden round, a marriage) plus the lists and forms,
    the club's pages (the host's) and the rule change's."""
    as_host(table.client)
    game = table.new_game(names=NAMES, golden=True)
    table.deal(game, declarer="1", contract="120", points_0="20", points_2="20",
               mar_1=["hearts"])
    slot = table.slot_ids(game)[0]
    token = game.rsplit("/", 1)[1]
    return ["/", "/new", "/new?preset=polish", game, game + "/deal", f"{game}/deal/{slot}",
            game + "/share", game + "/rules", f"/g/{token}/compare?preset=polish",
            f"{game}/why/1", table.view_path(game), "/nowhere",
            "/club/table", "/club", "/club/players/1", "/club/history", "/club/seasons",
            f"/g/{token}/agreements?when=next", f"/g/{token}/agreements?when=start"]


def shown_text(html: str) -> str:
    """What a reader sees or hears: text and the labels of controls, minus the language
    switch (its names are each language's own) and the players' names."""
    body = html.split("<body", 1)[1].split(">", 1)[1]
    body = re.sub(r'<details class="langs">.*?</details>', " ", body, flags=re.S)
    body = re.sub(r"<script.*?</script>", " ", body, flags=re.S)
    attrs = " ".join(re.findall(r'(?:aria-label|placeholder|title|alt)="([^"]*)"', body))
    text = html_lib.unescape(re.sub(r"<[^>]+>", " ", body) + " " + attrs)
    for name in NAMES:
        text = text.replace(name, " ")
    return re.sub(r"\s+", " ", text)


def leftover_msgids(lang: str, text: str) -> list[str]:
    """Msgids of two words or more that ``lang`` translates differently, found as they are."""
    found = []
    for m in po(lang):
        if not m.id or isinstance(m.id, tuple) or not m.string or m.string == m.id:
            continue
        words = re.sub(r"%\(\w+\)\w|\{[^}]*\}", "", m.id).strip(" .:…")
        if len(words.split()) >= 2 and words in text:
            found.append(m.id)
    return found


# Latin words a Russian or Ukrainian page may show: file formats, names of things.
LATIN_OK = {"JSON", "CSV", "PDF", "QR", "Android", "Tysiąc", "SQLite", "ID", "UTF", "RULES",
            "md", "UTC"}


@pytest.mark.parametrize("lang", each(TRANSLATED))
def test_no_page_shows_a_msgid_or_english_where_a_translation_exists(table, lang):
    """Every page in ru, uk and pl: no msgid the language translates is left on it, and
    a Cyrillic page has no Latin word but a format's name."""
    ready(lang)
    paths = pages(table)
    table.client.get(f"/lang/{lang}")
    for path in paths:
        answer = table.client.get(path)
        assert answer.status_code == (404 if path == "/nowhere" else 200), path
        html = answer.get_data(as_text=True)
        assert lang_of(html) == lang, path
        text = shown_text(html)
        assert leftover_msgids(lang, text) == [], path
        if lang in ("ru", "uk"):
            words = re.findall(r"[^\W\d_]+", text)
            latin = {w for w in words if re.search("[A-Za-z]", w) and len(w) > 1} - LATIN_OK
            assert latin == set(), (path, sorted(latin)[:10])


def test_ukrainian_pages_use_ukrainian_not_russian(table):
    """The uk pages carry Ukrainian letters and words (роздача, здавач), never Russian-only
    letters (ы, э, ъ, ё)."""
    paths = pages(table)
    table.client.get("/lang/uk")
    seen = ""
    for path in paths:
        text = shown_text(table.client.get(path).get_data(as_text=True))
        assert not re.findall(r"\w*[ыэъёЫЭЪЁ]\w*", text), path
        seen += text.lower()
    for word in ("роздача", "здавач", "замовник", "прикуп", "мар’яж", "взятк", "бочк"):
        assert word in seen, word


def test_polish_preset_agreements_are_read_under_their_context():
    """Agreements the polish preset sets are worded under msgctxt "preset:polish" there
    (pybabel finds them through the catalog extractor); others and other presets read plain;
    an empty context entry falls back to the plain translation."""
    cat = catalog()
    polish = cat.specs_for("polish")
    assert polish["raspis_payout"].title == Translated("Concession payout", "preset:polish") \
        or polish["raspis_payout"].title.context == "preset:polish"
    assert polish["target"].title.context is None
    assert cat.specs_for("classic")["raspis_payout"].title.context is None
    assert polish["raspis_payout"].title["uk"] == cat.agreements["raspis_payout"].title["uk"]
    with open(ROOT / "rules" / "catalog.toml", "rb") as handle:
        found = list(extract(handle, {}, [], {}))
    contexts = {message[0] for _, func, message, _ in found if func == "pgettext"}
    assert contexts == {"preset:polish"}
    ids = {message[1] for _, func, message, _ in found if func == "pgettext"}
    assert cat.agreements["raspis_payout"].title.msgid in ids
    assert cat.agreements["target"].title.msgid not in ids


def test_downloads_are_named_in_the_language(table):
    """An untitled game's files are named in the page's language (transliterated for old
    clients), the date kept ISO so they sort."""
    game = table.new_game(names=NAMES)
    table.client.get("/lang/uk")
    r = table.client.get(game + "/export.json")
    disposition = r.headers["Content-Disposition"]
    assert "filename*=UTF-8''%D1%82%D0%B8%D1%81%D1%8F%D1%87%D0%B0-20" in disposition  # тисяча-
    assert 'filename="tysiacha-20' in disposition
    assert tr("uk", "thousand-%(date)s") == "тисяча-%(date)s"


def test_cli_lang_takes_every_language(tmp_path):
    """The CLI's --lang takes uk and pl wherever it takes --lang."""
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-m", "scorer", "agreements", "--preset", "polish",
                          "--lang", "uk"], capture_output=True, text=True, cwd=ROOT, env=env)
    assert out.returncode == 0, out.stderr
    assert "Польська (Tysiąc)" in out.stdout and "Поріг бочки" in out.stdout
    for command in ("pdf", "replay", "compare", "stats", "backup"):
        help_text = subprocess.run([sys.executable, "-m", "scorer", command, "--help"],
                                   capture_output=True, text=True, cwd=ROOT, env=env).stdout
        if "--lang" in help_text:
            assert "uk" in help_text and "pl" in help_text, command
