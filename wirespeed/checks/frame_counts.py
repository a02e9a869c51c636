"""Check: frames received never exceed frames sent plus duplicates, and the lost count agrees with both."""

from __future__ import annotations

from wirespeed.checks import Finding
from wirespeed.engine.ramp import running_stream


def _above(a, b) -> bool:
    """Whether count a is certainly more than count b: beyond their rounding (whole counts: touching intervals differ)."""
    (alo, _), (_, bhi) = a.canonical.interval(), b.canonical.interval()
    return alo > bhi or (alo == bhi and a.figure.qualifier == b.figure.qualifier == "exact")


def _whole(*cells) -> bool:
    """Whether every cell is an exact whole count (then the values compare, not their rounding intervals)."""
    return all(c.figure.qualifier == "exact" and c.figure.decimals <= 0 for c in cells)


def _received_beyond(rx, tx, dup) -> bool:
    """Whether rx is certainly more than tx + duplicates."""
    if dup is None:
        return _above(rx, tx)
    if _whole(rx, tx, dup):
        return rx.canonical.value > tx.canonical.value + dup.canonical.value
    (rlo, _), (_, thi), (_, dhi) = rx.canonical.interval(), tx.canonical.interval(), dup.canonical.interval()
    return rlo > thi + dhi


def check_frame_counts(rs):
    """Frames received ≤ frames sent + duplicates (per trial; summed over a ramp's intervals), frames lost ≤ sent, and lost = sent − received."""
    series: dict[tuple, list] = {}
    for row in rs.measurements() + rs.samples():
        tx, rx, lost, dup = row.cells.get("tx"), row.cells.get("rx"), row.cells.get("lost"), row.cells.get("duplicate")
        if tx is None:
            continue
        running = row.kind == "samples" or running_stream(rs.tests[row.test].meta.get("rfc", []), rs.tests[row.test].methodology)
        if running:
            # Counters read while traffic flows: frames queued at an interval's start arrive within it, so one
            # interval may receive more than it sent; the sum over the series may not (negative-loss names the rows).
            if rx is not None:
                key = (row.kind, row.test, *(str(row.keys.get(k)) for k in ("frame_size", "direction", "variant", "port")))
                series.setdefault(key, []).append(row)
        elif rx is not None and _received_beyond(rx, tx, dup):
            plus = f" plus {dup.figure.text} duplicates" if dup is not None else ""
            yield Finding("frame-counts", row, "rx", f"{rx.figure.text} frames received is more than the {tx.figure.text} frames sent{plus}")
            continue
        if lost is not None and _above(lost, tx):
            yield Finding("frame-counts", row, "lost", f"{lost.figure.text} frames lost is more than the {tx.figure.text} frames sent")
        elif lost is not None and rx is not None and not running:
            (tlo, thi), (rlo, rhi), (llo, lhi) = tx.canonical.interval(), rx.canonical.interval(), lost.canonical.interval()
            if llo > thi - rlo or lhi < tlo - rhi:
                yield Finding("frame-counts", row, "lost", f"{lost.figure.text} frames lost, but {tx.figure.text} sent − {rx.figure.text} received is {float(tx.canonical.value - rx.canonical.value):,.0f}")
    for rows in series.values():
        sent = sum(float(r.cells["tx"].canonical.value) for r in rows)
        received = sum(float(r.cells["rx"].canonical.value) for r in rows)
        duplicates = sum(float(r.cells["duplicate"].canonical.value) for r in rows if "duplicate" in r.cells)
        if received > sent + duplicates:
            last = rows[-1]
            yield Finding("frame-counts", last, "rx", f"the {len(rows)} intervals up to this row received {received:,.0f} frames, more than the {sent:,.0f} sent"
                          + (f" plus {duplicates:,.0f} duplicates" if duplicates else ""))
