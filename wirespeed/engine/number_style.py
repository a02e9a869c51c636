"""The number style: how a number is written as text, for the engine, the catalog and every page and PDF.

Published figures keep their printed digits and qualifier (`published`); derived figures get the decimals
the caller asks for (`derived`, `significant`; presentation/formatting.py holds the one decimals rule of
displayed figures, `derived_decimals`). Whole parts of four digits or more get thousands separators; no
number is ever printed in e-notation (`plain`).
"""

from __future__ import annotations

import math

from wirespeed.engine.units import UNITS

QUALIFIER_PREFIX = {"exact": "", "approx": "≈", "above": ">", "at-least": "≥", "below": "<", "at-most": "≤"}
MACHINE_DIGITS = 6  # a tool's machine number prints at most this many significant digits (engine.qualified.MAX_DIGITS)
WHOLE_RATES = ("fps", "pps", "bps")  # rates that print whole from 1,000 (as presentation.formatting.derived_decimals prints throughput)


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


def published(text: str, qualifier: str = "exact", machine_unit: str | None = None) -> str:
    """Display text of a published cell: thousands grouped, qualifier as a symbol, ranges with an en dash.

    With machine_unit (the cell's unit name), the cell is a machine's number, not a figure a lab printed (an imported
    tool's "49.12281391197388", a collector's mean "8701.5"): it prints by the number rule instead of digit for digit, at most
    MACHINE_DIGITS significant digits, the integer part never rounded, no trailing zero decimals, and a rate of
    1,000 or more in frames/s, packets/s or bit/s whole."""
    if machine_unit is not None and qualifier not in ("range",):
        return QUALIFIER_PREFIX.get(qualifier, "") + machine(text.lstrip("~<>="), machine_unit)
    if qualifier == "range":
        lo, _, hi = text.partition("..")
        return f"{group_thousands(lo)}–{group_thousands(hi)}"
    bare = text.lstrip("~<>=")
    return QUALIFIER_PREFIX.get(qualifier, "") + group_thousands(bare)


def plain(value: float | int | None, digits: int = 6) -> str:
    """A number without e-notation, for a value the text states (a load, a cap, a bucket edge, a time): at most
    `digits` significant digits, the integer part never rounded, trailing zeros dropped, thousands grouped.
    3e7 → '30,000,000', 99.999 → '99.999', 0.5 → '0.5', 1e-5 → '0.00001'."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return ""
    text = f"{value:.{significant_decimals([float(value)], digits)}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return group_thousands("0" if text in ("-0", "") else text)


def machine(text: str, unit: str) -> str:
    """A machine-written number (its text as the tool wrote it) by the number rule; see `published`."""
    try:
        value = float(text)
    except ValueError:
        return group_thousands(text)
    if not math.isfinite(value):
        return text
    decimals = significant_decimals([value], MACHINE_DIGITS)
    decimals = min(decimals, len(text.partition(".")[2]) if "e" not in text.lower() else decimals)  # never more digits than written
    if unit in WHOLE_RATES and abs(value) >= 1000:
        decimals = 0
    out = f"{value:.{decimals}f}"
    if "." in out:
        out = out.rstrip("0").rstrip(".")
    return group_thousands(out)


def significant(value: float, digits: int) -> str:
    """A value with `digits` significant digits (the integer part never rounded), thousands grouped: the rounding
    that carries into a new digit keeps the count (99.96 at 3 digits is '100', not '100.0')."""
    return derived(value, significant_decimals([value], digits))


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
    """Decimals that give about `digits` significant digits to the smallest value of a list (of one figure, as a rule),
    counted after rounding: 9.9996 at four digits is '10.00', not '10.000'."""
    finite = [abs(v) for v in values if v is not None and math.isfinite(v) and v != 0]
    if not finite:
        return 0
    smallest = min(finite)
    magnitude = math.floor(math.log10(smallest))
    decimals = max(digits - 1 - magnitude, 0)
    if decimals and round(smallest, decimals) >= 10 ** (magnitude + 1):  # the rounding carries into a new digit
        decimals -= 1
    return decimals
