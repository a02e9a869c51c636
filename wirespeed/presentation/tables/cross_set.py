"""A comparison across result sets as the site and the PDF print it: a result table (the engine's figures,
one unit, ×N ratios to the best) and a chart definition drawn from the same table model, so the page,
the compare view and the report print the same numbers (wirespeed.engine.compare makes them)."""

from __future__ import annotations

from typing import Any

from wirespeed.presentation.tables.results import Cell, Column, ResultTable


def result_table(model: dict[str, Any], table_id: str, caption: str = "") -> ResultTable:
    """The table model as a ResultTable: one row per device/test, one column per frame size (or load)."""
    unit = model["unit"]
    columns = [Column("contender", "Device and test")]
    for c in model["columns"]:  # each figure, then its ratio to the best of the column
        columns += [Column(f"x{c['key']}", c["label"], unit, derived=True), Column(f"r{c['key']}", "×N")]
    rows = []
    for r in model["rows"]:
        cells = [Cell(r["label"], r["label"])]
        for c in r["cells"]:
            cells += [Cell("—", None), Cell("", None)] if c is None else [Cell(c["text"], c["value"], derived=True), Cell(c["ratio_text"], c["ratio"])]
        rows.append(cells)
    better = "highest" if model["better"] == "higher" else "lowest"
    notes = [model["statement"],
             f"×N: how many times the {better} figure of the column is better (×1 is the best). Figures keep their sources' qualifiers (>, <, ≈)."]
    return ResultTable(table_id, model["title"], caption or model["statement"], None, columns, rows, notes)


def chart_definition(model: dict[str, Any], chart_id: str, caption: str = "") -> dict[str, Any] | None:
    """Bars for one frame size (or load), else one line per device/test over the frame sizes (or loads)."""
    data = [{"x": col["label"], "series": r["label"], "value": c["value"], "printed": f"{c['text']} {model['unit']} ({c['ratio_text']})"}
            for r in model["rows"] for col, c in zip(model["columns"], r["cells"]) if c is not None]
    if not data:
        return None
    order = [r["label"] for r in model["rows"]]
    x_title = "Frame size" if model["x"] == "frame" else "Offered load"
    y_title = f"{model['metric_label']} ({model['unit']})"
    alt_text = f"{model['title']}. {model['statement']} " + "; ".join(f"{d['series']}, {d['x']}: {d['printed']}" for d in data)
    common = {"id": chart_id, "title": model["title"], "better": model["better"], "caption": caption or model["statement"], "alt": alt_text, "data": data,
              "tooltip": [{"field": "series", "title": ""}, {"field": "x", "title": x_title}, {"field": "printed", "title": model["metric_label"]}]}
    if len(model["columns"]) == 1:
        return {**common, "type": "bars", "x": {"field": "series", "title": ""}, "y": {"field": "value", "title": y_title},
                "group": None, "x_order": order}
    return {**common, "type": "lines", "x": {"field": "x", "title": x_title, "type": "O"}, "y": {"field": "value", "title": y_title},
            "series": {"field": "series", "title": ""}, "series_order": order}
