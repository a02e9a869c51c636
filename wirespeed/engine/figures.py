"""Figures as printed: a value with the precision and qualifier it was published with.

A printed figure stands for an interval: "9.752" for [9.7515, 9.7525], "~75" for [74, 76],
">770" for (770, inf). Consistency checks compare intervals, so a recomputed figure agrees
with a published one exactly when it lies within the published rounding.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

QUALIFIERS = {"": "exact", "~": "approx", ">": "above", ">=": "at-least", "<": "below", "<=": "at-most"}
SYMBOLS = {"exact": "", "approx": "≈", "above": ">", "at-least": "≥", "below": "<", "at-most": "≤"}
_RANGE = re.compile(r"^(-?[0-9]+(?:\.[0-9]+)?)\.\.(-?[0-9]+(?:\.[0-9]+)?)$")
_NUMBER = re.compile(r"^(>=|<=|~|>|<)?(-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)$")


class FigureSyntaxError(ValueError):
    """The text is not a number in the accepted notation."""


@dataclass(frozen=True)
class Figure:
    """A published number: its text, value, decimals and qualifier."""

    text: str
    value: Decimal
    decimals: int
    qualifier: str = "exact"
    high: Decimal | None = None  # upper end of a published range ("12..17")

    @classmethod
    def parse(cls, text: str) -> "Figure":
        """Parse '9.752', '~75', '>770', '1.5e3', '12..17' (no thousands separators, no units)."""
        if r := _RANGE.match(text.strip()):
            lo, hi = cls.parse(r.group(1)), cls.parse(r.group(2))
            if hi.value < lo.value:
                raise FigureSyntaxError(text)
            return cls(text.strip(), lo.value, max(lo.decimals, hi.decimals), "range", hi.value)
        m = _NUMBER.match(text.strip())
        if not m:
            raise FigureSyntaxError(text)
        q, num = m.group(1) or "", m.group(2)
        try:
            value = Decimal(num)
        except InvalidOperation as exc:  # pragma: no cover - the regex admits only valid decimals
            raise FigureSyntaxError(text) from exc
        exponent = value.as_tuple().exponent
        decimals = -exponent if isinstance(exponent, int) else 0
        return cls(text=text.strip(), value=value, decimals=decimals, qualifier=QUALIFIERS[q])

    @property
    def ulp(self) -> Decimal:
        """One unit in the last printed place."""
        return Decimal(1).scaleb(-self.decimals)

    def interval(self) -> tuple[float, float]:
        """The interval of true values this printed figure is consistent with."""
        v, half = float(self.value), float(self.ulp) / 2
        match self.qualifier:
            case "range":
                return v - half, float(self.high) + half
            case "exact":
                return v - half, v + half
            case "approx":
                return v - 2 * half, v + 2 * half
            case "above":
                return v, math.inf
            case "at-least":
                return v - half, math.inf
            case "below":
                return v - 2 * half, v
            case "at-most":
                return -math.inf, v + half
        raise AssertionError(self.qualifier)

    def scaled(self, factor: Decimal) -> "Figure":
        """The same figure in another unit; `factor` is a power of ten (new value / old value)."""
        shift = factor.adjusted()
        if factor != Decimal(1).scaleb(shift):
            raise ValueError(f"unit factor {factor} is not a power of ten")
        high = self.high * factor if self.high is not None else None
        return Figure(self.text, self.value * factor, self.decimals - shift, self.qualifier, high)


def overlaps(a: tuple[float, float], b: tuple[float, float], rel: float = 1e-12) -> bool:
    """Whether two intervals share a point (with a hair of float slack)."""
    slack = rel * max(abs(x) for x in (*a, *b) if math.isfinite(x)) if any(math.isfinite(x) for x in (*a, *b)) else 0
    return a[0] <= b[1] + slack and b[0] <= a[1] + slack
