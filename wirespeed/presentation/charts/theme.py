"""The house theme: one font stack, an accessible palette (Okabe–Ito), units on every axis,
readable in greyscale (series differ by dash and point shape too).

Colours are *tokens*: the light theme's values of the site's CSS variables. The browser swaps each
token for the page's current CSS variable (assets/js/charts.js), so a live chart follows the light or
dark theme. The static drawing (SVG, PDF) stays light; the site shows it inverted under the dark theme.
"""

from __future__ import annotations

import json
from typing import Any

import altair as alt

from wirespeed.presentation.chartstyle import COLOURS, DASHES, SHAPES

FONT = "DejaVu Sans, Verdana, sans-serif"
PALETTE = COLOURS
# token (light value) → CSS variable that replaces it on the page
FG, MUTED, GRID, BG, INK = "#1b1d1f", "#59606a", "#d5d9de", "#ffffff", "#000000"
TOKENS = {FG: "--fg", MUTED: "--muted", GRID: "--border", BG: "--bg", INK: "--fg"}
# the dark theme's values of those variables (assets/css/main.css; tests/test_chart_style.py checks they agree)
DARK = {"--fg": "#e6e8eb", "--muted": "#a4acb6", "--border": "#313840", "--bg": "#111417"}
REFERENCE = MUTED
WIDTH, HEIGHT = 560, 300
NUMBER = ",.6~r"  # d3-format: grouped thousands, up to 6 significant digits, no exponent
TEXT = 11  # px: the smallest text of any chart (legible on a 390 px phone)

__all__ = ["DASHES", "SHAPES", "PALETTE", "REFERENCE", "WIDTH", "HEIGHT", "NUMBER", "TEXT", "apply_theme"]


def apply_theme(chart: alt.TopLevelMixin) -> alt.TopLevelMixin:
    """Attach the house configuration to a chart, so the spec carries its own look."""
    return chart.configure(
        font=FONT, background=BG, padding=8, aria=False,  # the page describes the chart (alt text), not Vega's tick dump
    ).configure_axis(
        labelFontSize=TEXT, titleFontSize=12, titleFontWeight="normal", gridColor=GRID, domainColor=MUTED, tickColor=MUTED,
        labelColor=FG, titleColor=FG, labelLimit=180, labelOverlap="greedy", labelSeparation=3,  # no label prints over another (Vega drops some)
    ).configure_axisQuantitative(
        labelOverlap="greedy", labelSeparation=4,  # numeric tick labels never print over each other (Vega drops the ones that would)
    ).configure_legend(
        labelFontSize=TEXT, titleFontSize=TEXT, titleFontWeight="normal", orient="bottom", direction="horizontal", symbolStrokeWidth=2,
        labelColor=FG, titleColor=FG, labelLimit=220,
    ).configure_title(
        fontSize=14, fontWeight="bold", anchor="start", color=FG, subtitleFontSize=TEXT, subtitleColor=MUTED,
    ).configure_text(fontSize=TEXT, color=FG).configure_view(stroke=None).configure_range(category=PALETTE)
