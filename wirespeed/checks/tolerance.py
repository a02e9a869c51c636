"""The one tolerance of the physics checks: how far a rate may differ from frames ÷ duration.

A rate and the frames and duration it comes from are compared as intervals: each printed figure
stands for the interval its rounding allows (wirespeed.engine.figures), so "1.0 s" already admits
0.95 to 1.05 s. On top of that, a rate may differ from frames ÷ duration by CLOCK_TOLERANCE of
itself: the clocks that time a trial and the counters that count its frames are not one clock
(a generator's crystal is specified to ±100 ppm, counters are read a little before or after the
trial's timer), so 1,000 ppm, ten times the worst crystal, is allowed and nothing more. A
difference beyond that is not clock error but a different quantity: a requested rate, a rate
over another interval, or a count of another set of frames.

A measurement that is known to differ more (counters known to skew, a nominal trial length the
instrument does not keep) is stated as an [[errata]] entry with `cause = "measurement"` naming
the check and saying why; the finding is then reported as acknowledged, never silently passed.
"""

from __future__ import annotations

CLOCK_TOLERANCE = 1e-3  # relative: 1,000 ppm


def widen(lo: float, hi: float, rel: float = CLOCK_TOLERANCE) -> tuple[float, float]:
    """An interval widened by `rel` of its magnitude on each side."""
    return lo - abs(lo) * rel, hi + abs(hi) * rel


def disagree(a: tuple[float, float], b: tuple[float, float], rel: float = CLOCK_TOLERANCE) -> bool:
    """Whether two intervals are apart by more than `rel` of their magnitude (clock error allowed)."""
    alo, ahi = widen(*a, rel)
    return alo > b[1] or ahi < b[0]
