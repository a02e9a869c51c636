"""Where a reference line's label goes (wirespeed/presentation/charts/labelplace.py): where the chart asks when nothing
is in the way; else beside the nearest point of the reference where no line crosses it and no label lies; nowhere
outside the plot; and the y domain as Vega draws it."""

from __future__ import annotations

from wirespeed.presentation.charts import labelplace


def test_a_clear_place_is_the_one_asked_for():
    flat = [(50.0, 100.0), (300.0, 100.0), (550.0, 100.0)]
    placed = labelplace.place("line rate", flat, [flat], [], 560, 300, at=1.0, size=11)
    assert (placed.index, placed.align, placed.dy) == (2, "right", -8.0)  # the last point, text ending at it, above


def test_a_label_crossed_by_a_line_moves_to_the_nearest_clear_point():
    rising = [(50.0, 120.0), (120.0, 100.0), (190.0, 20.0), (260.0, 20.0), (330.0, 20.0)]  # climbs to a ceiling
    data = [(50.0, 130.0), (120.0, 110.0), (190.0, 40.0), (260.0, 20.0), (330.0, 20.0)]
    placed = labelplace.place("forwarding limit", rising, [rising, data], [], 560, 300, at=0.0, size=11, dy=-14)
    assert placed is not None and placed.index != 0  # not at the start, where both lines run through the label
    box = placed.box
    assert not any(labelplace._crosses(box, line) for line in (rising, data))
    taken = labelplace.place("another", rising, [rising, data], [box], 560, 300, at=0.0, size=11, dy=-14)
    assert taken is not None and not labelplace._overlap(taken.box, box)  # a second label keeps clear of the first


def test_a_label_asked_for_below_its_line_tries_below_first_then_above():
    line = [(50.0, 150.0), (300.0, 150.0), (550.0, 150.0)]
    below = labelplace.place("offered load", line, [line], [], 560, 300, at=0.5, size=11, dy=16)
    assert (below.index, below.dy) == (1, 16)
    crossing = [(0.0, 162.0), (560.0, 162.0)]  # a line just under it
    above = labelplace.place("offered load", line, [line, crossing], [], 560, 300, at=0.5, size=11, dy=16)
    assert (above.index, above.dy) == (1, -8.0)


def test_no_place_inside_the_plot_leaves_the_chart_its_own():
    everywhere = [[(0.0, float(y)), (560.0, float(y))] for y in range(0, 301, 6)]  # a line every 6 px
    assert labelplace.place("limit", [(10.0, 150.0), (550.0, 150.0)], everywhere, [], 560, 300, at=0.0, size=11) is None
    below = [[(0.0, 18.0), (560.0, 18.0)]]
    assert labelplace.place("limit", [(10.0, 5.0)], below, [], 560, 300, at=0.0, size=11) is None  # above the top, or crossed


def test_a_domain_is_vegas_nice_one():
    assert labelplace.nice_domain([64.5, 100.2], 300) == (0, 110)
    assert labelplace.nice_domain([0, 105.0], 300) == (0, 110)
    assert labelplace.nice_domain([3.0, 7.0], 300, zero=False) == (3, 7)
    assert labelplace.nice_domain([1e3, 2e6], 300, log=True) == (1000, 10_000_000)
    assert labelplace.nice_domain([], 300) == (0.0, 1.0)
