"""Check: minimum ≤ average ≤ maximum latency."""

from __future__ import annotations

from wirespeed.checks import Finding


def check_latency_order(rs):
    """Minimum latency ≤ average ≤ maximum (and the same for jitter), within rounding."""
    for row in rs.measurements():
        for a, b in (("latency_min", "latency_avg"), ("latency_avg", "latency_max"), ("latency_min", "latency_max"), ("jitter_avg", "jitter_max")):
            ca, cb = row.cells.get(a), row.cells.get(b)
            if ca and cb and ca.canonical.interval()[0] > cb.canonical.interval()[1]:
                yield Finding("latency-order", row, b, f"{b} {cb.figure.text} {cb.unit.symbol} is below {a} {ca.figure.text} {ca.unit.symbol}")
