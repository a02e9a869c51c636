"""A simulated device with a known loss curve, for the search drivers' tests."""

from __future__ import annotations

from dataclasses import dataclass, field

from wirespeed.collectors.trial import TrialResult


@dataclass
class TailDropDevice:
    """Forwards at most `capacity_fps` frames/s and drops the rest: loss(R) = max(0, R - C) / R, exactly.

    With 1-second trials and whole loads the counts are integers: tx = R, rx = min(R, C)."""

    capacity_fps: int
    calls: list[float] = field(default_factory=list)

    def trial(self, frame_bytes: int, rate_fps: float, duration_s: float) -> TrialResult:
        self.calls.append(rate_fps)
        tx = round(rate_fps * duration_s)
        rx = min(tx, round(self.capacity_fps * duration_s))
        return TrialResult(tx, rx, duration_s, frame_bytes, rate_fps, latency_min_ns=1000.0, latency_avg_ns=1500.0, latency_max_ns=3000.0)


def highest_passing(capacity: int, ratio: float, top: int) -> int:
    """The exact answer by brute force: the highest whole load whose loss meets the ratio."""
    return max(r for r in range(1, top + 1) if max(0, r - capacity) <= ratio * r)
