"""The PDF sheet and rules sheet in every language: words, fit and glyphs, read back for real.

The sheet is laid out by WeasyPrint (its boxes are measured for the fit) and its PDF read
back with pypdf (for the words and the letters).
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pypdf
import pytest
from weasyprint import HTML

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from languages import each, ready  # noqa: E402

from scorer.engine import parse_game  # noqa: E402
from scorer.engine.texts import LANGUAGES, tr  # noqa: E402
from scorer.papers import render_rules  # noqa: E402
from scorer.paths import data_dir  # noqa: E402
from scorer.sheet import WORDS, html_to_pdf, sheet_html  # noqa: E402

UKRAINIAN = "іїєґ’"
POLISH = "ąćęłńóśźż"
# Four players with long names, a long game and every mark: the widest header there is.
NAMES = ["Ґанна Їжачок", "Łucja Żółć", "Гаєвська", "Źdźisław Ćma"]


def four_player_log(deals: int = 12) -> dict:
    """A valid 4-player game: the dealer sits on the talon, declarers rotate."""
    records = []
    for i in range(deals):
        dealer = i % 4
        seats = [s for s in range(4) if s != dealer]
        declarer = seats[i % 3]
        points = [None, None, None, None]
        for s in seats:
            points[s] = 100 if s == declarer else 10
        records.append({"type": "play", "declarer": declarer, "contract": 100,
                        "points": points, "marriages": {}, "no_tricks": [],
                        "prikup": {"points": 0, "marriage": None, "aces": 0}})
    return {"format": "thousand-game/1", "players": NAMES, "title": "Їжак і ґава’s ąćęłńóśźż",
            "date": "2026-12-04",
            "agreements": {"preset": "classic", "overrides": {"dark": True}},
            "first_dealer": 0, "deals": records}


def flat(pdf: bytes) -> str:
    """The PDF's text without whitespace or line-end hyphens (hyphens: auto may split)."""
    text = "\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    # WeasyPrint marks a hyphenation break with U+2010; a soft hyphen may show too.
    return "".join(re.sub(r"[\u2010\u00ad]\s*|-\s*\n", "", text).split())


def squeeze(text: str) -> str:
    """Text without whitespace, for comparing with ``flat``."""
    return "".join(text.split())


@pytest.fixture(scope="module")
def game():
    """The 4-player game every language prints."""
    return parse_game(four_player_log())


@pytest.mark.parametrize("lang", each())
def test_sheet_speaks_the_language(game, lang):
    """Every header word of the sheet is the catalog's word in ``lang``."""
    ready(lang)
    text = flat(html_to_pdf(sheet_html(game, lang=lang)))
    for key in ("deal", "dealer", "declarer", "contract", "result", "legend", "players"):
        if key in WORDS:
            assert squeeze(tr(lang, WORDS[key])) in text, (lang, key)


def cells_overflowing(html: str) -> list[str]:
    """Table header cells and legend lines whose text runs past their box, as laid out."""
    base = data_dir("templates").joinpath("sheet").as_uri() + "/"
    document = HTML(string=html, base_url=base).render()
    wrong = []
    for page in document.pages:
        for box in page._page_box.descendants():
            tag = getattr(box, "element_tag", "")
            if tag not in ("th", "p"):
                continue
            right = box.content_box_x() + box.width + 0.5  # half a point of rounding
            for text in box.descendants():
                if type(text).__name__ == "TextBox" and text.position_x + text.width > right:
                    wrong.append(f"{tag}: {text.text!r}")
    return wrong


@pytest.mark.parametrize("landscape", [False, True], ids=["portrait", "landscape"])
@pytest.mark.parametrize("lang", each())
def test_sheet_header_and_legend_fit(game, lang, landscape):
    """No header word or legend line runs out of its cell (Ukrainian «Замовлення»,
    «Здавач» overlapped before: the header now wraps and hyphenates by its lang)."""
    ready(lang)
    html = sheet_html(game, lang=lang, landscape=landscape)
    assert f'<th lang="{lang}"' in html
    assert cells_overflowing(html) == []


@pytest.mark.parametrize("lang", each())
def test_rules_sheet_in_each_language(game, lang):
    """The rules PDF titles and explains every agreement in ``lang`` (English msgids only
    in English)."""
    ready(lang)
    from scorer.engine import catalog

    text = flat(render_rules(game, lang=lang))
    specs = catalog().agreements
    for id in ("target", "barrel", "samosval", "raspis_payout", "dark"):
        assert squeeze(specs[id].title[lang]) in text, (lang, id)
    if lang != "en":
        assert squeeze(specs["barrel_threshold"].title.msgid) not in text


@pytest.mark.parametrize(("lang", "letters"), [("uk", UKRAINIAN), ("pl", POLISH)])
def test_every_letter_of_the_language_is_in_the_pdf(game, lang, letters):
    """Each Ukrainian and Polish letter comes back out of the PDF as text (so the shipped
    DejaVu font has it): from the catalog's own words and the players' names."""
    ready(lang)
    pdf = html_to_pdf(sheet_html(game, lang=lang))
    text = flat(pdf)
    assert [c for c in letters if c not in text] == []
    fonts = {str(font.get_object()["/BaseFont"])
             for page in pypdf.PdfReader(io.BytesIO(pdf)).pages
             for font in page["/Resources"]["/Font"].values()}
    assert fonts and all("DejaVu" in f for f in fonts), fonts


def test_ukrainian_words_not_english_on_the_sheet(game):
    """The uk sheet carries Ukrainian words (роздача, здавач, замовник), not msgids."""
    text = flat(html_to_pdf(sheet_html(game, lang="uk"))).lower()
    for word in ("роздача", "здавач", "замовник"):
        assert word in text
    for english in ("Dealer", "Declarer", "Contract", "Marks"):
        assert english not in text


def test_languages_all_have_a_sheet():
    """The sheet takes every language of the app."""
    assert set(LANGUAGES) == {"ru", "uk", "pl", "en"}
