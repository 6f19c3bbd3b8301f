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


def test_reference_labels_sit_clear_of_every_line_without_a_backing(make_long):
    """«бочка 900» and «цель 1000» sit at the left end (every line starts from 0 there):
    no white backing that would erase the lines of players on the barrel or, in a PDF,
    the letters themselves; the target's above its line, clear of the barrel line."""
    game = make_long(30)
    protocol = replay(game)
    for layout in (PAPER, PHONE):
        root = ET.fromstring(totals_svg(game, protocol, layout=layout))
        labels = {el.text.split()[0]: el for el in root.iter(f"{SVG}text")
                  if re.match(r"(бочка|цель) ", el.text or "")}
        assert set(labels) == {"бочка", "цель"}
        refs = {float(line.get("y1")) for line in root.iter(f"{SVG}line")
                if line.get("stroke-dasharray")}
        barrel_y, target_y = max(refs), min(refs)
        for el in labels.values():
            assert el.get("stroke") is None and el.get("paint-order") is None
            assert float(el.get("x")) < layout.left + 10 and el.get("text-anchor") == "start"
        # The target's letters (a font's height above its baseline) lie above its line
        # and inside the plot; the barrel's below its line.
        target = float(labels["цель"].get("y"))
        assert layout.top <= target - layout.font and target < target_y
        assert float(labels["бочка"].get("y")) - layout.font > barrel_y


def test_the_target_label_keeps_clear_of_the_barrel_line_on_a_tall_axis():
    """Scores far below zero squeeze 900 and 1000 together: room is made above the
    target, so the barrel line never runs through «цель 1000»."""
    log = {"format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"],
           "deals": [{"type": "play", "declarer": 0, "contract": 300,
                      "points": [100, 10, 10]}] * 5}
    game = parse_game(log)
    for layout in (PAPER, PHONE):
        root = ET.fromstring(totals_svg(game, replay(game), layout=layout))
        label = next(el for el in root.iter(f"{SVG}text") if (el.text or "").startswith("цель"))
        refs = sorted(float(line.get("y1")) for line in root.iter(f"{SVG}line")
                      if line.get("stroke-dasharray"))
        top_of_letters = float(label.get("y")) - layout.font
        assert layout.top <= top_of_letters and float(label.get("y")) < refs[0] < refs[1]


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
