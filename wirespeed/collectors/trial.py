"""What a traffic generator offers the search drivers: one trial at a frame size, rate and duration.

Any object with `trial(frame_bytes, rate_fps, duration_s) -> TrialResult` is a TrafficGenerator
(the namespace trafgen generator here, a T-Rex client, a simulated device in the tests). Frame sizes
are Ethernet frames with the FCS (RFC 2544: 64 bytes is the smallest); rates are frames per second
offered on the generator's transmit port.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable


@dataclass(frozen=True)
class TrialResult:
    """The counts of one trial; latency (ns) only when the generator measured it."""

    tx_frames: int
    rx_frames: int
    duration_s: float
    frame_bytes: int = 0
    rate_fps: float = 0.0  # the rate the trial was asked to offer (intended load)
    latency_min_ns: float | None = None
    latency_avg_ns: float | None = None
    latency_max_ns: float | None = None
    latency_percentiles_ns: dict[str, float] = field(default_factory=dict)  # e.g. {"latency_p50": ..., "latency_p99": ...}
    notes: str = ""
    jitter_ns: float | None = None  # as the instrument reports it (T-Rex: its running jitter estimate)
    histogram_us: tuple[tuple[float, float, int], ...] = ()  # latency buckets: (low, high, frames), low inclusive

    def __post_init__(self) -> None:
        if self.tx_frames < 0 or self.rx_frames < 0 or self.duration_s < 0:
            raise ValueError(f"a trial cannot have negative counts or duration: {self}")

    @property
    def lost_frames(self) -> int:
        """Frames sent and not received (0 when the device duplicated frames)."""
        return max(0, self.tx_frames - self.rx_frames)

    @property
    def loss_ratio(self) -> float:
        """Lost frames over sent frames; a trial that sent nothing counts as all lost."""
        return self.lost_frames / self.tx_frames if self.tx_frames else 1.0

    @property
    def tx_rate_fps(self) -> float:
        """Frames sent per second of the trial: below rate_fps when the generator could not keep up."""
        return self.tx_frames / self.duration_s if self.duration_s else 0.0

    @property
    def rx_rate_fps(self) -> float:
        """Frames received per second of the trial."""
        return self.rx_frames / self.duration_s if self.duration_s else 0.0


@runtime_checkable
class TrafficGenerator(Protocol):
    """Offers frames of one size at one rate for a time and counts what came back."""

    def trial(self, frame_bytes: int, rate_fps: float, duration_s: float) -> TrialResult:
        """Run one trial and return its counts (and latency when measured)."""
        ...
