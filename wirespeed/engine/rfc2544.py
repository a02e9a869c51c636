"""RFC 2544 benchmarks from trials: throughput, frame loss rate, latency at throughput, back-to-back."""

from __future__ import annotations

from dataclasses import dataclass
from statistics import mean

# A methodology's rate searches (result.toml's `search`): a test so run repeats searches, each ending in one throughput
# (RFC 2544 §26.1), where fixed-rate, single-rate and ramp tests repeat trials. Said once here for every reader.
RATE_SEARCHES = frozenset({"binary", "mlrsearch", "step"})


def searched(methodology: dict) -> bool:
    """Whether a test's throughput is the answer of a rate search (one per repeat), not of a trial at a set rate."""
    return methodology.get("search") in RATE_SEARCHES


@dataclass(frozen=True)
class Trial:
    """One trial at one offered rate."""

    offered_fps: float
    tx_frames: int
    rx_frames: int
    trial: int = 1
    duration_s: float | None = None


def frame_loss_rate(tx_frames: int, rx_frames: int) -> float:
    """RFC 2544 §26.3: ((input count − output count) × 100) / input count, in percent."""
    if tx_frames <= 0:
        raise ValueError("frame loss rate needs frames sent")
    return (tx_frames - rx_frames) * 100.0 / tx_frames


def throughput_of_trial(trials: list[Trial], loss_tolerance_pct: float = 0.0) -> float | None:
    """Highest offered rate at which loss stayed within tolerance (0: no frame lost).

    None when every rate lost frames. A rate counts only if no trial at that same rate (in
    this trial run) lost more than the tolerance.
    """
    worst: dict[float, float] = {}
    for t in trials:
        loss = frame_loss_rate(t.tx_frames, t.rx_frames)
        worst[t.offered_fps] = max(worst.get(t.offered_fps, 0.0), loss)
    ok = [rate for rate, loss in worst.items() if loss <= loss_tolerance_pct]
    return max(ok) if ok else None


@dataclass(frozen=True)
class Throughput:
    """RFC 2544 throughput over several trials: the mean, and the range."""

    fps: float
    min_fps: float
    max_fps: float
    trials: int


def throughput(trials: list[Trial], loss_tolerance_pct: float = 0.0) -> Throughput | None:
    """Throughput per trial number, then averaged (RFC 2544 §24 reports the trials' mean)."""
    by_trial: dict[int, list[Trial]] = {}
    for t in trials:
        by_trial.setdefault(t.trial, []).append(t)
    results = [throughput_of_trial(ts, loss_tolerance_pct) for _, ts in sorted(by_trial.items())]
    if not results or any(r is None for r in results):
        return None
    vals = [r for r in results if r is not None]
    return Throughput(mean(vals), min(vals), max(vals), len(vals))


def back_to_back(bursts: list[tuple[int, int]]) -> int | None:
    """Longest burst (frames sent) forwarded with no loss, from (burst length, frames received) pairs."""
    ok = [n for n, rx in bursts if rx >= n]
    return max(ok) if ok else None


def latency_at_throughput(latencies: dict[float, float], throughput_fps: float) -> float | None:
    """RFC 2544 §26.2: latency is measured at the throughput rate; pick the measurement taken there."""
    for rate, lat in latencies.items():
        if abs(rate - throughput_fps) <= 1e-9 * max(rate, 1.0):
            return lat
    return None
