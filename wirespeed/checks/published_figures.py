"""Check: published derived figures agree with their recomputation."""

from __future__ import annotations

from wirespeed.checks import Finding
from wirespeed.checks.consistency import agreements


def check_published_figures(rs):
    """Every published derived figure (bit rates, % of line rate, loss) agrees with its recomputation within the published rounding."""
    for a in agreements(rs):
        if not a.agree:
            yield Finding(
                "published-figure-mismatch", a.row, a.metric,
                f"{a.where}: published {a.published}, recomputed {a.recomputed_text} {a.unit_symbol} ({a.basis})", "warning",
            )
