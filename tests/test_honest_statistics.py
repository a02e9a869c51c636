"""Statistics stated honestly: exact percentiles where every sample is kept (a capture pair), a histogram's
percentile given as its bucket's range where only the histogram is (HDR exports of T-Rex, NFVbench, CSIT),
never above the maximum; rates over the time each frame size actually ran."""

from __future__ import annotations

import numpy as np
from hdrh.histogram import HdrHistogram

from conftest import ARCHIVE
from wirespeed.importers import hdr
from wirespeed.catalog.load import load

CAPTURE = "linux-netns-udp-capture-2026-11"


def test_an_hdr_percentile_is_its_bucket_and_never_above_the_maximum():
    h = HdrHistogram(1, 3_600_000_000, 3)
    for v in range(1, 2001):
        h.record_value(v)
    h.record_value(79_810)  # one frame far out: above 2,048 a bucket is wider than one unit
    got = hdr.percentiles(h)
    assert got["latency_p50"] == 1001 and got["latency_p99"] == 1981  # one unit wide: the value itself
    low, high = (int(x) for x in got["latency_p99_99"].split(".."))
    assert low <= 79_810 <= high and high - low + 1 == 64  # the bucket holding the maximum, not its top as if exact
    assert h.get_value_at_percentile(99.99) == high > 79_810  # what a single number would have claimed


def test_capture_percentiles_are_exact_and_never_above_the_maximum():
    rs, problems = load(ARCHIVE / CAPTURE)
    assert rs is not None and not [p for p in problems if p.severity == "error"]
    rows = rs.measurements()
    assert len(rows) == 7
    for r in rows:
        p9999, mx = r.value("latency_p99_99"), r.value("latency_max")
        assert p9999 == mx  # of 2,000 frames, rank ⌈1,999.8⌉ = 2,000: the maximum itself
        assert r.value("latency_min") <= r.value("latency_p50") <= r.value("latency_p90") <= r.value("latency_p99") <= r.value("latency_p99_9") <= mx
        assert r.cells["latency_p50"].figure.qualifier == "exact"


def test_capture_rates_are_over_the_time_each_size_ran():
    """Each size sent 2,000 frames at 10,000 frames/s in about 0.2 s: its rates are about 10,000 frames/s, not the
    2,000 a one-second bin would give; one that straddles a second has two samples at that rate too."""
    rs, _ = load(ARCHIVE / CAPTURE)
    for r in rs.measurements():
        duration = r.value("duration")
        assert r.value("tx") == 2000 and 0.19 < duration < 0.23
        assert abs(r.value("tx_rate") - 2000 / duration) < 0.01 and r.value("rx_rate") == r.value("tx_rate")
    samples = rs.samples()
    assert sum(s.value("tx") for s in samples) == 14_000
    for s in samples:
        assert abs(s.value("tx_rate") - s.value("tx") / s.value("duration")) < 0.01
        assert 8_500 < s.value("tx_rate") < 10_100, (s.keys, s.value("tx_rate"))
    straddling = [s for s in samples if s.keys["frame_size"] == 256]
    assert [s.value("tx") for s in straddling] == [1817, 183]


def test_the_duration_of_frames_is_the_time_they_occupied():
    from wirespeed.capture.metrics import occupied_ns, one_capture

    assert occupied_ns(1999 * 100_000, 2000) == 200_000_000
    assert occupied_ns(0, 5) is None and occupied_ns(123, 1) is None  # no time measured: no duration, never 0
    flat = one_capture(np.zeros(4, np.int64), np.full(4, 64))
    assert flat["duration_ns"] is None and flat["rate_pps"] is None
