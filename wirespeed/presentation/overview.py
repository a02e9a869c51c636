"""The set page's overview: one small chart per scenario (test), all on the same scale, so a reader
sees every test of a result set at a glance before the long sections."""

from __future__ import annotations

from typing import Any

from wirespeed.presentation import chartstyle
from wirespeed.presentation.tables.results import _throughput_rows, column_texts, frame_label


def _series(r: dict[str, Any], multi: bool) -> str:
    return ", ".join(str(x) for x in (r.get("direction"), r.get("variant")) if x) if multi else "throughput"


def overview_chart(summary: dict[str, Any], test_id: str) -> dict[str, Any] | None:
    """A small multiple of one test: throughput as % of line rate (the catalog's column) per frame size,
    ascending, on a fixed 0–100+ % axis shared by every tile; None when the test has fewer than two points."""
    test = next(t for t in summary["meta"]["tests"] if t["id"] == test_id)
    rows = [r for r in _throughput_rows(summary, test_id) if r.get("throughput_pct_line_rate") is not None and (r.get("frame_size") or r.get("imix"))]
    if len(rows) < 2:
        return None
    multi = len({(r.get("direction"), r.get("variant")) for r in rows}) > 1
    _, printed = column_texts(summary, "throughput_line_rate", rows, "pct")  # the results table's cells, one number rule
    data = [{"frame": frame_label(r), "series": _series(r, multi), "value": r["throughput_pct_line_rate"],
             "printed": f"{text} %"} for r, text in zip(rows, printed)]
    frames = chartstyle.ascending_frames(d["frame"] for d in data)
    if len(frames) < 2:
        return None
    top = max(105.0, max(d["value"] for d in data) * 1.02)
    low = min(data, key=lambda d: d["value"])
    return {"id": f"overview-{test_id}", "test": test_id, "role": "overview", "type": "lines", "title": test["title"], "better": "higher",
            "caption": "", "height": 110,
            "alt": f"{test['title']}: throughput from {low['printed']} of line rate ({low['frame']} bytes) to "
                   f"{max(data, key=lambda d: d['value'])['printed']}, over frame sizes {frames[0]} to {frames[-1]} bytes.",
            "data": data, "x": {"field": "frame", "title": "Frame size (bytes)", "type": "O"}, "x_order": frames,
            "y": {"field": "value", "title": "% of line rate", "zero": True, "domain": [0, top]},
            "series": {"field": "series", "title": ""}, "series_order": chartstyle.present(None, data, "series"),
            "reference": {"data": [{"frame": f, "line": 100.0, "line_text": "100 % (line rate)"} for f in frames], "x": "frame", "y": "line",
                          "label_field": "line_text", "title": "Line rate", "label": "line rate"},
            "tooltip": [{"field": "frame", "title": "Frame size"}, {"field": "series", "title": ""}, {"field": "printed", "title": "% of line rate"}]}
