"""Jumbo frames: frames above the standard maximum are accepted only when the test declares them.

The standard maximum is the 1518-byte Ethernet frame (FCS included; 1522 with one 802.1Q tag,
1526 with two), or on packet-over-SONET links the 1500-byte IP packet (PPP's default MRU, RFC 1661).
A test declares larger frames with `methodology.max_frame_bytes`, counted the same way: the
Ethernet frame with its FCS and VLAN tags, or the IP packet on POS. Sizes are compared after the
test's frame-size convention is applied (a T-Rex packet of 1514 bytes is a 1518-byte frame).
"""

from __future__ import annotations

from wirespeed.engine.linerate import ETHERNET_MAX_FRAME, VLAN_TAG_BYTES, frame_bytes

POS_DEFAULT_MRU = 1500


def standard_max(media: str, vlan_tags: int = 0) -> int:
    """The largest frame (Ethernet, with FCS and tags) or IP packet (POS) that needs no declaration."""
    if media == "pos":
        return POS_DEFAULT_MRU
    return ETHERNET_MAX_FRAME + VLAN_TAG_BYTES * vlan_tags


def oversize(size: float, convention: str, media: str, methodology: dict) -> str | None:
    """Why a size (in `convention`) is not accepted for a test, or None when it is."""
    tags = int(methodology.get("vlan_tags", 0))
    frame = frame_bytes(size, convention, tags)
    what = "IP packet" if media == "pos" else "frame"
    limit = standard_max(media, tags)
    declared = methodology.get("max_frame_bytes")
    shown = f"{size:g}-byte" + (f" ({frame:g}-byte {what})" if frame != size else f" {what}")
    if declared is None:
        if frame > limit:
            return f"{shown} is a jumbo frame above the standard {limit} bytes, but the test does not declare methodology.max_frame_bytes"
        return None
    if frame > declared:
        return f"{shown} is above the test's declared max_frame_bytes of {declared}"
    return None
