"""The running-totals chart is plain SVG, one line per player, with reference lines."""

import re
import xml.etree.ElementTree as ET
from dataclasses import replace

from scorer.chart import PAPER, PHONE, PLAYER_COLOURS, totals_svg
from scorer.engine import parse_game, replay

SVG = "{http://www.w3.org/2000/svg}"


def positions(root) -> list[list[tuple[float, float]]]:
    """Each player's line as (x, y) in the chart's user units: a line inside a scaling
    group (the phone's unit points) is mapped through the group's matrix."""
    out = []
    for group in (root, *root.iter(f"{SVG}g")):
        a, b, c, d, e, f = (1, 0, 0, 1, 0, 0)
        if group.get("transform"):
            a, b, c, d, e, f = map(float, re.fullmatch(r"matrix\((.*)\)",
                                                        group.get("transform")).group(1).split())
        for line in group.findall(f"{SVG}polyline"):
            pairs = [tuple(map(float, p.split(","))) for p in line.get("points").split()]
            out.append([(a * x + c * y + e, b * x + d * y + f) for x, y in pairs])
    return out


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


def test_the_phone_draws_unit_points_where_the_worked_out_positions_are(make_long):
    """The phone chart writes each line as (deal, total) pairs, exactly the points the
    thinning keeps, in a group whose matrix puts them where the paper way of drawing
    (every position worked out) puts them; the stroke does not scale with the group."""
    from scorer import chart

    for deals in (30, 1000):
        game = make_long(deals)
        protocol = replay(game)
        root = ET.fromstring(totals_svg(game, protocol, layout=PHONE))
        plot_w = PHONE.width - PHONE.left - PHONE.right
        worked = ET.fromstring(totals_svg(game, protocol, layout=replace(PHONE,
                                                                          unit_lines=False)))
        assert not list(worked.iter(f"{SVG}g"))
        lines = list(root.iter(f"{SVG}polyline"))
        assert [line.get("vector-effect") for line in lines] == ["non-scaling-stroke"] * 3
        for seat, line in enumerate(lines):
            full = [0] + [row.score[seat] for row in protocol.rows]
            units = [tuple(map(int, p.split(","))) for p in line.get("points").split()]
            assert units == chart._thinned(full, plot_w)
        for mapped, drawn in zip(positions(root), positions(worked), strict=True):
            assert len(mapped) == len(drawn)
            assert all(abs(x - u) <= 0.051 and abs(y - v) <= 0.051
                       for (x, y), (u, v) in zip(mapped, drawn, strict=True))
            assert PHONE.width - PHONE.right - 0.1 < mapped[-1][0] <= PHONE.width - PHONE.right


def test_a_new_deal_writes_only_the_end_of_a_line(make_long):
    """Drawing deal n+1 reuses every whole run of unit points drawn for deal n (the same
    text, from the cache), for a short line and for a thinned long one; a drawing from
    warm runs is the very text a drawing from nothing gives."""
    from types import SimpleNamespace

    from scorer import chart

    chart.forget()
    game = make_long(1000)
    rows = replay(game).rows
    plot_w = PHONE.width - PHONE.left - PHONE.right
    for deals, block in ((200, 1), (990, 7)):
        chart.totals_svg(game, SimpleNamespace(rows=rows[:deals]), layout=PHONE)
        before = chart._run_points.cache_info()
        totals_svg(game, SimpleNamespace(rows=rows[:deals + 1]), layout=PHONE)
        after = chart._run_points.cache_info()
        assert chart._step(deals + 2, plot_w) == block
        runs = (deals + 1) // (block * chart.RUN)  # whole runs of deals + 2 points
        assert after.misses == before.misses and after.hits == before.hits + 3 * runs > 3 * 7
    warm = totals_svg(game, SimpleNamespace(rows=rows), layout=PHONE)
    chart.forget()
    assert warm == totals_svg(game, SimpleNamespace(rows=rows), layout=PHONE)


def test_clearing_the_apps_caches_drops_the_drawn_runs(make_long, app):
    """clear_caches (the cold benchmark, the fuzz rigs) leaves the chart as after a
    restart: its drawn runs are gone too."""
    from scorer import chart
    from scorer.web.lru import clear_caches

    game = make_long(700)
    totals_svg(game, replay(game), layout=PHONE)
    assert chart._run_points.cache_info().currsize > 0
    clear_caches(app)
    assert chart._run_points.cache_info().currsize == 0


def test_the_totals_of_kept_blocks_are_read_again_only_when_a_row_changed(make_long,
                                                                          monkeypatch):
    """A next version (the same Row objects plus one) reads only its last rows; a block
    with one other row in it (an edit) is read anew, never taken from the kept block."""
    from types import SimpleNamespace

    from scorer import chart

    chart.forget()  # the kept blocks are process-wide: start from none, as after a restart
    game = make_long(300)
    rows = replay(game).rows
    totals_svg(game, SimpleNamespace(rows=rows[:299]), layout=PHONE)
    read = []
    real = chart._totals
    monkeypatch.setattr(chart, "_totals", lambda some, seats: read.append(len(some)) or
                        real(some, seats))
    totals_svg(game, SimpleNamespace(rows=rows), layout=PHONE)
    assert read == [300 - 2 * chart.BLOCK_ROWS]  # the two whole blocks were kept
    changed = list(rows)
    changed[5] = rows[5]._replace(score=tuple(v + 7777 for v in rows[5].score))
    svg = totals_svg(game, SimpleNamespace(rows=changed), layout=PHONE)
    assert all(f" 6,{v + 7777} " in svg for v in rows[5].score)  # deal 6: row 5
    chart.forget()
    assert svg == totals_svg(game, SimpleNamespace(rows=changed), layout=PHONE)
