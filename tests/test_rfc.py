"""RFC metric functions."""

from __future__ import annotations

import pytest

from wirespeed.engine import failover, linerate, rfc2544, rfc2889, rfc3918
from wirespeed.engine.figures import Figure


def test_frame_loss_rate():
    assert rfc2544.frame_loss_rate(1000, 990) == 1.0
    with pytest.raises(ValueError):
        rfc2544.frame_loss_rate(0, 0)


def test_throughput_from_trials_is_highest_lossless_rate_averaged_over_trials():
    trials = [
        rfc2544.Trial(100.0, 1000, 1000, 1), rfc2544.Trial(200.0, 2000, 1999, 1), rfc2544.Trial(150.0, 1500, 1500, 1),
        rfc2544.Trial(100.0, 1000, 1000, 2), rfc2544.Trial(175.0, 1750, 1750, 2), rfc2544.Trial(200.0, 2000, 1990, 2),
    ]
    tp = rfc2544.throughput(trials)
    assert (tp.fps, tp.min_fps, tp.max_fps, tp.trials) == (162.5, 150.0, 175.0, 2)
    assert rfc2544.throughput([rfc2544.Trial(100.0, 10, 9)]) is None
    assert rfc2544.throughput_of_trial([rfc2544.Trial(200.0, 1000, 999)], loss_tolerance_pct=0.5) == 200.0


def test_back_to_back_and_latency_at_throughput():
    assert rfc2544.back_to_back([(100, 100), (200, 200), (400, 390)]) == 200
    assert rfc2544.latency_at_throughput({100.0: 5.0, 150.0: 7.5}, 150.0) == 7.5


def test_forwarding_rate():
    assert rfc2889.forwarding_rate(3000, 30) == 100
    with pytest.raises(ValueError):
        rfc2889.forwarding_rate(3000, 0)


def test_forwarding_rate_is_the_engine_figure_of_frame_counts(monkeypatch):
    """derive.counts computes a row's forwarding rate (rx ÷ duration) through rfc2889, not beside it."""
    from wirespeed.engine import derive

    seen = []
    monkeypatch.setattr(rfc2889, "forwarding_rate", lambda rx, d: seen.append((rx, d)) or rx / d)

    class Cell:
        def __init__(self, v):
            self.canonical = Figure.parse(v)

    class Row:
        cells = {"rx": Cell("3000"), "duration": Cell("30")}

    assert derive.counts(Row())["forwarding_rate"][0].value == 100 and (3000.0, 30.0) in seen


def test_offered_l1_of_the_asr9006_seed_from_the_engine():
    """The ASR 9006 seed publishes offered rate (Mpps) and offered L1 (Gbps) for 64-byte frames: the
    engine's bits on the wire (64 + 20 bytes) turn one into the other within the printed precision."""
    import csv

    from conftest import ARCHIVE

    rows = list(csv.DictReader((ARCHIVE / "cisco-asr9006-rsp440-trex-2022" / "scaling.csv").open(encoding="utf-8")))
    link = linerate.parse_speed("100G")
    assert rows
    for r in rows:
        lo, hi = Figure.parse(r["offered_rate_mpps"]).interval()
        bits = linerate.wire_bits(linerate.frame_bytes(int(r["frame_size"])), link)
        l1_lo, l1_hi = Figure.parse(r["offered_l1_gbps"]).interval()
        assert lo * 1e6 * bits / 1e9 <= l1_hi and hi * 1e6 * bits / 1e9 >= l1_lo, r


def test_multicast_entries_of_the_nexus_test():
    """127 receivers × 4,095 groups: 'more than 520,000' snooping entries."""
    assert rfc3918.group_table_entries(127, 4095) == 520_065
    assert rfc3918.group_capacity({1000: 0.0, 2000: 0.0, 4000: 0.5}) == 2000


def test_vss_failover_from_lost_frames():
    """Network World's method: 100,000 frames/s per stream, so 32,000 lost frames are 320 ms."""
    assert failover.failover_time_s(32_000, 100_000) == pytest.approx(0.320)
    assert failover.lost_frames_for(6.883, 100_000) == pytest.approx(688_300)
    assert failover.improvement(6.883, 0.322) > 20 and failover.improvement(6.883, 0.341) > 20


def test_rfc3550_jitter_of_the_capture_engine():
    """The capture engine's interarrival jitter follows RFC 3550 §6.4.1: J += (|D| − J) / 16."""
    import numpy as np

    from wirespeed.capture.metrics import _jitter3550

    d = np.array([10, 12, 11, 15], dtype=np.int64)
    assert _jitter3550(d) == pytest.approx(((0 + (2 - 0) / 16) * 15 / 16 + 1 / 16) * 15 / 16 + 4 / 16)


@pytest.mark.parametrize("text, lo, hi", [("9.752", 9.7515, 9.7525), ("~75", 74, 76), ("12..17", 11.5, 17.5), ("<94", 93, 94), ("100", 99.5, 100.5)])
def test_printed_figure_intervals(text, lo, hi):
    got = Figure.parse(text).interval()
    assert got == pytest.approx((lo, hi))


def test_figure_rejects_thousands_separators():
    from wirespeed.engine.figures import FigureSyntaxError

    with pytest.raises(FigureSyntaxError):
        Figure.parse("19,047,430,585")
