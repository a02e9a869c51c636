"""MLRsearch-style search (IETF draft "Multiple Loss Ratio Search"): NDR and PDR from one run of trials.

Every trial updates the bounds of every loss ratio (a trial at 0.3 % loss is an upper bound for the
NDR and a lower bound for a 0.5 % PDR), so the PDR search mostly reuses the NDR's trials. The first
trial is at the maximum load; the next at the rate the device forwarded then (its receive rate), the
usual first estimate. A ratio with only an upper bound is searched downwards with a step that doubles
(external search), with only a lower bound upwards likewise; with both, the interval is halved.
Ratios are served from the smallest (NDR) on.
"""

from __future__ import annotations

import math
import time
from typing import Callable

from wirespeed.collectors.search.session import SearchConfig, SearchResult, Session, Listener
from wirespeed.collectors.trial import TrafficGenerator


def mlr_search(generator: TrafficGenerator, config: SearchConfig, on_trial: Listener | None = None,
               clock: Callable[[], float] = time.monotonic) -> SearchResult:
    """NDR and PDR (config.loss_ratios) from one sequence of shared trials; `clock` times the budget."""
    s = Session(generator, config, on_trial, clock)
    lo_edge, hi_edge = math.ceil(config.min_rate_fps), math.floor(config.max_rate_fps)
    reason = s.exhausted()
    if reason is None:
        first = s.measure(hi_edge)
        step = {r: 2 * s.width_goal(hi_edge) for r in config.loss_ratios}
        estimate = first.rx_rate_fps * (1 - max(config.loss_ratios)) if first.duration_s else 0
        for ratio in config.loss_ratios:
            while not s.done(ratio):
                if reason := s.exhausted():
                    break
                lower, upper = s.bounds[ratio]
                if lower is None:  # external search downwards
                    load = estimate if lo_edge <= estimate < upper else upper - step[ratio]
                    estimate = 0
                    step[ratio] *= 2
                    load = max(lo_edge, min(load, upper - 1))
                elif upper is None:  # external search upwards
                    load = min(hi_edge, lower + step[ratio])
                    step[ratio] *= 2
                else:
                    load = (lower + upper) // 2
                    if load <= lower:
                        break
                s.measure(load)
            if reason:
                break
    return s.result("mlrsearch", reason)
