"""Chart type "trend": one figure across result sets in order, with the groups jumpavg found (each a
line at its mean over a band of ± one standard deviation), every trial and each set's mean, the
regressions and progressions marked where their group starts, and test-bed changes as dashed rules.

Definition fields besides the common ones: data (one record per set: x, mean, and the tooltip texts),
trials (one record per trial: x, value; may be empty), groups (x0, x1, avg, lo, hi, text), anomalies
(x, value, kind, label; optionally short: the text beside the triangle, side: "right" or "left" of it, dy: its vertical
offset in px), boundaries (x, label), x_title, y_title, ticks (the x values to label).
"""

from __future__ import annotations

from typing import Any

import altair as alt

from wirespeed.presentation.charts.theme import BG, HEIGHT, MUTED, NUMBER, PALETTE, REFERENCE, TEXT, WIDTH

KINDS = {"regression": (PALETTE[1], "triangle-down"), "progression": (PALETTE[2], "triangle-up")}


def _x(defn: dict[str, Any], field: str = "x", title: Any = alt.Undefined) -> alt.X:
    n = max([d["x"] for d in defn["data"]] or [1])
    axis = alt.Axis(format="d", values=defn.get("ticks") or alt.Undefined, tickMinStep=1) if title is not alt.Undefined else alt.Undefined
    return alt.X(f"{field}:Q", title=title, scale=alt.Scale(domain=[0.5, n + 0.5], nice=False, zero=False), axis=axis)


def _label(data: alt.Data, place: dict[str, Any], **encoding: Any) -> list[alt.Chart]:
    """A text label drawn twice: over a halo of the background's colour, so it stays legible where it crosses a line or a point."""
    place = {"align": "left", **place}
    return [alt.Chart(data).mark_text(fontSize=TEXT, color=REFERENCE, **place, **halo).encode(**encoding)
            for halo in ({"stroke": BG, "strokeWidth": 4, "strokeJoin": "round"}, {})]


def trend(defn: dict[str, Any]) -> alt.LayerChart:
    """A series across result sets: group means and bands, trials, set means, anomalies and test-bed changes."""
    y = alt.Y("value:Q", title=defn["y_title"], scale=alt.Scale(zero=False, nice=True), axis=alt.Axis(format=NUMBER))
    tooltip = [alt.Tooltip(f"{t['field']}:N", title=t["title"]) for t in defn.get("tooltip", [])]
    layers: list[Any] = []
    groups = alt.Data(values=defn["groups"])
    layers.append(alt.Chart(groups).mark_rect(color=PALETTE[0], opacity=0.15).encode(
        x=_x(defn, "x0"), x2="x1:Q", y=alt.Y("lo:Q"), y2="hi:Q", tooltip=[alt.Tooltip("text:N", title="Group")]))
    layers.append(alt.Chart(groups).mark_rule(color=PALETTE[0], strokeWidth=2.5).encode(
        x=_x(defn, "x0"), x2="x1:Q", y=alt.Y("avg:Q"), tooltip=[alt.Tooltip("text:N", title="Group")]))
    if defn.get("trials"):
        layers.append(alt.Chart(alt.Data(values=defn["trials"])).mark_point(color=MUTED, size=14, filled=False, strokeWidth=1).encode(
            x=_x(defn), y=y))
    layers.append(alt.Chart(alt.Data(values=defn["data"])).mark_point(color=PALETTE[0], size=36, filled=True).encode(
        x=_x(defn, title=defn["x_title"]), y=alt.Y("mean:Q", title=defn["y_title"]), tooltip=tooltip))
    if defn.get("anomalies"):
        kinds = [k for k in KINDS if any(a["kind"] == k for a in defn["anomalies"])]
        data = alt.Data(values=defn["anomalies"])
        layers.append(alt.Chart(data).mark_point(size=170, filled=True, opacity=0.9).encode(
            x=_x(defn), y=alt.Y("value:Q"),
            color=alt.Color("kind:N", title="", scale=alt.Scale(domain=kinds, range=[KINDS[k][0] for k in kinds])),
            shape=alt.Shape("kind:N", title="", scale=alt.Scale(domain=kinds, range=[KINDS[k][1] for k in kinds])),
            tooltip=[alt.Tooltip("label:N", title="Change")]))
        # each label where the definition placed it (trend_chart._placed): right or left of its triangle, above or below
        spots = sorted({(a.get("side", "right"), a.get("dy", -10)) for a in defn["anomalies"]})
        for side, dy in spots:
            place = {"dx": 9, "align": "left"} if side == "right" else {"dx": -9, "align": "right"}
            layers += [layer.transform_filter((alt.datum.side == side) & (alt.datum.dy == dy)) if len(spots) > 1 else layer
                       for layer in _label(data, {**place, "dy": dy, "baseline": "middle"}, x=_x(defn), y=alt.Y("value:Q"),
                                           text="short:N" if all("short" in a for a in defn["anomalies"]) else "label:N")]
    for b in defn.get("boundaries", []):
        data = alt.Data(values=[b])
        layers.append(alt.Chart(data).mark_rule(color=REFERENCE, strokeDash=[5, 4], strokeWidth=1.5).encode(
            x=_x(defn), tooltip=[alt.Tooltip("label:N", title="")]))
        layers += _label(data, {"dx": 3, "y": 8}, x=_x(defn), text="label:N")
    title = alt.Title(defn["title"], subtitle=defn.get("subtitle", ""))
    return alt.layer(*layers).properties(width=defn.get("width", WIDTH), height=defn.get("height", HEIGHT), title=title)
