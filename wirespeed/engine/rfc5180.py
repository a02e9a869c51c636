"""RFC 5180 IPv6 benchmarking specifics: minimum frame with test signature, jumbo frames."""

from __future__ import annotations

ETHERNET_HEADER_AND_FCS = 18
IPV6_HEADER = 40
UDP_HEADER = 8
JUMBO_SIZES = (4096, 8192, 9216)  # RFC 5180 §5.1.1 recommends jumbo sizes for the test


def minimum_ipv6_frame(signature_bytes: int = 20, udp: bool = True) -> int:
    """Smallest Ethernet frame (FCS included) carrying IPv6 (+UDP) and the instrument's signature."""
    return ETHERNET_HEADER_AND_FCS + IPV6_HEADER + (UDP_HEADER if udp else 0) + signature_bytes


def frame_sizes_valid(sizes: list[int], minimum: int, maximum: int = 9216) -> list[int]:
    """Sizes outside [minimum, maximum]."""
    return [s for s in sizes if not minimum <= s <= maximum]
