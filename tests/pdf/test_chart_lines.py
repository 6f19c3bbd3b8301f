"""What a version keeps for the next one to extend equals what the next one works out
afresh: the chart's thinned lines (chart.Lines) and the players' tallies (marks.Counted),
over games that grow, are edited in the middle, shrink and cross the chart's blocks."""

from __future__ import annotations

from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st

from scorer import chart, marks
from scorer.chart import PAPER, PHONE

KINDS = ("bolt", "barrel_fall", "bolt_penalty", "raspis_penalty", "three_falls_zero",
         "made", "barrel_enter")


@st.composite
def histories(draw: st.DrawFn) -> tuple[int, int, list[tuple[SimpleNamespace, ...]]]:
    """(seats, plot width, the rows of each version): mostly deals added one at a time,
    now and then several at once, an edit of an earlier row, or a row taken out."""
    seats = draw(st.integers(2, 4))
    width = draw(st.sampled_from([1, 3, 4, 7, 12, chart.plot_width(PHONE)]))
    rnd = draw(st.randoms(use_true_random=False))

    def row() -> SimpleNamespace:
        events = tuple(SimpleNamespace(seat=rnd.choice([None, *range(seats)]),
                                       kind=rnd.choice(KINDS))
                       for _ in range(rnd.randint(0, 2)))
        return SimpleNamespace(score=tuple(rnd.randint(-400, 1300) for _ in range(seats)),
                               type=rnd.choice(["play", "raspis", "redeal"]),
                               declarer=rnd.choice([None, *range(seats)]), events=events)

    rows: list[SimpleNamespace] = []
    versions = []
    for _ in range(draw(st.integers(1, 30))):
        change = rnd.choice(["add"] * 6 + ["many", "edit", "drop"])
        if change == "edit" and rows:
            rows[rnd.randrange(len(rows))] = row()
        elif change == "drop" and rows:
            del rows[rnd.randrange(len(rows))]
        else:
            rows += [row() for _ in range(rnd.randint(2, 20) if change == "many" else 1)]
        versions.append(tuple(rows))
    return seats, width, versions


@given(histories())
def test_lines_kept_from_the_version_before_are_the_lines_drawn_afresh(history):
    """Each version's lines made from the previous version's equal its lines made from
    nothing, and draw the points the plain rule (_thinned) keeps, with the lowest and the
    highest total of all."""
    seats, width, versions = history
    before = None
    for rows in versions:
        kept = chart.lines_of(rows, seats, width, before)
        assert kept == chart.lines_of(rows, seats, width)
        for seat in range(seats):
            points = [0, *(row.score[seat] for row in rows)]
            assert list(kept.kept[seat]) == chart._thinned(points, width)
        every = [0, *(total for row in rows for total in row.score)]
        assert (kept.low, kept.high) == (min(every), max(every))
        before = kept


@given(histories())
def test_tallies_kept_from_the_version_before_are_the_tallies_counted_afresh(history):
    """Each version's tallies counted on from the previous version's equal its tallies
    counted from the first row."""
    seats, _width, versions = history
    before = None
    for rows in versions:
        kept = marks.counted(rows, seats, before)
        assert kept == marks.counted(rows, seats)
        assert list(kept.tallies) == marks.tallies(SimpleNamespace(rows=rows,
                                                                   players=("x",) * seats))
        before = kept


def test_a_long_game_thins_only_its_new_deals_until_its_blocks_grow():
    """Past the plot's width a version keeps its whole blocks: the next deal reuses them
    (the same objects) while the block size stays, and starts afresh when it grows."""
    width = chart.plot_width(PAPER)
    rows = tuple(SimpleNamespace(score=(i % 17, -i)) for i in range(1200))
    first = chart.lines_of(rows, 2, width)
    assert first.step == 5 and first.done == 1200
    nxt = chart.lines_of((*rows, SimpleNamespace(score=(3, 3))), 2, width, first)
    assert nxt.whole[0][:len(first.whole[0])] == first.whole[0]
    assert all(a is b for a, b in zip(nxt.whole[0], first.whole[0], strict=False))
    grown = tuple(SimpleNamespace(score=(i % 17, -i)) for i in range(1455))
    across = chart.lines_of(grown, 2, width, chart.lines_of(grown[:1454], 2, width))
    assert across.step == 6 and across == chart.lines_of(grown, 2, width)
