"""Table kind: percentiles of a latency histogram, bounded by its bucket edges."""

from __future__ import annotations

from typing import Any

from wirespeed.presentation import formatting
from wirespeed.presentation.tables.model import Cell, Column, ResultTable


def histogram_table(buckets: list[dict[str, Any]], test_id: str, frame: str, load: float | None = None) -> ResultTable:
    """Percentiles of a latency histogram (bucket edges bound each percentile)."""
    total = sum(b["count_frames"] for b in buckets)
    columns = [Column("percentile", "Percentile", "%"), Column("low", "Latency at least", "µs", derived=True), Column("high", "Latency below", "µs", derived=True)]
    rows = []
    for p in (50, 90, 99, 99.9, 100):
        target = total * p / 100
        cum = 0
        for b in buckets:
            cum += b["count_frames"]
            if cum >= target:
                rows.append([Cell(formatting.plain(p), p), Cell(formatting.plain(b["bucket_low_us"]), b["bucket_low_us"]), Cell(formatting.plain(b["bucket_high_us"]), b["bucket_high_us"])])
                break
    at = f" at {formatting.plain(load)} % load" if load is not None else ""
    ident = f"{test_id}-{frame}" + (f"-{format(load, 'g').replace('.', '_')}pct" if load is not None else "")
    return ResultTable(f"{ident}-latency-percentiles", f"Latency percentiles, {frame}-byte frames{at}",
                       f"Latency percentiles of {total:,.0f} frames{at}, bounded by the histogram's bucket edges.", test_id, columns, rows)
