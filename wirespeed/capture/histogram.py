"""Latency percentiles through an HDR histogram (the hdrhistogram package), filled in bulk.

Recording 50 million values one call at a time would take minutes in Python, so the values are
first counted per HDR bucket with numpy (the bucket of v is v with all but its top `SUB_BITS`
significant bits cleared — the layout HdrHistogram uses for 3 significant digits) and each
non-empty bucket is recorded once with its count. tests/test_capture_metrics.py checks the result
against recording every value.
"""

from __future__ import annotations

import numpy as np
from hdrh.histogram import HdrHistogram

SIG_DIGITS = 3
HIGHEST_NS = 3_600 * 10**9  # one hour
PERCENTILES = {"latency_p50": 50.0, "latency_p90": 90.0, "latency_p99": 99.0, "latency_p99_9": 99.9, "latency_p99_99": 99.99}


def hdr(values_ns: np.ndarray) -> HdrHistogram:
    """An HdrHistogram (1 ns .. 1 h, 3 significant digits) holding non-negative int64 values."""
    h = HdrHistogram(1, HIGHEST_NS, SIG_DIGITS)
    sub_bits = int(h.sub_bucket_count).bit_length() - 1  # 2048 -> 11
    v = np.minimum(values_ns.astype(np.int64), HIGHEST_NS)
    shift = np.maximum(0, np.floor(np.log2(np.maximum(v, 1))).astype(np.int64) + 1 - sub_bits)
    low = (v >> shift) << shift
    uniq, counts = np.unique(low, return_counts=True) if low.size < 4096 else _bucket_counts(low, shift)
    for value, count in zip(uniq.tolist(), counts.tolist()):
        h.record_value(int(value), int(count))
    return h


def _bucket_counts(low: np.ndarray, shift: np.ndarray):
    # bucket id = (shift, top bits): dense and small, so bincount instead of a sort
    ident = shift * 4096 + (low >> shift)
    counts = np.bincount(ident)
    nz = np.flatnonzero(counts)
    return (nz % 4096) << (nz // 4096), counts[nz]


def percentiles(h: HdrHistogram) -> dict[str, int]:
    return {name: int(h.get_value_at_percentile(p)) for name, p in PERCENTILES.items()}
