"""Check: a throughput is a rate the generator achieved, not one it was asked for."""

from __future__ import annotations

from wirespeed.checks import Finding
from wirespeed.checks.tolerance import CLOCK_TOLERANCE, widen
from wirespeed.engine.derive import context, per_second, throughput_fps


def check_requested_rate(rs):
    """A row's throughput is no more than the frames it sent ÷ its duration (a requested rate published as achieved), within the printed rounding and the clock tolerance."""
    for row in rs.measurements():
        tx, duration = row.cells.get("tx"), row.cells.get("duration")
        if tx is None or duration is None or (sent := per_second(tx, duration)) is None:
            continue
        ctx = context(rs, rs.tests[row.test], row)
        if "throughput" in row.cells:
            est, metric = row.cells["throughput"].canonical.interval()[0], "throughput"
        elif ctx is not None and (tp := throughput_fps(row, ctx)) is not None:
            est, metric = tp[0].lo, tp[1]
        else:
            continue
        if widen(est, est)[0] > sent[1]:
            cell = row.cells[metric]
            asked = row.cells.get("offered_rate")
            also = f"; {asked.figure.text} {asked.unit.symbol} was offered" if asked is not None else ""
            yield Finding("requested-as-achieved", row, metric,
                          f"throughput {cell.figure.text} {cell.unit.symbol} is more than the {tx.figure.text} frames sent in {duration.figure.text} "
                          f"{duration.unit.symbol} ({float(tx.canonical.value) / float(duration.canonical.value):,.0f} frames/s, {CLOCK_TOLERANCE:.1%} clock tolerance){also}: "
                          "a requested rate published as achieved")
