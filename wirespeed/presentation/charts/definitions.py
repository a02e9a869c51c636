"""Chart definitions (plain data) from a result set summary: what the notebooks draw.

Values come from the same catalog rows as the tables; each point's tooltip carries the figure as
printed, so a chart and its table cannot disagree.
"""

from __future__ import annotations

import statistics
from typing import Any

from wirespeed.catalog.headline_choice import repeats_of
from wirespeed.engine import number_style
from wirespeed.presentation import formatting
from wirespeed.engine import qualified
from wirespeed.engine import ramp, rfc2544
from wirespeed.presentation import chartstyle
from wirespeed.presentation.tables.results import _row_order, _test_meta, _throughput_rows, frame_label, machine_unit
from wirespeed.presentation.tables.comparison import comparison_rows
from wirespeed.engine.units import UNITS
from wirespeed.presentation.charts import better
from wirespeed.presentation.charts.limits import say_bounds


def _unit(dimension: str, values: list[float], published: str | None = None) -> tuple[str, float]:
    """The axis unit: the unit the source printed this quantity in (one unit family per quantity), else a readable one."""
    name = published or number_style.pick_unit(dimension, values)
    return UNITS[name].symbol, float(UNITS[name].factor)


def _published_unit(rows: list[dict[str, Any]], metric: str) -> str | None:
    """The unit most of the rows' published cells of `metric` use, if any."""
    units = [r["cells"][metric]["unit"] for r in rows if metric in r["cells"]]
    return max(sorted(set(units)), key=units.count) if units else None


def _shown(summary: dict[str, Any], row: dict[str, Any], metric: str) -> str:
    c = row["cells"].get(metric)
    return f"{number_style.published(c['text'], c['qualifier'], machine_unit(summary, c))} {c['unit_symbol']}" if c else ""


def _pct(value: float) -> str:
    return number_style.plain(value) + " %"


def _series_name(row: dict[str, Any], multi_dir: bool, multi_var: bool, multi_port: bool = False) -> str:
    parts = []
    if multi_dir:
        parts.append(row["direction"] or "")
    if multi_var and row.get("variant"):
        parts.append(row["variant"])
    if multi_port:
        parts.append(f"port {row['port']}" if row.get("port") is not None else "all ports")
    return ", ".join(parts) or "throughput"


def _whole_device(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of the whole device's figures, where a test has them beside each port's (NFVbench's result of a run and of
    each port direction, "0->1" and "1->0"): a chart of the device draws those, and each port's figures stay in the
    results table. Never one point made of the device's and its ports' figures as if they were repeated trials. A test
    of ports' rows only keeps them all, a series a port."""
    if any(r.get("port") is None for r in rows) and any(r.get("port") is not None for r in rows):
        return [r for r in rows if r.get("port") is None]
    return rows


def _time_unit(values_s: list[float]) -> tuple[str, float]:
    """Axis unit of a time quantity chosen by magnitude (ms, µs, ns: never "52,000 µs")."""
    name = chartstyle.time_unit(values_s)
    return UNITS[name].symbol, float(UNITS[name].factor)


def throughput_chart(summary: dict[str, Any], test_id: str, view: str = "percent") -> dict[str, Any] | None:
    """Throughput per frame size (ascending), one series per direction and variant: as % of line rate on a linear
    axis (view="percent", the default) or in frames/s (view="absolute"), with the line rate and any declared
    forwarding cap drawn over the data as labelled references. None when there is a single point (the table says it)."""
    test, method = _test_meta(summary, test_id)
    rows = _whole_device([r for r in _throughput_rows(summary, test_id) if r.get("throughput_fps") is not None and (r.get("frame_size") or r.get("imix"))])
    nominal = bool(rows) and all(r.get("line_rate_fps") is None for r in rows)  # ports without a line rate (port_speed_nominal)
    if view == "percent" and not nominal:
        rows = [r for r in rows if r.get("throughput_pct_line_rate") is not None]
    if len(rows) < 2:
        return None
    rows.sort(key=lambda r: (chartstyle.frame_key(frame_label(r)), _row_order(summary, test_id)(r)))
    spread = [r for r in rows if r.get("trial") is None and "throughput_min" in r["cells"] and "throughput_max" in r["cells"]]
    searches: dict[tuple, int] = {}  # how many searches each point sums up (N)
    if spread:  # repeated searches: their mean with an error bar from the lowest to the highest, not one point per search
        for r in rows:
            if r.get("trial") is not None:
                k = (frame_label(r), r.get("direction"), r.get("variant"), r.get("port"))
                searches[k] = searches.get(k, 0) + 1
        rows = [r for r in rows if r.get("trial") is None]
    multi_dir = len({r["direction"] for r in rows}) > 1
    multi_var = len({r["variant"] for r in rows}) > 1
    multi_port = len({r.get("port") for r in rows}) > 1  # each port's throughput (a run without the device's own): a series a port
    absolute = view == "absolute"
    # a device far below its ports' line rate (chartstyle.FLAT_PCT): % of line rate would flatten every mark, so frames/s, line rate not drawn
    far = max(r["throughput_pct_line_rate"] or 0 for r in rows) < chartstyle.FLAT_PCT if all(r.get("throughput_pct_line_rate") is not None for r in rows) else False
    absolute = absolute or far or nominal
    sym, factor = (_unit("frame_rate", [r["throughput_fps"] for r in rows] + [r["line_rate_fps"] for r in rows if r["line_rate_fps"] is not None],
                         _published_unit(rows, "throughput"))
                   if absolute else ("%", 1.0))
    data, ref = [], []
    for r in rows:
        fs = frame_label(r)
        value = r["throughput_fps"] / factor if absolute else r["throughput_pct_line_rate"]
        data.append({"frame": fs, "series": _series_name(r, multi_dir, multi_var, multi_port), "value": value, "bound": qualified.throughput_bound(r),
                     "printed": _shown(summary, r, "throughput") or _shown(summary, r, "throughput_l1") or _shown(summary, r, "throughput_l2")
                     or f"{qualified.text(r['throughput_fps'] / (factor if absolute else 1), qualified.of_derived(r, 'throughput'))} {sym if absolute else 'frames/s'} (derived)",
                     "pct": _shown(summary, r, "throughput_line_rate") or ("" if r.get("throughput_pct_line_rate") is None else
                                                                  f"{qualified.text(r['throughput_pct_line_rate'], qualified.of_derived(r, 'throughput_line_rate'))} % (derived)")})
        if spread and "throughput_min" in r["cells"] and "throughput_max" in r["cells"]:
            low, high = r["cells"]["throughput_min"]["value"], r["cells"]["throughput_max"]["value"]
            scale = (lambda v: v / factor) if absolute else (lambda v: v / r["line_rate_fps"] * 100)  # % from the catalog's line rate column
            values = sorted(x["throughput_fps"] for x in repeats_of(r, summary["rows"]) if x.get("throughput_fps") is not None)
            searched = searches.get((fs, r.get("direction"), r.get("variant"), r.get("port")))
            n = f" ({len(values)} {'searches' if rfc2544.searched(method) else 'trials'}, median {number_style.derived(statistics.median(values), 0)} frames/s)" if len(values) > 1 else ""
            data[-1].update({"low": scale(low), "high": scale(high), "n": searched, "range": f"{_shown(summary, r, 'throughput_min')} – {_shown(summary, r, 'throughput_max')}{n}"})
        if absolute and r["line_rate_fps"] is not None:
            ref.append({"frame": fs, "line": r["line_rate_fps"] / factor, "line_text": f"{qualified.text(r['line_rate_fps'] / factor, qualified.Qualified())} {sym}"})
    frames = chartstyle.ascending_frames(d["frame"] for d in data)
    if len(frames) < 2 and len(data) < 2:
        return None
    if not absolute:
        ref = [{"frame": f, "line": 100.0, "line_text": "100 % (line rate)"} for f in frames]
    limits = []
    cap = summary["meta"]["dut"].get("forwarding_cap_pps")
    capped = [r for r in rows if r.get("max_theoretical_fps") is not None and r["max_theoretical_fps"] < r["line_rate_fps"]]
    cap_text = f"{number_style.plain(cap)} frames/s" if cap else ""
    cap_ref = None
    if cap and capped:
        if absolute:
            limits.append({"value": cap / factor, "label": f"forwarding limit {number_style.plain(cap / factor)} {sym}"})
        else:  # the cap as a share of each frame size's line rate (catalog columns), where it binds
            cap_ref = {"data": [{"frame": frame_label(r), "cap": min(100.0, r["max_theoretical_fps"] / r["line_rate_fps"] * 100),
                                 "cap_text": f"forwarding limit {cap_text}"} for r in rows if r.get("max_theoretical_fps")],
                       "x": "frame", "y": "cap", "label_field": "cap_text", "title": "Forwarding limit", "label": "forwarding limit", "label_at": 0.0, "label_dy": -14, "dash": [2, 2]}
    unit_words = f"in {sym}" if absolute else "as % of line rate"
    alt_text = (f"{test['title']}: throughput per frame size {unit_words}, against the theoretical line rate of "
                f"{test['ports']} × {test['port_speed']} ports" + (f" and the declared forwarding limit of {cap_text}" if cap and capped else "") + ". "
                + "; ".join(f"{d['frame']} bytes{' ' + d['series'] if multi_dir or multi_var or multi_port else ''}: {d['printed']}, {d['pct']}" for d in data))
    tooltip = [{"field": "frame", "title": "Frame size"}, {"field": "series", "title": "Series"}, {"field": "printed", "title": "Throughput"},
               {"field": "pct", "title": "% of line rate"}] + ([{"field": "range", "title": "Range over the searches"}] if spread else [])
    defn = {"id": f"{test_id}-throughput" + ("-absolute" if view == "absolute" else ""), "test": test_id, "title": f"{test['title']}: throughput",
            "subtitle": "dashed: line rate" + (" · dotted: forwarding limit" if cap and capped else ""),
            "caption": f"Throughput per frame size {unit_words}; the dashed line is the line rate of {test['ports']} × {test['port_speed']}"
                       + (f", the dotted one the declared forwarding limit ({cap_text})" if cap and capped else "") + ".",
            "alt": alt_text, "data": data, "tooltip": tooltip, "limits": limits, "better": "higher",
            "y": {"field": "value", "title": f"Throughput ({sym})" if absolute else "Throughput (% of line rate)", "zero": True}}
    if nominal:
        ref = []
        defn.update({"subtitle": "no line rate: the ports have none",
                     "caption": f"Throughput per frame size {unit_words}. The ports have no line rate of their own ({test['port_speed']} is only a label), so none is drawn.",
                     "alt": f"{test['title']}: throughput per frame size {unit_words}; the ports have no line rate. "
                            + "; ".join(f"{d['frame']} bytes{' ' + d['series'] if multi_dir or multi_var or multi_port else ''}: {d['printed']}" for d in data),
                     "tooltip": [t for t in tooltip if t["field"] != "pct"]})
    elif far:
        ref = []
        flat = number_style.plain(chartstyle.FLAT_PCT)
        defn.update({"subtitle": f"line rate not drawn: all under {flat} % of it",
                     "caption": f"Throughput per frame size {unit_words}; all under {flat} % of the line rate of {test['ports']} × {test['port_speed']}, which is not drawn."})
    if spread:
        ns = sorted({d["n"] for d in data if d.get("n")})
        of = (f"N = {ns[0]} searches" if len(ns) == 1 else f"N = {ns[0]}–{ns[-1]} searches") if ns else "the repeated searches"
        defn.update({"error": {"low": "low", "high": "high"}, "subtitle": defn["subtitle"] + f" · error bars: lowest to highest of {of}"})
        defn["caption"] += f" Each point is the mean of {of}; its bar runs from the lowest to the highest."
    say_bounds(defn, method.get("limited_by") == "generator")
    if not absolute:
        defn["y"].update({"zero": True, "domain": [0, max(105.0, max(d["value"] for d in data) * 1.02)]})
    series = {"field": "series", "title": "Direction" if multi_dir and not multi_var else ("Variant" if multi_var and not multi_dir else "")}
    if len(frames) < 2:  # one frame size, several series: bars side by side
        return {**defn, "type": "bars", "x": {"field": "series", "title": ""}, "x_order": chartstyle.present(None, data, "series"),
                "reference": {"data": [{"series": d["series"], "line": 100.0 if not absolute else ref[i]["line"],
                                        "line_text": "100 % (line rate)" if not absolute else ref[i]["line_text"]} for i, d in enumerate(data)],
                              "y": "line", "label_field": "line_text", "title": "Line rate"} if ref or not absolute else None}
    refs = [cap_ref] if cap_ref else []
    return {**defn, "type": "lines", "x": {"field": "frame", "title": "Frame size (bytes)", "type": "O"}, "x_order": frames,
            "series": series, "series_order": chartstyle.present(None, data, "series"),
            "reference": {"data": ref, "x": "frame", "y": "line", "label_field": "line_text", "title": "Line rate", "label": "line rate"} if ref else None,
            "references": refs}


def latency_chart(summary: dict[str, Any], test_id: str) -> dict[str, Any] | None:
    """Minimum, average and maximum latency at the throughput rate per frame size."""
    test, _ = _test_meta(summary, test_id)
    rows = _whole_device([r for r in _throughput_rows(summary, test_id) if r.get("frame_size") and any(m in r["cells"] for m in ("latency_min", "latency_avg", "latency_max"))])
    if len(rows) < 2 or len({frame_label(r) for r in rows}) < 2:
        return None  # latency over frame size needs two sizes; one is in the table
    rows.sort(key=lambda r: (chartstyle.frame_key(frame_label(r)), _row_order(summary, test_id)(r)))
    values = [r["cells"][m]["value"] for r in rows for m in ("latency_min", "latency_avg", "latency_max") if m in r["cells"]]
    sym, factor = _time_unit(values)
    data = []
    names = {"latency_min": "minimum", "latency_avg": "average", "latency_max": "maximum"}
    multi_dir = len({r["direction"] for r in rows}) > 1
    multi_var = len({r["variant"] for r in rows}) > 1
    multi_port = len({r.get("port") for r in rows}) > 1
    points: dict[tuple, list[dict[str, Any]]] = {}  # repeated trials of one point: their median, with the spread in the tooltip
    for r in rows:
        points.setdefault((frame_label(r), r.get("direction"), r.get("variant"), r.get("port"), r.get("component"), r.get("load_pct")), []).append(r)
    repeated = False
    for group in points.values():
        r = group[0]
        who = _series_name(r, multi_dir, multi_var, multi_port) if multi_dir or multi_var or multi_port else ""
        for m, name in names.items():
            cells = [x["cells"][m] for x in group if m in x["cells"]]
            if not cells:
                continue
            if len(cells) == 1:
                value, printed = cells[0]["value"] / factor, _shown(summary, group[0] if m in group[0]["cells"] else next(x for x in group if m in x["cells"]), m)
            else:
                repeated = True
                vals = sorted(c["value"] / factor for c in cells)
                decimals = formatting.derived_decimals(m, vals)
                value = statistics.median(vals)
                printed = (f"{number_style.derived(value, decimals)} {sym}, median of {len(vals)} trials "
                           f"({number_style.derived(vals[0], decimals)} to {number_style.derived(vals[-1], decimals)})")
            data.append({"frame": frame_label(r), "series": f"{name}, {who}" if who else name, "value": value, "printed": printed})
    loads = sorted({r["load_pct"] for r in rows if r.get("load_pct") is not None})
    at_rate = all(r.get("throughput_fps") is not None or r.get("load_pct") is not None for r in rows) or not any(r.get("trial") is not None for r in rows)
    at = (f"at {', '.join(number_style.plain(v) for v in loads)} % load" if loads else  # fixed-rate runs say the load they ran at
          "at the throughput rate" if at_rate else "at each trial's own rate (in the table)")
    at += ", median of the repeated trials" if repeated else ""
    return {"id": f"{test_id}-latency", "test": test_id, "type": "lines", "title": f"{test['title']}: latency {at}", "better": "lower",
            "caption": f"Minimum, average and maximum latency per frame size, {at}.",
            "alt": f"{test['title']}: latency per frame size. " + "; ".join(f"{d['frame']} bytes {d['series']} {d['printed']}" for d in data),
            "data": data, "x": {"field": "frame", "title": "Frame size (bytes)", "type": "O"}, "y": {"field": "value", "title": f"Latency ({sym})"},
            "series": {"field": "series", "title": ""}, "x_order": chartstyle.ascending_frames(d["frame"] for d in data),
            "series_order": sorted(dict.fromkeys(d["series"] for d in data), key=lambda n: (["minimum", "average", "maximum"].index(n.split(",")[0]), n)),
            "tooltip": [{"field": "frame", "title": "Frame size"}, {"field": "series", "title": ""}, {"field": "printed", "title": "Latency"}]}


def _apart(loads: list[float], most: int = 8, gap: float = 0.08) -> bool:
    """Whether an axis can tick at each of these loads, each label legible: a few, none closer to the next than `gap`
    of the axis (from zero to the highest). Else the axis takes round ticks of its own: NFVbench's characterization
    runs measure each frame size at loads of its own (0.27, 2.57, 4.47 … %), whose labels ran into each other."""
    top = max(loads, default=0.0)
    return 0 < len(loads) <= most and top > 0 and all(b - a >= gap * top for a, b in zip(loads, loads[1:]))


def load_chart(summary: dict[str, Any], test_id: str, metric: str) -> dict[str, Any] | None:
    """A metric (maximum jitter, latency) against offered load, one line per frame size."""
    from wirespeed.presentation.tables.results import metric_label

    test, _ = _test_meta(summary, test_id)
    rows = _whole_device([r for r in summary["rows"] if r["test_id"] == test_id and r["load_pct"] is not None and metric in r["cells"]])
    if len({r["load_pct"] for r in rows}) < 2:
        return None
    rows.sort(key=lambda r: (chartstyle.frame_key(frame_label(r)), _row_order(summary, test_id)(r)))
    sym, factor = _time_unit([r["cells"][metric]["value"] for r in rows])
    order = chartstyle.ascending_frames(frame_label(r) for r in rows)
    apart = [len({r.get(k) for r in rows}) > 1 for k in ("direction", "variant", "port")]  # what tells the lines of one frame size apart
    data = [{"load": r["load_pct"], "series": frame_label(r) + (f" ({_series_name(r, *apart)})" if any(apart) else ""),
             "value": r["cells"][metric]["value"] / factor, "printed": _shown(summary, r, metric), "load_text": _pct(r["load_pct"])} for r in rows]
    order = sorted(dict.fromkeys(d["series"] for d in data), key=chartstyle.frame_key)
    loads = sorted({r["load_pct"] for r in rows})
    label = metric_label(metric)
    return {"id": f"{test_id}-{metric.replace('_', '-')}-vs-load", "test": test_id, "type": "lines", "title": f"{test['title']}: {label.lower()} vs load",
            "better": better(metric),
            "caption": f"{label} at {', '.join(number_style.plain(l) for l in loads)} % of line rate, one line per frame size.",
            "alt": f"{test['title']}: {label.lower()} against offered load for frame sizes {', '.join(order)} bytes. "
                   + "; ".join(f"{d['series']} bytes at {d['load_text']}: {d['printed']}" for d in data),
            "data": data, "x": {"field": "load", "title": "Offered load (% of line rate)", "zero": True,
                                **({"ticks": loads} if _apart(loads) else {})},
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
    from wirespeed.engine.columns import METRICS

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
                     "printed": _shown(summary, r, metric) or f"{qualified.text(v / factor, qualified.of_derived(r, metric))} {sym} (derived)"})
    has_frames = any(frame_label(r) for _, r, _ in rows)
    title = metric_label(metric)
    return {"id": f"{comparison['id']}-chart", "type": "bars", "title": comparison["title"], "better": better(metric),
            "caption": f"{title} side by side: {'; '.join(labels)}.",
            "alt": f"{comparison['title']}: {title.lower()} for {', '.join(labels)}. " + "; ".join(f"{d['series']} {d['category']}: {d['printed']}" for d in data),
            "data": data, "x": {"field": "category", "title": "Frame size (bytes)" if has_frames else ""},
            "y": {"field": "value", "title": f"{title} ({sym})"},
            "group": {"field": "series", "title": ""}, "group_order": list(labels),
            "tooltip": [{"field": "category", "title": ""}, {"field": "series", "title": ""}, {"field": "printed", "title": title}]}


def _ramp_series(s: dict[str, Any], multi: bool) -> str:
    return " ".join(str(x) for x in (s.get("variant"), s.get("direction"), s.get("port")) if x) if multi else ""


def ramp_chart(samples: list[dict[str, Any]], test: dict[str, Any], onset_s: float | None,
               line_rate_fps: float | None = None, cap_fps: float | None = None) -> dict[str, Any]:
    """A ramp: frames per second sent and received per variant (each its own series), the offered load and the
    line rate (and a declared forwarding cap) as labelled references, the loss onset marked, and the loss % of
    every sample on a second panel below sharing the time axis."""
    rated = [s for s in samples if s.get("tx_rate_fps") is not None]
    sym, factor = _unit("frame_rate", [s["tx_rate_fps"] for s in rated if s["tx_rate_fps"]] + ([line_rate_fps] if line_rate_fps else []))
    multi = len({(s.get("variant"), s.get("direction"), s.get("port")) for s in rated}) > 1
    data, loss, offered = [], [], []
    # one number rule (formatting.derived_decimals), per figure: every rate of the chart in its unit, loss as a loss share
    def rate_text(v: float) -> str:
        return number_style.derived(v, formatting.derived_decimals("throughput", [v]))

    loss_dec = formatting.derived_decimals("loss", [])
    line_dec = formatting.derived_decimals("line_rate", [line_rate_fps / factor]) if line_rate_fps else 0
    for s in sorted(rated, key=lambda s: (_ramp_series(s, multi), s["t_s"])):
        who = _ramp_series(s, multi)
        for name, field in (("sent", "tx_rate_fps"), ("received", "rx_rate_fps")):
            if s.get(field) is not None:
                data.append({"t": s["t_s"], "series": f"{who} {name}".strip(), "value": s[field] / factor,
                             "printed": f"{rate_text(s[field] / factor)} {sym}"})
        if s.get("rx_rate_fps") is not None and s["tx_rate_fps"]:
            pct = s["loss_pct"] if s.get("loss_pct") is not None else ramp.loss_pct(s["tx_rate_fps"], s["rx_rate_fps"])
            loss.append({"t": s["t_s"], "series": f"{who} loss".strip(), "value": pct, "printed": f"{number_style.derived(pct, loss_dec)} %"})
        if s.get("offered_rate_fps") is not None and not multi:
            offered.append({"t": s["t_s"], "offered": s["offered_rate_fps"] / factor,
                            "offered_text": f"{rate_text(s['offered_rate_fps'] / factor)} {sym}"})
    marks = [{"x_field": "t", "t": onset_s, "label": f"loss onset {number_style.plain(onset_s)} s"}] if onset_s is not None else []
    refs = []
    if offered:
        refs.append({"data": offered, "x": "t", "y": "offered", "label_field": "offered_text", "title": "Offered load", "label": "offered load", "label_at": 0.65, "label_dy": 16})
    if line_rate_fps:
        refs.append({"data": [{"line": line_rate_fps / factor, "line_text": f"{number_style.derived(line_rate_fps / factor, line_dec)} {sym}"}],
                     "y": "line", "label_field": "line_text", "title": "Line rate", "label": "line rate", "label_at": 0.0})
    limits = [{"value": cap_fps / factor, "label": f"forwarding limit {number_style.derived(cap_fps / factor, formatting.derived_decimals('line_rate', [cap_fps / factor]))} {sym}"}] if cap_fps else []
    order = [n for who in dict.fromkeys(_ramp_series(s, multi) for s in rated) for n in (f"{who} sent".strip(), f"{who} received".strip())]
    n = len(rated)
    return {"id": f"{test['id']}-ramp", "test": test["id"], "type": "lines", "title": f"{test['title']}: rate ramp", "better": "received: higher is better, loss: lower",
            "subtitle": "dashed: offered load and line rate" if offered and line_rate_fps else "",
            "caption": "Frames per second sent and received each second of the ramp and hold, with the offered load and the line rate; "
                       "the rule marks the first second with loss above 0.1 %; the lower panel is each second's loss.",
            "alt": f"{test['title']}: sent and received {sym} over {n} one-second samples"
                   + (f", against a line rate of {number_style.derived(line_rate_fps / factor, line_dec)} {sym}" if line_rate_fps else "")
                   + (f"; loss starts at {number_style.plain(onset_s)} s" if onset_s is not None else "; no loss")
                   + (f", peaking at {number_style.derived(max(d['value'] for d in loss), loss_dec)} %." if loss else "."),
            "data": data, "x": {"field": "t", "title": "Time since ramp start (s)", "zero": True}, "y": {"field": "value", "title": f"Rate ({sym})"},
            "series": {"field": "series", "title": ""}, "series_order": order, "marks": marks, "references": refs, "limits": limits,
            "tooltip": [{"field": "t", "title": "Second", "type": "Q"}, {"field": "series", "title": ""}, {"field": "printed", "title": "Rate"}],
            "panel": {"data": loss, "y": {"field": "value", "title": "Loss (%)", "zero": True}, "series": {"field": "series", "title": ""}, "height": 120,
                      "tooltip": [{"field": "t", "title": "Second", "type": "Q"}, {"field": "series", "title": ""}, {"field": "printed", "title": "Loss"}]}
            if loss else None}


def ramp_latency_chart(samples: list[dict[str, Any]], test: dict[str, Any]) -> dict[str, Any] | None:
    """Average latency each second of a ramp, per variant, when the samples carry it (None otherwise)."""
    pts = [s for s in samples if s.get("latency_avg_s") is not None]
    if len(pts) < 2:
        return None
    sym, factor = _time_unit([s["latency_avg_s"] for s in pts])
    multi = len({(s.get("variant"), s.get("direction"), s.get("port")) for s in pts}) > 1
    data = [{"t": s["t_s"], "series": _ramp_series(s, multi) or "average latency", "value": s["latency_avg_s"] / factor,
             "printed": f"{number_style.derived(s['latency_avg_s'] / factor, number_style.significant_decimals([s['latency_avg_s'] / factor]))} {sym}"}
            for s in sorted(pts, key=lambda s: (_ramp_series(s, multi), s["t_s"]))]
    return {"id": f"{test['id']}-ramp-latency", "test": test["id"], "type": "lines", "title": f"{test['title']}: latency over the ramp", "better": "lower",
            "caption": "Average latency each second of the ramp and hold.",
            "alt": f"{test['title']}: average latency in {sym} over {len(pts)} samples, from {number_style.plain(min(d['value'] for d in data), 4)} to {number_style.plain(max(d['value'] for d in data), 4)} {sym}.",
            "data": data, "x": {"field": "t", "title": "Time since ramp start (s)", "zero": True}, "y": {"field": "value", "title": f"Latency ({sym})"},
            "series": {"field": "series", "title": ""},
            "tooltip": [{"field": "t", "title": "Second", "type": "Q"}, {"field": "series", "title": ""}, {"field": "printed", "title": "Latency"}]}


def histogram_chart(buckets: list[dict[str, Any]], test: dict[str, Any], frame: str, load: float | None = None, variant: str | None = None) -> dict[str, Any]:
    """Latency histogram with its cumulative distribution, in the time unit of its magnitude (the data table says it)."""
    from wirespeed.presentation.tables.latency_percentiles import histogram_ident, histogram_where

    total = sum(b["count_frames"] for b in buckets) or 1
    cum = 0.0
    data = []
    sym, factor = _time_unit([b["bucket_high_us"] * 1e-6 for b in buckets])  # ticks in the unit of their magnitude
    scale = 1e-6 / factor
    for b in buckets:
        cum += b["count_frames"]
        low, high = b["bucket_low_us"] * scale, b["bucket_high_us"] * scale
        data.append({"low": low, "high": high, "count": b["count_frames"], "cumulative": cum / total * 100,
                     "low_text": number_style.plain(low), "high_text": number_style.plain(high),
                     "count_text": number_style.derived(b["count_frames"], 0),
                     "cumulative_text": number_style.derived(cum / total * 100, formatting.derived_decimals("cumulative_share", []))})
    where = histogram_where(frame, load, variant)
    return {"id": f"{histogram_ident(test['id'], frame, load, variant)}-latency-histogram", "test": test["id"], "type": "histogram",
            "title": f"{test['title']}: latency distribution ({where})",
            "better": "Lower latency is better",
            "caption": "Frames per latency bucket (bars) and the cumulative share of frames (dashed line).",
            "alt": f"Latency histogram of {int(total):,} frames from {number_style.plain(data[0]['low'])} to {number_style.plain(data[-1]['high'])} {sym}.",
            "data": data, "x_title": f"Latency ({sym})", "y_title": "Frames",
            "tooltip": [{"field": "low_text", "title": f"From ({sym})"}, {"field": "high_text", "title": f"To ({sym})"},
                        {"field": "count_text", "title": "Frames"}, {"field": "cumulative_text", "title": "Cumulative share (%)"}]}


SAMPLE_SERIES = ("goodput", "rtt_avg", "cwnd", "retransmits", "interarrival_jitter")


def samples_chart(samples: list[dict[str, Any]], test: dict[str, Any], metric: str) -> dict[str, Any] | None:
    """One per-interval metric over time (e.g. an iperf3 run's goodput or RTT each second), one line per port."""
    from wirespeed.engine.columns import METRICS
    from wirespeed.engine.units import CANONICAL

    m = METRICS[metric]
    field = f"{metric}_{CANONICAL[m.dimension]}"
    pts = sorted((s for s in samples if s["test_id"] == test["id"] and s.get(field) is not None), key=lambda s: (str(s.get("port")), s["t_s"]))
    if len({s["t_s"] for s in pts}) < 2:  # one interval draws one point, not a course over time (the run's figures are in its tables)
        return None
    sym, factor = _time_unit([s[field] for s in pts]) if m.dimension == "time" else _unit(m.dimension, [s[field] for s in pts])
    def printed(v: float) -> str:  # a count (retransmitted segments) is whole; other figures by the number rule
        return number_style.derived(v, 0 if m.dimension == "count" else number_style.significant_decimals([v]))

    data = [{"t": s["t_s"], "series": s.get("port") or m.label, "value": s[field] / factor, "printed": f"{printed(s[field] / factor)} {sym}"} for s in pts]
    series = list(dict.fromkeys(d["series"] for d in data))
    y: dict[str, Any] = {"field": "value", "title": f"{m.label} ({sym})"}
    if all(d["value"] == 0 for d in data):  # nothing but zeros (no retransmits): an axis from zero up, the line on its floor
        y["domain"] = [0, 10] if m.dimension == "count" else [0, 1]  # whole ticks for a count
    return {"id": f"{test['id']}-{metric.replace('_', '-')}-samples", "test": test["id"], "type": "lines", "title": f"{test['title']}: {m.label.lower()} per interval",
            "better": better(metric),
            "caption": f"{m.description} One point per interval the instrument reported, at the interval's start.",
            "alt": f"{test['title']}: {m.label.lower()} in {sym} over {len(pts)} intervals, from {number_style.plain(min(d['value'] for d in data), 4)} to {number_style.plain(max(d['value'] for d in data), 4)} {sym}.",
            "data": data, "x": {"field": "t", "title": "Time since the start (s)", "zero": True}, "y": y,
            "series": {"field": "series", "title": ""}, "series_order": series, "marks": [],
            "tooltip": [{"field": "t", "title": "Second", "type": "Q"}, {"field": "series", "title": ""}, {"field": "printed", "title": m.label}]}
