"""The running-totals chart is plain SVG, one line per player, with reference lines."""

import xml.etree.ElementTree as ET

from scorer.chart import PLAYER_COLOURS, totals_svg
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
