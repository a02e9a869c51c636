"""Where a reference line's label goes: beside one of its points, above or below it, left- or right-aligned, where no
line of the chart crosses it and no other label lies.

A fixed anchor cannot clear a reference that rises (the Cisco 7600's forwarding limit, which climbs to line rate over
the smallest frames): both it and the data crossed its label. So the label tries its points in order of their
distance from where the chart asks for it (`label_at`), on the side it asks for before the other, and takes the first box that is inside
the plot and meets no line and no label already placed; when none is clear, it stays where the chart asked.

Positions are the chart's own (its plot's width and height, its y scale from zero or from the data's least value,
an ordinal x at the middle of each step as Vega-Lite's point scale sets it): the drawing is laid out at that size,
and a page that draws the chart narrower moves the lines by less than a label's height."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in pixels, y down

CHAR_EM = 0.6  # DejaVu Sans: an average character of a label is about this many ems wide
PAD = 2.0  # px kept clear around a label


@dataclass(frozen=True)
class Placement:
    index: int  # the reference's point the label sits beside
    align: str  # "left": the label starts at the point; "right": it ends there
    dy: float  # px from the point to the label's baseline (negative: above)
    box: Box


def label_box(x: float, y: float, align: str, dy: float, text: str, size: float) -> Box:
    """The box a label of `text` in `size` px type takes, its baseline dy px from (x, y), starting (left) or ending
    (right) 2 px from x."""
    width = len(text) * size * CHAR_EM
    x0 = x + 2 if align == "left" else x - 2 - width
    return (x0 - PAD, y + dy - size * 0.8 - PAD, x0 + width + PAD, y + dy + size * 0.25 + PAD)


def place(text: str, points: Sequence[Point], lines: Sequence[Sequence[Point]], taken: Sequence[Box], width: float, height: float,
          at: float, size: float, dy: float = -8) -> Placement | None:
    """The first clear place for the label of a reference through `points` (pixels), trying its points nearest the
    fraction `at` of the way along it first; `lines`: every polyline drawn (the reference's own included), `taken`:
    the boxes of labels already placed; `dy`: where the chart asks for the label, above (negative) or below its line,
    which is tried first, then the other side. None when no place is clear."""
    if not points:
        return None
    want = at * (len(points) - 1)
    order = sorted(range(len(points)), key=lambda i: (abs(i - want), i))
    sides = (dy, size + 4) if dy < 0 else (dy, -8)  # numbers as the chart gives them: its spec unchanged where nothing moves
    for i in order:
        x, y = points[i]
        aligns = ("right", "left") if at >= 0.75 else ("left", "right")
        for side in sides:
            for align in aligns:
                box = label_box(x, y, align, side, text, size)
                if box[0] < 0 or box[1] < 0 or box[2] > width or box[3] > height:
                    continue
                if any(_overlap(box, t) for t in taken) or any(_crosses(box, line) for line in lines):
                    continue
                return Placement(i, align, side, box)
    return None


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _crosses(box: Box, line: Sequence[Point]) -> bool:
    """Whether a polyline passes through the box (a single point: whether it lies in it)."""
    if len(line) == 1:
        x, y = line[0]
        return box[0] <= x <= box[2] and box[1] <= y <= box[3]
    return any(_segment_hits(box, line[k], line[k + 1]) for k in range(len(line) - 1))


def _segment_hits(box: Box, p: Point, q: Point) -> bool:
    """Liang-Barsky: whether the segment p-q meets the box."""
    x0, y0, x1, y1 = box
    dx, dy = q[0] - p[0], q[1] - p[1]
    lo, hi = 0.0, 1.0
    for step, room in ((-dx, p[0] - x0), (dx, x1 - p[0]), (-dy, p[1] - y0), (dy, y1 - p[1])):
        if step == 0:
            if room < 0:
                return False
            continue
        t = room / step
        if step < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo > hi:
            return False
    return True


def nice_domain(values: Sequence[float], pixels: float, zero: bool = True, log: bool = False) -> tuple[float, float]:
    """The domain a nice linear (or log) scale of these values spans as Vega draws it along an axis of `pixels`: from
    zero unless told not to, both ends rounded out to the step of its ticks (about one per 40 px, d3's tick step), in
    data units."""
    finite = [v for v in values if v is not None and math.isfinite(v) and (v > 0 or not log)]
    if not finite:
        return (0.0, 1.0)
    lo, hi = min(finite), max(finite)
    if log:
        return (10 ** math.floor(math.log10(lo)), 10 ** math.ceil(math.log10(hi)))
    if zero:
        lo, hi = min(0.0, lo), max(0.0, hi)
    if hi <= lo:
        return (lo, lo + 1.0)
    step = _tick_step(lo, hi, max(1, math.ceil(pixels / 40)))
    return (math.floor(lo / step) * step, math.ceil(hi / step) * step)


def _tick_step(lo: float, hi: float, count: int) -> float:
    """d3-array's tickStep: 1, 2 or 5 times a power of ten, near (hi - lo) / count."""
    raw = (hi - lo) / count
    step = 10 ** math.floor(math.log10(raw))
    error = raw / step
    return step * (10 if error >= math.sqrt(50) else 5 if error >= math.sqrt(10) else 2 if error >= math.sqrt(2) else 1)
