"""Check: no forwarded rate exceeds the maximum theoretical rate, and no published share of it exceeds 100 %."""

from __future__ import annotations

from wirespeed.checks import Finding
from wirespeed.checks.consistency import excesses

SHARES = {"throughput_line_rate": "of the line rate", "throughput_max_theoretical": "of the maximum theoretical rate"}


def check_line_rate(rs):
    """No throughput or forwarding rate exceeds the line rate (or the device's forwarding cap), and no published % of line rate exceeds 100, even at the low end of its rounding."""
    for e in excesses(rs):
        what = "the device's forwarding cap" if e.capped else "the line rate"
        cell = e.row.cells.get(e.metric)
        shown = f"{cell.figure.text} {cell.unit.symbol}" if cell else f"{e.lower_bound_fps:,.0f} frames/s"
        pct = (e.lower_bound_fps / e.max_fps - 1) * 100
        yield Finding(
            "throughput-above-line-rate", e.row, e.metric,
            f"{shown} is above {what} of {e.max_fps:,.0f} frames/s (by at least {pct:.2f} %)",
        )
    for row in rs.measurements():
        for metric, what in SHARES.items():
            cell = row.cells.get(metric)
            if cell is not None and cell.canonical.interval()[0] > 100 * (1 + 1e-9):
                yield Finding("throughput-above-line-rate", row, metric, f"{cell.figure.text} % {what} is above 100 %: no link carries more than its line rate")
