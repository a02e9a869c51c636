"""Charts are data: a chart definition (a plain dict) compiles, through its chart type, to one
Vega-Lite spec that the site embeds and the PDF renders. Chart types are registered under the
entry-point group wirespeed.charts: a callable `(definition) -> altair.Chart` with a one-line docstring.

A definition has: id, type, title, caption, alt (text alternative), data (list of records),
and the type's own fields (x, y, series, reference, …) — no code.
"""

from __future__ import annotations

from typing import Any

from wirespeed.presentation.charts.theme import apply_theme

REQUIRED = ("id", "type", "title", "alt", "data")


class ChartError(ValueError):
    """A chart definition that cannot be compiled."""


def compile_chart(defn: dict[str, Any]) -> dict[str, Any]:
    """The Vega-Lite spec (a dict, data inline, theme included) of a chart definition."""
    from wirespeed.extensions import registry

    missing = [k for k in REQUIRED if k not in defn]
    if missing:
        raise ChartError(f"chart {defn.get('id', '?')!r}: missing {', '.join(missing)}")
    chart_type = registry("charts").get(defn["type"])
    if chart_type is None:
        raise ChartError(f"chart {defn['id']!r}: unknown chart type {defn['type']!r} (known: {', '.join(registry('charts'))})")
    chart = chart_type(defn)
    spec = apply_theme(chart).to_dict()
    spec["description"] = defn["alt"]
    return spec
