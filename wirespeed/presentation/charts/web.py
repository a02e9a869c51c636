"""What the site ships for a chart: the Vega spec compiled from the chart's Vega-Lite spec at build time
(so pages load only the Vega runtime, not Vega-Lite), sized to its container, and the chart's data as
a table (the values its tooltips show, for readers who cannot hover)."""

from __future__ import annotations

import copy
from typing import Any


def _fit(spec: dict[str, Any]) -> None:
    """Width from the container: the view's own width for one view or a layer, each panel's for a stack."""
    if "vconcat" in spec:
        for child in spec["vconcat"]:
            child["width"] = "container"
    else:
        spec["width"] = "container"
        spec["autosize"] = {"type": "fit-x", "contains": "padding"}


def web_vega(vl_spec: dict[str, Any]) -> dict[str, Any]:
    """The Vega spec the page renders: compiled by vl-convert, its width following the container."""
    import vl_convert as vlc

    spec = copy.deepcopy(vl_spec)
    spec.pop("width", None)
    _fit(spec)
    vg = vlc.vegalite_to_vega(spec)
    vg.pop("description", None)  # the page's alt text describes the chart (aria-describedby)
    vg.pop("$schema", None)
    return vg


def data_table(defn: dict[str, Any]) -> dict[str, Any]:
    """The chart's data as printed in its tooltips: column titles and one row of texts per point (panel points after)."""
    tooltip = defn.get("tooltip") or []
    if not tooltip:  # e.g. a histogram: its own fields
        fields = list(dict.fromkeys(k for p in defn["data"] for k in p))
        tooltip = [{"field": f, "title": f} for f in fields]
    panel = defn.get("panel") or {}
    ptip = panel.get("tooltip") or []
    titles = list(dict.fromkeys([t["title"] or t["field"].capitalize() for t in tooltip] + [t["title"] or t["field"].capitalize() for t in ptip]))

    def rows(points: list[dict[str, Any]], tip: list[dict[str, Any]]) -> list[list[str]]:
        where = {(t["title"] or t["field"].capitalize()): t["field"] for t in tip}
        return [[_text(p.get(where[c])) if c in where else "" for c in titles] for p in points]

    columns = titles
    body = rows(defn["data"], tooltip) + (rows(panel["data"], ptip) if panel else [])
    return {"columns": columns, "rows": body}


def _text(v: Any) -> str:
    from wirespeed.engine import number_style

    if v is None:
        return ""
    if isinstance(v, float):
        return number_style.group_thousands(format(v, "g"))
    return str(v)
