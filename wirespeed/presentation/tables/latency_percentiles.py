"""Table kind: percentiles of a latency histogram, bounded by its bucket edges, in the time unit of their magnitude."""

from __future__ import annotations

from typing import Any

from wirespeed.engine import number_style
from wirespeed.presentation import chartstyle
from wirespeed.presentation.tables.model import Cell, Column, ResultTable
from wirespeed.engine.units import UNITS


def histogram_where(frame: str, load: float | None = None, variant: str | None = None) -> str:
    """What a histogram is of: '116-byte frames, hold' or '1518-byte frames at 5 % load' (the table's and the chart's title)."""
    parts = [f"{frame}-byte frames" if frame.isdigit() else (f"{frame} mix" if frame else "")]
    if variant:
        parts.append(variant)
    where = ", ".join(p for p in parts if p)
    return where + (f" at {number_style.plain(load)} % load" if load is not None else "")


def histogram_ident(test_id: str, frame: str, load: float | None = None, variant: str | None = None) -> str:
    return f"{test_id}-{frame}" + (f"-{variant}" if variant else "") + (f"-{format(load, 'g').replace('.', '_')}pct" if load is not None else "")


def histogram_table(buckets: list[dict[str, Any]], test: dict[str, Any], frame: str, load: float | None = None, variant: str | None = None) -> ResultTable:
    """Percentiles of a latency histogram (bucket edges bound each percentile), in the unit of the largest edge."""
    total = sum(b["count_frames"] for b in buckets)
    unit = UNITS[chartstyle.time_unit([b["bucket_high_us"] * 1e-6 for b in buckets])]
    scale = 1e-6 / float(unit.factor)
    edges = [e * scale for b in buckets for e in (b["bucket_low_us"], b["bucket_high_us"])]
    decimals = max((len(f"{e:g}".partition(".")[2]) for e in edges if "e" not in f"{e:g}"), default=0)
    columns = [Column("percentile", "Percentile", "%"), Column("low", "Latency at least", unit.symbol, derived=True),
               Column("high", "Latency below", unit.symbol, derived=True)]
    rows = []
    for p in (50, 90, 99, 99.9, 100):
        target = total * p / 100
        cum = 0
        for b in buckets:
            cum += b["count_frames"]
            if cum >= target:
                lo, hi = b["bucket_low_us"] * scale, b["bucket_high_us"] * scale
                rows.append([Cell(number_style.plain(p), p), Cell(number_style.derived(lo, decimals), lo), Cell(number_style.derived(hi, decimals), hi)])
                break
    where = histogram_where(frame, load, variant)
    return ResultTable(f"{histogram_ident(test['id'], frame, load, variant)}-latency-percentiles", f"{test['title']}: latency percentiles ({where})",
                       f"Latency percentiles of {total:,.0f} frames ({where}), each bounded by the edges of the histogram bucket it falls in "
                       f"(in {unit.symbol}).", test["id"], columns, rows)
