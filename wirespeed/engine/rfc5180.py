"""RFC 5180 IPv6 benchmarking specifics: the minimum frame that carries the test signature."""

from __future__ import annotations

ETHERNET_HEADER_AND_FCS = 18
IPV6_HEADER = 40
UDP_HEADER = 8


def minimum_ipv6_frame(signature_bytes: int = 20, udp: bool = True) -> int:
    """Smallest Ethernet frame (FCS included) carrying IPv6 (+UDP) and the instrument's signature."""
    return ETHERNET_HEADER_AND_FCS + IPV6_HEADER + (UDP_HEADER if udp else 0) + signature_bytes
