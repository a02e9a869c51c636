"""Failover time derived from frame loss: each lost frame is one inter-frame interval of outage."""

from __future__ import annotations


def failover_time_s(lost_frames: int, offered_fps_per_stream: float) -> float:
    """Outage in seconds: frames lost on a stream ÷ that stream's offered rate."""
    if offered_fps_per_stream <= 0:
        raise ValueError("offered rate must be positive")
    if lost_frames < 0:
        raise ValueError("lost frames cannot be negative")
    return lost_frames / offered_fps_per_stream


def lost_frames_for(failover_s: float, offered_fps_per_stream: float) -> float:
    """Frames a stream loses during an outage of `failover_s` seconds."""
    return failover_s * offered_fps_per_stream


def improvement(before_s: float, after_s: float) -> float:
    """How many times faster the recovery became."""
    return before_s / after_s
