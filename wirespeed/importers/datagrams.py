"""When a datagram count is a frame count: a UDP datagram is one Ethernet frame only when its payload
fits one standard 1500-byte IP packet (IPv4: 1500 − 20 − 8 = 1472 bytes; IPv6: 1500 − 40 − 8 = 1452).
A larger one is fragmented, so iperf3's and netperf's datagram counts are not frame counts then."""

from __future__ import annotations

MAX_PAYLOAD = {"ipv4": 1472, "ipv6": 1452}


def one_frame(payload: float | int | None, family: str | None = None) -> bool:
    """Whether every datagram of `payload` bytes is certainly one frame (unknown size or family: the
    stricter IPv6 bound for an unknown family, False for an unknown size)."""
    if payload is None:
        return False
    return payload <= MAX_PAYLOAD.get(family or "ipv6", MAX_PAYLOAD["ipv6"])
