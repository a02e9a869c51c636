"""Line-rate models: the most frames per second a link, or a set of links, can carry.

Ethernet: every frame costs its own bytes plus 20 bytes on the wire (7-byte preamble, 1-byte
start-of-frame delimiter, 12-byte inter-frame gap). Sizes follow RFC 2544: a "64-byte frame"
includes its 4-byte FCS. T-Rex counts its packets without the FCS, so a T-Rex packet of p bytes
is a frame of p + 4 bytes. Each 802.1Q tag adds 4 bytes to the frame.

Packet over SONET/SDH: the IP packet plus the PPP/HDLC framing (flag, address, control,
protocol, FCS) fills the SPE payload of an STS-Nc (OC-Nc / STM-N/3) concatenated signal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ETHERNET_OVERHEAD_BYTES = 20  # preamble 7 + SFD 1 + inter-frame gap 12
FCS_BYTES = 4
VLAN_TAG_BYTES = 4
ETHERNET_MIN_FRAME = 64
ETHERNET_MAX_FRAME = 1518

MIN_PORT_BPS = 1e6  # the slowest port speed accepted (1M)
MAX_PORT_BPS = 1.6e12  # the fastest (1.6 Tbit/s Ethernet, IEEE 802.3dj)
SONET_COLUMN_BPS = 9 * 8 * 8000  # one column of an STS frame: 9 bytes, 8000 frames/s


@dataclass(frozen=True)
class Link:
    """One physical port: its medium and bit rate."""

    media: str  # "ethernet" | "pos"
    bps: float  # nominal line bit rate
    payload_bps: float  # bits/s available to frames (Ethernet: = bps; POS: SPE payload)
    label: str


_SPEED = re.compile(r"^([0-9]+(?:\.[0-9]+)?)([MG])$")
_OC = re.compile(r"^OC-([0-9]+)c?$")
_STM = re.compile(r"^STM-([0-9]+)$")


def sonet_payload_bps(n: int) -> float:
    """Payload bit rate of an STS-Nc SPE: 87·N columns less 1 path-overhead and N/3 − 1 fixed-stuff columns."""
    if n == 1:
        return 86 * SONET_COLUMN_BPS
    if n % 3:
        raise ValueError(f"STS-{n}c is not a concatenated rate (N must be 1 or a multiple of 3)")
    return (87 * n - 1 - (n // 3 - 1)) * SONET_COLUMN_BPS


def parse_speed(speed: str) -> Link:
    """'10G', '100G', '400G', '100M', 'OC-12c', 'STM-4' → Link."""
    if m := _SPEED.match(speed):
        bps = float(m.group(1)) * (1e9 if m.group(2) == "G" else 1e6)
        if not MIN_PORT_BPS <= bps <= MAX_PORT_BPS:
            raise ValueError(f"port speed {speed[:24]!r} is outside 1M to 1600G (no Ethernet port runs at that rate)")
        return Link("ethernet", bps, bps, speed)
    if (m := _OC.match(speed)) or (m := _STM.match(speed)):
        n = int(m.group(1)) * (3 if speed.startswith("STM") else 1)
        return Link("pos", 51.84e6 * n, sonet_payload_bps(n), speed)
    raise ValueError(f"unknown port speed {speed[:24]!r} (use e.g. 10G, 100G, OC-12c, STM-4)")


def frame_bytes(size: float, convention: str = "ethernet-frame", vlan_tags: int = 0) -> float:
    """On-wire Ethernet frame length (with FCS) of a size counted by `convention`."""
    if convention == "trex-packet":
        size = size + FCS_BYTES
    elif convention not in ("ethernet-frame", "ip-packet"):
        raise ValueError(f"unknown frame size convention {convention!r}")
    return size + VLAN_TAG_BYTES * vlan_tags


def wire_bits(frame: float, link: Link, encapsulation_bytes: int = 0) -> float:
    """Bits one frame (or IP packet, on POS) occupies on the link, overhead included."""
    if link.media == "ethernet":
        return (frame + ETHERNET_OVERHEAD_BYTES) * 8
    return (frame + encapsulation_bytes) * 8


def port_fps(frame: float, link: Link, encapsulation_bytes: int = 0) -> float:
    """Maximum frames per second on one port in one direction."""
    return link.payload_bps / wire_bits(frame, link, encapsulation_bytes)


def streams(topology: str, ports: int, direction: str, receivers: int | None = None) -> int:
    """How many port-directions run at line rate at once, counted where traffic is received.

    full-mesh: every port sends and receives (ports). port-pairs / partial-mesh / chain:
    bidirectional = ports, unidirectional = half of them. multicast: every receiver gets the
    full rate (receivers).
    """
    if topology == "multicast":
        if not receivers:
            raise ValueError("a multicast test needs its number of receivers")
        return receivers
    if topology == "full-mesh" or direction == "bidirectional":
        return ports
    if ports % 2:
        raise ValueError(f"{ports} ports cannot form unidirectional pairs")
    return ports // 2


def line_rate_fps(frame: float, link: Link, n_streams: int, encapsulation_bytes: int = 0) -> float:
    """Aggregate line rate in frames/s for `n_streams` port-directions."""
    return port_fps(frame, link, encapsulation_bytes) * n_streams


def max_theoretical_fps(line_fps: float, cap_pps: float | None = None) -> float:
    """The lower of the line rate and the device's architectural forwarding cap."""
    return min(line_fps, cap_pps) if cap_pps else line_fps


def l1_bps(fps: float, frame: float, link: Link, encapsulation_bytes: int = 0) -> float:
    """Layer-1 bit rate of a frame rate: frame plus Ethernet overhead (or POS framing)."""
    return fps * wire_bits(frame, link, encapsulation_bytes)


def l2_bps(fps: float, frame: float) -> float:
    """Layer-2 bit rate: the frame bytes only (FCS included, preamble and gap not)."""
    return fps * frame * 8
