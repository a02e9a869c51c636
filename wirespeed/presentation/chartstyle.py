"""How series look in a chart: a colour × marker × dash per series that never repeats within one
chart, time units chosen by magnitude, and frame sizes in ascending order."""

from __future__ import annotations

import math
from typing import Any, Iterable

FLAT_PCT = 20.0
"""Under this share of the line rate at every point, a throughput chart in % of line rate would flatten its marks into
the bottom fifth of the plot (a software path behind 10 Gbit/s ports, a loadtest of a small box: 1 to 5 %): it draws
frames/s instead and says the line rate is not drawn."""

# Okabe–Ito (colour-blind safe); the dark theme swaps black for a light grey (wirespeed.presentation.charts.theme)
COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"]
SHAPES = ["circle", "square", "triangle-up", "diamond", "cross", "triangle-down", "triangle-right", "triangle-left"]
DASHES = [[1, 0], [6, 3], [2, 2], [8, 3, 2, 3], [4, 4], [1, 3], [10, 2], [3, 6]]
MAX_SERIES = len(COLOURS) * len(SHAPES) * len(DASHES)


class TooManySeries(ValueError):
    """More series than distinct colour × marker × dash combinations."""


def series_styles(n: int) -> list[tuple[int, str, list[int]]]:
    """n distinct (colour index, marker, dash) triples: the first eight differ in all three; later ones
    shift the marker (then the dash) against the colour, so no two series of a chart look alike."""
    if n > MAX_SERIES:
        raise TooManySeries(f"{n} series: a chart can tell at most {MAX_SERIES} apart")
    c, s, d = len(COLOURS), len(SHAPES), len(DASHES)
    out = []
    for i in range(n):
        lap, lap2 = i // c, i // (c * s)
        out.append((i % c, SHAPES[(i + lap) % s], DASHES[(i + lap2) % d]))
    return out


TIME_UNITS = [("ns", 1e-9), ("us", 1e-6), ("ms", 1e-3), ("s", 1.0)]


def time_unit(values_s: Iterable[float | None]) -> str:
    """The time unit for an axis of these values (in seconds): the largest one in which the largest value
    is at least 1, so ticks read "52 ms", never "52,000 µs"."""
    finite = [abs(v) for v in values_s if v is not None and math.isfinite(v) and v != 0]
    if not finite:
        return "us"
    top = max(finite)
    best = TIME_UNITS[0][0]
    for name, factor in TIME_UNITS:
        if top / factor >= 1:
            best = name
    return best


def frame_key(label: str) -> tuple:
    """Sort key of a frame-size label: numbers ascending ("64" < "1518" < "9000"), then named mixes (IMIX)."""
    head = label.split(" ", 1)[0]
    try:
        return (0, float(head), label)
    except ValueError:
        return (1, 0.0, label)


def ascending_frames(labels: Iterable[str]) -> list[str]:
    """Distinct frame-size labels in ascending order."""
    return sorted(dict.fromkeys(labels), key=frame_key)


def present(order: list[str] | None, data: list[dict[str, Any]], field: str) -> list[str]:
    """The declared series order kept only for series that have data (no legend entry without a point)."""
    have = list(dict.fromkeys(str(r[field]) for r in data))
    if not order:
        return have
    return [s for s in order if s in have] + [s for s in have if s not in order]
