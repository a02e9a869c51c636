"""Rule percentile-above-max: no latency percentile printed above the maximum of its own row without a stated reason.

A percentile read from a histogram can land above the largest sample when it is printed finer than the
histogram's resolution; the reason is stated when the cell's flag or the table's notes say the percentile
is approximate (or read from a histogram). Checked on every table whose columns name percentiles and a
maximum of the same quantity, per column group (direction, port)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from wirespeed.engine.units import UNITS
from wirespeed.problems import Problem
from wirespeed.sitecheck.numbers import SYMBOLS, cell_number
from wirespeed.sitecheck.site import Column, Site, Table

RULE = "percentile-above-max"
REASON = re.compile(r"\b(approximate|approximately|histogram)\b", re.I)
PERCENTILE = re.compile(r"^(?P<q>[a-z]+)_p(?P<p>[\d_]+)$")


def check_percentiles(site: Site) -> Iterator[Problem]:
    """No percentile (median, 99th, 99.99th, …) above the maximum of the same row and quantity, unless stated as approximate."""
    for t in site.json_tables:
        yield from _table(t)


def _table(t: Table) -> Iterator[Problem]:
    groups: dict[tuple[str, str], dict[str, int]] = {}  # (quantity, column group) → {"max": col, "p99_99": col, …}
    for c, col in enumerate(t.columns):
        metric, _, group = col.key.partition(".")
        m = PERCENTILE.match(metric)
        if m:
            groups.setdefault((m.group("q"), group), {})[metric] = c
        elif metric.endswith("_max") and not metric.startswith("throughput"):
            groups.setdefault((metric.removesuffix("_max"), group), {})["max"] = c
    stated = bool(REASON.search(t.notes))
    for (quantity, group), cols in groups.items():
        if "max" not in cols:
            continue
        cmax = cols.pop("max")
        for r, row in enumerate(t.rows):
            top = _canonical(row, cmax, t.columns[cmax])
            if top is None:
                continue
            for metric, c in cols.items():
                v = _canonical(row, c, t.columns[c])
                flag = (t.flags[r][c] if t.flags and r < len(t.flags) and c < len(t.flags[r]) else None) or ""
                if v is not None and v > top and not stated and not REASON.search(flag):
                    yield Problem(t.page, None, t.cell_where(r, c),
                                  f"{row[c]} {t.columns[c].unit} is above the row's maximum {row[cmax]} {t.columns[cmax].unit} without a stated reason", RULE)


def _canonical(row: list[str], c: int, col: Column) -> float | None:
    p = cell_number(row[c]) if c < len(row) else None
    if p is None or p.qualifier:
        return None
    unit = SYMBOLS.get(col.unit, "")
    return p.value * float(UNITS[unit].factor) if unit else p.value
