"""Check: frames received never exceed frames sent, and the lost count agrees with both."""

from __future__ import annotations

from wirespeed.checks import Finding


def _interval_counts(rs, test) -> bool:
    """Whether a test's rows count frames per interval of a running stream (a ramp), not per closed trial."""
    return test.methodology.get("search") == "ramp" or "loadtest-ramp" in test.meta.get("rfc", [])


def _above(a, b) -> bool:
    """Whether count a is certainly more than count b: beyond their rounding (whole counts: touching intervals differ)."""
    (alo, _), (_, bhi) = a.canonical.interval(), b.canonical.interval()
    return alo > bhi or (alo == bhi and a.figure.qualifier == b.figure.qualifier == "exact")


def check_frame_counts(rs):
    """Frames received ≤ frames sent (per trial; summed over a ramp's intervals), frames lost ≤ sent, and lost = sent − received."""
    series: dict[tuple, list] = {}
    for row in rs.measurements() + rs.samples():
        tx, rx, lost = row.cells.get("tx"), row.cells.get("rx"), row.cells.get("lost")
        if tx is None:
            continue
        if row.kind == "samples" or _interval_counts(rs, rs.tests[row.test]):
            # Counters read while traffic flows: frames queued at an interval's start arrive within it, so one
            # interval may receive more than it sent; the sum over the series may not.
            if rx is not None:
                key = (row.kind, row.test, *(str(row.keys.get(k)) for k in ("frame_size", "direction", "variant", "port")))
                series.setdefault(key, []).append(row)
        elif rx is not None and _above(rx, tx):
            yield Finding("frame-counts", row, "rx", f"{rx.figure.text} frames received is more than the {tx.figure.text} frames sent")
            continue
        if lost is not None and _above(lost, tx):
            yield Finding("frame-counts", row, "lost", f"{lost.figure.text} frames lost is more than the {tx.figure.text} frames sent")
        elif lost is not None and rx is not None and row.kind == "measurements" and not _interval_counts(rs, rs.tests[row.test]):
            (tlo, thi), (rlo, rhi), (llo, lhi) = tx.canonical.interval(), rx.canonical.interval(), lost.canonical.interval()
            if llo > thi - rlo or lhi < tlo - rhi:
                yield Finding("frame-counts", row, "lost", f"{lost.figure.text} frames lost, but {tx.figure.text} sent − {rx.figure.text} received is {float(tx.canonical.value - rx.canonical.value):,.0f}")
    for rows in series.values():
        sent = sum(float(r.cells["tx"].canonical.value) for r in rows)
        received = sum(float(r.cells["rx"].canonical.value) for r in rows)
        if received > sent:
            last = rows[-1]
            yield Finding("frame-counts", last, "rx", f"the {len(rows)} intervals up to this row received {received:,.0f} frames, more than the {sent:,.0f} sent")
