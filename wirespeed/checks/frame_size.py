"""Check: frame sizes are possible on the link."""

from __future__ import annotations

from wirespeed.checks import Finding
from wirespeed.engine.linerate import ETHERNET_MIN_FRAME
from wirespeed.engine.rfc5180 import minimum_ipv6_frame

MAX_FRAME = 16000


def check_frame_size(rs):
    """Ethernet frames are 64 to 16,000 bytes; IPv6 tests use at least the 86-byte RFC 5180 minimum with a 20-byte signature."""
    for row in rs.measurements() + rs.samples() + rs.histograms():
        size = row.keys.get("frame_size")
        test = rs.tests[row.test]
        if not isinstance(size, int) or test.link.media != "ethernet":
            continue
        frame = test.frame(size)
        if frame < ETHERNET_MIN_FRAME or frame > MAX_FRAME:
            yield Finding("frame-size", row, "frame_size", f"{frame:g}-byte Ethernet frame is outside {ETHERNET_MIN_FRAME}–{MAX_FRAME:,} bytes")
        elif test.meta.get("address_family") == "ipv6" and frame < minimum_ipv6_frame():
            yield Finding("frame-size", row, "frame_size", f"{frame:g}-byte frame is below the {minimum_ipv6_frame()}-byte IPv6 minimum with UDP and a 20-byte signature (RFC 5180)", "warning")
