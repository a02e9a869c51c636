"""Qualifier algebra and significance of derived figures: the one rule every printed derived figure follows.

A derived figure inherits what its published inputs say about them: a throughput published as
">770" Mframes/s gives a bit rate and a share of line rate that are also "more than"; "~75" gives
"about"; "12..17" gives a range. It is printed with no more significant digits than its least
precise input (a 3-figure input never yields "35.280"). Exact theoretical figures (line rate) and
exact frame counts do not limit the digits; then about four significant digits are shown.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from wirespeed.engine import number_style
# Published inputs of each engine-derived metric (first present wins for the throughput family,
# mirroring wirespeed.engine.derive.throughput_fps); +1 means the derived figure grows with the input.
THROUGHPUT_FAMILY = ("throughput", "throughput_l1", "throughput_l2", "throughput_line_rate", "throughput_max_theoretical")
THROUGHPUT_SOURCES = ("throughput", "throughput_l1", "throughput_l2")
EXACT_DIMENSIONS = ("count",)  # frame counts are exact integers: they never limit the digits
DEFAULT_DIGITS = 4
MAX_DIGITS = 6
FLIP = {"above": "below", "below": "above", "at-least": "at-most", "at-most": "at-least"}


@dataclass(frozen=True)
class Qualified:
    """How a derived figure is printed: its qualifier, significant digits and, for a range, its upper end."""

    qualifier: str = "exact"
    digits: int | None = None  # None: the inputs do not limit the digits
    high_factor: float | None = None  # range: upper end = value × high_factor


LOWER_BOUNDS = ("above", "at-least")  # qualifiers that make a figure a bound, not a value: from below
BOUNDS = LOWER_BOUNDS + ("below", "at-most")  # and from above


def throughput_bound(row: dict[str, Any]) -> str:
    """The bound symbol of a catalog row's throughput (≥ when its search was stopped by the generator, > when the
    source printed "more than"), "" when it is a value: its published cell's qualifier, else its derived one's."""
    cell = next((row["cells"][m] for m in THROUGHPUT_SOURCES if m in row["cells"]), None)
    q = (cell.get("qualifier") or "exact") if cell else of_derived(row, "throughput").qualifier
    return number_style.QUALIFIER_PREFIX[q] if q in BOUNDS else ""


def significant_digits(text: str) -> int:
    """Significant digits of a printed figure: '770' → 3, '9.752' → 4, '0.05' → 1, '~75' → 2, '12..17' → 2."""
    body = text.strip().lstrip("~<>=")
    if ".." in body:
        return min(significant_digits(p) for p in body.split(".."))
    mantissa = body.lower().split("e")[0].lstrip("-")
    digits = mantissa.replace(".", "").lstrip("0")
    return max(len(digits), 1)


def combine(qualifiers: list[tuple[str, int]]) -> str:
    """Qualifier of a figure derived from inputs (qualifier, direction ±1): monotone maps keep a bound, flip it
    for a decreasing input; several non-exact inputs, or a bound with an approximation, give 'approx'."""
    inexact = [(q, d) for q, d in qualifiers if q != "exact"]
    if not inexact:
        return "exact"
    if len(inexact) > 1:
        bounds = {(q if d > 0 else FLIP.get(q, q)) for q, d in inexact}
        return bounds.pop() if len(bounds) == 1 and bounds <= {"above", "below", "at-least", "at-most"} else "approx"
    q, d = inexact[0]
    if q in ("approx", "range"):
        return q
    return q if d > 0 else FLIP.get(q, "approx")


def _inputs(row: dict[str, Any], metric: str) -> list[tuple[dict[str, Any], int, str]]:
    """The published cells a derived metric of this row comes from: (cell, direction, input metric)."""
    cells = row.get("cells") or {}
    if metric in THROUGHPUT_FAMILY:
        src = next((m for m in THROUGHPUT_SOURCES if m in cells), None)
        return [(cells[src], 1, src)] if src else []
    if metric == "lost":
        return [(cells[m], d, m) for m, d in (("tx", 1), ("rx", -1)) if m in cells]
    if metric == "loss":
        return [(cells[m], d, m) for m, d in (("tx", 1), ("rx", -1)) if m in cells]
    if metric == "forwarding_rate":
        return [(cells[m], d, m) for m, d in (("rx", 1), ("duration", -1)) if m in cells]
    return []


def of_derived(row: dict[str, Any], metric: str, value: float | None = None) -> Qualified:
    """Qualifier and digits of the engine-derived `metric` of a catalog row (its value in canonical units)."""
    from wirespeed.engine.columns import METRICS

    ins = _inputs(row, metric)
    if not ins:
        return Qualified()
    qualifier = combine([(c.get("qualifier") or "exact", d) for c, d, _ in ins])
    limiting = [significant_digits(c["text"]) for c, _, m in ins if METRICS[m].dimension not in EXACT_DIMENSIONS]
    digits = min(limiting) if limiting else None
    high_factor = None
    if qualifier == "range" and len(ins) == 1:
        cell = ins[0][0]
        lo, _, hi = cell["text"].partition("..")
        try:
            high_factor = float(hi) / float(lo) if float(lo) else None
        except ValueError:
            high_factor = None
        if high_factor is None:
            qualifier = "approx"
    return Qualified(qualifier, digits, high_factor)


def inputs(row: dict[str, Any], metric: str) -> list[tuple[dict[str, Any], int, str]]:
    """The published cells a derived metric of a catalog row comes from (cell, direction, input metric): what its
    qualifier and digits follow, and what its explanation names (wirespeed.catalog.explain)."""
    return _inputs(row, metric)


def digits_text(value: float, digits: int | None, fallback_decimals: int | None = None) -> str:
    """A value with `digits` significant digits (never rounding the integer part), thousands grouped.

    With digits None, `fallback_decimals` (or about four significant digits) is used."""
    if value is None or not math.isfinite(value):
        return ""
    if digits is None:
        if fallback_decimals is not None:
            return number_style.derived(value, fallback_decimals)
        digits = DEFAULT_DIGITS
    digits = max(1, min(digits, MAX_DIGITS))
    if not value:
        return number_style.derived(value, digits - 1)
    return number_style.significant(value, digits)  # counted after rounding: 99.96 at 3 digits is "100"


def text(value: float, q: Qualified, fallback_decimals: int | None = None) -> str:
    """The printed derived figure: qualifier symbol, digits, a range as 'lo–hi'."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return ""
    if q.qualifier == "range" and q.high_factor:
        return f"{digits_text(value, q.digits, fallback_decimals)}–{digits_text(value * q.high_factor, q.digits, fallback_decimals)}"
    return number_style.QUALIFIER_PREFIX.get(q.qualifier, "") + digits_text(value, q.digits, fallback_decimals)


def published_converted(value: float, cell: dict[str, Any]) -> str:
    """A published figure shown in another unit of its dimension: its qualifier and its own significant digits."""
    q = Qualified(cell.get("qualifier") or "exact", significant_digits(cell["text"]))
    if q.qualifier == "range":
        lo, _, hi = cell["text"].partition("..")
        q = Qualified("range", q.digits, float(hi) / float(lo) if float(lo) else None)
    return text(value, q)
