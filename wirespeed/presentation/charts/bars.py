"""Chart type "bars": grouped bars per category, with optional reference ticks (e.g. line rate)."""

from __future__ import annotations

from typing import Any

import altair as alt

from wirespeed.presentation.charts.limits import bound_layers, limit_layers
from wirespeed.presentation.charts.theme import FG, HEIGHT, NUMBER, PALETTE, REFERENCE, WIDTH
from wirespeed.presentation.chartstyle import present, series_styles


def bars(defn: dict[str, Any]) -> alt.Chart:
    """Grouped bars: a bar per group within each category, optional reference tick per category and group."""
    data = alt.Data(values=defn["data"])
    cat, y, group = defn["x"], defn["y"], defn.get("group")
    cat_order = defn.get("x_order") or list(dict.fromkeys(str(r[cat["field"]]) for r in defn["data"]))
    enc: dict[str, Any] = {
        "x": alt.X(f"{cat['field']}:N", title=cat["title"], sort=cat_order,
                   axis=alt.Axis(labelAngle=0 if len(cat_order) <= 5 else -30, labelAlign="center" if len(cat_order) <= 5 else "right", labelLimit=160)),
        "y": alt.Y(f"{y['field']}:Q", title=y["title"], scale=alt.Scale(type=y.get("scale", "linear"), zero=y.get("scale", "linear") == "linear",
                                                                     domain=y.get("domain", alt.Undefined)), axis=alt.Axis(format=y.get("format", NUMBER))),
        "tooltip": [alt.Tooltip(f"{t['field']}:{t.get('type', 'N')}", title=t["title"]) for t in defn.get("tooltip", [])],
    }
    order: list[str] = []
    if group:
        order = present(defn.get("group_order"), defn["data"], group["field"])
        styles = series_styles(len(order))
        enc["xOffset"] = alt.XOffset(f"{group['field']}:N", sort=order)
        enc["color"] = alt.Color(f"{group['field']}:N", title=group["title"], sort=order, scale=alt.Scale(domain=order, range=[PALETTE[c] for c, _, _ in styles]))
        # a second cue besides colour: the bar outline's dash (greyscale prints, colour-blind readers)
        enc["strokeDash"] = alt.StrokeDash(f"{group['field']}:N", sort=order, scale=alt.Scale(domain=order, range=[d for _, _, d in styles]), title=group["title"])
    chart = alt.Chart(data).mark_bar(stroke=REFERENCE, strokeWidth=1).encode(**enc)
    layers = [chart]
    ref = defn.get("reference")
    if ref:
        renc: dict[str, Any] = {"x": alt.X(f"{cat['field']}:N", sort=cat_order), "y": alt.Y(f"{ref['y']}:Q"),
                                "tooltip": [alt.Tooltip(f"{ref.get('label_field', ref['y'])}:N", title=ref["title"])]}
        if group:  # a tick over each bar of the group (a tick is a filled box: solid, where a rule cannot sit on a bar of a group)
            renc["xOffset"] = alt.XOffset(f"{group['field']}:N", sort=order)
            layers.append(alt.Chart(alt.Data(values=ref["data"])).mark_tick(color=REFERENCE, thickness=2).encode(**renc))
        else:  # a dashed rule across each bar, as the subtitle says ("dashed: line rate"): from the band's start to its end
            renc["x"] = alt.X(f"{cat['field']}:N", sort=cat_order, bandPosition=0)
            renc["x2"] = alt.X2(f"{cat['field']}", bandPosition=1)
            layers.append(alt.Chart(alt.Data(values=ref["data"])).mark_rule(color=REFERENCE, strokeWidth=2, strokeDash=[3, 2]).encode(**renc))
    if err := defn.get("error"):  # error bars: a rule from low to high on each bar
        eenc: dict[str, Any] = {"x": alt.X(f"{cat['field']}:N", sort=cat_order), "y": alt.Y(f"{err['low']}:Q"), "y2": alt.Y2(f"{err['high']}:Q")}
        if group:
            eenc["xOffset"] = alt.XOffset(f"{group['field']}:N", sort=order)
        layers.append(alt.Chart(data).transform_filter(f"isValid(datum['{err['low']}'])").mark_rule(color=FG, strokeWidth=1.5).encode(**eenc))
    benc: dict[str, Any] = {"x": alt.X(f"{cat['field']}:N", sort=cat_order), "y": alt.Y(f"{y['field']}:Q")}
    if group:
        benc["xOffset"] = alt.XOffset(f"{group['field']}:N", sort=order)
    layers += bound_layers(defn, benc)
    layers += limit_layers(defn)
    return alt.layer(*layers).properties(width=defn.get("width", WIDTH), height=defn.get("height", HEIGHT), title=alt.Title(defn["title"], subtitle=defn.get("subtitle", "")))
