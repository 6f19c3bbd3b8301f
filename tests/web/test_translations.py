"""The one catalog per language: every string of the app translated, one word for one thing.

The web (Flask-Babel) and the Flask-free engine, sheet and CLI (scorer/engine/texts.py)
read the same scorer/translations; Russian, Ukrainian and Polish live there and nowhere
else (the agreement catalog's texts too: rules/catalog.toml keeps only the English msgids).
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo as _read_mo
from languages import PLURALS, TRANSLATED, each, po, po_path, ready

ROOT = Path(__file__).resolve().parents[2]


def source_ids() -> set:
    """Every msgid the app's code and templates use (as pybabel extract finds them)."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None,
                "_l": None, "N_": None, "pgettext": ((1, "c"), 2)}
    ids = set()
    for _file, _line, message, _comments, _ctx in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=keywords):
        ids.add(message if isinstance(message, str) else message[0])
    return ids


def catalog(lang: str = "ru"):
    """The .po catalog of ``lang`` (a pending language skips the test)."""
    return po(lang)


def optional(m) -> bool:
    """A preset-context entry left empty: optional, it reads as the plain entry
    (scorer.engine.texts.ptr); only a language with that preset's own words fills it."""
    return bool(m.context) and not (m.string if isinstance(m.string, str) else any(m.string))


@pytest.mark.parametrize("lang", each(TRANSLATED))
def test_every_msgid_in_the_code_is_in_the_catalog(lang):
    """Every string the code, templates and agreement catalog translate is in the catalog."""
    known = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog(lang) if m.id}
    missing = sorted(source_ids() - known)
    assert not missing, f"run pybabel extract/update and translate: {missing}"


@pytest.mark.parametrize("lang", each(TRANSLATED))
def test_every_msgid_is_translated_with_its_plural_forms(lang):
    """Every entry is translated, none fuzzy, plurals with the language's forms (3)."""
    cat = catalog(lang)
    assert cat.num_plurals == PLURALS[lang]
    assert not cat.obsolete, "obsolete entries: pybabel update --ignore-obsolete"
    for m in cat:
        if not m.id or optional(m):
            continue
        assert not m.fuzzy, m.id
        if isinstance(m.id, tuple):
            assert len(m.string) == PLURALS[lang] and all(m.string), m.id
        else:
            assert m.string, m.id


@pytest.mark.parametrize("lang", each(TRANSLATED))
def test_mo_file_matches_the_po_file(lang):
    """The compiled .mo holds exactly what the .po says."""
    with open(po_path(ready(lang)).with_suffix(".mo"), "rb") as f:
        compiled = _read_mo(f)

    def table(cat):
        """(context, msgid) -> translation of a catalog; empty entries are not compiled."""
        return {(m.context, tuple(m.id) if isinstance(m.id, (list, tuple)) else m.id):
                tuple(m.string) if isinstance(m.string, (list, tuple)) else m.string
                for m in cat if m.id and not optional(m)}

    assert table(compiled) == table(catalog(lang)), "run: pybabel compile -d scorer/translations"


def test_russian_plurals_render(app):
    """Russian plurals pick the right form (1 болт, 2 болта, 5 болтов, 21 болт)."""
    from flask_babel import ngettext

    with app.test_request_context():
        words = [ngettext("%(num)d bolt", "%(num)d bolts", n) for n in (1, 2, 5, 11, 21, 22)]
    assert words == ["1 болт", "2 болта", "5 болтов", "11 болтов", "21 болт", "22 болта"]


def test_ukrainian_plurals_render(app):
    """Ukrainian has three forms too (1 роздача, 2 роздачі, 5 роздач, 21 роздача)."""
    from flask_babel import force_locale, ngettext

    with app.test_request_context(), force_locale("uk"):
        words = [ngettext("%(num)d deal", "%(num)d deals", n) for n in (1, 2, 5, 11, 21, 22)]
    assert words == ["1 роздача", "2 роздачі", "5 роздач", "11 роздач", "21 роздача",
                     "22 роздачі"]


def test_templates_translate_per_render_escaping_variables(app):
    """Templates look the translations up once per render (scorer.web.i18n), so a render
    inside force_locale speaks that language and the next one the request's again;
    variables are escaped, ngettext has num, %% is one percent sign."""
    from flask import render_template_string
    from flask_babel import force_locale

    src = ("{{ _('Deal') }}|{{ ngettext('%(num)d bolt', '%(num)d bolts', 5) }}|"
           "{{ _('%(name)s wins!', name=n) }}|{{ _('100%%') }}")
    with app.test_request_context("/", headers={"Cookie": "lang=ru"}):
        assert render_template_string(src, n="<b>") == "Кон|5 болтов|&lt;b&gt; побеждает!|100%"
        with force_locale("en"):
            assert render_template_string(src, n="<b>") == "Deal|5 bolts|&lt;b&gt; wins!|100%"
        assert render_template_string(src, n="<b>").startswith("Кон|5 болтов|")


# ------------------------------------------------------------------ one text system

SCORER = ROOT / "scorer"
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
GAME_NAME = "Тысяча"  # the game's own name, shown as is beside the English one
# Each language's name in that language (the switch): the same in every interface language.
LANGUAGE_NAMES = {"Русский", "Українська"}


def _strings_of(path: Path) -> list[str]:
    """Every string literal of a module except docstrings (examples there are not shown)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docs.add(id(body[0].value))
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
            and isinstance(n.value, str) and id(n) not in docs]


def test_no_russian_text_outside_the_catalog():
    """No module keeps its own Russian: every shown word comes from messages.po."""
    found = [f"{path.relative_to(ROOT)}: {text!r}"
             for path in sorted(SCORER.rglob("*.py"))
             for text in _strings_of(path) if text not in LANGUAGE_NAMES
             and CYRILLIC.search(text.replace(GAME_NAME, ""))]
    assert found == []


def _table_msgids() -> list[str]:
    """The msgids kept in tables by the engine, the sheet, the marks and the chart."""
    from scorer import chart, marks, sheet
    from scorer.engine import errors, protocol

    ids = [t.msgid for t in (*errors.RULE_TEXTS.values(), *protocol.REASON_TEXTS.values())]
    ids += [*protocol.WORDS.values(), *errors.EXPECTED, *sheet.WORDS.values(),
            *marks.MEANINGS.values(), *chart._TEXT.values()]
    ids += [m for m in marks.LETTERS.values() if m.isalpha()]  # signs are language-neutral
    return ids


def test_every_table_text_is_translated():
    """Each msgid of the Flask-free tables has a Russian entry, read back through Babel."""
    from scorer.engine.texts import tr

    ids = _table_msgids()
    assert len(ids) > 150
    cat = catalog()
    untranslated = sorted({m for m in ids if not (cat.get(m) and cat.get(m).string)})
    assert untranslated == []
    assert tr("ru", "bolt ({count} of 3)") == "болт ({count} из 3)"  # the .mo is what is read


def _fields(text: str) -> set[str]:
    """The ``{name}`` and ``%(name)s`` fields of a message."""
    return set(re.findall(r"\{(\w*)[^}]*\}", text)) | set(re.findall(r"%\((\w+)\)", text))


def entries(lang: str = "ru") -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(msgids, translations) of every filled catalog entry, plural forms as tuples too."""
    return [(m.id if isinstance(m.id, tuple) else (m.id,),
             m.string if isinstance(m.string, tuple) else (m.string,))
            for m in catalog(lang) if m.id and not optional(m)]


@pytest.mark.parametrize("lang", each(TRANSLATED))
def test_translations_keep_every_field(lang):
    """A translation uses exactly the fields of its msgid, so formatting never breaks."""
    wrong = []
    for ids, strings in entries(lang):
        wrong += [(ids[0], s) for s in strings if _fields(s) != _fields(ids[-1])]
    assert wrong == []


def glossary(lang: str = "ru") -> dict[str, list[str]]:
    """docs/UX.md's words table: English term -> the words given for it in ``lang``."""
    text = (ROOT / "docs" / "UX.md").read_text(encoding="utf-8")
    table = text.split("## Words (")[1].split("\n## ")[0]
    rows = [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in table.splitlines() if line.startswith("|")]
    header = [re.sub(r" \(.*\)", "", cell) for cell in rows[0]]
    en, mine = header.index("en"), header.index(lang)
    return {re.sub(r" \(.*\)", "", cells[en]): re.split(r"[,/()]\s*", cells[mine])
            for cells in rows[2:]}


# How each glossary word shows inside a sentence: the stems of its forms (the languages
# inflect: бочка, на бочке, с бочки; бочка, на бочці; beczka, na beczce; kreska, pod
# kreską: the polish preset's word). Keep in step with docs/UX.md's table.
STEMS = {
    "ru": {
        "deal": ("кон", "раздач"), "dealer": ("сдающ", "сдаёт"), "first hand": ("перв",),
        "bidding": ("торг",), "contract": ("заказ",), "declarer": ("заказчик",),
        "talon": ("прикуп",), "discard": ("снос",), "trick": ("взятк", "взяток"),
        "marriage": ("марьяж", "хвал"), "ace marriage": ("тузов",), "bolt": ("болт", "палк"),
        "barrel": ("бочк", "бочек"), "fall off the barrel": ("слет", "слёт"),
        "samosval": ("самосвал",), "concession": ("роспис", "расписа"),
        "golden round": ("золот",), "dark game": ("тёмн", "темн"), "redeal": ("пересдач",),
        "penalty": ("штраф",), "agreements": ("договорённост",),
        "score sheet": ("протокол", "запис"), "points": ("очк",), "trump": ("козыр",),
    },
    "uk": {
        "deal": ("роздач",), "dealer": ("здавач", "здає"), "first hand": ("перш",),
        "bidding": ("торг",), "contract": ("замовлен",), "declarer": ("замовник",),
        "talon": ("прикуп",), "discard": ("скид",), "trick": ("взятк", "взяток"),
        "marriage": ("мар’яж", "хвал"), "ace marriage": ("тузов",), "bolt": ("болт",),
        "barrel": ("бочк", "бочц", "бочок"), "fall off the barrel": ("зліт", "злет", "зльот"),
        "samosval": ("самоскид",), "concession": ("розпис",),
        "golden round": ("золот",), "dark game": ("темн",), "redeal": ("перездач",),
        "penalty": ("штраф",), "agreements": ("домовленост",),
        "score sheet": ("протокол", "запис"), "points": ("очк", "очок"), "trump": ("козир",),
    },
    "pl": {
        "deal": ("rozdani", "rozdań", "rozd."), "dealer": ("rozdając", "rozdaj"),
        "first hand": ("pierwsz",), "bidding": ("licytac", "licytow", "licytuj"),
        "contract": ("kontrakt",), "declarer": ("grając",),
        "talon": ("musik",), "discard": ("odda",), "trick": ("lew",),
        "marriage": ("meldun", "meldow", "melduj"), "ace marriage": ("asow",),
        "bolt": ("bolt",), "barrel": ("beczk", "beczc", "beczek", "kresk"),
        "fall off the barrel": ("spad", "spaść"),
        "samosval": ("samosw",), "concession": ("bomb",),
        "golden round": ("złot",), "dark game": ("ciemn",), "redeal": ("ponown",),
        "penalty": ("kar",), "agreements": ("ustale",),
        "score sheet": ("zapis",), "points": ("punkt", "pkt"), "trump": ("atu",),
    },
}
# Where an English word is not the glossary's term: a record type quoted as code, "deals"
# as a verb (who deals next), the turn to deal, the golden round's Russian that names the
# round, not a contract.
NOT_THE_TERM = {
    "must be play, raspis, redeal, adjustment or agreements (got {got!r})": ("redeal",
                                                                              "agreements"),
    "deals": "deal",
    "the deal passes to the left": "deal",  # the turn to deal (сдача), not a deal (кон)
    "no golden contract made: scores reset": "contract",
    "no golden contract made: another golden round": "contract",
    "no golden contract made: all scores back to 0": "contract",
}
# The same for the agreement catalog's longer texts, by their opening words: the turn to
# deal (сдача, здавання), the one who plays dark or concedes named by that (темнящий,
# расписавшийся), a title that names the rule and not the word, card points summed.
NOT_THE_TERM_IN = {
    "Round the declarer's points": "declarer",
    "After taking the talon and before the first lead": "concession",
    "A conceding declarer loses the contract": "declarer",
    "What each opponent of the conceding declarer": "declarer",
    "If nobody makes a golden contract": "contract",
    "What happens when no golden declarer": "contract",
    "A dark declarer may concede": "declarer",
    "No dark game while anybody is on the barrel": "declarer",
    "The dark declarer takes the talon": "declarer",
    "Sitting out uses a barrel attempt": "barrel",
    "Marriages doubled on golden and dark deals": "deal",
    "A misdeal passes the deal": "deal",
    "A recorded misdeal fine": "deal redeal",
    "Four nines after the deal": "deal",
    "three cards cannot make {points} points": "points",
    "{points} card points": "points",
    "talon {points} card points": "points",
}


def not_the_term(msgid: str, term: str) -> bool:
    """Whether ``msgid`` uses the English word ``term`` for something else."""
    skipped = NOT_THE_TERM.get(msgid, ())
    if term in (skipped if isinstance(skipped, tuple) else (skipped,)):
        return True
    return any(msgid.startswith(opening) and term in terms.split(" ")
               for opening, terms in NOT_THE_TERM_IN.items())
# Words a language's players never use for these things (a bribe is not a trick, glasses
# are not points).
NEVER = {"uk": ("хабар", "окуляр"), "ru": (), "pl": ()}


@pytest.mark.parametrize("lang", each(TRANSLATED))
def test_stems_cover_the_glossary(lang):
    """Every term of docs/UX.md's table has its stems here, and each stem fits its word."""
    terms = glossary(lang)
    assert set(terms) == set(STEMS[lang])
    for term, words in terms.items():
        assert any(stem in w.lower() for w in words for stem in STEMS[lang][term]), term


@pytest.mark.parametrize("lang", each(TRANSLATED))
def test_glossary_terms_keep_their_word(lang):
    """A msgid using a glossary term is translated with that term's word in the language."""
    wrong = []
    for ids, strings in entries(lang):
        bare = re.sub(r"\{[^}]*\}|%\(\w+\)\w", "", ids[0])  # field names are not words
        for term, stems in STEMS[lang].items():
            if not_the_term(ids[0], term):
                continue
            if re.search(rf"\b{term}s?\b", bare, re.I) and not all(
                    any(stem in s.lower() for stem in stems) for s in strings):
                wrong.append((term, ids[0], strings[0]))
        wrong += [(word, ids[0], s) for word in NEVER[lang] for s in strings if word in s.lower()]
    assert wrong == []


# Different phrasings of one message, not two things sharing a word.
# Polish says «rozdaje» for the badge (deals) and the protocol row (dealing:), and
# «zepchnięcie» for the agreement (Push-off) and the kind of fall (pushed off).
SAME_THING = {frozenset({"is required", "required"}), frozenset({"contract", "the contract"}),
              frozenset({"dealer", "the dealer"}), frozenset({"deals", "dealing"}),
              frozenset({"push-off", "pushed off"})}


@pytest.mark.parametrize("lang", each(TRANSLATED))
def test_one_word_for_one_thing(lang):
    """Short UI words map one to one: one English word never has two words in the language
    (ignoring case), and two English words never share one."""
    to_lang, to_en = defaultdict(set), defaultdict(set)
    for m in catalog(lang):
        if (not m.id or m.context or isinstance(m.id, tuple) or len(m.id.split()) > 2
                or "{" in m.id):
            continue
        en, word = m.id.lower().rstrip(":."), m.string.lower().rstrip(":.")
        to_lang[en].add(word)
        to_en[word].add(en)
    assert {en: words for en, words in to_lang.items() if len(words) > 1} == {}
    assert {word: en for word, en in to_en.items()
            if len(en) > 1 and frozenset(en) not in SAME_THING} == {}


def test_on_off_read_the_same_on_the_web_sheet_and_cli(app):
    """A switch reads вкл./выкл. (on/off) on the form, the rules sheet, the PDF and the CLI."""
    from scorer.engine import catalog as agreements
    from scorer.web.game.agreement_form import label_of

    spec = agreements().agreements["barrel"]
    for lang, on, off in (("ru", "вкл.", "выкл."), ("uk", "увімк.", "вимк."), ("en", "on", "off")):
        assert (spec.value_text(True, lang), spec.value_text(False, lang)) == (on, off)
        with app.test_request_context(headers={"Cookie": f"lang={lang}"}):
            assert (label_of(spec, True), label_of(spec, False)) == (on, off)


def test_adjustment_reasons_read_the_same_on_the_form_and_the_protocol():
    """The deal form's reason labels are the msgids the protocol words its rows with."""
    from scorer.engine.protocol import WORDS

    form = (ROOT / "templates" / "game" / "deal.html").read_text(encoding="utf-8")
    labels = dict(re.findall(r'"(\w+)": _\("([^"]+)"\)', form.split("set labels =")[1]
                             .split("%}")[0]))
    assert labels == {key: WORDS[key] for key in labels}
    assert set(labels) == {"cut_nines", "four_nines", "misdeal", "other"}


def test_dates_and_plurals_come_from_babel():
    """The sheet writes dates and counts in words through Babel, in both languages."""
    from scorer.sheet import deals_count, format_date

    assert format_date("2026-12-04", "ru") == "4 декабря 2026"
    assert format_date("2026-12-04", "en") == "4 December 2026"
    assert format_date("at the dacha", "ru") == "at the dacha"
    assert [deals_count(n, "ru") for n in (1, 3, 11, 21)] == ["1 кон", "3 кона", "11 конов",
                                                             "21 кон"]
    assert deals_count(1, "en") == "1 deal" and deals_count(2, "en") == "2 deals"
    assert format_date("2026-12-04", "uk") == "4 грудня 2026"
    assert format_date("2026-12-04", "pl") == "4 grudnia 2026"
    assert [deals_count(n, "uk") for n in (1, 3, 11, 21)] == ["1 роздача", "3 роздачі",
                                                             "11 роздач", "21 роздача"]
