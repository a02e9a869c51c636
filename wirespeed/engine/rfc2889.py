"""RFC 2889 LAN switch benchmarks: forwarding rate."""

from __future__ import annotations


def forwarding_rate(rx_frames: int, duration_s: float) -> float:
    """Frames forwarded per second: frames received over the trial duration (RFC 2889 §5.1)."""
    if duration_s <= 0:
        raise ValueError("duration must be positive")
    return rx_frames / duration_s

