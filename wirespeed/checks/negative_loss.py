"""Check: no loss is negative."""

from __future__ import annotations

from wirespeed.checks import Finding
from wirespeed.engine.derive import counts
from wirespeed.engine.ramp import running_stream


def check_negative_loss(rs):
    """No row's loss, as published or as the engine derives it from frames sent − received, is below zero (a ramp step's counters read while the stream runs included)."""
    for row in rs.measurements():
        test = rs.tests[row.test]
        running = running_stream(test.meta.get("rfc", []), test.methodology)
        if not running:
            continue  # a closed trial receiving more than it sent is reported by frame-counts
        lost = counts(row, running).get("lost")
        if lost is None:
            continue
        tx, rx = row.cells["tx"], row.cells["rx"]
        exact = tx.figure.qualifier == rx.figure.qualifier == "exact" and tx.figure.decimals <= 0 and rx.figure.decimals <= 0
        if lost[0].hi < 0 or (exact and lost[0].value < 0):  # whole counts: a difference of −1 is certain
            yield Finding("negative-loss", row, "rx",
                          f"a loss of {lost[0].value:,.0f} frames".replace("-", "−") + f": {rx.figure.text} frames received in this interval but {tx.figure.text} sent; counters read "
                          "while the stream runs count a frame sent at the end of one interval in the next, so sent − received is not a loss "
                          "(state the frames the device dropped as lost_frames, from its own counters)")
