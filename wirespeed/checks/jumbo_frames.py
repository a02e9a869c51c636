"""Check: frame sizes above the standard maximum are jumbo frames the test declares."""

from __future__ import annotations

from wirespeed.checks import Finding
from wirespeed.engine.jumbo import oversize


def check_jumbo_frames(rs):
    """A frame above 1518 bytes (1522 with a VLAN tag; a 1500-byte IP packet on POS) needs the test's methodology.max_frame_bytes."""
    for row in rs.measurements() + rs.samples() + rs.histograms():
        size = row.keys.get("frame_size")
        if not isinstance(size, int):
            continue
        test = rs.tests[row.test]
        if why := oversize(size, test.convention, test.link.media, test.methodology):
            yield Finding("jumbo-frames", row, "frame_size", f"test {test.id!r}: {why}")
