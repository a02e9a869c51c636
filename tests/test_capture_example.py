"""The example capture pair (data/results/linux-netns-udp-capture-2026-11): the loaded set's figures
against the independent pure-Python computation of tests/capture_reference.py."""

from __future__ import annotations

import math

import pytest

from capture_reference import ref_pair, ref_parse
from conftest import ARCHIVE
from wirespeed.catalog.load import load

SET = ARCHIVE / "linux-netns-udp-capture-2026-11"


@pytest.fixture(scope="module")
def loaded():
    rs, problems = load(SET)
    assert rs is not None and not [p for p in problems if p.severity == "error"], problems
    tx, rx = ref_parse((SET / "native" / "tx.pcap").read_bytes()), ref_parse((SET / "native" / "rx.pcap").read_bytes())
    return rs, tx, rx


def test_example_measurements_equal_the_independent_computation(loaded):
    rs, tx, rx = loaded
    rows = {r.keys["frame_size"]: r for r in rs.measurements()}
    assert sorted(rows) == [64, 128, 256, 512, 1024, 1280, 1518]
    for size, row in rows.items():
        ref = ref_pair([f for f in tx if f[1] == size], [f for f in rx if f[1] == size])
        v = {m: float(c.figure.value) for m, c in row.cells.items()}
        for m in ("tx", "rx", "lost", "duplicate", "reordered", "latency_min", "latency_max", "ipdv_max"):
            assert v[m] == ref[m], (size, m)
        for m in ("latency_avg", "ipdv_avg", "interarrival_jitter"):
            assert v[m] == pytest.approx(ref[m], abs=0.006), (size, m)   # the set keeps 0.01 ns
        lat = ref["sorted"]
        for m, p in (("latency_p50", 50), ("latency_p99", 99), ("latency_p99_9", 99.9)):
            exact = lat[max(1, int(p / 100 * len(lat) + 0.5)) - 1]
            assert exact <= v[m] <= exact * (1 + 1 / 1024) + 1, (size, m)
        assert v["tx"] == 2000


def test_example_samples_and_histograms_count_every_frame(loaded):
    rs, tx, rx = loaded
    for size in (64, 1518):
        samples = [r for r in rs.samples() if r.keys["frame_size"] == size]
        assert sum(float(r.cells["tx"].figure.value) for r in samples) == sum(1 for f in tx if f[1] == size)
        hist = [r for r in rs.histograms() if r.keys["frame_size"] == size]
        assert sum(float(r.cells["count"].figure.value) for r in hist) == sum(1 for f in rx if f[1] == size)
        ref = ref_pair([f for f in tx if f[1] == size], [f for f in rx if f[1] == size])
        lowest = min(float(r.keys["bucket_low_us"].value) for r in hist)
        assert lowest <= ref["latency_min"] / 1000 < lowest + float(hist[0].keys["bucket_high_us"].value) - float(hist[0].keys["bucket_low_us"].value)
        assert not math.isnan(lowest)
