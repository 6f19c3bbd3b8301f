"""The PDF protocol sheet, rendered for real by WeasyPrint and read back with pypdf."""

import io
import re
import subprocess

import pypdf
import pytest

from scorer.engine import replay
from scorer.marks import number
from scorer.sheet import render_sheet

A4 = (595.28, 841.89)


def pages_text(pdf: bytes) -> list[str]:
    """The text of every page."""
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def compact(text: str) -> str:
    """Text without whitespace, so a number split across runs still matches."""
    return "".join(text.split())


def test_sheet_names_totals_winner_and_legend(make_won):
    """A finished game shows the Cyrillic names, every final total, the winner, the legend."""
    game = make_won()
    protocol = replay(game)
    assert protocol.winner == 0
    text = "\n".join(pages_text(render_sheet(game)))
    for name in game.players:
        assert name in text
    flat = compact(text)
    for total in protocol.score:
        assert compact(number(total)) in flat
    assert "Победитель:Аня" in flat
    for word in ("Обозначения", "болт", "самосвал", "роспись", "победа"):
        assert word in flat
    # This game is played without the barrel, so its legend has no barrel marks.
    assert "набочке" not in flat
    assert "стр.1/1" in flat or "стр.1/2" in flat


def test_english_sheet(make_won):
    """--lang en words the sheet in English, with the docs/UX.md letters."""
    text = compact("\n".join(pages_text(render_sheet(make_won(), lang="en"))))
    assert "Winner:Аня" in text
    assert "Marks" in text and "Zsamosval" in text and "Rconcession" in text
    assert "p.1/" in text


def test_unfinished_game_says_so(make_long):
    """A game without a winner is printed too, marked as not finished."""
    game = make_long(12)
    assert replay(game).winner is None
    assert "Игранеокончена" in compact("\n".join(pages_text(render_sheet(game))))


def test_long_game_repeats_header_on_every_page(make_long):
    """120 deals run over several pages; each page with rows has the table header."""
    game = make_long(120)
    protocol = replay(game)
    assert protocol.winner is None and max(protocol.score) < 880
    texts = pages_text(render_sheet(game))
    assert len(texts) >= 3
    table_pages = [t for t in texts if "сыграно" in t]
    assert len(table_pages) >= 3
    for text in table_pages:
        flat = compact(text)
        for word in ("Кон", "Сдающий", "Заказчик", "Заказ", "Аня", "Борис", "Вика"):
            assert word in flat
    legend = compact(texts[0])
    for word in ("Бнабочке", "↓слётсбочки", "Твтёмную", "—болт"):
        assert word in legend
    assert "золотой" not in legend  # golden is off in this game
    for n, text in enumerate(texts, start=1):
        assert f"стр.{n}/{len(texts)}" in compact(text)
    # Every row is printed once, in order: each row's line starts with its deal number,
    # the names that are not clipped (a clipped one is read out elsewhere), then the
    # contract or the redeal.
    rows = re.compile(r"^(\d+) (?:(?:Аня|Вика) ){0,2}"
                      r"(?:\d+ (?:\S+ )?(?:сыграно|не сыграно|Р) |пересдача)", re.M)
    numbers = [int(m) for t in texts for m in rows.findall(t)]
    assert numbers == list(range(1, 121))


def test_agreements_differing_from_preset_are_listed(make_long):
    """The header names the preset and every agreement changed from it (catalog titles)."""
    from scorer.engine import catalog

    game = make_long(3)
    flat = compact(pages_text(render_sheet(game))[0])
    specs = catalog().agreements
    for key in game.agreements.differences("preset"):
        assert compact(specs[key].title["ru"]) in flat
    assert "900" in flat


def test_polish_and_ukrainian_letters_render_in_dejavu(make_won):
    """Names in Polish and Ukrainian come out as text, all set in DejaVu Sans."""
    names = ["Łucja Żółć", "Ґанна Їжачок", "Єва ąęńś"]
    pdf = render_sheet(make_won(names))
    text = "\n".join(pages_text(pdf))
    for name in names:
        assert name in text
    fonts = set()
    for page in pypdf.PdfReader(io.BytesIO(pdf)).pages:
        for font in page["/Resources"]["/Font"].values():
            fonts.add(str(font.get_object()["/BaseFont"]))
    assert fonts and all("DejaVu-Sans" in f for f in fonts), fonts


def test_appendix_has_the_reasons(make_won):
    """--appendix adds each row's "why" from the engine."""
    game = make_won()
    row = replay(game).rows[0]
    reason = row.why_text("ru")[0][0]
    plain = compact("\n".join(pages_text(render_sheet(game))))
    with_why = compact("\n".join(pages_text(render_sheet(game, appendix=True))))
    assert "Почемутак" in with_why and "Почемутак" not in plain
    assert compact(reason) in with_why


def test_true_minus_signs(make_long):
    """Negative numbers are written with a minus sign, not a hyphen."""
    game = make_long(12)
    flat = compact("\n".join(pages_text(render_sheet(game))))
    assert "\u2212120" in flat


@pytest.mark.parametrize("landscape", [False, True])
def test_page_is_a4(make_won, landscape):
    """Portrait by default, landscape on request: the media box is A4."""
    reader = pypdf.PdfReader(io.BytesIO(render_sheet(make_won(), landscape=landscape)))
    for page in reader.pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        expected = A4[::-1] if landscape else A4
        assert abs(width - expected[0]) <= 1 and abs(height - expected[1]) <= 1


def read_pgm(data: bytes) -> tuple[int, int, bytes]:
    """Parse a binary PGM (P5): width, height, pixel bytes."""
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    assert fields[0] == b"P5" and int(fields[3]) == 255
    width, height = int(fields[1]), int(fields[2])
    pixels = data[pos + 1:pos + 1 + width * height]
    assert len(pixels) == width * height
    return width, height, pixels


@pytest.mark.parametrize("landscape", [False, True])
def test_first_page_renders_not_blank(make_long, pdftoppm, tmp_path, landscape):
    """pdftoppm draws page 1: A4 proportions, and a fair share of dark pixels (ink)."""
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(render_sheet(make_long(60), landscape=landscape))
    subprocess.run([pdftoppm, "-r", "40", "-gray", "-f", "1", "-l", "1", "-singlefile",
                    str(pdf), str(tmp_path / "page")], check=True, timeout=120)
    width, height, pixels = read_pgm((tmp_path / "page.pgm").read_bytes())
    ratio = width / height
    expected = 297 / 210 if landscape else 210 / 297
    assert abs(ratio - expected) < 0.02
    dark = sum(1 for p in pixels if p < 128) / len(pixels)
    # A page of table rows is a few percent ink; a blank or nearly blank page is not.
    assert 0.02 < dark < 0.5, dark


def test_game_without_deals_and_two_players():
    """A fresh two-player game prints too: header, empty table, standings, a flat chart."""
    from scorer.engine import parse_game

    game = parse_game({"format": "thousand-game/1", "players": ["Аня", "Борис"],
                       "agreements": {"preset": "two-players"}, "deals": []})
    flat = compact("\n".join(pages_text(render_sheet(game, lang="en"))))
    assert "Inthesheet:0deals" in flat and "Twoplayers" in flat
    assert "Bonthebarrel" not in flat  # no barrel in this preset, so no barrel mark


def test_legend_lists_only_marks_the_agreements_allow():
    """Polish play has no barrel falls, samosval or penalties, so no marks for them."""
    from scorer.engine import resolve_agreements
    from scorer.marks import legend_keys

    def keys(preset):
        """The legend's marks for a three-player game under ``preset``."""
        return set(legend_keys(resolve_agreements(preset), 3))

    classic, polish = keys("classic"), keys("polish")
    assert {"penalty", "samosval", "fall", "barrel"} <= classic
    assert not {"penalty", "samosval", "golden", "dark", "fall"} & polish
    assert {"bolt", "barrel", "raspis", "win"} <= polish


def test_the_sheet_counts_every_row_as_a_deal_like_the_protocol():
    """One numbering everywhere: a redeal is a кон in the protocol, so the sheet's count of
    deals includes it (it said «Сыграно: 1 кон» beside two numbered rows)."""
    from scorer.engine import parse_game

    game = parse_game({"format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"],
                       "deals": [{"type": "redeal"},
                                 {"type": "play", "declarer": 0, "contract": 100,
                                  "points": [100, 10, 10]}]})
    flat = compact("\n".join(pages_text(render_sheet(game, lang="ru"))))
    assert "Впротоколе:2кона" in flat, flat[-300:]


def test_only_a_name_that_may_not_fit_is_clipped_and_marks_stay_together(make_long):
    """A clip per cell is costly, so only a name of more than 4 letters (Щ, the widest,
    is 4 mm of an 18 mm cell) is clipped; a cell's marks sit at its left edge by
    justifying its one line, kept apart by spaces justification does not stretch."""
    from scorer.engine import parse_game
    from scorer.sheet import sheet_html

    log = {"format": "thousand-game/1", "players": ["Щука", "Александра", "Борис"],
           "deals": [{"type": "play", "declarer": seat, "contract": 100,
                      "points": [40, 40, 40]} for seat in range(3)]}
    html = sheet_html(parse_game(log))
    assert '<td class="n s1 c">Александра</td>' in html
    assert '<td class="n s0">Щука</td>' in html and 's2 c">Борис' in html
    long = sheet_html(make_long(120))
    cells = re.findall(r'<td class="t j"><span class="m">([^<]*)</span> ', long)
    assert cells and any("\u2004" in marks for marks in cells)
    assert all(" " not in marks for marks in cells)
    assert ".m { float" not in long and "td.j { text-align: justify" in long
