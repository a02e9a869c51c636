"""Check: per-second samples and per-trial counts forward no more than the links can carry."""

from __future__ import annotations

from wirespeed.checks import Finding
from wirespeed.engine.derive import context, counts, estimate


def _received_fps(row, ctx):
    """(metric, lower bound in frames/s) of each received rate a row states or implies."""
    if (e := estimate(row, "rx_rate")) is not None:
        yield "rx_rate", e.lo
    if (e := estimate(row, "rx_l1")) is not None:
        yield "rx_l1", e.lo / ctx.wire_bits
    if (e := estimate(row, "rx_l2")) is not None:
        yield "rx_l2", e.lo / (ctx.frame * 8)
    if row.kind == "measurements" and "forwarding_rate" not in row.cells and "forwarding_rate" in (c := counts(row)):
        yield "rx", c["forwarding_rate"][0].lo  # frames received over the trial's duration


def check_row_rates(rs):
    """No sample's received rate and no trial's received frames ÷ duration exceeds the line rate (or the forwarding cap), even at the low end of its rounding."""
    for row in rs.samples() + rs.measurements():
        ctx = context(rs, rs.tests[row.test], row)
        if ctx is None:
            continue
        for metric, lo in _received_fps(row, ctx):
            if lo > ctx.max_theoretical_fps * (1 + 1e-9):
                what = "the device's forwarding cap" if ctx.capped else "the line rate"
                cell = row.cells[metric]
                shown = f"{cell.figure.text} {cell.unit.symbol}" + (f" ({lo:,.0f} frames/s)" if metric != "rx_rate" else "")
                if metric == "rx":
                    shown = f"{cell.figure.text} frames received in {row.cells['duration'].figure.text} {row.cells['duration'].unit.symbol} ({lo:,.0f} frames/s)"
                yield Finding("rate-above-line-rate", row, metric,
                              f"{shown} is above {what} of {ctx.max_theoretical_fps:,.0f} frames/s (by at least {(lo / ctx.max_theoretical_fps - 1) * 100:.2f} %)")
