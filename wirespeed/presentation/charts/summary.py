"""The summary chart of a set: every test (scenario) on one shared scale, so a reader sees the whole review at a
glance. Throughput as % of line rate (or in one frames/s unit when every test is far below line rate:
chartstyle.FLAT_PCT) per test, a
point per frame size, the smallest frame marked, a bar from the lowest to the highest; a set without throughput
gets its latency per frame size instead. Printed at the top of a review, on the set page and in the PDF's
executive summary (role "summary")."""

from __future__ import annotations

import textwrap
from typing import Any

from wirespeed.engine import qualified
from wirespeed.engine.units import UNITS
from wirespeed.engine import number_style
from wirespeed.presentation import chartstyle
from wirespeed.presentation.charts.limits import say_bounds
from wirespeed.presentation.tables.results import _test_meta, _throughput_rows, column_texts, frame_label, machine_unit

LABEL_CHARS = 24  # a test's title wraps onto lines of about this many characters beside the plot
WIDTH = 470  # the plot, narrower than other charts': with its labels beside it the whole stays within a report page at full size
SMALLEST, OTHERS = "smallest frame", "other frame sizes"


def _wrap(text: str) -> str:
    return "\n".join(textwrap.wrap(text, LABEL_CHARS)) or text


def _throughput(summary: dict[str, Any]) -> dict[str, Any] | None:
    per_test = []
    for t in summary["meta"]["tests"]:
        rows = [r for r in _throughput_rows(summary, t["id"]) if r.get("throughput_fps") is not None and (r.get("frame_size") or r.get("imix"))]
        if any(r.get("trial") is None for r in rows):
            rows = [r for r in rows if r.get("trial") is None]  # repeated searches: their summary rows, not each search
        if rows:
            per_test.append((t, rows))
    if not per_test:
        return None
    with_pct = all(r.get("throughput_pct_line_rate") is not None for _, rows in per_test for r in rows)
    percent = with_pct and max(r["throughput_pct_line_rate"] for _, rows in per_test for r in rows) >= chartstyle.FLAT_PCT
    if percent:
        sym, factor = "%", 1.0
    else:
        unit = number_style.pick_unit("frame_rate", [r["throughput_fps"] for _, rows in per_test for r in rows])
        sym, factor = UNITS[unit].symbol, float(UNITS[unit].factor)
    data = []
    for t, rows in per_test:
        smallest = chartstyle.ascending_frames(frame_label(r) for r in rows)[0]
        if percent:
            _, printed = column_texts(summary, "throughput_line_rate", rows, "pct")  # the results table's cells
            printed = [f"{p} % of line rate" for p in printed]
        else:
            printed = [f"{qualified.text(r['throughput_fps'] / factor, qualified.of_derived(r, 'throughput'))} {sym}" for r in rows]
        for r, text in zip(rows, printed):
            where = ", ".join(str(x) for x in (r.get("direction"), r.get("variant")) if x)
            data.append({"test": t["title"], "label": _wrap(t["title"]), "frame": frame_label(r) + (f" ({where})" if where else ""),
                         "value": r["throughput_pct_line_rate"] if percent else r["throughput_fps"] / factor, "printed": text,
                         "bound": qualified.throughput_bound(r),
                         "series": SMALLEST if frame_label(r) == smallest else OTHERS})
    what = "as % of line rate" if percent else (f"in {sym} (every test under {number_style.plain(chartstyle.FLAT_PCT)} % of its line rate)" if with_pct else f"in {sym}")
    defn = {"x": {"field": "value", "title": f"Throughput ({'% of line rate' if percent else sym})"}, "data": data,
            "title": "Throughput of every test", "better": "higher",
            "caption": f"Throughput of each test {what}, one point per frame size (the smallest marked), the bar from the lowest to the highest.",
            "alt": "Throughput of every test " + what + ". " + "; ".join(
                f"{t['title']}: {min(d['printed'] for d in data if d['test'] == t['title'])} to {max(d['printed'] for d in data if d['test'] == t['title'])}"
                for t, _ in per_test) + ".",
            "tooltip": [{"field": "test", "title": "Test"}, {"field": "frame", "title": "Frame size"}, {"field": "printed", "title": "Throughput"}]}
    say_bounds(defn, any(_test_meta(summary, t["id"])[1].get("limited_by") == "generator" for t, _ in per_test), open_points=True)
    if percent:
        defn["x"]["domain"] = [0, max(105.0, max(d["value"] for d in data) * 1.02)]
        defn["reference"] = {"value": 100.0, "label": "line rate"}
    return defn


def _latency(summary: dict[str, Any]) -> dict[str, Any] | None:
    rows = [r for t in summary["meta"]["tests"] for r in _throughput_rows(summary, t["id"]) if r.get("frame_size") and "latency_avg" in r["cells"]]
    if not rows:
        return None
    values = [r["cells"][m]["value"] for r in rows for m in ("latency_min", "latency_avg", "latency_max") if m in r["cells"]]
    name = chartstyle.time_unit(values)
    sym, factor = UNITS[name].symbol, float(UNITS[name].factor)
    tests = {t["id"]: t["title"] for t in summary["meta"]["tests"]}
    several = len({r["test_id"] for r in rows}) > 1
    data = []
    for r in sorted(rows, key=lambda r: (r["test_id"], chartstyle.frame_key(frame_label(r)))):
        label = (f"{tests[r['test_id']]}, " if several else "") + f"{frame_label(r)} bytes"
        for m, series in (("latency_min", "minimum"), ("latency_avg", "average"), ("latency_max", "maximum")):
            c = r["cells"].get(m)
            if c:
                data.append({"test": label, "label": _wrap(label), "frame": frame_label(r), "value": c["value"] / factor, "series": series,
                             "printed": f"{number_style.published(c['text'], c['qualifier'], machine_unit(summary, c))} {c['unit_symbol']}"})
    return {"x": {"field": "value", "title": f"Latency ({sym})"}, "title": "Latency of every frame size", "better": "lower", "data": data,
            "caption": "Minimum, average and maximum latency per frame size on one scale, the bar from the minimum to the maximum.",
            "alt": "Latency per frame size. " + "; ".join(f"{d['test']} {d['series']} {d['printed']}" for d in data) + ".",
            "tooltip": [{"field": "test", "title": "Where"}, {"field": "series", "title": ""}, {"field": "printed", "title": "Latency"}]}


def summary_chart(summary: dict[str, Any]) -> dict[str, Any] | None:
    """The set's one chart across its tests (chart type "ranges"); None when it has neither throughput nor latency per frame size,
    a single point, or a single test whose points all sit at one value (a dot on an axis: its headline and its test's own
    chart say it, as a nightly run capped at its search's maximum rate does)."""
    defn = _throughput(summary) or _latency(summary)
    if defn is None or len(defn["data"]) < 2:
        return None
    if len({d["test"] for d in defn["data"]}) == 1 and len({d["value"] for d in defn["data"]}) == 1:
        return None
    order = list(dict.fromkeys(d["label"] for d in defn["data"]))
    series = [s for s in (SMALLEST, OTHERS, "minimum", "average", "maximum") if any(d["series"] == s for d in defn["data"])]
    return {"id": "summary", "type": "ranges", "role": "summary", "test": None, "width": WIDTH, "y": {"field": "label", "order": order},
            "series": {"field": "series", "title": "", "order": series}, **defn}
