"""A netns search's answer that only bounds the device from below is written as one (">=", at least): a search the
generator stopped, and a search that passed at its highest rate (veth has no line rate to cap the device, so the
device's throughput is at least that rate, not that rate). The trend series' runs passed at their 2,000 frames/s
ceiling in one trial each and were published as an exact 2,000 frames/s until 2026-11-28."""

from __future__ import annotations

from wirespeed.collectors.search.repeat import PointResult, Spread
from wirespeed.collectors.search.session import Bound, SearchResult
from wirespeed.collectors.search_set import _rows, from_below


def _search(lower: int, upper: int | None, generator_limited: bool = False) -> SearchResult:
    return SearchResult(None, (Bound(0.0, lower, upper, True, "converged", generator_limited),), (), "mlrsearch")


def _point(*searches: SearchResult) -> PointResult:
    rates = [s.bounds[0].rate_fps for s in searches]
    return PointResult(64, searches, {0.0: Spread(sum(rates) / len(rates), 0.0, min(rates), max(rates), len(rates))}, {})


def test_a_search_that_passed_at_its_highest_rate_is_a_lower_bound():
    assert from_below(Bound(0.0, 2000, None, True, "converged"), ceiling=True)
    assert not from_below(Bound(0.0, 2000, None, True, "converged"))  # a line rate the device cannot exceed: exact
    assert not from_below(Bound(0.0, 1900, 1950, True, "converged"), ceiling=True)  # converged inside the range: a value
    assert not from_below(Bound(0.0, None, 500, True, "converged"), ceiling=True)  # nothing passed: no bound from below
    assert from_below(Bound(0.0, 1996, 2000, True, "converged", generator_limited=True))


def test_the_rows_mark_each_bound_and_the_mean_of_searches_any_of_which_is_one():
    rows, _ = _rows("ipv4-forward", _point(_search(2000, None), _search(2000, None), _search(2000, None)), (0.0,))
    assert [r[8] for r in rows] == [">=2000", ">=2000", ">=2000", ">=2000"]  # each search, then their mean
    assert (rows[-1][10], rows[-1][11]) == (">=2000", ">=2000") and [r[9] for r in rows[:3]] == ["", "", ""]  # min, max; no upper bound
    rows, _ = _rows("ipv4-forward", _point(_search(1900, 1950), _search(1920, 1960)), (0.0,))
    assert [r[8] for r in rows] == ["1900", "1920", "1910"] and [r[9] for r in rows[:2]] == ["1950", "1960"]  # converged: values
    rows, _ = _rows("ipv4-forward", _point(_search(1900, 1950), _search(2000, None)), (0.0,))
    assert [r[8] for r in rows] == ["1900", ">=2000", ">=1950"] and rows[-1][10:12] == [">=1900", ">=2000"]  # one bound: the mean is one


def test_a_trex_search_topped_below_the_line_rate_is_a_lower_bound_and_at_the_line_rate_a_value():
    from wirespeed.collectors.trex_search_set import tables

    point = _point(_search(2000, None), _search(1950, 1990))
    below, _, _ = tables("t", [point], (0.0,), "ndr", {}, 0.001, ceiling=True)  # max_rate_fps, or under 100 % of line rate
    assert [r[8] for r in below] == [">=2000", "1950", ">=1975"]
    at_line_rate, _, _ = tables("t", [point], (0.0,), "ndr", {}, 0.001)  # topped at 100 %: the device cannot exceed it
    assert [r[8] for r in at_line_rate] == ["2000", "1950", "1975"]


def test_both_collectors_say_when_a_variants_figure_is_a_lower_bound_in_the_same_words():
    from wirespeed.collectors.search_set import search_variants

    netns = search_variants((0.0, 0.005), ceiling=True)
    assert netns["ndr"] == ("NDR: highest rate without loss (the search's lower bound, ≥ where the generator stopped the search or it "
                            "passed at its highest rate; the row without trial is the mean over the searches)")
    assert netns["pdr"].startswith("PDR: highest rate with at most 0.5 % loss (")
    assert search_variants((0.0,), ceiling=False)["ndr"] == netns["ndr"].replace(" or it passed at its highest rate", "")
