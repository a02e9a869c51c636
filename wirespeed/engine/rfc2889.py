"""RFC 2889 LAN switch benchmarks: forwarding rate."""

from __future__ import annotations


def forwarding_rate(rx_frames: int, duration_s: float) -> float:
    """Frames forwarded per second: frames received over the trial duration (RFC 2889 §5.1)."""
    if duration_s <= 0:
        raise ValueError("duration must be positive")
    return rx_frames / duration_s


def maximum_forwarding_rate(points: list[tuple[float, float]]) -> tuple[float, float]:
    """(offered load, forwarding rate) with the highest forwarding rate over the tested loads (MFR)."""
    if not points:
        raise ValueError("no measurements")
    return max(points, key=lambda p: p[1])
