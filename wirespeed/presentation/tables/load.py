"""Table kind: one metric per frame size (rows) and offered load (columns)."""

from __future__ import annotations

from typing import Any

from wirespeed.engine import number_style
from wirespeed.presentation.tables.model import Cell, Column, ResultTable
from wirespeed.presentation.tables.results import _Builder, _key_column, _row_order, frame_label, metric_label


def load_table(summary: dict[str, Any], test_id: str, metric: str) -> ResultTable | None:
    """One metric (e.g. maximum jitter) per frame size (rows) and offered load (columns)."""
    test = next(t for t in summary["tests"] if t["test_id"] == test_id)
    rows = [r for r in summary["rows"] if r["test_id"] == test_id and r["load_pct"] is not None and metric in r["cells"]]
    loads = sorted({r["load_pct"] for r in rows})
    if len(loads) < 2:
        return None
    b = _Builder(summary)
    frames: dict[str, dict[float, dict[str, Any]]] = {}
    for r in sorted(rows, key=_row_order(summary, test_id)):
        frames.setdefault(frame_label(r), {})[r["load_pct"]] = r
    columns = [_key_column("frame_size", summary, test_id)]
    body = []
    for load in loads:
        unit, derived_only, cells = b.format_column(metric, [b.raw(v[load], metric) if load in v else None for v in frames.values()])
        columns.append(Column(f"{metric}.{load:g}", f"{number_style.plain(load)} % load", unit, metric_label(metric), derived_only))
        body.append(cells)
    table_rows = [[Cell(fs, fs)] + [col[i] for col in body] for i, fs in enumerate(frames)]
    return ResultTable(f"{test_id}-{metric.replace('_', '-')}-vs-load", f"{test['title']}: {metric_label(metric).lower()} vs offered load",
                       f"{metric_label(metric)} at each offered load, per frame size; {test['title']}.", test_id, columns, table_rows)
