"""Bounds on published numbers: what a CSV cell may hold before any arithmetic sees it.

A cell such as `1e999999` or `1e-999999` is a valid decimal, but no benchmark figure needs more
than 30 decimal places or a magnitude beyond 10^30 (a petabit per second is 10^15 bit/s), and
such values overflow, underflow or make a printed recomputation millions of digits long.
"""

from __future__ import annotations

from wirespeed.engine.figures import Figure

MAX_EXPONENT = 30  # |value| < 10^30 and, when not zero, ≥ 10^-30
MAX_DECIMALS = 30  # digits after the decimal point as printed


def out_of_bounds(fig: Figure) -> str | None:
    """Why a parsed figure is outside the accepted range, or None."""
    for value in (fig.value, fig.high):
        if value is None or value.is_zero():
            continue
        if abs(value.adjusted()) >= MAX_EXPONENT:
            return f"magnitude beyond 1e±{MAX_EXPONENT} (the accepted range is 1e-{MAX_EXPONENT} to 1e{MAX_EXPONENT})"
    if fig.decimals > MAX_DECIMALS:
        return f"more than {MAX_DECIMALS} decimal places"
    return None

