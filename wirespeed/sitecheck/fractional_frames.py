"""Rule fractional-frames: a count of frames (or packets, segments) is a whole number wherever it is printed."""

from __future__ import annotations

from collections.abc import Iterator

from wirespeed.engine.units import UNITS
from wirespeed.problems import Problem
from wirespeed.sitecheck.numbers import SYMBOLS, cell_number, parse, snippet
from wirespeed.sitecheck.site import Site

RULE = "fractional-frames"
COUNT_WORDS = ("frames", "packets", "segments", "count")


def check_fractional_frames(site: Site) -> Iterator[Problem]:
    """No count of frames, packets or segments with a fractional part: in text ("8.5 frames") or in a column of counts."""
    for t in site.texts():
        for p in parse(t.text):
            if p.decimals and p.dimension == "count":
                yield Problem(t.page, None, t.where, f"{p.number} {UNITS[p.unit].symbol}: a fractional count in “{snippet(t.text, p.start, p.end)}”", RULE)
    for t in site.json_tables + site.html_tables:
        for c, col in enumerate(t.columns):
            if not is_count(col):
                continue
            for r, row in enumerate(t.rows):
                p = cell_number(row[c]) if c < len(row) else None
                if p is not None and p.decimals:
                    yield Problem(t.page, None, t.cell_where(r, c), f"{p.number}: a fractional count of {col.unit or col.label.lower()}", RULE)


def is_count(col) -> bool:
    """A column of counts: its unit is frames, packets or segments, or it is labelled as a count without a unit."""
    unit = SYMBOLS.get(col.unit, "")
    if unit:
        return UNITS[unit].dimension == "count"
    return not col.unit and col.label.strip().lower() in COUNT_WORDS
