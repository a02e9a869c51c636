"""Table kind: RFC 2544 throughput the engine finds in trial rows."""

from __future__ import annotations

from typing import Any

from wirespeed.engine import number_style
from wirespeed.presentation.tables.model import Cell, Column, ResultTable


def trial_throughput_table(summary: dict[str, Any]) -> ResultTable | None:
    """RFC 2544 throughput the engine finds in trial rows: the highest offered rate without loss."""
    rfc2544 = {t["test_id"] for t in summary["tests"] if "2544" in (t.get("rfc") or [])}
    rows = [r for r in summary.get("trial_throughput") or [] if r["test_id"] in rfc2544 and r["trials"]]  # only for RFC 2544 searches
    if not rows:
        return None
    columns = [Column("test", "Test"), Column("frame_size", "Frame size", "bytes"), Column("direction", "Direction"),
               Column("throughput", "Throughput", "frames/s", derived=True), Column("pct", "Of line rate", "%", derived=True),
               Column("range", "Range over trials", "frames/s", derived=True), Column("trials", "Trials")]
    body = []
    for r in rows:
        fs = str(r["frame_size"] or r["imix"] or "")
        tp = r["throughput_fps"]
        pct = tp / r["line_rate_fps"] * 100 if tp is not None and r["line_rate_fps"] else None
        rng = f"{number_style.derived(r['min_fps'], 0)}–{number_style.derived(r['max_fps'], 0)}" if tp is not None else ""
        body.append([Cell(r["test_id"], r["test_id"]), Cell(fs, fs), Cell(r["direction"] or "", r["direction"]),
                     Cell(number_style.derived(tp, 0) if tp is not None else "none lossless", tp), Cell(number_style.derived(pct, 2), pct),
                     Cell(rng, None), Cell(str(r["trials"]), r["trials"])])
    return ResultTable("trial-throughput", "RFC 2544 throughput from the trials",
                       "Highest offered rate at which no frame was lost, per trial, averaged over the trials (RFC 2544 section 26.1).", None, columns, body)
