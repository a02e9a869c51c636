"""Capture pair figures against an independent pure-Python computation (struct parsing, dict matching,
the RFC definitions written out directly), and the exact percentiles against sorting every value."""

from __future__ import annotations

import random

import numpy as np
import pytest

from capture_files import T0, pcap, udp_frame
from capture_reference import ref_pair, ref_parse
from wirespeed.capture.analysis import pair_of, signature_of
from wirespeed.capture.errors import CaptureError
from wirespeed.capture.percentiles import percentiles
from wirespeed.capture.reader import frames_from_bytes


def make_pair(n=400, sizes=(64,), seed=3, base_latency=20_000):
    rnd = random.Random(seed)
    tx = [(T0 + i * 10_000, udp_frame(i, sizes[i % len(sizes)], ttl=64)) for i in range(n)]
    rx = []
    for i, (ts, _) in enumerate(tx):
        if rnd.random() < 0.05:
            continue                                                     # lost
        arrive = ts + base_latency + rnd.randrange(0, 3_000) + (25_000 if i % 97 == 5 else 0)  # some overtaken by 2-3 frames
        rx.append((arrive, udp_frame(i, sizes[i % len(sizes)], ttl=63, mac=b"\x02\x00\x00\x00\x00\x99")))
        if rnd.random() < 0.02:
            rx.append((arrive + 500, rx[-1][1]))                         # duplicated
    rx.append((T0 + 5_000, udp_frame(9999, 64, src=bytes([198, 18, 9, 9]))))   # not part of the test
    rx.sort(key=lambda r: r[0])
    return pcap(tx), pcap(rx)


def test_pair_matches_the_independent_computation():
    tx_b, rx_b = make_pair()
    a = pair_of(frames_from_bytes(tx_b, "tx.pcap"), frames_from_bytes(rx_b, "rx.pcap"))
    ref = ref_pair(ref_parse(tx_b), ref_parse(rx_b))
    (g,) = a.result.groups
    assert g.frame_size == 64 and a.result.unmatched == ref["unmatched"] == 1 and a.result.clock_offset_ns == 0
    for k in ("tx", "rx", "lost", "duplicate", "reordered", "reorder_extent_max", "latency_min", "latency_max", "ipdv_max"):
        assert g.values[k] == ref[k], k
    assert ref["reordered"] > 0 and ref["duplicate"] > 0 and ref["lost"] > 0
    for k in ("latency_avg", "ipdv_avg", "interarrival_jitter"):
        assert g.values[k] == pytest.approx(ref[k], rel=1e-9), k
    lat = ref["sorted"]
    for name, p in (("latency_p50", 50), ("latency_p90", 90), ("latency_p99", 99), ("latency_p99_9", 999 / 10), ("latency_p99_99", 9999 / 100)):
        rank = -(-round(p * 100) * len(lat) // 10000)                   # nearest rank: ⌈p × n / 100⌉, in integers
        assert g.values[name] == lat[max(rank, 1) - 1], name
    assert g.values["latency_p99_99"] <= g.values["latency_max"]
    assert sum(c for _, _, c in g.histogram) == ref["rx"]
    assert sum(r["tx"] for r in g.samples) == ref["tx"] and sum(r["rx"] for r in g.samples) == ref["rx"] + ref["duplicate"]


def test_groups_per_frame_size_and_estimated_clock_offset():
    tx_b, rx_b = make_pair(n=300, sizes=(64, 512, 1518), base_latency=-50_000 + 20_000)   # rx clock 50 µs behind
    tx, rx = frames_from_bytes(tx_b, "tx.pcap"), frames_from_bytes(rx_b, "rx.pcap")
    with pytest.raises(CaptureError) as err:
        pair_of(tx, rx)
    assert err.value.problem.rule == "capture.clock" and "\n" not in str(err.value)
    a = pair_of(tx, rx, "min")
    assert [g.frame_size for g in a.result.groups] == [64, 512, 1518]
    rt, rr = ref_parse(tx_b), ref_parse(rx_b)
    offset = a.result.clock_offset_ns
    assert offset == min(ref_pair(rt, rr)["sorted"]) and "estimated" in a.result.clock_method
    for g in a.result.groups:
        ref = ref_pair([r for r in rt if r[1] == g.frame_size], [r for r in rr if r[1] == g.frame_size], offset)
        for k in ("tx", "rx", "lost", "duplicate", "reordered", "latency_max", "ipdv_max"):
            assert g.values[k] == ref[k], (g.frame_size, k)
    assert min(g.values["latency_min"] for g in a.result.groups) == 0


def test_signature_capture_uses_the_transmit_time_in_the_payload():
    rows = [(T0 + 1_000_000 + i * 10_000 + (i % 7) * 100, udp_frame(i, 128, txts=T0 + i * 10_000)) for i in range(200) if i % 50 != 3]
    a = signature_of(frames_from_bytes(pcap(rows), "one.pcap"))
    (g,) = a.result.groups
    assert g.values["tx"] == 200 and g.values["rx"] == 196 and g.values["lost"] == 4
    assert g.values["latency_min"] == 1_000_000 and g.values["latency_max"] == 1_000_600


def test_exact_percentiles_by_nearest_rank_never_above_the_maximum():
    rng = np.random.default_rng(11)
    values = np.concatenate([rng.integers(0, 3000, 5000), rng.lognormal(11, 2, 20000).astype(np.int64)])
    ordered = sorted(values.tolist())
    got = percentiles(values)
    n = len(ordered)
    assert got == {"latency_p50": ordered[n // 2 - 1 + (n % 2)], "latency_p90": ordered[-(-9 * n // 10) - 1], "latency_p99": ordered[-(-99 * n // 100) - 1],
                   "latency_p99_9": ordered[-(-999 * n // 1000) - 1], "latency_p99_99": ordered[-(-9999 * n // 10000) - 1]}
    # 2,000 frames: the 99.99th percentile is rank ⌈1,999.8⌉ = 2,000, the maximum itself (an HDR histogram with
    # 3 significant digits printed the top of the maximum's bucket, above the maximum)
    two_thousand = np.arange(79_000, 81_000, dtype=np.int64)
    assert percentiles(two_thousand)["latency_p99_99"] == 80_999 == two_thousand.max()
    assert percentiles(np.array([7], np.int64)) == dict.fromkeys(got, 7) and percentiles(np.array([], np.int64)) == {}


def _strict_match(tx_keys, rx_keys):
    by_key: dict = {}
    for i, k in enumerate(tx_keys):
        by_key.setdefault(k, []).append(i)
    used, out = set(), []
    for k in rx_keys:
        cands = by_key.get(k)
        free = [i for i in cands if i not in used] if cands else []
        if not cands:
            out.append(-1)
        elif not free:
            out.append(-2)
        else:
            used.add(free[0])
            out.append(free[0])
    return out


@pytest.mark.parametrize("seed", range(12))
def test_matching_equals_the_definition_with_far_overtakes_copies_and_repeated_keys(seed):
    from wirespeed.capture.matching import match

    rnd = random.Random(seed)
    tx = [rnd.randrange(1, 400) if rnd.random() < 0.1 else 1000 + i for i in range(600)]   # some repeated keys
    order = sorted(range(600), key=lambda i: i + (rnd.randrange(100, 300) if rnd.random() < 0.05 else rnd.random() * 3))
    rx = [tx[i] for i in order if rnd.random() > 0.05]
    for _ in range(20):
        rx.insert(rnd.randrange(len(rx)), rx[rnd.randrange(len(rx))])       # copies, early or late
    rx += [5_000_000 + i for i in range(5)]                                   # other traffic
    got = match(np.array(tx, np.uint64), np.array(rx, np.uint64)).tolist()
    assert got == _strict_match(tx, rx)
