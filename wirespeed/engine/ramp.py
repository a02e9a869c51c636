"""Ramp loadtests (T-Rex style): loss per sample, loss onset, highest lossless rate."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_THRESHOLD_PCT = 0.1


def loss_pct(tx: float, rx: float) -> float:
    """Loss of one sample in percent, clipped at 0 (rx can exceed tx when counters straddle a second)."""
    if tx <= 0:
        return 0.0
    return max((tx - rx) / tx * 100.0, 0.0)


@dataclass(frozen=True)
class RampSummary:
    """What a ramp shows: when loss set in and the best rate without it."""

    samples: int
    max_tx_fps: float
    max_rx_fps: float
    max_lossless_rx_fps: float | None
    onset_t_s: float | None
    onset_tx_fps: float | None
    onset_rx_fps: float | None
    threshold_pct: float


def summarise(points: list[tuple[float, float, float]], threshold_pct: float = DEFAULT_THRESHOLD_PCT) -> RampSummary:
    """From (t, tx fps, rx fps) samples in time order: loss onset = first sample above the threshold
    from which loss does not recover (trex-loadtest-viz resets the onset if loss falls back)."""
    if not points:
        raise ValueError("a ramp needs samples")
    onset = None
    best = None
    for t, tx, rx in points:
        lossy = loss_pct(tx, rx) > threshold_pct
        if lossy and onset is None:
            onset = (t, tx, rx)
        elif not lossy:
            onset = None
            best = rx if best is None else max(best, rx)
    return RampSummary(len(points), max(p[1] for p in points), max(p[2] for p in points), best,
                       onset[0] if onset else None, onset[1] if onset else None, onset[2] if onset else None, threshold_pct)
