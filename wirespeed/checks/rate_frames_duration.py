"""Check: a rate agrees with the frames it counts ÷ the duration they took."""

from __future__ import annotations

from wirespeed.checks import Finding
from wirespeed.checks.tolerance import CLOCK_TOLERANCE, disagree
from wirespeed.engine.derive import context, per_second

# rate metric → (count metric, bits per frame: None = a frame rate, "l1" = on the wire, "l2" = the frame)
RATES = {"tx_rate": ("tx", None), "rx_rate": ("rx", None), "forwarding_rate": ("rx", None),
         "tx_l1": ("tx", "l1"), "rx_l1": ("rx", "l1"), "tx_l2": ("tx", "l2"), "rx_l2": ("rx", "l2")}


def check_rate_frames_duration(rs):
    """Every rate of a row that also states its frames and duration (sent, received, forwarded; in frames/s or bit/s) equals frames ÷ duration, within the printed rounding and the clock tolerance."""
    for row in rs.measurements() + rs.samples():
        duration = row.cells.get("duration")
        if duration is None:
            continue
        ctx = None
        for metric, (count_metric, layer) in RATES.items():
            rate, count = row.cells.get(metric), row.cells.get(count_metric)
            if rate is None or count is None or (expected := per_second(count, duration)) is None:
                continue
            bits = 1.0
            if layer is not None:
                ctx = ctx or context(rs, rs.tests[row.test], row)
                if ctx is None:
                    continue
                bits = ctx.wire_bits if layer == "l1" else ctx.frame * 8
            lo, hi = expected[0] * bits, expected[1] * bits
            if disagree(rate.canonical.interval(), (lo, hi)):
                mid = float(count.canonical.value) / float(duration.canonical.value) * bits / float(rate.unit.factor)
                yield Finding("rate-frames-duration", row, metric,
                              f"{rate.figure.text} {rate.unit.symbol}, but {count.figure.text} frames in {duration.figure.text} {duration.unit.symbol} "
                              f"is {mid:,.{max(rate.figure.decimals, 0) + 1}f} {rate.unit.symbol} (more than the {CLOCK_TOLERANCE:.1%} clock tolerance apart)")
