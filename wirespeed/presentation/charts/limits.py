"""Horizontal reference lines shared by chart types: a published limit (e.g. a forwarding cap) across the whole plot."""

from __future__ import annotations

from typing import Any

import altair as alt

from wirespeed.presentation.charts.theme import FG, REFERENCE, TEXT


def bound_layers(defn: dict[str, Any], enc: dict[str, Any], dx: int = 4) -> list[Any]:
    """The bound symbol (≥, >, ≤, <) beside each point or bar whose figure is a bound, not a measured value (a search
    stopped by the generator: ≥): field "bound" of defn["data"], "" for an exact figure. enc places it (x, y, xOffset)."""
    if not any(d.get("bound") for d in defn["data"]):
        return []
    return [alt.Chart(alt.Data(values=defn["data"])).transform_filter("datum.bound").mark_text(
        align="left", baseline="bottom", dx=dx, dy=-2, fontSize=TEXT + 2, fontWeight="bold", color=FG).encode(**enc, text="bound:N")]


def say_bounds(defn: dict[str, Any], generator_limited: bool, open_points: bool = False) -> None:
    """A chart whose points include bounds (field "bound") says what its marks mean, in its subtitle and its caption.
    open_points: the chart draws a bound as an open point (chart type "ranges", whose points share rows and would crowd
    their symbols) instead of its symbol beside it (bound_layers)."""
    bounds = sorted({d["bound"] for d in defn["data"] if d.get("bound")})
    if not bounds:
        return
    lower = set(bounds) <= {"≥", ">"}
    why = ("the search stopped at what the generator could send, not at a loss of the device" if generator_limited and lower
           else "the result set records it as one (its methodology says why)")
    kind = "lower bound" if lower else "bound"
    symbols = " or ".join(bounds)
    if open_points:
        said = f"open point: {kind} ({', '.join(bounds)})"
        told = f" An open point is a {kind}, not a measured value (the tables print its figure with {symbols}): {why}."
    else:
        said = ", ".join(bounds) + f": {kind}"
        told = f" A point marked {symbols} is a {kind}, not a measured value: {why}."
    defn["subtitle"] = " · ".join(x for x in (defn.get("subtitle"), said) if x)
    defn["caption"] += told


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
