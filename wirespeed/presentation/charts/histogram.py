"""Chart type "histogram": latency buckets as bars with the cumulative distribution on a second axis."""

from __future__ import annotations

from typing import Any

import altair as alt

from wirespeed.presentation.charts.theme import BG, HEIGHT, NUMBER, PALETTE, WIDTH


def histogram(defn: dict[str, Any]) -> alt.LayerChart:
    """Histogram bars (bucket low–high edges) and a cumulative-share line on a second axis."""
    data = alt.Data(values=defn["data"])
    x_title, y_title = defn["x_title"], defn["y_title"]
    tooltip = [alt.Tooltip("low:Q", title="From", format=NUMBER), alt.Tooltip("high:Q", title="To", format=NUMBER),
               alt.Tooltip("count:Q", title="Frames", format=",d"),
               alt.Tooltip("cumulative:Q", title="Cumulative %", format=".2f")]
    bars = alt.Chart(data).mark_rect(color=PALETTE[0], stroke=BG, strokeWidth=0.5).encode(
        x=alt.X("low:Q", title=x_title, scale=alt.Scale(zero=False), axis=alt.Axis(format=NUMBER, tickCount=6, labelOverlap="greedy", labelSeparation=4)), x2="high:Q", y=alt.Y("count:Q", title=y_title, axis=alt.Axis(format=",~s")), tooltip=tooltip)
    cdf = alt.Chart(data).mark_line(color=PALETTE[1], strokeDash=[6, 3], interpolate="step-after", strokeWidth=2).encode(
        x="low:Q", y=alt.Y("cumulative:Q", title="Cumulative share of frames (%)", scale=alt.Scale(domain=[0, 100])), tooltip=tooltip)
    return alt.layer(bars, cdf).resolve_scale(y="independent").properties(width=defn.get("width", WIDTH), height=defn.get("height", HEIGHT), title=alt.Title(defn["title"], subtitle=defn.get("subtitle", "")))
