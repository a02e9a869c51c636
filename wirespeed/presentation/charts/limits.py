"""Horizontal reference lines shared by chart types: a published limit (e.g. a forwarding cap) across the whole plot."""

from __future__ import annotations

from typing import Any

import altair as alt

from wirespeed.presentation.charts.theme import REFERENCE, TEXT


def limit_layers(defn: dict[str, Any]) -> list[Any]:
    """A dotted rule and its label per entry of defn["limits"] ({"value", "label"}, value in the y unit), drawn over the data."""
    layers = []
    for lim in defn.get("limits", []):
        data = alt.Data(values=[lim])
        layers.append(alt.Chart(data).mark_rule(color=REFERENCE, strokeDash=[2, 2], strokeWidth=1.5).encode(
            y=alt.Y("value:Q"), tooltip=[alt.Tooltip("label:N", title="")]))
        layers.append(alt.Chart(data).mark_text(align="left", dx=4, dy=-7, fontSize=TEXT, color=REFERENCE).encode(
            x=alt.value(4), y=alt.Y("value:Q"), text="label:N"))
    return layers
