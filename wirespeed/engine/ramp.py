"""Ramp loadtests (T-Rex style): loss per sample, loss onset, highest lossless rate."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_THRESHOLD_PCT = 0.1


def running_stream(rfc: list[str], methodology: dict) -> bool:
    """Whether a test's rows count frames per interval of a stream that keeps running (a ramp's steps),
    not per closed trial: a frame sent at the end of one interval is received in the next, so sent −
    received of one interval is not a loss (frames lost are then what the device counted dropping)."""
    return methodology.get("search") == "ramp" or "loadtest-ramp" in (rfc or [])


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


def summarise(points: list[tuple], threshold_pct: float = DEFAULT_THRESHOLD_PCT) -> RampSummary:
    """From (t, tx fps, rx fps[, loss %]) samples in time order: loss onset = first sample above the threshold
    from which loss does not recover (trex-loadtest-viz resets the onset if loss falls back). A sample's loss is
    the one it states (frames the device counted dropping ÷ sent) when it has one, else from its two rates."""
    if not points:
        raise ValueError("a ramp needs samples")
    onset = None
    best = None
    for t, tx, rx, *stated in points:
        lost = stated[0] if stated and stated[0] is not None else loss_pct(tx, rx)
        lossy = lost > threshold_pct
        if lossy and onset is None:
            onset = (t, tx, rx)
        elif not lossy:
            onset = None
            best = rx if best is None else max(best, rx)
    return RampSummary(len(points), max(p[1] for p in points), max(p[2] for p in points), best,
                       onset[0] if onset else None, onset[1] if onset else None, onset[2] if onset else None, threshold_pct)


# The one declared definition of "the limit" of a ramp: what a headline, a comparison or a table calls
# the ramp's limit. The other readings a ramp page may show are named in READINGS, each with why it differs.
LIMIT_DEFINITION = ("the highest rate received without loss: the largest received rate of any one-second sample whose loss "
                    f"is at most the threshold ({DEFAULT_THRESHOLD_PCT:g} %), i.e. before loss sets in for good")


@dataclass(frozen=True)
class Reading:
    """One way of reading a ramp's limit: its value, and whether it is the declared limit."""

    key: str
    label: str
    fps: float | None
    t_s: float | None
    explanation: str
    declared: bool = False


def readings(rs: RampSummary) -> list[Reading]:
    """The declared limit first, then the other readings of the same ramp, each explained."""
    thr = f"{rs.threshold_pct:g} %"
    return [
        Reading("limit", "Highest rate without loss", rs.max_lossless_rx_fps, None,
                f"The declared limit: the highest received rate of a sample with at most {thr} loss.", True),
        Reading("onset", "Sent at loss onset", rs.onset_tx_fps, rs.onset_t_s,
                f"The rate offered in the first sample above {thr} loss after which loss never recovers; above the limit, "
                "because the step that overflows the device is the first one that loses."),
        Reading("peak_rx", "Peak received", rs.max_rx_fps, None,
                "The most the device forwarded in any second, with loss: its saturated forwarding rate, not a lossless rate."),
        Reading("peak_tx", "Peak sent", rs.max_tx_fps, None,
                "The most the generator sent in any second: the load offered, not what the device carried."),
    ]
