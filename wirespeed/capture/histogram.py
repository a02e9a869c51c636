"""Latency percentiles through an HDR histogram (the hdrhistogram package), filled in bulk.

Recording 50 million values one call at a time would take minutes in Python, so the values are
first counted per HDR bucket in one compiled pass (the bucket of v is v with all but its top `SUB_BITS`
significant bits cleared — the layout HdrHistogram uses for 3 significant digits) and each
non-empty bucket is recorded once with its count. tests/test_capture_metrics.py checks the result
against recording every value.
"""

from __future__ import annotations

import numpy as np
from hdrh.histogram import HdrHistogram
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros

SIG_DIGITS = 3
HIGHEST_NS = 3_600 * 10**9  # one hour
PERCENTILES = {"latency_p50": 50.0, "latency_p90": 90.0, "latency_p99": 99.0, "latency_p99_9": 99.9, "latency_p99_99": 99.99}


def hdr(values_ns: np.ndarray) -> HdrHistogram:
    """An HdrHistogram (1 ns .. 1 h, 3 significant digits) holding non-negative int64 values."""
    h = HdrHistogram(1, HIGHEST_NS, SIG_DIGITS)
    sub_bits = int(h.sub_bucket_count).bit_length() - 1  # 2048 -> 11
    v = np.minimum(values_ns.astype(np.int64), HIGHEST_NS)
    if v.size and v.min() < 0:
        raise ValueError("hdr() takes non-negative values")
    counts = _bucket_counts(v, sub_bits)
    nz = np.flatnonzero(counts)
    for value, count in zip(((nz % 4096) << (nz // 4096)).tolist(), counts[nz].tolist()):
        h.record_value(int(value), int(count))
    return h


@njit(cache=True, nogil=True)
def _bucket_counts(v, sub_bits):
    """Counts per bucket id = shift * 4096 + (v >> shift), where shift = max(0, bit length - sub_bits):
    dense and small, one pass (v >> shift << shift is the bucket's lowest value)."""
    counts = np.zeros(64 * 4096, np.int64)
    for x in v:
        shift = max(np.int64(0), np.int64(64) - np.int64(leading_zeros(np.uint64(max(x, 1)))) - sub_bits)
        counts[shift * 4096 + (x >> shift)] += 1
    return counts


def percentiles(h: HdrHistogram) -> dict[str, int]:
    """The PERCENTILES of h, in one walk over its buckets (the same values as get_value_at_percentile)."""
    values = h.get_percentile_to_value_dict(list(PERCENTILES.values()))
    return {name: int(values[p]) for name, p in PERCENTILES.items()}
