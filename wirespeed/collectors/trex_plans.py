"""The T-Rex collector's searching and loadtest plans: the [search], [latency] and [loadtest] tables.

    [search]                   # NDR/PDR searches (wirespeed.collectors.search) at each frame size
    frame_sizes = [64, 1518]   # Ethernet frames with FCS
    algorithm = "mlrsearch"    # or "rfc2544-binary"
    repeats = 3                # independent searches per frame size
    trial_duration_s = 10
    max_rate_pct = 100         # or max_rate_fps; the top of the search (default 100 % of line rate)
    min_rate_fps = 1000        # or min_rate_pct
    resolution = 0.005         # stop when the bounds are within 0.5 % ...
    resolution_fps = 100       # ... or 100 frames/s of each other
    max_trials = 30            # per search
    time_budget_s = 1800       # per search
    loss_ratios = [0.0, 0.005] # NDR and PDR (0.5 % loss)
    shortfall = 0.001          # a trial T-Rex sent slower than that tested the rate it sent (the generator's limit)

    [latency]                  # latency streams (flow stats with latency) at loads of the search's answer, as CSIT
    of = "pdr"                 # the loads are % of the mean "ndr" or "pdr" (the largest loss ratio)
    loads_pct = [10, 50, 90]   # 0: the latency stream alone
    rate_fps = 9000            # the latency stream's own rate, sent beside the load (CSIT: 9 kpps)
    duration_s = 10
    repeats = 3                # trials per load (default: the search's repeats)
    first_pg_id = 1            # packet group ids: one per latency trial, from this one

    [loadtest]                 # the ramp loadtest of IPng's trex-loadtest (seed 004)
    frame_size = 64
    warmup_fps = 1000          # warm-up at a low rate, not in the samples
    warmup_s = 30
    rampup_s = 120             # from 0 to the target, one step a second
    hold_s = 30                # at the target
    target_pct = 100           # of line rate (or target_fps)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from wirespeed.collectors.search.repeat import ALGORITHMS

MIN_FRAME, MAX_FRAME = 64, 9216
MAX_LATENCY_TRIALS = 200  # each keeps its counters and latency in a file; a result set holds at most 256 files
Bad = Callable[[str, str], None]


@dataclass(frozen=True)
class Rate:
    """A rate in frames/s, or in % of the port's line rate."""

    value: float
    unit: str  # "fps" | "pct"

    def fps(self, line_fps: float | None) -> float | None:
        return self.value if self.unit == "fps" else None if line_fps is None else self.value * line_fps / 100


@dataclass(frozen=True)
class SearchPlan:
    frame_sizes: tuple[int, ...]
    algorithm: str
    repeats: int
    trial_duration_s: float
    min_rate: Rate
    max_rate: Rate
    resolution: float
    resolution_fps: float
    max_trials: int
    time_budget_s: float
    loss_ratios: tuple[float, ...]
    shortfall: float


@dataclass(frozen=True)
class LatencyPlan:
    of: str  # "ndr" | "pdr"
    loads_pct: tuple[float, ...]
    rate_fps: float
    duration_s: float
    repeats: int
    first_pg_id: int


@dataclass(frozen=True)
class LoadtestPlan:
    frame_size: int
    warmup_fps: float
    warmup_s: int
    rampup_s: int
    hold_s: int
    target: Rate


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _fields(table: Any, name: str, spec: dict[str, tuple[Any, Callable[[Any], bool], str]], bad: Bad) -> dict[str, Any] | None:
    """Each field of `table` checked against spec (field -> (default, rule, what it must be)); None when one is wrong."""
    if not isinstance(table, dict):
        bad(name, "expected a table")
        return None
    ok, out = True, {}
    for key in table:
        if key not in spec:
            bad(f"{name}.{key}", f"unknown field (known: {', '.join(spec)})")
            ok = False
    for key, (default, rule, what) in spec.items():
        v = table.get(key, default)
        if v is None or not rule(v):
            bad(f"{name}.{key}", f"expected {what}")
            ok = False
        out[key] = v
    return out if ok else None


def _rate(table: dict, name: str, field: str, default: Rate | None, bad: Bad) -> Rate | None:
    pct, fps = table.get(f"{field}_pct"), table.get(f"{field}_fps")
    if pct is not None and fps is not None:
        bad(f"{name}.{field}_pct", f"give {field}_pct or {field}_fps, not both")
        return None
    if pct is not None:
        if not (_num(pct) and 0 < pct <= 100):
            bad(f"{name}.{field}_pct", "expected a share of the line rate in (0, 100] %")
            return None
        return Rate(float(pct), "pct")
    if fps is not None:
        if not (_num(fps) and fps >= 1):
            bad(f"{name}.{field}_fps", "expected a rate of at least 1 frame/s")
            return None
        return Rate(float(fps), "fps")
    return default


def _sizes(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and len(set(v)) == len(v) and all(_int(x) and MIN_FRAME <= x <= MAX_FRAME for x in v)


SIZES = f"a list of different Ethernet frame sizes from {MIN_FRAME} to {MAX_FRAME} bytes (FCS included)"


def search_plan(table: Any, bad: Bad) -> SearchPlan | None:
    table = dict(table) if isinstance(table, dict) else table
    rates = {k: table.pop(k) for k in list(table) if k.startswith(("min_rate_", "max_rate_"))} if isinstance(table, dict) else {}
    spec = {"frame_sizes": (None, _sizes, SIZES),
            "algorithm": ("mlrsearch", lambda v: v in ALGORITHMS, f"one of {', '.join(ALGORITHMS)}"),
            "repeats": (1, lambda v: _int(v) and 1 <= v <= 20, "1 to 20 searches per frame size"),
            "trial_duration_s": (None, lambda v: _num(v) and 0 < v <= 3600, "the trial duration in seconds (up to an hour)"),
            "resolution": (0.005, lambda v: _num(v) and 0 <= v < 1, "a relative width in [0, 1)"),
            "resolution_fps": (100, lambda v: _num(v) and v >= 1, "a width of at least 1 frame/s"),
            "max_trials": (30, lambda v: _int(v) and 1 <= v <= 1000, "1 to 1000 trials per search"),
            "time_budget_s": (3600, lambda v: _num(v) and v > 0, "seconds per search"),
            "loss_ratios": ([0.0, 0.005], lambda v: isinstance(v, list) and bool(v) and v == sorted(set(v)) and all(_num(r) and 0 <= r < 1 for r in v),
                            "increasing loss ratios in [0, 1), e.g. [0.0, 0.005] for NDR and PDR"),
            "shortfall": (0.001, lambda v: _num(v) and 0 < v < 1, "a share in (0, 1)")}
    f = _fields(table, "search", spec, bad)
    lo = _rate(rates, "search", "min_rate", Rate(1.0, "fps"), bad)
    hi = _rate(rates, "search", "max_rate", Rate(100.0, "pct"), bad)
    if f is None or lo is None or hi is None:
        return None
    return SearchPlan(tuple(f["frame_sizes"]), f["algorithm"], f["repeats"], float(f["trial_duration_s"]), lo, hi, float(f["resolution"]),
                      float(f["resolution_fps"]), f["max_trials"], float(f["time_budget_s"]), tuple(float(r) for r in f["loss_ratios"]),
                      float(f["shortfall"]))


def latency_plan(table: Any, search: SearchPlan | None, bad: Bad) -> LatencyPlan | None:
    spec = {"of": ("pdr", lambda v: v in ("ndr", "pdr"), "\"ndr\" or \"pdr\": what the loads are shares of"),
            "loads_pct": ([10, 50, 90], lambda v: isinstance(v, list) and bool(v) and len(set(v)) == len(v) and all(_num(x) and 0 <= x <= 100 for x in v),
                          "different loads in % of the NDR or PDR, 0 to 100"),
            "rate_fps": (9000, lambda v: _num(v) and 1 <= v <= 5e6, "the latency stream's rate, 1 to 5,000,000 frames/s (T-Rex: at most 5 Mpps of latency streams)"),
            "duration_s": (None, lambda v: _num(v) and 0 < v <= 3600, "the latency trial duration in seconds (up to an hour)"),
            "repeats": (search.repeats if search else 1, lambda v: _int(v) and 1 <= v <= 20, "1 to 20 trials per load"),
            "first_pg_id": (1, lambda v: _int(v) and 0 <= v < 2**31, "a packet group id (0 to 2^31 - 1)")}
    f = _fields(table, "latency", spec, bad)
    if f is None or search is None:
        return None
    if (n := len(search.frame_sizes) * len(f["loads_pct"]) * f["repeats"]) > MAX_LATENCY_TRIALS:
        bad("latency", f"{n} latency trials: more than {MAX_LATENCY_TRIALS} (each keeps its statistics in a file); fewer loads, sizes or repeats")
        return None
    return LatencyPlan(f["of"], tuple(float(x) for x in f["loads_pct"]), float(f["rate_fps"]), float(f["duration_s"]), f["repeats"], f["first_pg_id"])


def loadtest_plan(table: Any, bad: Bad) -> LoadtestPlan | None:
    table = dict(table) if isinstance(table, dict) else table
    target = {k: table.pop(k) for k in list(table) if k.startswith("target_")} if isinstance(table, dict) else {}
    spec = {"frame_size": (None, lambda v: _int(v) and MIN_FRAME <= v <= MAX_FRAME, f"an Ethernet frame size from {MIN_FRAME} to {MAX_FRAME} bytes"),
            "warmup_fps": (1000, lambda v: _num(v) and v >= 1, "the warm-up rate, at least 1 frame/s"),
            "warmup_s": (30, lambda v: _int(v) and 0 <= v <= 600, "0 to 600 whole seconds"),
            "rampup_s": (120, lambda v: _int(v) and 2 <= v <= 3600, "2 to 3600 whole seconds"),
            "hold_s": (30, lambda v: _int(v) and 1 <= v <= 3600, "1 to 3600 whole seconds")}
    f = _fields(table, "loadtest", spec, bad)
    hi = _rate(target, "loadtest", "target", Rate(100.0, "pct"), bad)
    if f is None or hi is None:
        return None
    return LoadtestPlan(f["frame_size"], float(f["warmup_fps"]), f["warmup_s"], f["rampup_s"], f["hold_s"], hi)
