"""How derived figures are shown: the one decimals rule of every displayed figure (`derived_decimals`: about four
significant digits of the figure itself, so that one value prints the same text in a table, a card and a sentence).
The text of a number (thousands separators, qualifier symbols, no e-notation) is the engine's number style
(wirespeed.engine.number_style).
"""

from __future__ import annotations

from wirespeed.engine.number_style import significant_decimals


def derived_decimals(metric: str, values: list[float]) -> int:
    """Decimals of an engine-derived figure (in its display unit): the one rule for tables and single figures.

    Called with one figure's value, as tables, cards, charts and sentences do, it makes one value print one text
    everywhere (a line rate of 93.98496 Mframes/s is '93.98' in a table beside '5.543' as in a sentence)."""
    if metric in ("throughput_line_rate", "throughput_max_theoretical"):
        return 2 if all(v < 99.95 for v in values) else 3
    if metric == "loss":
        return 3
    if metric == "cumulative_share":  # the running share of frames of a histogram, in %
        return 2
    if metric == "lost":
        return 0
    if metric in ("throughput", "line_rate") and values and min(values) >= 1000:
        return 0
    if metric in ("throughput", "line_rate", "throughput_l1", "throughput_l2") and values:
        return min(significant_decimals(values, 4), 3)
    return significant_decimals(values, 4)
