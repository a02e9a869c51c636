"""Exact latency percentiles of matched frames: every latency is kept, so each percentile is a
latency some frame had, by nearest rank.

The p-th percentile of n values is the value of rank ⌈p × n / 100⌉ in ascending order (at least
rank 1): the smallest latency that at least p % of the frames did not exceed. It is never above the
maximum (the 100th percentile is the maximum) and never below the minimum. Ranks are computed in
exact arithmetic (99.99 % of 2,000 frames is rank 2,000, the maximum, not 1,999.8 rounded either
way), and the values are found by one partial sort (numpy.partition), O(n) for any number of frames.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

PERCENTILES = {"latency_p50": Fraction(50), "latency_p90": Fraction(90), "latency_p99": Fraction(99),
               "latency_p99_9": Fraction("99.9"), "latency_p99_99": Fraction("99.99")}


def rank(p: Fraction, n: int) -> int:
    """The 1-based nearest rank of the p-th percentile of n values."""
    return max(1, math.ceil(p * n / 100))


def percentiles(values: np.ndarray) -> dict[str, int]:
    """latency_p50 … latency_p99_99 of the values (ns), exact; {} for no values."""
    n = int(values.size)
    if not n:
        return {}
    index = {name: rank(p, n) - 1 for name, p in PERCENTILES.items()}
    part = np.partition(values, sorted(set(index.values())))
    return {name: int(part[i]) for name, i in index.items()}
