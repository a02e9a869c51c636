"""The chart definition of a trend series (chart type "trend", presentation/charts/trend.py) from the
catalog's series (catalog/trend.py: series_detail), in the series' one unit; its tooltips print the
figures the way the series page and the trend report print them."""

from __future__ import annotations

from typing import Any

from wirespeed.engine.columns import METRICS
from wirespeed.engine import dates
from wirespeed.presentation import trend_text

MAX_TRIAL_MARKS = 1500
"""More trials than this are drawn as each set's lowest-to-highest range instead of one mark each (page weight)."""


def shown(detail: dict[str, Any]) -> tuple[tuple[str, float], int]:
    """The series' unit and decimals, from every trial and group mean."""
    values = [t for p in detail["points"] for t in p["trials"]] + [g["avg"] for g in detail["groups"]]
    sym, factor = trend_text.unit(detail, values)
    return (sym, factor), trend_text.decimals([v / factor for v in values if v])


def definition(detail: dict[str, Any], chart_id: str) -> dict[str, Any]:
    """A chart definition of one series: every set's mean and trials, the groups, anomalies and test-bed changes."""
    (sym, factor), dec = shown(detail)
    label = METRICS[detail["metric"]].label
    pts = detail["points"]
    num = lambda v: trend_text.number(v, factor, dec)  # noqa: E731
    data = [{"x": p["position"] + 1, "mean": p["mean"] / factor, "set": p["slug"], "set_title": p["title"],
             "version": p["version"] or "", "date": dates.text(p["date"]) if p["date"] else "undated", "printed": f"{num(p['mean'])} {sym}",
             "trials": str(len(p["trials"])), "range": f"{num(min(p['trials']))} – {num(max(p['trials']))} {sym}",
             "group": f"{num(p['trend'])} {sym}", "anomaly": p["anomaly"] or ""} for p in pts]
    trials_n = sum(len(p["trials"]) for p in pts)
    trials = [{"x": p["position"] + 1, "value": t / factor} for p in pts for t in p["trials"]] if trials_n <= MAX_TRIAL_MARKS else []
    # a band never reaches below zero: no figure a series follows (a rate, a latency, a loss) can be negative, and a
    # scale that ran down to -0.2 ms drew a latency no device can have
    groups = [{"x0": g["first"] + 0.6, "x1": g["last"] + 1.4, "avg": g["avg"] / factor, "lo": max(g["avg"] - g["stdev"], 0.0) / factor,
               "hi": (g["avg"] + g["stdev"]) / factor,
               "text": f"sets {g['first'] + 1}–{g['last'] + 1}: mean {num(g['avg'])} {sym} ± {num(g['stdev'])} {sym} over {g['trials']} trials"}
              for g in detail["groups"]]
    anomalies = _placed([{"x": c["position"] + 1, "value": c["after_avg"] / factor, "kind": c["kind"], "label": f"{c['kind']} {trend_text.percent(c['relative'])}",
                          "short": trend_text.percent(c["relative"])} for c in detail["changes"] if c["kind"] != "testbed"], len(pts),
                         *_extent(data, trials, groups))
    boundaries = [{"x": c["position"] + 0.5, "label": "test bed changed"} for c in detail["changes"] if c["kind"] == "testbed"]
    by = "software version" if detail["ordered_by"] == "version" else "date"
    found = [c for c in detail["changes"] if c["kind"] != "testbed"]
    alt_text = (f"{trend_text.title(detail)}: {len(pts)} result sets in {by} order, {trials_n} trials, from {num(min(p['mean'] for p in pts))} "
                f"to {num(max(p['mean'] for p in pts))} {sym} (set means); {len(detail['groups'])} group{'s' if len(detail['groups']) != 1 else ''}"
                + (": " + "; ".join(f"{c['kind']} of {trend_text.percent(c['relative'])} at set {c['position'] + 1}" for c in found) if found else ", no change found")
                + (f"; the test bed changed {len(boundaries)} time{'s' if len(boundaries) != 1 else ''}." if boundaries else "."))
    ticks = _ticks(len(pts))
    return {"id": chart_id, "type": "trend", "title": trend_text.title(detail),
            "subtitle": f"{len(pts)} result sets in {by} order · line and band: each group's mean ± 1 standard deviation",
            "caption": (f"{label} of every trial (open circles) and each result set's mean (dots), in {by} order; jumpavg's groups as lines at "
                        "their means with a band of one standard deviation (down to zero at most); triangles mark where a regression or progression starts, "
                        "labelled with its change of the mean"
                        + ("; dashed rules where the test bed changed." if boundaries else ".")),
            "alt": alt_text, "data": data, "trials": trials, "groups": groups, "anomalies": anomalies, "boundaries": boundaries,
            "x_title": f"Result set (1 = first in {by} order)", "y_title": f"{label} ({sym})", "ticks": ticks,
            "tooltip": [{"field": "x", "title": "Position"}, {"field": "set_title", "title": "Result set"}, {"field": "version", "title": "Version"},
                        {"field": "date", "title": "Date"}, {"field": "printed", "title": f"Mean {label.lower()}"}, {"field": "trials", "title": "Trials"},
                        {"field": "range", "title": "Lowest – highest"}, {"field": "group", "title": "Group mean"},
                        {"field": "anomaly", "title": "Change"}]}


# An anomaly's label is its change of the mean ("+747.9 %": the triangle's shape and colour, in the legend, say which
# kind). Labels of neighbouring anomalies take turns on two heights above their triangles, so that two a few sets apart
# do not print over each other (never below one: near the foot of the scale it would cross the axis); a triangle near
# the top of the scale has its label under it; in the last quarter of the series a label reads leftwards, so it stays
# over the plot.
NEAR = 5  # sets: anomalies closer than this take turns (a label spans about five sets at 390 px)
ABOVE, HIGHER, BELOW = -12, -27, 20  # the label's offset from its triangle, px
TOP = 0.85  # a triangle above this share of the scale's height has its label below it


def _placed(anomalies: list[dict[str, Any]], n: int, low: float = 0.0, high: float | None = None) -> list[dict[str, Any]]:
    """The anomalies (in series order) with where each label goes: "side" (right of its triangle, or left near the
    series' end) and "dy" (above it, higher when the one before it is near and not, below it near the top of the
    scale from `low` to `high`, the lowest and highest values the chart draws)."""
    out, last = [], None
    for a in sorted(anomalies, key=lambda a: a["x"]):
        if high is not None and high > low and (a["value"] - low) / (high - low) > TOP:
            dy = BELOW
        elif last is not None and a["x"] - last["x"] < NEAR and last["dy"] == ABOVE:
            dy = HIGHER
        else:
            dy = ABOVE
        last = {**a, "side": "left" if a["x"] > 0.75 * n and n > 1 else "right", "dy": dy}
        out.append(last)
    return out


def _extent(data: list[dict[str, Any]], trials: list[dict[str, Any]], groups: list[dict[str, Any]]) -> tuple[float, float]:
    """The lowest and highest values the chart draws: set means, trials, the groups' bands."""
    values = [d["mean"] for d in data] + [t["value"] for t in trials] + [g[k] for g in groups for k in ("lo", "hi")]
    return (min(values), max(values)) if values else (0.0, 0.0)


def _ticks(n: int) -> list[int]:
    """Whole positions to label: every one up to 25 sets, else about 12 evenly spaced, always the first and last."""
    if n <= 25:
        return list(range(1, n + 1))
    step = max(1, round(n / 12))
    return sorted(set(range(1, n + 1, step)) | {n})
