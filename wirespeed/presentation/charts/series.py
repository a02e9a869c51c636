"""Chart type "lines": one line per series over a numeric or ordinal x, with optional references
(drawn over the data and labelled), limits, vertical marks and a second panel sharing the x axis."""

from __future__ import annotations

import math
from typing import Any

import altair as alt

from wirespeed.presentation.charts import labelplace
from wirespeed.presentation.charts.limits import bound_layers, limit_layers
from wirespeed.presentation.charts.theme import FG, HEIGHT, NUMBER, PALETTE, REFERENCE, TEXT, WIDTH
from wirespeed.presentation.chartstyle import present, series_styles


def _x(x: dict[str, Any], x_order: list[str] | None, field: str | None = None, title: Any = alt.Undefined) -> alt.X:
    f = field or x["field"]
    if x_order is not None:
        return alt.X(f"{f}:O", title=title, sort=x_order, axis=alt.Axis(labelAngle=0) if title is not alt.Undefined else alt.Undefined)
    axis = alt.Axis(format=x.get("format", NUMBER), values=x["ticks"]) if x.get("ticks") else alt.Axis(format=x.get("format", NUMBER))
    return alt.X(f"{f}:Q", title=title, scale=alt.Scale(type=x.get("scale", "linear"), zero=x.get("zero", False), nice=True),
                 axis=axis if title is not alt.Undefined else alt.Undefined)


def _series_layer(data: list[dict[str, Any]], x: dict[str, Any], y: dict[str, Any], series: dict[str, Any] | None,
                  order: list[str] | None, tooltip: list[dict[str, Any]], x_order: list[str] | None, point_size: int = 40) -> alt.Chart:
    """The data lines: each series its own colour × marker × dash (wirespeed.presentation.chartstyle)."""
    y_scale = alt.Scale(type=y.get("scale", "linear"), zero=y.get("zero", True), nice=True, domain=y.get("domain", alt.Undefined))
    enc: dict[str, Any] = {"x": _x(x, x_order, title=x["title"]), "y": alt.Y(f"{y['field']}:Q", title=y["title"], scale=y_scale, axis=alt.Axis(format=y.get("format", NUMBER))),
                           "tooltip": [alt.Tooltip(f"{t['field']}:{t.get('type', 'N')}", title=t["title"]) for t in tooltip]}
    if series:
        names = present(order, data, series["field"])
        styles = series_styles(len(names))
        title = series["title"]
        enc["color"] = alt.Color(f"{series['field']}:N", title=title, sort=names, scale=alt.Scale(domain=names, range=[PALETTE[c] for c, _, _ in styles]))
        enc["strokeDash"] = alt.StrokeDash(f"{series['field']}:N", sort=names, scale=alt.Scale(domain=names, range=[d for _, _, d in styles]), title=title)
        enc["shape"] = alt.Shape(f"{series['field']}:N", sort=names, scale=alt.Scale(domain=names, range=[s for _, s, _ in styles]), title=title)
        if len(names) == 1 and not title:
            for k in ("color", "strokeDash", "shape"):
                enc[k] = enc[k].legend(None)
    return alt.Chart(alt.Data(values=data)).mark_line(point=alt.OverlayMarkDef(size=point_size, filled=True), strokeWidth=2).encode(**enc)


def _reference_layers(ref: dict[str, Any], x: dict[str, Any], x_order: list[str] | None,
                      placed: labelplace.Placement | None = None) -> list[alt.Chart]:
    """A dashed reference (a line along x, or a rule across the plot) drawn over the data, with its label: where
    `placed` says (clear of every line: _label_places), else where the chart asks."""
    data = alt.Data(values=ref["data"])
    enc: dict[str, Any] = {"y": alt.Y(f"{ref['y']}:Q"), "tooltip": [alt.Tooltip(f"{ref.get('label_field', ref['y'])}:N", title=ref["title"])]}
    # where the label sits: "at" is a fraction of the way along the reference's points (1 = its last point),
    # so that two references of one chart label in different places
    at = float(ref.get("label_at", 1.0))
    point = ref["data"][min(len(ref["data"]) - 1, int(round(at * (len(ref["data"]) - 1))))]
    align = "right" if at >= 0.75 else "left"
    dy = ref.get("label_dy", -8)
    if placed is not None:
        point, align, dy = _ref_points(ref)[placed.index], placed.align, placed.dy
    if "x" in ref:
        enc["x"] = _x(x, x_order, field=ref["x"])
        line = alt.Chart(data).mark_line(color=REFERENCE, strokeDash=ref.get("dash", [5, 4]), strokeWidth=1.5).encode(**enc)
        label_x: Any = _x(x, x_order, field=ref["x"])
    else:
        line = alt.Chart(data).mark_rule(color=REFERENCE, strokeDash=ref.get("dash", [5, 4]), strokeWidth=1.5).encode(**enc)
        label_x = alt.value("width") if align == "right" else alt.value(0)
    label = alt.Chart(alt.Data(values=[point])).mark_text(align=align, dx=-2 if align == "right" else 2, dy=dy, fontSize=TEXT, color=REFERENCE).encode(
        x=label_x, y=alt.Y(f"{ref['y']}:Q"), text=alt.value(ref.get("label", ref["title"])))
    return [line, label]


def _ref_points(ref: dict[str, Any]) -> list[dict[str, Any]]:
    """A reference's points in the order they are drawn (a rule across the plot: its two ends)."""
    return ref["data"] if "x" in ref else [ref["data"][0], ref["data"][-1]] if ref["data"] else []


def _label_places(defn: dict[str, Any], refs: list[dict[str, Any]], x_order: list[str] | None) -> list[labelplace.Placement | None]:
    """Each reference's label place clear of every line and of the labels placed before it (labelplace.py), in the
    plot's pixels; None where the chart's own place is kept (nothing is clear, or the chart sets the label's offset)."""
    x, y = defn["x"], defn["y"]
    width, height = float(defn.get("width", WIDTH)), float(defn.get("height", HEIGHT))
    if any("x" in r and r["x"] != x["field"] for r in refs):
        return [None] * len(refs)  # another x field: positions this reading does not follow
    ys = [r.get(y["field"]) for r in defn["data"]] + [p.get(r["y"]) for r in refs for p in r["data"]]
    log_y = y.get("scale") == "log"
    fixed = y.get("domain")
    lo, hi = labelplace.nice_domain([float(v) for v in fixed] if isinstance(fixed, (list, tuple)) and len(fixed) == 2 else  # a nice scale
                                 [v for v in ys if isinstance(v, (int, float))], height, zero=y.get("zero", True), log=log_y)
    if x_order is not None:
        step = width / max(1, len(x_order))
        where = {k: (i + 0.5) * step for i, k in enumerate(x_order)}
        px = lambda v: where.get(str(v))  # noqa: E731
    else:
        xs = [r.get(x["field"]) for r in defn["data"] if isinstance(r.get(x["field"]), (int, float))]
        log_x = x.get("scale") == "log"
        x0, x1 = labelplace.nice_domain(xs, width, zero=x.get("zero", False), log=log_x)
        f = (lambda v: math.log10(v)) if log_x else (lambda v: v)  # noqa: E731
        px = lambda v: None if not isinstance(v, (int, float)) or (log_x and v <= 0) else (f(v) - f(x0)) / ((f(x1) - f(x0)) or 1) * width  # noqa: E731
    g = (lambda v: math.log10(v)) if log_y else (lambda v: v)  # noqa: E731

    def py(v: Any) -> float | None:
        if not isinstance(v, (int, float)) or (log_y and v <= 0):
            return None
        return height - (g(v) - g(lo)) / ((g(hi) - g(lo)) or 1) * height

    def polyline(rows: list[dict[str, Any]], xf: str, yf: str) -> list[tuple[float, float]]:
        pts = [(px(r.get(xf)), py(r.get(yf))) for r in rows]
        return sorted((a, b) for a, b in pts if a is not None and b is not None)

    series = defn.get("series")
    groups: dict[Any, list[dict[str, Any]]] = {}
    for r in defn["data"]:
        groups.setdefault(r.get(series["field"]) if series else None, []).append(r)
    lines = [polyline(rows, x["field"], y["field"]) for rows in groups.values()]
    ref_lines = [polyline(r["data"], r["x"], r["y"]) if "x" in r else
                 [(0.0, v), (width, v)] if (v := py(r["data"][0].get(r["y"])) if r["data"] else None) is not None else [] for r in refs]
    lines += ref_lines
    marks = [(m, str(mark.get("label", ""))) for mark in defn.get("marks", []) if (m := px(mark.get(mark.get("x_field", "")))) is not None]
    lines += [[(m, 0.0), (m, height)] for m, _ in marks]  # a vertical mark (the loss onset) and its label at the top (_marks)
    taken = [labelplace.label_box(m + 1, 8, "left", 0, words, TEXT) for m, words in marks]  # _marks: 3 px right of the rule, 8 px down
    out: list[labelplace.Placement | None] = []
    for r, pts in zip(refs, ref_lines):
        text = str(r.get("label", r["title"]))
        drawn = [(px(p.get(r["x"])) if "x" in r else None, py(p.get(r["y"]))) for p in _ref_points(r)]
        if "x" not in r and len(drawn) == 2:
            drawn = [(0.0, drawn[0][1]), (width, drawn[1][1])]
        if any(a is None or b is None for a, b in drawn):
            out.append(None)
            continue
        placed = labelplace.place(text, drawn, [l for l in lines if l], taken, width, height, float(r.get("label_at", 1.0)), TEXT,
                                  r.get("label_dy", -8))
        if placed is not None:
            taken.append(placed.box)
        out.append(placed)
    return out


def _marks(defn: dict[str, Any]) -> list[alt.Chart]:
    layers = []
    for m in defn.get("marks", []):
        layers.append(alt.Chart(alt.Data(values=[m])).mark_rule(color=REFERENCE, strokeWidth=1).encode(x=alt.X(f"{m['x_field']}:Q"), tooltip=[alt.Tooltip("label:N", title="")]))
        layers.append(alt.Chart(alt.Data(values=[m])).mark_text(align="left", dx=3, y=8, fontSize=TEXT, color=REFERENCE).encode(x=alt.X(f"{m['x_field']}:Q"), text="label:N"))
    return layers


def _error_layer(defn: dict[str, Any], err: dict[str, str], x: dict[str, Any], x_order: list[str] | None) -> alt.Chart:
    """Rules from err["low"] to err["high"] at each point that has them (repeated trials: lowest to highest), in the text colour."""
    enc: dict[str, Any] = {"x": _x(x, x_order), "y": alt.Y(f"{err['low']}:Q"), "y2": alt.Y2(f"{err['high']}:Q")}
    return alt.Chart(alt.Data(values=defn["data"])).transform_filter(f"isValid(datum['{err['low']}'])").mark_rule(color=FG, strokeWidth=1.5).encode(**enc)


def lines(defn: dict[str, Any]) -> alt.TopLevelMixin:
    """Lines: one per series over x, points marked, dashed references over the data, optional second panel below."""
    x, y = defn["x"], defn["y"]
    ordinal = x.get("type", "Q") != "Q"
    x_order = (defn.get("x_order") or list(dict.fromkeys(str(r[x["field"]]) for r in defn["data"]))) if ordinal else None
    layers: list[Any] = [_series_layer(defn["data"], x, y, defn.get("series"), defn.get("series_order"), defn.get("tooltip", []), x_order)]
    if err := defn.get("error"):  # error bars: a rule from low to high at each point, in the series' colour
        layers.append(_error_layer(defn, err, x, x_order))
    layers += bound_layers(defn, {"x": _x(x, x_order), "y": alt.Y(f"{y['field']}:Q")})
    refs = ([defn["reference"]] if defn.get("reference") else []) + defn.get("references", [])
    for ref, placed in zip(refs, _label_places(defn, refs, x_order)):
        layers += _reference_layers(ref, x, x_order, placed)  # after the data: a reference is never hidden under it
    layers += limit_layers(defn)
    layers += _marks(defn)
    width, height = defn.get("width", WIDTH), defn.get("height", HEIGHT)
    title = alt.Title(defn["title"], subtitle=defn.get("subtitle", ""))
    panel = defn.get("panel")
    if not panel:
        return alt.layer(*layers).properties(width=width, height=height, title=title)
    top = alt.layer(*layers).properties(width=width, height=height)
    below: list[Any] = [_series_layer(panel["data"], x, panel["y"], panel.get("series"), panel.get("series_order"), panel.get("tooltip", []), x_order, 20)]
    below += _marks(defn)
    bottom = alt.layer(*below).properties(width=width, height=panel.get("height", HEIGHT // 2))
    return alt.vconcat(top, bottom, spacing=12, title=title).resolve_scale(color="independent", shape="independent", strokeDash="independent")
