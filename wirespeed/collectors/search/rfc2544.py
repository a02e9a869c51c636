"""RFC 2544 section 26.1 throughput: a binary search for the highest rate that meets one loss ratio.

The first trial is at the maximum rate; when it loses frames the interval [minimum, maximum] is
halved until it is no wider than the resolution. RFC 2544 asks for zero loss; other ratios give the
same search for a partial drop rate. Each ratio is searched on its own (compare mlrsearch.py).
"""

from __future__ import annotations

import math
import time
from typing import Callable

from wirespeed.collectors.search.session import Bound, SearchConfig, SearchResult, Session, Listener
from wirespeed.collectors.trial import TrafficGenerator


def binary_search(generator: TrafficGenerator, config: SearchConfig, on_trial: Listener | None = None,
                  clock: Callable[[], float] = time.monotonic) -> SearchResult:
    """Search each of config.loss_ratios with its own binary search; trials of one do not inform another. `clock` times the budget."""
    bounds, trials, reason, start = [], [], None, clock()
    for ratio in config.loss_ratios:
        left_s = config.time_budget_s - (clock() - start)
        if left_s < config.trial_duration_s:
            bounds.append(Bound(ratio, None, None, False, f"stopped by the time budget of {config.time_budget_s:g} s"))
            continue
        one = SearchConfig(**{**config.__dict__, "loss_ratios": (ratio,), "time_budget_s": left_s,
                              "max_trials": config.max_trials - len(trials)})
        session = Session(generator, one, on_trial, clock)
        reason = _bisect(session, ratio) or reason
        res = session.result("rfc2544-binary", reason)
        bounds += res.bounds
        trials += res.trials
        if len(trials) >= config.max_trials:
            bounds += [Bound(r, None, None, False, f"stopped after the maximum of {config.max_trials} trials")
                       for r in config.loss_ratios[len(bounds):]]
            break
    return SearchResult(config, tuple(bounds), tuple(trials), "rfc2544-binary")


def _bisect(s: Session, ratio: float) -> str | None:
    lo_edge, hi_edge = math.ceil(s.config.min_rate_fps), math.floor(s.config.max_rate_fps)
    if reason := s.exhausted():
        return reason
    s.measure(hi_edge)
    while not s.done(ratio):
        if reason := s.exhausted():
            return reason
        lower, upper = s.bounds[ratio]
        below = lower if lower is not None else lo_edge
        if lower is None and upper - below <= s.width_goal(upper):
            s.measure(lo_edge)  # the interval closed on the minimum without a trial there
            continue
        mid = (below + upper) // 2
        if mid <= below:
            mid = below if lower is None else below + 1
        if mid >= upper:
            return None
        s.measure(mid)
    return None
