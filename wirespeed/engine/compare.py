"""Comparisons across result sets: the arithmetic behind the compare page and declared comparisons.

Rows of several sets are aligned by test kind (the test's scenario) and frame size (or offered load),
one explicit normalisation is applied — absolute, % of line rate, per port, per 100 Gbit/s of port
capacity — to one rate (frames/s, or the L1 or L2 bit rate; layers are never mixed), and every figure
gets its ratio to the best of its column as ×N. Qualifiers (>, <, ≈, ranges) are carried through
(wirespeed.engine.qualified). Inputs are the catalog's own columns (line rate, % of line rate, L1/L2 bit
rates, port speed): nothing here recomputes a line rate. Pure: no I/O.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from wirespeed.engine import number_style
from wirespeed.engine import qualified
from wirespeed.engine.columns import METRICS
from wirespeed.engine.units import UNITS

NORMALISATIONS = ("absolute", "line-rate", "per-port", "per-100g")
RATES = ("frames", "L1", "L2")
NORMALISED = ("throughput",)  # metrics a normalisation applies to; the others are compared as measured
HIGHER_IS_BETTER = {"throughput", "forwarding_rate", "rx_rate", "goodput"}
COMPARED = ("throughput", "latency_min", "latency_avg", "latency_max", "latency_p99", "jitter_avg", "jitter_max",
            "failover_time", "loss", "forwarding_rate", "rx_rate")  # rx_rate over offered load: a ramp
RATE_METRIC = {"frames": "throughput", "L1": "throughput_l1", "L2": "throughput_l2"}
RATE_TEXT = {"frames": "in frames/s (the same at every layer)", "L1": "as L1 bit rate (each frame plus 20 bytes of preamble and inter-frame gap)",
             "L2": "as L2 bit rate (frame bytes, FCS included)"}
NORM_TEXT = {"absolute": "aggregate of the test's ports", "line-rate": "in % of the test's aggregate line rate",
             "per-port": "per port: the aggregate ÷ the test's ports", "per-100g": "per 100 Gbit/s of port capacity: the aggregate × 100G ÷ (ports × port speed)"}
UNIT_SUFFIX = {"absolute": "", "line-rate": "", "per-port": " per port", "per-100g": " per 100G"}
HEAT_CAP = 10.0  # a figure ten times worse than the best (or more) gets the darkest shade
HEAT_LEVELS = 5


class CompareError(ValueError):
    """A comparison that cannot be made (unknown normalisation, rate or metric)."""


@dataclass(frozen=True)
class Figure:
    """A comparable figure in canonical units: its value, qualifier, significant digits (None: not limited), range factor."""

    value: float
    qualifier: str = "exact"
    digits: int | None = None
    high_factor: float | None = None

    def scaled(self, factor: float) -> "Figure":
        return Figure(self.value * factor, self.qualifier, self.digits, self.high_factor)

    def to_list(self) -> list[Any]:
        return [self.value, self.qualifier, self.digits, self.high_factor]

    @classmethod
    def of(cls, item: list[Any] | "Figure") -> "Figure":
        return item if isinstance(item, Figure) else cls(*item)


def figure_key(normalisation: str, rate: str) -> str:
    """The key of a normalised throughput figure in an entry: 'per-port/L1'."""
    return f"{normalisation}/{rate}"


def normalised_figures(figs: dict[str, Figure], ports: int | None, link_bps: float | None, line_rate_l1_bps: float | None) -> dict[str, Figure]:
    """Every normalisation × rate of a row's throughput, from the catalog's columns (throughput in frames/s,
    L1/L2 bit/s, % of line rate, the aggregate L1 line rate) and the test's ports and port speed."""
    out: dict[str, Figure] = {}
    for rate, metric in RATE_METRIC.items():
        f = figs.get(metric)
        if f is None:
            continue
        out[figure_key("absolute", rate)] = f
        if ports:
            out[figure_key("per-port", rate)] = f.scaled(1 / ports)
            if link_bps:
                out[figure_key("per-100g", rate)] = f.scaled(100e9 / (ports * link_bps))
    pct = figs.get("throughput_line_rate")
    if pct is not None:  # the share of the line rate is the same counted in frames or in L1 bits
        out[figure_key("line-rate", "frames")] = out[figure_key("line-rate", "L1")] = pct
    l2 = figs.get("throughput_l2")
    if l2 is not None and line_rate_l1_bps:
        out[figure_key("line-rate", "L2")] = l2.scaled(100 / line_rate_l1_bps)
    return out


def check_choice(metric: str, normalisation: str, rate: str) -> None:
    if metric not in COMPARED:
        raise CompareError(f"metric {metric!r} cannot be compared (choose one of {', '.join(COMPARED)})")
    if normalisation not in NORMALISATIONS:
        raise CompareError(f"normalisation {normalisation!r} unknown (choose one of {', '.join(NORMALISATIONS)})")
    if rate not in RATES:
        raise CompareError(f"rate {rate!r} unknown (choose one of {', '.join(RATES)})")


def entry_figure(entry: dict[str, Any], metric: str, normalisation: str, rate: str) -> Figure | None:
    """The figure of an entry (one aligned row of one set) under the chosen normalisation and rate."""
    if metric in NORMALISED:
        item = entry.get("n", {}).get(figure_key(normalisation, rate))
    else:
        item = entry.get("m", {}).get(metric)
    return Figure.of(item) if item is not None else None


def dimension(metric: str, normalisation: str, rate: str) -> str:
    if metric in NORMALISED:
        return "percent" if normalisation == "line-rate" else ("frame_rate" if rate == "frames" else "bit_rate")
    return METRICS[metric].dimension


def statement(metric: str, normalisation: str, rate: str) -> str:
    """The sentence a table and chart carry: what is compared, normalised how, at which layer."""
    label = METRICS[metric].label
    if metric not in NORMALISED:
        return f"{label} as measured (no normalisation applies to it)."
    if normalisation == "line-rate":
        layer = "L2 bit rate in % of the L1 line rate" if rate == "L2" else "L1 (frames/s and L1 bit rate give the same share)"
        return f"{label} {NORM_TEXT[normalisation]}, {layer}."
    return f"{label} {RATE_TEXT[rate]}, {NORM_TEXT[normalisation]}."


def unit_of(dim: str, values: list[float], normalisation: str) -> tuple[str, float]:
    """One unit for a whole table, chosen by magnitude: (symbol, factor from canonical)."""
    if dim == "percent":
        return ("% of line rate" if normalisation == "line-rate" else "%"), 1.0
    name = number_style.pick_unit(dim, values)
    return UNITS[name].symbol + UNIT_SUFFIX[normalisation], float(UNITS[name].factor)


def figure_text(f: Figure, factor: float) -> str:
    """A figure in the table's unit, with its qualifier and no more digits than its inputs carry."""
    return qualified.text(f.value / factor, qualified.Qualified(f.qualifier, f.digits, f.high_factor))


def ratio(f: Figure, best: Figure, higher_is_better: bool) -> tuple[float, str] | None:
    """How many times worse than the best, ≥ 1, with its qualifier: (ratio, qualifier); None if undefined."""
    if f.value <= 0 or best.value <= 0:
        return None
    if f is best:
        return 1.0, "exact"
    q = lambda x: "approx" if x == "range" else x  # noqa: E731 - a range's ratio is approximate
    if higher_is_better:  # best ÷ this: grows with best, shrinks with this
        return best.value / f.value, qualified.combine([(q(best.qualifier), 1), (q(f.qualifier), -1)])
    return f.value / best.value, qualified.combine([(q(f.qualifier), 1), (q(best.qualifier), -1)])


def ratio_text(r: float, q: str, digits: int | None) -> str:
    """'×1', '×2.51', '>×2.00', '≈×1.9': three significant digits at most, fewer when an input carries fewer."""
    if r == 1.0 and q == "exact":
        return "×1"
    d = min(3, digits) if digits else 3
    return number_style.QUALIFIER_PREFIX.get(q, "≈") + "×" + qualified.digits_text(r, max(d, 2))


def heat(r: float | None) -> int:
    """Shade level 0 (the best) … HEAT_LEVELS (HEAT_CAP times worse or more), on a log scale as ClickBench does."""
    if r is None or r <= 1:
        return 0
    return max(1, min(HEAT_LEVELS, math.ceil(math.log10(r) / math.log10(HEAT_CAP) * HEAT_LEVELS)))


def _x_value(entry: dict[str, Any], x: str) -> Any:
    return entry.get("frame") if x == "frame" else entry.get("load")


def x_key(v: Any) -> str:
    """An axis value as the page's address spells it (JavaScript's String(): 5.0 is "5", 18.333 is "18.333")."""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _x_sort(v: Any) -> tuple:
    return (0, float(v), "") if isinstance(v, (int, float)) else (1, 0.0, str(v))


def x_label(v: Any, x: str) -> str:
    if x == "frame":
        return f"{v} bytes" if isinstance(v, int) else str(v)
    return f"{number_style.published(format(v, 'g'))} % load"


def contender_key(entry: dict[str, Any], metric: str, x: str) -> tuple:
    """What one table row is: a set's test (and variant, direction, and the other axis when it varies)."""
    other = None
    if x == "load":
        other = entry.get("frame")
    elif metric not in NORMALISED:
        other = entry.get("load")  # latency at 10 % load and at the throughput rate are different rows
    return (entry["set"], entry["test"], entry.get("variant"), entry.get("direction"), other)


def test_parts(titles: list[str]) -> dict[str, str]:
    """What tells a set's tests apart in one table: each title without the words all of them begin with
    ("Fabric throughput and delay, one chassis" → "one chassis"); a title that is nothing but those words stays whole."""
    words = {t: t.split() for t in dict.fromkeys(titles)}
    if len(words) < 2:
        return {t: t for t in words}
    shared = 0
    for column in zip(*words.values()):
        if len(set(column)) > 1:
            break
        shared += 1
    out = {}
    for t, w in words.items():
        rest = " ".join(w[shared:]).strip(" ,;:—–-")
        out[t] = rest or t
    return out


def contender_labels(entries: list[dict[str, Any]], metric: str, x: str, labels: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """Short row labels of a table's contenders (its first entries, in order): (name, detail) each. The name is the
    device's short name, or the label declared for the set's test; the detail tells a set's rows apart: the part
    of the test's title that differs from its other tests in the table (the whole title when another set has a
    device of the same short name), then the variant, direction and the other axis when they vary."""
    tests_of: dict[str, list[str]] = {}
    sets_of: dict[str, set[str]] = {}
    for e in entries:
        tests_of.setdefault(e["set"], []).append(e["test_title"])
        sets_of.setdefault(e.get("short") or e["device"], set()).add(e["set"])
    parts = {s: test_parts(t) for s, t in tests_of.items()}
    out = []
    for e in entries:
        declared = (labels or {}).get(f"{e['set']}/{e['test']}")
        name = declared or e.get("short") or e["device"]
        detail = []
        if not declared:
            if len(sets_of[e.get("short") or e["device"]]) > 1:
                detail.append(e["test_title"])
            elif len(set(tests_of[e["set"]])) > 1:
                detail.append(parts[e["set"]][e["test_title"]])
        for v in (e.get("variant"), e.get("direction_label")):
            if v:
                detail.append(str(v))
        other = contender_key(e, metric, x)[4]
        if other is not None:
            detail.append(x_label(other, "load" if x == "frame" else "frame"))
        out.append((name, " · ".join(detail)))
    return out


def select(entries: list[dict[str, Any]], sets: list[str] | None = None, kinds: list[str] | None = None, tests: list[str] | None = None,
           xs: list[Any] | None = None, x: str = "frame") -> list[dict[str, Any]]:
    """Entries of the chosen sets (in that order), test kinds, tests ('slug/test-id') and frame sizes or loads."""
    order = {s: i for i, s in enumerate(sets)} if sets else None
    wanted = {x_key(v) for v in xs} if xs else None
    out = [e for e in entries
           if (order is None or e["set"] in order) and (not kinds or e["kind"] in kinds)
           and (not tests or f"{e['set']}/{e['test']}" in tests) and _x_value(e, x) is not None
           and (wanted is None or x_key(_x_value(e, x)) in wanted)]
    return sorted(out, key=lambda e: order[e["set"]]) if order else out


def table(entries: list[dict[str, Any]], metric: str = "throughput", normalisation: str = "absolute", rate: str = "frames",
          x: str = "frame", title: str = "", labels: dict[str, str] | None = None) -> dict[str, Any]:
    """The comparison table of selected entries: one row per contender, one column per frame size (or load),
    every figure in one unit with its ratio to the best of its column and a heat level. `labels` ('slug/test' →
    label) replace the device and test names of the rows (a declared comparison's short labels)."""
    check_choice(metric, normalisation, rate)
    if metric not in NORMALISED:
        normalisation, rate = "absolute", "frames"
    higher = metric in HIGHER_IS_BETTER
    figs: dict[tuple, dict[Any, Figure]] = {}
    first: dict[tuple, dict[str, Any]] = {}
    for e in entries:
        f = entry_figure(e, metric, normalisation, rate)
        if f is None:
            continue
        key = contender_key(e, metric, x)
        cells = figs.setdefault(key, {})
        cells.setdefault(_x_value(e, x), f)  # the first row of a contender at a frame size (its throughput rate)
        first.setdefault(key, e)
    columns = sorted({v for cells in figs.values() for v in cells}, key=_x_sort)
    dim = dimension(metric, normalisation, rate)
    unit, factor = unit_of(dim, [f.value for cells in figs.values() for f in cells.values()], normalisation)
    best: dict[Any, Figure] = {}
    for col in columns:
        present = [cells[col] for cells in figs.values() if col in cells and cells[col].value > 0]
        if present:
            best[col] = (max if higher else min)(present, key=lambda f: f.value)
    names = dict(zip(figs, contender_labels([first[k] for k in figs], metric, x, labels)))
    rows = []
    for key, cells in figs.items():
        e = first[key]
        row_cells: list[dict[str, Any] | None] = []
        for col in columns:
            f = cells.get(col)
            if f is None:
                row_cells.append(None)
                continue
            r = ratio(f, best[col], higher) if col in best else None
            digits = min(d for d in (f.digits, best[col].digits if col in best else None, 3) if d is not None)
            row_cells.append({"text": figure_text(f, factor), "value": f.value / factor, "qualifier": f.qualifier,
                              "ratio": r[0] if r else None, "ratio_text": ratio_text(r[0], r[1], digits) if r else "",
                              "best": r is not None and r[0] == 1.0 and r[1] == "exact", "heat": heat(r[0] if r else None)})
        rows.append({"set": e["set"], "test": e["test"], "device": e["device"], "set_title": e["set_title"], "test_title": e["test_title"],
                     "url": e.get("url", ""), "label": " · ".join(p for p in names[key] if p), "name": names[key][0], "detail": names[key][1],
                     "cells": row_cells})
    return {"title": title or f"{METRICS[metric].label}: {', '.join(dict.fromkeys(r['device'] for r in rows))}",
            "metric": metric, "metric_label": METRICS[metric].label, "normalisation": normalisation, "rate": rate, "x": x,
            "statement": statement(metric, normalisation, rate), "unit": unit, "better": "higher" if higher else "lower",
            "columns": [{"key": str(c), "label": x_label(c, x)} for c in columns], "rows": rows}
