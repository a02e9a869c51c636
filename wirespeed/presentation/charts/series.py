"""Chart type "lines": one line per series over a numeric or ordinal x, with an optional reference line."""

from __future__ import annotations

from typing import Any

import altair as alt

from wirespeed.presentation.charts.limits import limit_layers
from wirespeed.presentation.charts.theme import DASHES, HEIGHT, NUMBER, PALETTE, REFERENCE, SHAPES, WIDTH


def lines(defn: dict[str, Any]) -> alt.LayerChart:
    """Lines: one per series over x, points marked, optional dashed reference line (e.g. the line rate)."""
    data = alt.Data(values=defn["data"])
    x, y = defn["x"], defn["y"]
    series = defn.get("series")
    order = defn.get("series_order") or sorted({str(r[series["field"]]) for r in defn["data"]}) if series else []
    x_scale = alt.Scale(type=x.get("scale", "linear"), zero=x.get("zero", False), nice=True)
    y_scale = alt.Scale(type=y.get("scale", "linear"), zero=y.get("zero", True), nice=True)
    ordinal = x.get("type", "Q") != "Q"
    x_order = list(dict.fromkeys(str(r[x["field"]]) for r in defn["data"])) if ordinal else None
    if ordinal:
        x_enc = alt.X(f"{x['field']}:O", title=x["title"], sort=x_order, axis=alt.Axis(labelAngle=0))
    else:
        axis = alt.Axis(format=x.get("format", NUMBER), values=x["ticks"]) if x.get("ticks") else alt.Axis(format=x.get("format", NUMBER))
        x_enc = alt.X(f"{x['field']}:Q", title=x["title"], scale=x_scale, axis=axis)
    y_enc = alt.Y(f"{y['field']}:Q", title=y["title"], scale=y_scale, axis=alt.Axis(format=y.get("format", NUMBER)))
    tooltip = [alt.Tooltip(f"{t['field']}:{t.get('type', 'N')}", title=t["title"]) for t in defn.get("tooltip", [])]
    enc: dict[str, Any] = {"x": x_enc, "y": y_enc, "tooltip": tooltip}
    if series:
        n = len(order)
        enc["color"] = alt.Color(f"{series['field']}:N", title=series["title"], sort=order, scale=alt.Scale(domain=order, range=(PALETTE * 4)[:n]))
        enc["strokeDash"] = alt.StrokeDash(f"{series['field']}:N", sort=order, scale=alt.Scale(domain=order, range=(DASHES * 4)[:n]), title=series["title"])
        enc["shape"] = alt.Shape(f"{series['field']}:N", sort=order, scale=alt.Scale(domain=order, range=(SHAPES * 4)[:n]), title=series["title"])
    base = alt.Chart(data).mark_line(point=alt.OverlayMarkDef(size=40, filled=True), strokeWidth=2).encode(**enc)
    layers = [base]
    ref = defn.get("reference")
    if ref:
        ref_data = alt.Data(values=ref["data"])
        ref_enc: dict[str, Any] = {"y": alt.Y(f"{ref['y']}:Q"), "tooltip": [alt.Tooltip(f"{ref.get('label_field', ref['y'])}:N", title=ref["title"])]}
        if "x" in ref:
            ref_enc["x"] = alt.X(f"{ref['x']}:O", sort=x_order) if ordinal else alt.X(f"{ref['x']}:Q")
            layers.insert(0, alt.Chart(ref_data).mark_line(color=REFERENCE, strokeDash=[5, 4], strokeWidth=1.5).encode(**ref_enc))
        else:
            layers.insert(0, alt.Chart(ref_data).mark_rule(color=REFERENCE, strokeDash=[5, 4], strokeWidth=1.5).encode(**ref_enc))
        layers.insert(1, alt.Chart(alt.Data(values=[ref["data"][-1]])).mark_text(align="right", dx=-2, dy=-7, fontSize=10, color=REFERENCE).encode(
            x=(alt.X(f"{ref['x']}:O", sort=x_order) if ordinal else alt.X(f"{ref['x']}:Q")) if "x" in ref else alt.value(WIDTH - 4), y=alt.Y(f"{ref['y']}:Q"), text=alt.value(ref["title"])))
    if err := defn.get("error"):  # error bars: a rule from low to high at each point, in the series' colour
        eenc = {"x": x_enc, "y": alt.Y(f"{err['low']}:Q"), "y2": alt.Y2(f"{err['high']}:Q"), **({"color": enc["color"]} if series else {})}
        layers.append(alt.Chart(data).transform_filter(f"isValid(datum['{err['low']}'])").mark_rule(strokeWidth=1.5).encode(**eenc))
    layers += limit_layers(defn)
    marks = defn.get("marks", [])
    for m in marks:
        layers.append(alt.Chart(alt.Data(values=[m])).mark_rule(color=REFERENCE, strokeWidth=1).encode(x=alt.X(f"{m['x_field']}:Q"), tooltip=[alt.Tooltip("label:N", title="")]))
        layers.append(alt.Chart(alt.Data(values=[m])).mark_text(align="left", dx=3, y=8, fontSize=10, color=REFERENCE).encode(x=alt.X(f"{m['x_field']}:Q"), text="label:N"))
    return alt.layer(*layers).properties(width=defn.get("width", WIDTH), height=defn.get("height", HEIGHT), title=alt.Title(defn["title"], subtitle=defn.get("subtitle", "")))
