"""Trending: where a series of result sets changed, by FD.io CSIT's jumpavg, and what it could not see.

A series is one figure (a device's test, frame size, load, direction, variant and metric) across result
sets in order (engine/versions.py). Each set is a point with every trial it measured; jumpavg's
`classify` takes each point's trials as one indivisible run, so group boundaries fall only between
sets while the variation between trials counts (CSIT's trending methodology: "sample should be the
result of single trial measurement, with group boundaries set only at test run granularity").

jumpavg splits a series into groups of normally distributed trials by minimum description length: a
boundary is kept where describing the two sides apart takes fewer bits than describing them as one.
Where the test bed changed (a different instrument, port speed, ports, topology or declared test bed)
the series is cut before classifying, so no step across that change is ever called a regression.

For each boundary jumpavg found, the bits it saves (the description with the two groups merged, minus
the description as found) give its confidence: under the code lengths, the split is 2^bits times as
probable as no split, so confidence = 2^bits / (1 + 2^bits). The smallest change a series could have
detected is where that saving breaks even, for groups of the series' sizes whose trials vary as the
series' trials do (pooled within its groups): a change of that size is found about half the time,
a smaller one less often.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from jumpavg import AvgStdevStats, BitCountingGroupList, classify

SBPS = 12.0
"""jumpavg's default resolution: the largest trial is 2^13 - 1 units (CSIT's setting, about 0.5 % precision
near the maximum, shared with classify's own default)."""

FEW_TRIALS = 10
"""A change with fewer trials than this on either side is stated with the smallest change it could have shown."""


@dataclass(frozen=True)
class Point:
    """One result set of a series: its trials (canonical units) and what its test bed was, as
    (aspect, value) pairs; any aspect that differs from the previous point's forces a boundary."""

    key: str
    trials: tuple[float, ...]
    testbed: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Group:
    """Consecutive points jumpavg describes as one normal population: first and last point (inclusive),
    trials, their mean and (population) standard deviation, and the test-bed segment it lies in."""

    first: int
    last: int
    trials: int
    avg: float
    stdev: float
    segment: int


@dataclass(frozen=True)
class Change:
    """A boundary between two groups: at the first point of the later group. kind is "regression" or
    "progression" (found by jumpavg; which one follows the metric's better direction) or "testbed" (forced).
    relative = after/before - 1. bits and confidence: see the module; smallest: the smallest relative change
    that groups of these sizes with the series' variation could have shown (None: none could)."""

    at: int
    kind: str
    before: Group
    after: Group
    relative: float
    bits: float | None = None
    confidence: float | None = None
    smallest: float | None = None
    testbed: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True)
class Detectable:
    """What the series could not have detected: its trial-to-trial variation (relative, pooled within
    groups), and the smallest relative change (in its worse direction) jumpavg would have found in the
    newest point alone, and held over the second half of the last test-bed segment. None: too few points."""

    noise: float
    newest: float | None
    sustained: float | None


@dataclass(frozen=True)
class Trend:
    points: tuple[Point, ...]
    groups: tuple[Group, ...]
    changes: tuple[Change, ...]
    detectable: Detectable


def segments(points: Sequence[Point]) -> list[tuple[int, int]]:
    """(first, last) point indices of each run of points on one test bed."""
    out: list[tuple[int, int]] = []
    for i, p in enumerate(points):
        if i == 0 or p.testbed != points[i - 1].testbed:
            out.append((i, i))
        else:
            out[-1] = (out[-1][0], i)
    return out


def _runs(points: Sequence[Point]) -> list[AvgStdevStats]:
    return [AvgStdevStats.for_runs(list(p.trials)) for p in points]


def _bits(groups: list[list[AvgStdevStats]], max_value: float, unit: float) -> float:
    """jumpavg's description length of runs partitioned into groups (each group's runs in order)."""
    gl = BitCountingGroupList(max_value=max_value, unit=unit)
    for runs in groups:
        gl.append_group_of_runs(list(runs))
    return gl.bits


def break_even(n_before: int, n_after: int, noise: float, worse: int, max_ratio: float = 10.0) -> float | None:
    """The smallest relative change (sign: worse, -1 a fall, +1 a rise) jumpavg splits off between a group of
    n_before trials and one of n_after trials whose trials vary by `noise` (relative stdev), for a typical
    draw (each group's stdev equal to noise); None when no change up to max_ratio (or a fall to 0) would be."""
    if n_before < 1 or n_after < 1:
        return None

    def saves(d: float) -> float:
        a = AvgStdevStats(size=n_before, avg=1.0, stdev=noise)
        b = AvgStdevStats(size=n_after, avg=1.0 + worse * d, stdev=noise * (1.0 + worse * d))
        top = max(1.0, 1.0 + worse * d) * (1.0 + 2.0 * noise)  # the largest trial of a typical draw
        unit = top / (2.0 ** (SBPS + 1.0) - 1.0)
        return _bits([[AvgStdevStats.for_runs([a, b])]], top, unit) - _bits([[a], [b]], top, unit)

    hi = 1.0 - 1e-9 if worse < 0 else max_ratio - 1.0
    if saves(hi) <= 0:
        return None
    lo = 0.0
    for _ in range(40):  # bisection to well below any printed digit (2^-40)
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if saves(mid) > 0 else (mid, hi)
    return hi


def _groups(points: Sequence[Point], first: int, segment: int) -> tuple[list[Group], float, float, list[list[AvgStdevStats]]]:
    """jumpavg's groups of one segment (points[first:] of the series, all on one test bed)."""
    found = classify([list(p.trials) for p in points])
    out, runs, i = [], [], first
    for g in found:
        n = len(g.run_list)
        if n < 1:
            continue
        out.append(Group(i, i + n - 1, int(g.stats.size), float(g.stats.avg), float(g.stats.stdev), segment))
        runs.append(list(g.run_list))
        i += n
    return out, float(found.max_value), float(found.unit), runs


def noise_of(groups: Sequence[Group]) -> float:
    """Relative trial-to-trial variation pooled within groups: sqrt(sum n (stdev/avg)^2 / sum n)."""
    weighted = [(g.trials, (g.stdev / g.avg) ** 2) for g in groups if g.avg > 0]
    n = sum(w for w, _ in weighted)
    return math.sqrt(sum(w * v for w, v in weighted) / n) if n else 0.0


def analyse(points: Sequence[Point], better: str = "higher") -> Trend:
    """The groups, changes and detection limits of a series (points in order; better: "higher" or "lower")."""
    if better not in ("higher", "lower"):
        raise ValueError(f"better must be 'higher' or 'lower', not {better!r}")
    if any(not p.trials or any(not math.isfinite(t) or t < 0 for t in p.trials) for p in points):
        raise ValueError("every point needs at least one trial, each a finite value of at least 0")
    groups: list[Group] = []
    changes: list[Change] = []
    for s, (first, last) in enumerate(segments(points)):
        seg = points[first:last + 1]
        if max(t for p in seg for t in p.trials) <= 0:  # all zero: one group, nothing jumpavg could weigh
            n = sum(len(p.trials) for p in seg)
            found, max_value, unit, runs = [Group(first, last, n, 0.0, 0.0, s)], 1.0, 1.0, [_runs(seg)]
        else:
            found, max_value, unit, runs = _groups(seg, first, s)
        if groups:
            before, after = groups[-1], found[0]
            old, new = dict(points[first - 1].testbed), dict(points[first].testbed)
            what = tuple((k, old.get(k, ""), new.get(k, "")) for k in dict.fromkeys([*old, *new]) if old.get(k) != new.get(k))
            changes.append(Change(first, "testbed", before, after, _relative(before, after), testbed=what))
        total = _bits(runs, max_value, unit)
        for k in range(1, len(found)):
            before, after = found[k - 1], found[k]
            merged = runs[:k - 1] + [runs[k - 1] + runs[k]] + runs[k + 1:]
            saved = _bits(merged, max_value, unit) - total
            up = after.avg > before.avg
            kind = "progression" if up == (better == "higher") else "regression"
            changes.append(Change(after.first, kind, before, after, _relative(before, after), saved, _confidence(saved)))
        groups += found
    noise = noise_of(groups)
    worse = -1 if better == "higher" else 1
    changes = [c if c.kind == "testbed" else _with_smallest(c, noise) for c in changes]
    return Trend(tuple(points), tuple(groups), tuple(changes), _detectable(points, groups, noise, worse))


def _relative(before: Group, after: Group) -> float:
    return after.avg / before.avg - 1.0 if before.avg else math.inf if after.avg else 0.0


def _confidence(bits: float) -> float:
    """2^bits / (1 + 2^bits), computed without overflow."""
    return 1.0 / (1.0 + 2.0 ** -bits) if bits > -1000 else 0.0


def _with_smallest(c: Change, noise: float) -> Change:
    side = 1 if c.relative >= 0 else -1  # the smallest change in the direction this one went
    return Change(c.at, c.kind, c.before, c.after, c.relative, c.bits, c.confidence, break_even(c.before.trials, c.after.trials, noise, side))


def _detectable(points: Sequence[Point], groups: Sequence[Group], noise: float, worse: int) -> Detectable:
    if not points:
        return Detectable(noise, None, None)
    first, last = segments(points)[-1]
    newest = None
    if last > first:
        home = next(g for g in groups if g.first <= last - 1 <= g.last)  # the group the newest point would leave
        n_before = sum(len(points[i].trials) for i in range(max(home.first, first), last))
        newest = break_even(n_before, len(points[last].trials), noise, worse)
    sustained = None
    if last - first + 1 >= 2:
        mid = first + (last - first + 1) // 2
        sustained = break_even(sum(len(points[i].trials) for i in range(first, mid)),
                               sum(len(points[i].trials) for i in range(mid, last + 1)), noise, worse)
    return Detectable(noise, newest, sustained)
