"""The one choice of a test's headline throughput, and what travels with it.

A set's headline figures — the cards of the set page, the home page and the results index, the feed,
the link preview, the PDF's headline box, the compare page and the pull-request summary — all show the
row chosen here, never one of their own:

- the rows at the throughput rate (no load, or the methodology's throughput load) that state a
  throughput, at the smallest frame size;
- repeats collapsed first: the rows of one series (frame size, variant, direction, port, component)
  with a `trial` number are the repeats of the row of that series without one (the set's own summary of
  them, e.g. the mean of repeated searches); without such a row, the repeats' lower median stands for
  them; either way the repeats' number and spread (lowest, median, highest) go with the figure;
- of the series that remain, the highest throughput (ties: the first in the set's order).

The caveats travel with the figure as text: the statistic ("mean of 3 searches: 1,957 to 2,959
frames/s, median 2,458") and, with the methodology's `limited_by`, why the figure is a lower bound
("a lower bound, limited by the generator"; a bound the figure itself prints, ≥ or >, needs no words).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from wirespeed.engine import qualified, rfc2544
from wirespeed.engine import number_style
from wirespeed.resultset.methodology import merged

SERIES_KEYS = ("frame_size", "imix", "variant", "direction", "port", "component")


@dataclass(frozen=True)
class Headline:
    """A test's headline throughput row and what must be said beside it."""

    test_id: str
    row: dict[str, Any]
    repeats: int = 1  # the searches or trials behind the figure (1: a single figure)
    statistic: str = ""  # "mean", "median" or "summary" of the repeats
    spread: tuple[float, float, float] | None = None  # lowest, median, highest of the repeats (frames/s)
    what: str = "trials"  # "searches" when the test's rate was searched
    limited_by: str | None = None
    caveats: list[str] = field(default_factory=list)
    spread_bounds: tuple[str, str, str] = ("", "", "")  # the bound symbol (≥) of the spread's lowest, median and highest, "" for values

    @property
    def lower_bound(self) -> bool:
        cell = self.row["cells"].get("throughput") or next((self.row["cells"][m] for m in qualified.THROUGHPUT_SOURCES if m in self.row["cells"]), {})
        return cell.get("qualifier") in qualified.LOWER_BOUNDS


def _series(row: dict[str, Any]) -> tuple:
    return tuple(row.get(k) for k in SERIES_KEYS)


def _size(row: dict[str, Any]) -> tuple:
    fs = row.get("frame_size")
    return (fs is None, fs or 0)


def _fps(v: float) -> str:
    return number_style.derived(v, 0 if v >= 100 else number_style.significant_decimals([v], 3))


def statistic(value: float, values: list[float]) -> str:
    """Which statistic of its repeats a summary row holds, from the numbers (within a part in 10^6)."""
    close = lambda a, b: abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1e-9) + 0.5  # noqa: E731 - rounded to whole frames/s
    if close(value, statistics.fmean(values)):
        return "mean"
    if close(value, statistics.median(values)):
        return "median"
    return "summary"


def throughput_headline(summary: dict[str, Any], test_id: str) -> Headline | None:
    """The headline throughput of a test, or None when it states none."""
    meta = summary["meta"]
    test = next(t for t in meta["tests"] if t["id"] == test_id)
    method = merged(meta.get("methodology"), test.get("methodology"))
    rows = [r for r in summary["rows"] if r["test_id"] == test_id and r.get("throughput_fps") is not None
            and r.get("load_pct") in (None, method.get("throughput_load_pct")) and any(m in r["cells"] for m in qualified.THROUGHPUT_FAMILY)]
    if not rows:
        return None
    smallest = min(_size(r) for r in rows)
    rows = [r for r in rows if _size(r) == smallest]
    series: dict[tuple, list[dict[str, Any]]] = {}
    for r in rows:
        series.setdefault(_series(r), []).append(r)
    searched = rfc2544.searched(method)
    limited = method.get("limited_by")
    candidates = []
    for members in series.values():
        repeats = [r for r in members if r.get("trial") is not None]
        summaries = [r for r in members if r.get("trial") is None]
        values = sorted(r["throughput_fps"] for r in repeats)
        if summaries:
            row = summaries[0]
            stat = statistic(row["throughput_fps"], values) if len(values) > 1 else ""
        elif len(repeats) > 1:
            row = sorted(repeats, key=lambda r: r["throughput_fps"])[(len(repeats) - 1) // 2]  # the lower median: a row that exists
            stat = "median"
        else:
            row, stat = members[0], ""
        span = spread(values) if len(values) > 1 else None
        candidates.append(Headline(test_id, row, len(values) if span else 1, stat, span, "searches" if searched else "trials", limited,
                                   spread_bounds=_spread_bounds(repeats) if span else ("", "", "")))
    best = max(candidates, key=lambda h: h.row["throughput_fps"])  # max keeps the first of equals
    return Headline(best.test_id, best.row, best.repeats, best.statistic, best.spread, best.what, best.limited_by, caveats(best), best.spread_bounds)


def _spread_bounds(repeats: list[dict[str, Any]]) -> tuple[str, str, str]:
    """Which of the repeats' lowest, median and highest are bounds, not values, when some repeats are lower bounds (a
    search the generator stopped, or that passed at its highest rate): the lowest only when every repeat at it is a
    bound (an exact repeat there is the lowest); the median and the highest whenever any repeat is one (a repeat known
    only from below may lie above every other)."""
    marks = [(r["throughput_fps"], qualified.throughput_bound(r)) for r in repeats]
    if not any(m for _, m in marks) or any(m in ("≤", "<") for _, m in marks):
        return ("", "", "")  # values only, or an upper bound among them: said without marks rather than wrongly
    low = min(v for v, _ in marks)
    return ("≥" if all(m for v, m in marks if v == low) else "", "≥", "≥")


def caveats(h: Headline, unit: str = "frames/s", factor: float = 1.0) -> list[str]:
    """What must be printed beside the figure: its statistic and spread, and whether it is a lower bound and why. The
    spread is in the unit the figure beside it prints (`unit`, `factor` frames/s each): whole frames/s, or a card's
    kframes/s with at most four digits in the highest (trial_caveat's rule), never one unit for the figure and another
    for its spread."""
    out = []
    if h.spread is not None:
        name = {"mean": "mean", "median": "median", "summary": "summary"}[h.statistic or "summary"]
        bl, bm, bh = h.spread_bounds
        if factor == 1.0:
            low, med, high = (_fps(v) for v in h.spread)
        else:
            low, med, high = spread_texts(h.spread, factor)
        out.append(f"{name} of {h.repeats} {h.what}: {bl}{low} to {bh}{high} {unit}, median {bm}{med}")
    if h.limited_by == "generator":  # (a bound the source printed, ">770", says itself what it is)
        out.append("a lower bound, limited by the generator" if h.lower_bound else "limited by the generator")
    return out


def trial_caveat(row: dict[str, Any], rows: list[dict[str, Any]], metric: str, label: str, unit: str, factor: float) -> str | None:
    """Beside a figure of one trial among repeats of its series: which trial, and the spread of `metric` over all of them."""
    if row.get("trial") is None:
        return None
    values = sorted(r["cells"][metric]["value"] for r in rows if r["test_id"] == row["test_id"] and _series(r) == _series(row)
                    and r.get("load_pct") == row.get("load_pct") and r.get("trial") is not None and metric in r["cells"])
    if len(values) < 2:
        return None
    low, med, high = spread_texts(spread(values), factor)
    return f"trial {row['trial']} of {len(values)}; {label} over the {len(values)}: {low} to {high} {unit}" + (f", median {med}" if len(values) > 2 else "")


def spread(values: list[float]) -> tuple[float, float, float]:
    """The lowest, the median and the highest of repeats."""
    ordered = sorted(values)
    return ordered[0], statistics.median(ordered), ordered[-1]


def spread_texts(low_median_high: tuple[float, float, float], factor: float) -> tuple[str, str, str]:
    """A spread (`spread`) divided by `factor` (the card's unit), printed with one count of decimals and at most four
    digits in the highest (the card's rule)."""
    shown = [v / factor for v in low_median_high]
    digits = number_style.significant_decimals(shown[-1:], 4)
    low, med, high = (number_style.derived(v, digits) for v in shown)
    return low, med, high


def repeats_of(row: dict[str, Any], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows with a trial number of the series a summary row (no trial) summarises."""
    if row.get("trial") is not None:
        return []
    return [r for r in rows if r["test_id"] == row["test_id"] and r.get("trial") is not None and _series(r) == _series(row)
            and r.get("load_pct") == row.get("load_pct")]
