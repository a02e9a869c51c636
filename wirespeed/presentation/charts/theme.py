"""The house theme: one font stack, an accessible palette (Okabe–Ito), units on every axis,
readable in greyscale (series differ by dash and point shape too)."""

from __future__ import annotations

import altair as alt

FONT = "DejaVu Sans, Verdana, sans-serif"
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"]
DASHES = [[1, 0], [6, 3], [2, 2], [8, 3, 2, 3], [4, 4], [1, 3], [10, 2], [3, 6]]
SHAPES = ["circle", "square", "triangle-up", "diamond", "cross", "triangle-down", "stroke", "triangle-right"]
REFERENCE = "#555555"
WIDTH, HEIGHT = 560, 300
NUMBER = ",.6~r"  # d3-format: grouped thousands, up to 6 significant digits, no exponent


def apply_theme(chart: alt.TopLevelMixin) -> alt.TopLevelMixin:
    """Attach the house configuration to a chart, so the spec carries its own look."""
    return chart.configure(
        font=FONT, background="white", padding=8,
    ).configure_axis(
        labelFontSize=11, titleFontSize=12, titleFontWeight="normal", gridColor="#e5e5e5", domainColor="#888888", tickColor="#888888",
        labelColor="#222222", titleColor="#222222",
    ).configure_axisQuantitative(
        labelOverlap="greedy", labelSeparation=4,  # numeric tick labels never print over each other (Vega drops the ones that would)
    ).configure_legend(
        labelFontSize=11, titleFontSize=11, titleFontWeight="normal", orient="bottom", direction="horizontal", symbolStrokeWidth=2,
    ).configure_title(
        fontSize=14, fontWeight="bold", anchor="start", color="#111111", subtitleFontSize=11, subtitleColor="#444444",
    ).configure_view(stroke=None).configure_range(category=PALETTE)
