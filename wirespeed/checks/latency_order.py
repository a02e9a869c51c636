"""Check: latency statistics in order: minimum ≤ percentiles ≤ maximum, minimum ≤ average ≤ maximum."""

from __future__ import annotations

from wirespeed.checks import Finding

PERCENTILES = ("latency_p50", "latency_p90", "latency_p99", "latency_p99_9", "latency_p99_99")
LABELS = {"latency_min": "minimum", "latency_avg": "average", "latency_max": "maximum", "latency_p50": "median (50th percentile)",
          "latency_p90": "90th percentile", "latency_p99": "99th percentile", "latency_p99_9": "99.9th percentile",
          "latency_p99_99": "99.99th percentile", "jitter_avg": "average jitter", "jitter_max": "maximum jitter",
          "ipdv_avg": "average IPDV", "ipdv_max": "maximum IPDV", "rtt_min": "minimum RTT", "rtt_avg": "average RTT", "rtt_max": "maximum RTT"}
# (lower, higher): each chain of percentiles in order, every one within minimum and maximum
PAIRS = ([("latency_min", "latency_avg"), ("latency_avg", "latency_max"), ("latency_min", "latency_max"),
          ("jitter_avg", "jitter_max"), ("ipdv_avg", "ipdv_max"), ("rtt_min", "rtt_avg"), ("rtt_avg", "rtt_max"), ("rtt_min", "rtt_max")]
         + [("latency_min", p) for p in PERCENTILES] + [(p, "latency_max") for p in PERCENTILES]
         + [(a, b) for i, a in enumerate(PERCENTILES) for b in PERCENTILES[i + 1:]])


def check_latency_order(rs):
    """Minimum latency ≤ average ≤ maximum, minimum ≤ p50 ≤ p90 ≤ p99 ≤ p99.9 ≤ p99.99 ≤ maximum (and the same for jitter, IPDV and RTT), within rounding."""
    for row in rs.measurements() + rs.samples():
        for a, b in PAIRS:
            ca, cb = row.cells.get(a), row.cells.get(b)
            if ca and cb and ca.canonical.interval()[0] > cb.canonical.interval()[1]:
                yield Finding("latency-order", row, b, f"the {LABELS[b]} {cb.figure.text} {cb.unit.symbol} is below the {LABELS[a]} {ca.figure.text} {ca.unit.symbol}")
