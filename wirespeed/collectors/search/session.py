"""What every search shares: its settings, the trials it ran, and the limits that stop it.

Loads are whole frames per second (a search converges onto integers), between `min_rate_fps` and
`max_rate_fps`. A search stops when the interval between the highest load that met the loss ratio
(lower bound) and the lowest that did not (upper bound) is no wider than the resolution — the larger
of `resolution_fps` and `resolution` × the upper bound — or when it runs out of trials or time.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable

from wirespeed.collectors.trial import TrafficGenerator, TrialResult


class SearchError(Exception):
    """The search settings are unusable; the message says which one and why."""


@dataclass(frozen=True)
class SearchConfig:
    """Settings of one search at one frame size."""

    frame_bytes: int
    max_rate_fps: float
    min_rate_fps: float = 1.0
    trial_duration_s: float = 1.0
    resolution: float = 0.005  # relative width goal (of the upper bound)
    resolution_fps: float = 1.0  # absolute width goal
    max_trials: int = 30
    time_budget_s: float = 600.0
    loss_ratios: tuple[float, ...] = (0.0, 0.005)  # NDR, PDR
    shortfall: float = 0.001  # a trial that sent slower than (1 - shortfall) x its load could not offer that load: it tested the rate it sent

    def __post_init__(self) -> None:
        checks = [(self.frame_bytes >= 64, "frame_bytes must be at least 64"),
                  (1 <= self.min_rate_fps < self.max_rate_fps, "need 1 <= min_rate_fps < max_rate_fps"),
                  (self.trial_duration_s > 0, "trial_duration_s must be positive"),
                  (0 <= self.resolution < 1 and self.resolution_fps >= 1, "resolution must be in [0, 1) and resolution_fps at least 1"),
                  (self.max_trials >= 1 and self.time_budget_s > 0, "max_trials and time_budget_s must be positive"),
                  (0 < self.shortfall < 1, "shortfall must lie in (0, 1)"),
                  (bool(self.loss_ratios) and all(0 <= r < 1 for r in self.loss_ratios), "loss_ratios must lie in [0, 1)")]
        for ok, message in checks:
            if not ok:
                raise SearchError(message)


@dataclass(frozen=True)
class Trial:
    """One trial of a search: its load, its result, and when it ran (seconds from the search start)."""

    number: int
    load_fps: int
    result: TrialResult
    started_s: float


@dataclass(frozen=True)
class Bound:
    """The outcome of a search for one loss ratio."""

    loss_ratio: float
    lower_fps: int | None  # highest load that met the loss ratio (None: even the minimum did not)
    upper_fps: int | None  # lowest load that did not (None: the maximum met it)
    converged: bool
    reason: str
    generator_limited: bool = False  # the upper bound is a load the generator could not offer (the lower bound then bounds the device from below only)

    @property
    def rate_fps(self) -> int:
        """The search's answer: the lower bound, 0 when no load met the ratio."""
        return self.lower_fps or 0


@dataclass(frozen=True)
class SearchResult:
    """Bounds per loss ratio (in the order of the settings) and every trial the search ran."""

    config: SearchConfig
    bounds: tuple[Bound, ...]
    trials: tuple[Trial, ...]
    algorithm: str


Listener = Callable[["Session", Trial], None]


@dataclass
class Session:
    """Runs the trials of one search against a generator, within the trial and time limits."""

    generator: TrafficGenerator
    config: SearchConfig
    on_trial: Listener | None = None
    clock: Callable[[], float] = time.monotonic
    trials: list[Trial] = field(default_factory=list)
    bounds: dict[float, list[int | None]] = field(default_factory=dict)  # ratio -> [lower, upper]
    short_loads: set[int] = field(default_factory=set)  # loads the generator could not offer
    _start: float = 0.0

    def __post_init__(self) -> None:
        self._start = self.clock()
        self.bounds = {r: [None, None] for r in self.config.loss_ratios}

    def exhausted(self) -> str | None:
        """Why no further trial may run, or None."""
        if len(self.trials) >= self.config.max_trials:
            return f"stopped after the maximum of {self.config.max_trials} trials"
        if self.clock() - self._start + self.config.trial_duration_s > self.config.time_budget_s:
            return f"stopped by the time budget of {self.config.time_budget_s:g} s"
        return None

    def measure(self, load_fps: float) -> TrialResult:
        """Run one trial at `load_fps` (rounded to whole frames/s, clamped to the range) and update every ratio's bounds."""
        load = int(min(max(round(load_fps), math.ceil(self.config.min_rate_fps)), math.floor(self.config.max_rate_fps)))
        started = self.clock() - self._start
        result = self.generator.trial(self.config.frame_bytes, float(load), self.config.trial_duration_s)
        short = result.tx_rate_fps < (1 - self.config.shortfall) * load
        # a trial the generator could not run at its load ran at the rate it achieved: that rate is what it tested
        # (a lower bound when nothing was lost); the load asked for is a limit of the generator, not of the device
        tested = self.tested(load, result)
        if short:
            self.short_loads.add(load)
        for ratio, b in self.bounds.items():
            if _passes(result, ratio):
                if b[1] is None or tested < b[1]:
                    b[0] = tested if b[0] is None else max(b[0], tested)
                if short:
                    b[1] = load if b[1] is None else min(b[1], load)
            else:
                b[1] = tested if b[1] is None else min(b[1], tested)
                if b[0] is not None and b[0] >= b[1]:
                    b[0] = None  # a lower bound is only one below the upper bound; a later trial may restore it
                    passed = [r for t in self.trials if (r := self.tested(t.load_fps, t.result)) < b[1] and _passes(t.result, ratio)]
                    b[0] = max(passed) if passed else None
        trial = Trial(len(self.trials) + 1, load, result, round(started, 3))
        self.trials.append(trial)
        if self.on_trial:
            self.on_trial(self, trial)
        return result

    def tested(self, load: int, result: TrialResult) -> int:
        """The rate a trial tested: its load, or the slower rate the generator achieved when it fell short of the load
        (whole frames/s, rounded down)."""
        return min(load, int(result.tx_rate_fps)) if result.tx_rate_fps < (1 - self.config.shortfall) * load else load

    def width_goal(self, upper: int) -> float:
        return max(self.config.resolution_fps, self.config.resolution * upper)

    def done(self, ratio: float) -> bool:
        """This ratio's interval is narrow enough (or pinned at an end of the range)."""
        lower, upper = self.bounds[ratio]
        if upper is None:
            return lower is not None and lower >= math.floor(self.config.max_rate_fps)
        if lower is None:
            return upper <= math.ceil(self.config.min_rate_fps)
        return upper - lower <= self.width_goal(upper)

    def result(self, algorithm: str, stop_reason: str | None) -> SearchResult:
        bounds = tuple(Bound(r, b[0], b[1], self.done(r), "converged" if self.done(r) else (stop_reason or "not converged"),
                             b[1] in self.short_loads) for r, b in self.bounds.items())
        return SearchResult(self.config, bounds, tuple(self.trials), algorithm)


def _passes(result: TrialResult, ratio: float) -> bool:
    return result.tx_frames > 0 and result.lost_frames <= ratio * result.tx_frames
