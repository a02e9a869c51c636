"""Chart type "ranges": one row per category (a test, a frame size) on one shared horizontal scale, a bar from
the lowest to the highest of its points, each point coloured and shaped by its series, an optional labelled
reference (e.g. line rate). Category labels may hold line breaks ("\\n"), printed as lines, never cut. A point whose
figure is a bound (field "bound": ≥ where a search stopped at the generator's limit) is drawn open: the points of a row
sit close together, where a symbol beside each would overlap its neighbours' (the chart's subtitle says so: say_bounds
with open_points)."""

from __future__ import annotations

from typing import Any

import altair as alt

from wirespeed.presentation.charts.theme import GRID, NUMBER, PALETTE, REFERENCE, TEXT, WIDTH
from wirespeed.presentation.chartstyle import present, series_styles

ROW = 34  # px per category


def ranges(defn: dict[str, Any]) -> alt.TopLevelMixin:
    """Ranges: per category a bar from its lowest to its highest point, the points by series, a reference rule."""
    x, y, series = defn["x"], defn["y"], defn["series"]
    order = y.get("order") or list(dict.fromkeys(d[y["field"]] for d in defn["data"]))
    lines = max(str(c).count("\n") + 1 for c in order)
    axis = alt.Axis(labelExpr="split(datum.label, '\\n')", labelLimit=260, labelPadding=6, title=None, labelFontSize=TEXT, labelLineHeight=TEXT + 3)
    ycat = alt.Y(f"{y['field']}:N", sort=order, axis=axis, scale=alt.Scale(paddingInner=0.35))
    xscale = alt.Scale(zero=True, nice=True, domain=x.get("domain", alt.Undefined))
    xenc = alt.X(f"{x['field']}:Q", title=x["title"], scale=xscale, axis=alt.Axis(format=x.get("format", NUMBER)))
    data = alt.Data(values=defn["data"])
    span = alt.Chart(data).mark_rule(color=GRID, strokeWidth=7, strokeCap="round").encode(
        y=ycat, x=alt.X(f"min({x['field']}):Q", scale=xscale), x2=alt.X2(f"max({x['field']}):Q"))
    names = present(series.get("order"), defn["data"], series["field"])
    styles = series_styles(len(names))
    tip = [alt.Tooltip(f"{t['field']}:N", title=t["title"]) for t in defn.get("tooltip", [])]
    enc = {"y": ycat, "x": xenc, "tooltip": tip,
           "color": alt.Color(f"{series['field']}:N", title=series["title"] or None, sort=names, scale=alt.Scale(domain=names, range=[PALETTE[c] for c, _, _ in styles])),
           "shape": alt.Shape(f"{series['field']}:N", title=series["title"] or None, sort=names, scale=alt.Scale(domain=names, range=[s for _, s, _ in styles]))}
    bounds = any(d.get("bound") for d in defn["data"])  # measured points filled, bounds open (the same series' colour and shape)
    measured = alt.Chart(data).transform_filter("!datum.bound") if bounds else alt.Chart(data)
    layers: list[Any] = [span, measured.mark_point(filled=True, size=70, opacity=0.9).encode(**enc)]
    if bounds:
        layers.append(alt.Chart(data).transform_filter("datum.bound").mark_point(filled=False, size=70, strokeWidth=2, opacity=0.95).encode(**enc))
    if ref := defn.get("reference"):
        rdata = alt.Data(values=[ref])
        layers.append(alt.Chart(rdata).mark_rule(color=REFERENCE, strokeDash=[5, 4], strokeWidth=1.5).encode(x=alt.X("value:Q", scale=xscale)))
        layers.append(alt.Chart(rdata).mark_text(align="right", dx=-3, dy=-6, fontSize=TEXT, color=REFERENCE, baseline="bottom").encode(
            x=alt.X("value:Q", scale=xscale), y=alt.value(0), text="label:N"))
    height = max(2 * ROW, len(order) * max(ROW, 14 * lines + 12))
    return alt.layer(*layers).properties(width=defn.get("width", WIDTH), height=height, title=alt.Title(defn["title"], subtitle=defn.get("subtitle", "")))
