"""How numbers are printed: the one code path from a catalog value to the text on a page or in a PDF.

Published figures keep their printed digits and qualifier; derived figures get the decimals the
caller asks for. Whole parts of four digits or more get thousands separators.
"""

from __future__ import annotations

import math

from wirespeed.engine.units import UNITS

QUALIFIER_PREFIX = {"exact": "", "approx": "≈", "above": ">", "at-least": "≥", "below": "<", "at-most": "≤"}


def group_thousands(text: str) -> str:
    """'19047430585' → '19,047,430,585', '6883' → '6,883', '1934.5' → '1,934.5'; '9.752' unchanged."""
    sign = "-" if text.startswith("-") else ""
    body = text[len(sign):]
    whole, dot, frac = body.partition(".")
    if len(whole) < 4 or not whole.isdigit():
        return text
    groups = []
    while whole:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    return sign + ",".join(groups) + dot + frac


def published(text: str, qualifier: str = "exact") -> str:
    """Display text of a published cell: thousands grouped, qualifier as a symbol, ranges with an en dash."""
    if qualifier == "range":
        lo, _, hi = text.partition("..")
        return f"{group_thousands(lo)}–{group_thousands(hi)}"
    bare = text.lstrip("~<>=")
    return QUALIFIER_PREFIX.get(qualifier, "") + group_thousands(bare)


def derived(value: float | None, decimals: int) -> str:
    """Display text of an engine-derived value with a fixed number of decimals."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return ""
    return group_thousands(f"{value:.{max(decimals, 0)}f}")


def pick_unit(dimension: str, values: list[float]) -> str:
    """A readable unit for derived values of one column: the largest whose values stay ≥ 1."""
    candidates = {
        "frame_rate": ["fps", "kfps", "mfps", "gfps"],
        "bit_rate": ["bps", "kbps", "mbps", "gbps", "tbps"],
        "time": ["ns", "us", "ms", "s"],
        "transaction_rate": ["tps", "ktps"],
    }.get(dimension)
    if not candidates:
        return {"percent": "pct", "count": "frames", "size": "bytes", "power": "w", "voltage": "v", "current": "a"}[dimension]
    finite = [abs(v) for v in values if v is not None and math.isfinite(v) and v != 0]
    if not finite:
        return candidates[0]
    smallest = min(finite)
    best = candidates[0]
    for name in candidates:
        if smallest / float(UNITS[name].factor) >= 1:
            best = name
    return best


def significant_decimals(values: list[float], digits: int = 4) -> int:
    """Decimals that give about `digits` significant digits to the smallest value of a column."""
    finite = [abs(v) for v in values if v is not None and math.isfinite(v) and v != 0]
    if not finite:
        return 0
    magnitude = math.floor(math.log10(min(finite)))
    return max(digits - 1 - magnitude, 0)


def derived_decimals(metric: str, values: list[float]) -> int:
    """Decimals of an engine-derived figure (in its display unit): the one rule for tables and single figures."""
    if metric in ("throughput_line_rate", "throughput_max_theoretical"):
        return 2 if all(v < 99.95 for v in values) else 3
    if metric == "loss":
        return 3
    if metric == "lost":
        return 0
    if metric in ("throughput", "line_rate") and values and min(values) >= 1000:
        return 0
    if metric in ("throughput", "line_rate", "throughput_l1", "throughput_l2") and values:
        return min(significant_decimals(values, 4), 3)
    return significant_decimals(values, 4)
