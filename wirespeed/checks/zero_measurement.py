"""Check: a duration, latency or round-trip time of 0 is a value the tool did not measure, not a measurement."""

from __future__ import annotations

from wirespeed.checks import Finding

# Quantities that are never 0 when measured: a trial takes time, a frame takes time to cross a device,
# a TCP sender's window holds at least one segment. Tools write 0 for "not measured" (iperf3's RTT and
# cwnd on the receiving side, a capture whose timestamps are all 0, latency of a stream that received nothing).
NEVER_ZERO = ("duration", "latency_min", "latency_avg", "latency_max", "latency_p50", "latency_p90", "latency_p99", "latency_p99_9",
              "latency_p99_99", "rtt_min", "rtt_avg", "rtt_max", "cwnd")
LATENCY = tuple(m for m in NEVER_ZERO if m.startswith("latency_"))


def check_zero_measurement(rs):
    """No duration, latency, RTT or congestion window is exactly 0, and no latency is stated for a row that received no frame."""
    for row in rs.measurements() + rs.samples():
        for metric in NEVER_ZERO:
            cell = row.cells.get(metric)
            if cell is not None and cell.figure.qualifier == "exact" and cell.canonical.value == 0:
                yield Finding("zero-measurement", row, metric,
                              f"{metric} is {cell.figure.text} {cell.unit.symbol}: tools write 0 where they measured nothing; leave the cell empty")
        rx = row.cells.get("rx")
        if rx is not None and rx.figure.qualifier == "exact" and rx.canonical.value == 0:
            for metric in LATENCY:
                if (cell := row.cells.get(metric)) is not None and cell.canonical.value != 0:
                    yield Finding("zero-measurement", row, metric,
                                  f"{metric} {cell.figure.text} {cell.unit.symbol} is stated, but 0 frames were received: there was no frame to measure")
