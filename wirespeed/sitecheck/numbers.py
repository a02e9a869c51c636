"""Printed figures in published text: a number as a reader sees it (qualifier, sign, thousands separators,
decimals, an exponent if any) and the unit printed after it, with its value in the unit's canonical
terms. The units are the engine's (wirespeed.engine.units) and the few words pages print for them."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from wirespeed.engine.qualified import significant_digits
from wirespeed.engine.units import UNITS

# Unit symbols as pages print them, longest first so that "Mframes/s" wins over "frames".
_EXTRA = {"Mpps": "mpps", "byte": "bytes", "B": "bytes", "Gbps": "gbps", "Mbps": "mbps", "kbps": "kbps", "us": "us", "packets/s": "pps"}
SYMBOLS: dict[str, str] = {u.symbol: u.name for u in UNITS.values()} | _EXTRA
_UNIT_RE = "|".join(re.escape(s) for s in sorted(SYMBOLS, key=len, reverse=True))
SPACE = "[ \u00a0\u202f\u2009]"
# A number: not glued to a word, a path, a version or an identifier before it; a thousands-grouped or plain
# integer part, decimals, an exponent; then, optionally, a unit ("64-byte" counts as bytes).
NUMBER = re.compile(
    rf"(?<![\w.,/#:@&=+\-−])(?P<qual>[~≈<>≤≥]{SPACE}?)?(?P<sign>[-−])?"
    rf"(?P<num>\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?)(?P<exp>[eE][+-]?\d+)?"
    rf"(?![\w]|[.,]\d)(?:(?P<sp>{SPACE}?|-)(?P<unit>{_UNIT_RE})(?![\w/]))?")
E_NOTATION = re.compile(r"(?<![\w.#/-])\d+(?:\.\d+)?[eE][+-]\d+(?!\w)")


@dataclass(frozen=True)
class Printed:
    """One printed figure: its text, value, decimals, significant digits and unit (canonical name, or '')."""

    text: str
    number: str  # the digits as printed, thousands separators kept
    value: float
    decimals: int
    digits: int
    unit: str  # a key of wirespeed.engine.units.UNITS, or "" when no unit follows
    qualifier: str
    start: int
    end: int

    @property
    def canonical(self) -> float:
        """The value in the canonical unit of its dimension (the value itself without a unit)."""
        return self.value * float(UNITS[self.unit].factor) if self.unit else self.value

    @property
    def dimension(self) -> str:
        return UNITS[self.unit].dimension if self.unit else ""

    @property
    def half_step(self) -> float:
        """Half a unit of the last printed digit, in canonical units: how far the true value may lie from it."""
        return 0.5 * 10 ** (-self.decimals) * (float(UNITS[self.unit].factor) if self.unit else 1.0)


def parse(text: str) -> list[Printed]:
    """Every printed figure of a text, in order."""
    out = []
    for m in NUMBER.finditer(text):
        num = m.group("num")
        bare = num.replace(",", "")
        try:
            value = float(bare + (m.group("exp") or ""))
        except ValueError:
            continue
        if not math.isfinite(value):
            continue
        if m.group("sign"):
            value = -value
        unit = SYMBOLS.get(m.group("unit") or "", "")
        decimals = len(bare.partition(".")[2])
        out.append(Printed(m.group(0), num, value, decimals, significant_digits(bare), unit,
                           (m.group("qual") or "").strip(), m.start(), m.end()))
    return out


def cell_number(text: str) -> Printed | None:
    """The figure of a table cell that holds one number (qualifiers, a range's lower end, marks like † aside)."""
    body = text.replace("†", "").replace("(derived)", "").strip()
    found = parse(body)
    return found[0] if found and found[0].start <= 2 else None


def snippet(text: str, start: int, end: int, width: int = 40) -> str:
    """The figure at [start, end) with some of its context, on one line, for a message."""
    lo, hi = max(0, start - width), min(len(text), end + width)
    out = " ".join(text[lo:hi].split())
    return ("…" if lo else "") + out + ("…" if hi < len(text) else "")
