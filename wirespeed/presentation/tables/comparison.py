"""Table kind: a declared A/B comparison, each metric side by side for every compared test."""

from __future__ import annotations

from typing import Any

from wirespeed.presentation.tables.model import Cell, Column, ResultTable
from wirespeed.presentation.tables.results import ORDER, _Builder, _key_column, _row_order, _throughput_rows, frame_label, metric_label


def comparison_rows(summary: dict[str, Any], comparison: dict[str, Any], test_id: str) -> list[dict[str, Any]]:
    """A compared test's rows at its throughput rate, limited to the comparison's frame sizes if it names any."""
    rows = _throughput_rows(summary, test_id)
    sizes = {str(s) for s in comparison.get("frame_sizes", [])}
    # repeated searches: the row without trial (their mean) stands for the point, not the first search
    means = {(frame_label(r), r["variant"], r["direction"]) for r in rows if r.get("trial") is None and "throughput_max" in r["cells"]}
    rows = [r for r in rows if r.get("trial") is None or (frame_label(r), r["variant"], r["direction"]) not in means]
    if means and comparison.get("metrics"):  # rows of other measurements (latency trials) hold none of the compared metrics
        rows = [r for r in rows if any(m in r["cells"] for m in comparison["metrics"])]
    return [r for r in rows if not sizes or frame_label(r) in sizes]


def comparison_table(summary: dict[str, Any], comparison: dict[str, Any]) -> ResultTable:
    """Declared A/B comparison: per frame size, each metric side by side for every compared test."""
    tests = comparison["tests"]
    labels = comparison.get("labels") or [next(t["title"] for t in summary["tests"] if t["test_id"] == tid) for tid in tests]
    b = _Builder(summary)
    per_test = {tid: comparison_rows(summary, comparison, tid) for tid in tests}
    keys: list[tuple] = []
    index: dict[tuple, dict[str, dict[str, Any]]] = {}
    all_rows = [r for tid in tests for r in per_test[tid]]
    use_dir = len({r["direction"] for r in all_rows}) > 1
    use_var = len({r["variant"] for r in all_rows}) > 1
    for tid in tests:
        for r in sorted(per_test[tid], key=_row_order(summary, tid)):
            key = (frame_label(r), r["variant"] if use_var else None, r["direction"] if use_dir else None)
            if key not in index:
                keys.append(key)
                index[key] = {}
            index[key][tid] = r
    has_frames = any(k[0] for k in keys)
    metrics = comparison.get("metrics") or [m for m in ORDER if any(m in r["cells"] for r in all_rows)]
    columns = []
    if has_frames:
        columns.append(_key_column("frame_size", summary, tests[0]))
    if use_var:
        columns.append(Column("variant", "Variant"))
    if use_dir:
        columns.append(Column("direction", "Direction"))
    body = []
    for metric in metrics:
        raws_by_test = {tid: [b.raw(index[k][tid], metric) if tid in index[k] else None for k in keys] for tid in tests}
        if all(x is None for v in raws_by_test.values() for x in v):
            continue
        for tid, label in zip(tests, labels):
            unit, derived_only, cells = b.format_column(metric, raws_by_test[tid])
            columns.append(Column(f"{metric}.{tid}", label, unit, metric_label(metric), derived_only))
            body.append(cells)
    rows = []
    for i, k in enumerate(keys):
        cells = ([Cell(k[0], k[0])] if has_frames else []) + ([Cell(k[1] or "", k[1])] if use_var else []) + ([Cell(k[2] or "", k[2])] if use_dir else [])
        rows.append(cells + [col[i] for col in body])
    return ResultTable(comparison["id"], comparison["title"], f"{comparison['title']}: " + "; ".join(labels) + ".", None, columns, rows)
