"""The running-totals chart is plain SVG, one line per player, with reference lines."""

import re
import xml.etree.ElementTree as ET

from scorer.chart import PAPER, PHONE, PLAYER_COLOURS, totals_svg
from scorer.engine import parse_game, replay

SVG = "{http://www.w3.org/2000/svg}"


def test_one_line_per_player_in_seat_colours(make_long):
    """Each player has a polyline in his seat colour, through every deal."""
    game = make_long(30)
    protocol = replay(game)
    root = ET.fromstring(totals_svg(game, protocol))
    lines = root.findall(f"{SVG}polyline")
    assert [line.get("stroke") for line in lines] == list(PLAYER_COLOURS[:3])
    for line in lines:
        assert len(line.get("points").split()) == len(protocol.rows) + 1
    texts = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    for name in game.players:
        assert name in texts
    assert "бочка 900" in texts and "цель 1000" in texts


def test_no_barrel_line_without_barrel(make_won):
    """With the barrel off only the target line is drawn; English words in English."""
    game = make_won()
    texts = " ".join(t.text or "" for t in
                     ET.fromstring(totals_svg(game, replay(game), "en")).iter(f"{SVG}text"))
    assert "target 1000" in texts and "barrel" not in texts


def test_names_are_escaped_and_nothing_is_linked(make_won):
    """A name with markup stays text; the SVG references no outside resource."""
    game = make_won(["<b>Аня&Co</b>", "Борис", "Вика"])
    svg = totals_svg(game, replay(game))
    root = ET.fromstring(svg)
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "<b>Аня&Co</b>" in texts
    assert "href" not in svg and "url(" not in svg


def test_negative_totals_fit_the_plot():
    """Scores below zero widen the axis down, labelled with a true minus sign."""
    log = {"format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"],
           "deals": [{"type": "play", "declarer": 0, "contract": 200,
                      "points": [100, 10, 10]}] * 3}
    game = parse_game(log)
    protocol = replay(game)
    assert min(protocol.score) < 0
    root = ET.fromstring(totals_svg(game, protocol))
    labels = [t.text for t in root.iter(f"{SVG}text")]
    assert any(label and label.startswith("\u2212") for label in labels)
    ys = [float(p.split(",")[1]) for line in root.findall(f"{SVG}polyline")
          for p in line.get("points").split()]
    assert all(0 <= y <= 280 for y in ys)


def test_reference_labels_are_drawn_after_the_lines_on_a_halo(make_long):
    """«бочка 900» and «цель 1000» come after every polyline, on a white halo, in both layouts."""
    game = make_long(30)
    protocol = replay(game)
    for layout in (PAPER, PHONE):
        root = ET.fromstring(totals_svg(game, protocol, layout=layout))
        items = list(root.iter())
        last_line = max(i for i, el in enumerate(items) if el.tag == f"{SVG}polyline")
        labels = [(i, el) for i, el in enumerate(items)
                  if el.tag == f"{SVG}text" and re.match(r"(бочка|цель) ", el.text or "")]
        assert len(labels) == 2
        for i, el in labels:
            assert i > last_line
            assert el.get("stroke") == "#fff" and el.get("paint-order") == "stroke"
            assert 0 <= float(el.get("y")) <= layout.height


def test_phone_layout_text_is_at_least_11_px_on_a_360_px_phone(make_long):
    """Drawn across a 360 px phone (336 px inside the page margins), text is ≥ 11 CSS px."""
    game = make_long(30)
    root = ET.fromstring(totals_svg(game, replay(game), layout=PHONE))
    width = float(root.get("viewBox").split()[2])
    assert float(root.get("font-size")) * 336 / width >= 11
    assert all(t.get("font-size") is None for t in root.iter(f"{SVG}text"))
    # Four long names get two legend lines rather than being cut to a few letters.
    game4 = parse_game({"format": "thousand-game/1",
                        "players": ["Александра", "Константин", "Валентина", "Владислава"],
                        "deals": []})
    texts = [t.text for t in ET.fromstring(totals_svg(game4, replay(game4), layout=PHONE))
             .iter(f"{SVG}text")]
    assert "Александра" in texts and "Константин" in texts


def test_a_long_game_draws_at_most_one_point_per_unit_and_keeps_every_peak(make_long):
    """A 1000-deal line is thinned to the plot's width (per two units the lowest and the
    highest total), so the chart costs what a short one does; no player's first, last,
    highest or lowest total is lost. A short game still draws every deal (test above)."""
    import doctest

    from scorer import chart

    assert doctest.testmod(chart).failed == 0
    game = make_long(1000)
    protocol = replay(game)
    for layout in (PHONE, PAPER):
        plot_w = layout.width - layout.left - layout.right
        root = ET.fromstring(totals_svg(game, protocol, layout=layout))
        for seat, line in enumerate(root.iter(f"{SVG}polyline")):
            full = [0] + [row.score[seat] for row in protocol.rows]
            kept = chart._thinned(full, plot_w)
            assert len(line.get("points").split()) == len(kept) <= plot_w + 2
            values = [v for _i, v in kept]
            assert kept[0] == (0, full[0]) and kept[-1] == (len(full) - 1, full[-1])
            assert max(values) == max(full) and min(values) == min(full)
