"""Chart definitions (plain data) from a result set summary: what the notebooks draw.

Values come from the same catalog rows as the tables; each point's tooltip carries the figure as
printed, so a chart and its table cannot disagree.
"""

from __future__ import annotations

from typing import Any

from wirespeed.presentation import formatting

from wirespeed.engine import qualified
from wirespeed.presentation.tables.results import _row_order, _test_meta, _throughput_rows, frame_label
from wirespeed.presentation.tables.comparison import comparison_rows
from wirespeed.engine.units import UNITS


def _unit(dimension: str, values: list[float], published: str | None = None) -> tuple[str, float]:
    """The axis unit: the unit the source printed this quantity in (one unit family per quantity), else a readable one."""
    name = published or formatting.pick_unit(dimension, values)
    return UNITS[name].symbol, float(UNITS[name].factor)


def _published_unit(rows: list[dict[str, Any]], metric: str) -> str | None:
    """The unit most of the rows' published cells of `metric` use, if any."""
    units = [r["cells"][metric]["unit"] for r in rows if metric in r["cells"]]
    return max(sorted(set(units)), key=units.count) if units else None


def _shown(row: dict[str, Any], metric: str) -> str:
    c = row["cells"].get(metric)
    return f"{formatting.published(c['text'], c['qualifier'])} {c['unit_symbol']}" if c else ""


def _pct(value: float) -> str:
    return formatting.published(f"{value:g}") + " %"


def _series_name(row: dict[str, Any], multi_dir: bool, multi_var: bool) -> str:
    parts = []
    if multi_dir:
        parts.append(row["direction"] or "")
    if multi_var and row.get("variant"):
        parts.append(row["variant"])
    return ", ".join(parts) or "throughput"


def throughput_chart(summary: dict[str, Any], test_id: str) -> dict[str, Any] | None:
    """Throughput per frame size against the theoretical line rate (lines, or grouped bars when directions or variants vary)."""
    test, _ = _test_meta(summary, test_id)
    rows = [r for r in _throughput_rows(summary, test_id) if r.get("throughput_fps") is not None and (r.get("frame_size") or r.get("imix"))]
    if not rows:
        return None
    rows.sort(key=_row_order(summary, test_id))
    sym, factor = _unit("frame_rate", [r["throughput_fps"] for r in rows] + [r["line_rate_fps"] for r in rows], _published_unit(rows, "throughput"))
    multi_dir = len({r["direction"] for r in rows}) > 1
    multi_var = len({r["variant"] for r in rows}) > 1
    data, ref = [], []
    for r in rows:
        fs = frame_label(r)
        cat = fs + (f" {r['variant']}" if multi_var and r.get("variant") else "")
        series = _series_name(r, multi_dir, False)
        data.append({"frame": fs, "category": cat, "series": series, "value": r["throughput_fps"] / factor,
                     "printed": _shown(r, "throughput") or _shown(r, "throughput_l1") or _shown(r, "throughput_l2")
                     or f"{qualified.text(r['throughput_fps'] / factor, qualified.of_derived(r, 'throughput'))} {sym} (derived)",
                     "pct": _shown(r, "throughput_line_rate")
                     or f"{qualified.text(r['throughput_pct_line_rate'], qualified.of_derived(r, 'throughput_line_rate'))} % (derived)"})
        ref.append({"frame": fs, "category": cat, "series": series, "line": r["line_rate_fps"] / factor,
                    "line_text": f"{qualified.text(r['line_rate_fps'] / factor, qualified.Qualified())} {sym}"})
    ytitle = f"Throughput ({sym})"
    limits = []
    cap = summary["meta"]["dut"].get("forwarding_cap_pps")
    if cap and any(r.get("max_theoretical_fps") is not None and r["max_theoretical_fps"] < r["line_rate_fps"] for r in rows):
        limits.append({"value": cap / factor, "label": f"forwarding limit {formatting.group_thousands(format(cap / factor, 'g'))} {sym}"})
    alt = (f"{test['title']}: throughput per frame size in {sym}, against the theoretical line rate of "
           f"{test['ports']} × {test['port_speed']} ports. " + "; ".join(f"{d['category']} {d['series']}: {d['printed']}" for d in data))
    tooltip = [{"field": "category", "title": "Frame size"}, {"field": "series", "title": "Series"}, {"field": "printed", "title": "Throughput"},
               {"field": "pct", "title": "% of line rate"}]
    if multi_dir or multi_var or any(r.get("imix") for r in rows):
        return {"id": f"{test_id}-throughput", "test": test_id, "type": "bars", "title": f"{test['title']}: throughput", "subtitle": "dashed ticks: line rate",
                "caption": f"Forwarded rate per frame size and direction; ticks mark the line rate of {test['ports']} × {test['port_speed']}.",
                "alt": alt, "data": data, "x": {"field": "category", "title": "Frame size (bytes) and flows"},
                "y": {"field": "value", "title": ytitle}, "group": {"field": "series", "title": "Direction"} if multi_dir else None,
                "tooltip": tooltip, "reference": {"data": ref, "y": "line", "label_field": "line_text", "title": "Line rate"}, "limits": limits}
    return {"id": f"{test_id}-throughput", "test": test_id, "type": "lines", "title": f"{test['title']}: throughput", "subtitle": "dashed: theoretical line rate",
            "caption": f"Throughput per frame size; the dashed line is the line rate of {test['ports']} × {test['port_speed']}.",
            "alt": alt, "data": data, "x": {"field": "frame", "title": "Frame size (bytes)", "type": "O"},
            "y": {"field": "value", "title": ytitle, "scale": "log" if max(d["value"] for d in data) / max(min(d["value"] for d in data), 1e-12) > 50 else "linear", "zero": False},
            "series": {"field": "series", "title": ""}, "tooltip": tooltip,
            "reference": {"data": ref, "x": "frame", "y": "line", "label_field": "line_text", "title": "Line rate"}, "limits": limits}


def latency_chart(summary: dict[str, Any], test_id: str) -> dict[str, Any] | None:
    """Minimum, average and maximum latency at the throughput rate per frame size."""
    test, _ = _test_meta(summary, test_id)
    rows = [r for r in _throughput_rows(summary, test_id) if r.get("frame_size") and any(m in r["cells"] for m in ("latency_min", "latency_avg", "latency_max"))]
    if len(rows) < 2:
        return None
    rows.sort(key=_row_order(summary, test_id))
    values = [r["cells"][m]["value"] for r in rows for m in ("latency_min", "latency_avg", "latency_max") if m in r["cells"]]
    sym, factor = _unit("time", values)
    data = []
    names = {"latency_min": "minimum", "latency_avg": "average", "latency_max": "maximum"}
    for r in rows:
        for m, name in names.items():
            if m in r["cells"]:
                data.append({"frame": frame_label(r), "series": name, "value": r["cells"][m]["value"] / factor, "printed": _shown(r, m)})
    loads = sorted({r["load_pct"] for r in rows if r.get("load_pct") is not None})
    at = ("at the throughput rate" if not loads else  # fixed-rate runs say the load they ran at
          f"at {', '.join(formatting.published(format(v, 'g')) for v in loads)} % load")
    return {"id": f"{test_id}-latency", "test": test_id, "type": "lines", "title": f"{test['title']}: latency {at}",
            "caption": f"Minimum, average and maximum latency per frame size, {at}.",
            "alt": f"{test['title']}: latency per frame size. " + "; ".join(f"{d['frame']} bytes {d['series']} {d['printed']}" for d in data),
            "data": data, "x": {"field": "frame", "title": "Frame size (bytes)", "type": "O"}, "y": {"field": "value", "title": f"Latency ({sym})"},
            "series": {"field": "series", "title": ""}, "series_order": ["minimum", "average", "maximum"],
            "tooltip": [{"field": "frame", "title": "Frame size"}, {"field": "series", "title": ""}, {"field": "printed", "title": "Latency"}]}


def load_chart(summary: dict[str, Any], test_id: str, metric: str) -> dict[str, Any] | None:
    """A metric (maximum jitter, latency) against offered load, one line per frame size."""
    from wirespeed.presentation.tables.results import metric_label

    test, _ = _test_meta(summary, test_id)
    rows = [r for r in summary["rows"] if r["test_id"] == test_id and r["load_pct"] is not None and metric in r["cells"]]
    if len({r["load_pct"] for r in rows}) < 2:
        return None
    rows.sort(key=_row_order(summary, test_id))
    sym, factor = _unit("time", [r["cells"][metric]["value"] for r in rows])
    order = list(dict.fromkeys(frame_label(r) for r in rows))
    data = [{"load": r["load_pct"], "series": frame_label(r), "value": r["cells"][metric]["value"] / factor, "printed": _shown(r, metric),
             "load_text": _pct(r["load_pct"])} for r in rows]
    loads = sorted({r["load_pct"] for r in rows})
    label = metric_label(metric)
    return {"id": f"{test_id}-{metric.replace('_', '-')}-vs-load", "test": test_id, "type": "lines", "title": f"{test['title']}: {label.lower()} vs load",
            "caption": f"{label} at {', '.join(formatting.published(f'{l:g}') for l in loads)} % of line rate, one line per frame size.",
            "alt": f"{test['title']}: {label.lower()} against offered load for frame sizes {', '.join(order)} bytes. "
                   + "; ".join(f"{d['series']} bytes at {d['load_text']}: {d['printed']}" for d in data),
            "data": data, "x": {"field": "load", "title": "Offered load (% of line rate)", "ticks": loads, "zero": True},
            "y": {"field": "value", "title": f"{label} ({sym})"}, "series": {"field": "series", "title": "Frame size (bytes)"}, "series_order": order,
            "tooltip": [{"field": "series", "title": "Frame size"}, {"field": "load_text", "title": "Load"}, {"field": "printed", "title": label}]}


def comparison_chart(summary: dict[str, Any], comparison: dict[str, Any]) -> dict[str, Any] | None:
    """Grouped bars of the first metric of a declared comparison, one bar per compared test."""
    from wirespeed.presentation.tables.results import DERIVED_FIELDS, metric_label

    tests = comparison["tests"]
    labels = comparison.get("labels") or tests
    metric = (comparison.get("metrics") or ["throughput"])[0]
    rows = []
    for tid, label in zip(tests, labels):
        for r in sorted(comparison_rows(summary, comparison, tid), key=_row_order(summary, tid)):
            value = r["cells"][metric]["value"] if metric in r["cells"] else r.get(DERIVED_FIELDS.get(metric, ""), None)
            if value is None:
                continue
            rows.append((label, r, value))
    if not rows:
        return None
    from wirespeed.catalog.columns import METRICS

    sym, factor = _unit(METRICS[metric].dimension, [v for _, _, v in rows], _published_unit([r for _, r, _ in rows], metric))
    multi_var = len({r.get("variant") for _, r, _ in rows}) > 1
    multi_dir = len({r.get("direction") for _, r, _ in rows}) > 1
    data = []
    for label, r, v in rows:
        cat = frame_label(r) or label
        if multi_var and r.get("variant"):
            cat += f" {r['variant']}"
        if multi_dir:
            cat += f" {r['direction'][:3]}"
        data.append({"category": cat, "series": label, "value": v / factor,
                     "printed": _shown(r, metric) or f"{qualified.text(v / factor, qualified.of_derived(r, metric))} {sym} (derived)"})
    has_frames = any(frame_label(r) for _, r, _ in rows)
    title = metric_label(metric)
    return {"id": f"{comparison['id']}-chart", "type": "bars", "title": comparison["title"],
            "caption": f"{title} side by side: {'; '.join(labels)}.",
            "alt": f"{comparison['title']}: {title.lower()} for {', '.join(labels)}. " + "; ".join(f"{d['series']} {d['category']}: {d['printed']}" for d in data),
            "data": data, "x": {"field": "category", "title": "Frame size (bytes)" if has_frames else ""},
            "y": {"field": "value", "title": f"{title} ({sym})"},
            "group": {"field": "series", "title": ""}, "group_order": list(labels),
            "tooltip": [{"field": "category", "title": ""}, {"field": "series", "title": ""}, {"field": "printed", "title": title}]}


def ramp_chart(samples: list[dict[str, Any]], test: dict[str, Any], onset_s: float | None) -> dict[str, Any]:
    """Transmitted and received frames per second over a ramp, with the loss onset marked."""
    sym, factor = _unit("frame_rate", [s["tx_rate_fps"] for s in samples if s["tx_rate_fps"]])
    data = []
    for s in samples:
        for name, field in (("transmitted", "tx_rate_fps"), ("received", "rx_rate_fps")):
            if s.get(field) is not None:
                data.append({"t": s["t_s"], "series": name, "value": s[field] / factor, "printed": f"{formatting.derived(s[field] / factor, 3)} {sym}"})
    marks = [{"x_field": "t", "t": onset_s, "label": f"loss onset at {onset_s:g} s"}] if onset_s is not None else []
    return {"id": f"{test['id']}-ramp", "test": test["id"], "type": "lines", "title": f"{test['title']}: rate ramp",
            "caption": "Frames per second sent and received each second of the ramp and hold; the rule marks the first second with loss above 0.1 %.",
            "alt": f"{test['title']}: transmitted and received {sym} over {len(samples)} one-second samples"
                   + (f"; loss starts at {onset_s:g} s." if onset_s is not None else "; no loss."),
            "data": data, "x": {"field": "t", "title": "Time since ramp start (s)", "zero": True}, "y": {"field": "value", "title": f"Rate ({sym})"},
            "series": {"field": "series", "title": ""}, "series_order": ["transmitted", "received"], "marks": marks,
            "tooltip": [{"field": "t", "title": "Second", "type": "Q"}, {"field": "series", "title": ""}, {"field": "printed", "title": "Rate"}]}


def histogram_chart(buckets: list[dict[str, Any]], test: dict[str, Any], frame: str, load: float | None = None) -> dict[str, Any]:
    """Latency histogram with its cumulative distribution."""
    total = sum(b["count_frames"] for b in buckets) or 1
    cum = 0.0
    data = []
    for b in buckets:
        cum += b["count_frames"]
        data.append({"low": b["bucket_low_us"], "high": b["bucket_high_us"], "count": b["count_frames"], "cumulative": cum / total * 100})
    at = f", {_pct(load)} load" if load is not None else ""
    ident = f"{test['id']}-{frame}" + (f"-{format(load, 'g').replace('.', '_')}pct" if load is not None else "")
    return {"id": f"{ident}-latency-histogram", "test": test["id"], "type": "histogram", "title": f"{test['title']}: latency distribution ({frame}-byte frames{at})",
            "caption": "Frames per latency bucket (bars) and the cumulative share of frames (dashed line).",
            "alt": f"Latency histogram of {int(total):,} frames from {data[0]['low']:g} to {data[-1]['high']:g} µs.",
            "data": data, "x_title": "Latency (µs)", "y_title": "Frames"}


SAMPLE_SERIES = ("goodput", "rtt_avg", "cwnd", "retransmits", "interarrival_jitter")


def samples_chart(samples: list[dict[str, Any]], test: dict[str, Any], metric: str) -> dict[str, Any] | None:
    """One per-interval metric over time (e.g. an iperf3 run's goodput or RTT each second), one line per port."""
    from wirespeed.catalog.columns import METRICS
    from wirespeed.engine.units import CANONICAL

    m = METRICS[metric]
    field = f"{metric}_{CANONICAL[m.dimension]}"
    pts = sorted((s for s in samples if s["test_id"] == test["id"] and s.get(field) is not None), key=lambda s: (str(s.get("port")), s["t_s"]))
    if not pts:
        return None
    sym, factor = _unit(m.dimension, [s[field] for s in pts])
    data = [{"t": s["t_s"], "series": s.get("port") or m.label, "value": s[field] / factor,
             "printed": f"{formatting.derived(s[field] / factor, formatting.significant_decimals([s[field] / factor]))} {sym}"} for s in pts]
    series = list(dict.fromkeys(d["series"] for d in data))
    return {"id": f"{test['id']}-{metric.replace('_', '-')}-samples", "test": test["id"], "type": "lines", "title": f"{test['title']}: {m.label.lower()} per interval",
            "caption": f"{m.description} One point per interval the instrument reported, at the interval's start.",
            "alt": f"{test['title']}: {m.label.lower()} in {sym} over {len(pts)} intervals, from {min(d['value'] for d in data):g} to {max(d['value'] for d in data):g} {sym}.",
            "data": data, "x": {"field": "t", "title": "Time since the start (s)", "zero": True}, "y": {"field": "value", "title": f"{m.label} ({sym})"},
            "series": {"field": "series", "title": ""}, "series_order": series, "marks": [],
            "tooltip": [{"field": "t", "title": "Second", "type": "Q"}, {"field": "series", "title": ""}, {"field": "printed", "title": m.label}]}
