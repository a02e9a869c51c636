"""Repeated searches and latency trials: N independent runs per point, kept one by one and summarised.

A point is a frame size: the search runs `repeats` times from scratch (RFC 2544's trials), giving N
NDRs and N PDRs; their mean, sample standard deviation, minimum and maximum are what a page shows as
the value and its error bar. Latency trials then run at fractions (10, 50, 90 %) of the mean NDR, N
times each.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Callable

from wirespeed.collectors.search.mlrsearch import mlr_search
from wirespeed.collectors.search.rfc2544 import binary_search
from wirespeed.collectors.search.session import SearchConfig, SearchResult, Listener
from wirespeed.collectors.trial import TrafficGenerator, TrialResult

ALGORITHMS: dict[str, Callable[..., SearchResult]] = {"mlrsearch": mlr_search, "rfc2544-binary": binary_search}
LATENCY_FRACTIONS = (0.1, 0.5, 0.9)


@dataclass(frozen=True)
class Spread:
    """Mean, sample standard deviation (0 for one value), minimum and maximum of repeated values."""

    mean: float
    stdev: float
    min: float
    max: float
    n: int

    @classmethod
    def of(cls, values: list[float]) -> "Spread":
        if not values:
            raise ValueError("no values to summarise")
        return cls(statistics.fmean(values), statistics.stdev(values) if len(values) > 1 else 0.0, min(values), max(values), len(values))


@dataclass(frozen=True)
class PointResult:
    """Every search and latency trial at one frame size, with the spread of the NDR/PDR lower bounds."""

    frame_bytes: int
    searches: tuple[SearchResult, ...]
    rates: dict[float, Spread]  # loss ratio -> spread of the lower bounds over the searches
    latency: dict[float, tuple[TrialResult, ...]]  # fraction of the mean NDR -> trials


def search_point(generator: TrafficGenerator, config: SearchConfig, repeats: int = 1, algorithm: str = "mlrsearch",
                 latency_fractions: tuple[float, ...] = LATENCY_FRACTIONS, latency_duration_s: float | None = None,
                 on_trial: Listener | None = None, latency_generator: TrafficGenerator | None = None,
                 latency_of: float | None = None, latency_repeats: int | None = None, clock: Callable[[], float] | None = None) -> PointResult:
    """Run `repeats` independent searches, then `latency_repeats` (default `repeats`) latency trials at each
    fraction of the mean answer for the loss ratio `latency_of` (default the first: the NDR).

    latency_generator (default: the same generator) runs the latency trials, e.g. one that captures, or
    one that adds a latency stream (which may then run alone: fraction 0). `clock` times the searches' budget."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown search {algorithm!r} (known: {', '.join(ALGORITHMS)})")
    if repeats < 1:
        raise ValueError("repeats must be at least 1")
    timing = {"clock": clock} if clock is not None else {}
    searches = tuple(ALGORITHMS[algorithm](generator, config, on_trial, **timing) for _ in range(repeats))
    rates = {ratio: Spread.of([float(s.bounds[i].rate_fps) for s in searches]) for i, ratio in enumerate(config.loss_ratios)}
    basis = rates[config.loss_ratios[0] if latency_of is None else latency_of].mean
    latency: dict[float, tuple[TrialResult, ...]] = {}
    lat_gen = latency_generator or generator
    for fraction in latency_fractions:
        load = round(basis * fraction)
        if load >= 1 or fraction == 0:
            latency[fraction] = tuple(lat_gen.trial(config.frame_bytes, float(load), latency_duration_s or config.trial_duration_s)
                                      for _ in range(latency_repeats or repeats))
    return PointResult(config.frame_bytes, searches, rates, latency)
