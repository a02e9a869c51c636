"""Check: no forwarded rate exceeds the maximum theoretical rate."""

from __future__ import annotations

from wirespeed.checks import Finding
from wirespeed.catalog.consistency import excesses


def check_line_rate(rs):
    """No throughput or forwarding rate exceeds the line rate (or the device's forwarding cap), even at the low end of its rounding."""
    for e in excesses(rs):
        what = "the device's forwarding cap" if e.capped else "the line rate"
        cell = e.row.cells.get(e.metric)
        shown = f"{cell.figure.text} {cell.unit.symbol}" if cell else f"{e.lower_bound_fps:,.0f} frames/s"
        pct = (e.lower_bound_fps / e.max_fps - 1) * 100
        yield Finding(
            "throughput-above-line-rate", e.row, e.metric,
            f"{shown} is above {what} of {e.max_fps:,.0f} frames/s (by at least {pct:.2f} %)",
        )
