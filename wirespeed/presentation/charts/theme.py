"""The house theme: one font stack, an accessible palette (Okabe–Ito), units on every axis,
readable in greyscale (series differ by dash and point shape too).

Colours are *tokens*: the light theme's values of the site's CSS variables. The browser swaps each
token for the page's current CSS variable (assets/js/charts.js), so a live chart follows the light or
dark theme. The static drawing (SVG, PDF) stays light; the site shows it inverted under the dark theme.
"""

from __future__ import annotations

from typing import Any

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


LEGEND_LABEL_LIMIT = 220  # px: a legend label longer is cut with "…" unless its legend sets its own (charts.fit_text does, where it fits)
# The house configuration, as Vega-Lite's config object: set on a compiled spec as plain data (Altair's configure_*
# methods deep-copy the whole chart once each, a third of the time a chart took to compile).
CONFIG: dict[str, Any] = {
    "font": FONT, "background": BG, "padding": 8, "aria": False,  # the page describes the chart (alt text), not Vega's tick dump
    "axis": {"labelFontSize": TEXT, "titleFontSize": 12, "titleFontWeight": "normal", "gridColor": GRID, "domainColor": MUTED, "tickColor": MUTED,
             "labelColor": FG, "titleColor": FG, "labelLimit": 180,
             "labelOverlap": "greedy", "labelSeparation": 3},  # no label prints over another (Vega drops some)
    "axisQuantitative": {"labelOverlap": "greedy", "labelSeparation": 4},  # numeric tick labels never print over each other
    "legend": {"labelFontSize": TEXT, "titleFontSize": TEXT, "titleFontWeight": "normal", "orient": "bottom", "direction": "horizontal",
               "symbolStrokeWidth": 2, "labelColor": FG, "titleColor": FG, "labelLimit": LEGEND_LABEL_LIMIT},
    "title": {"fontSize": 14, "fontWeight": "bold", "anchor": "start", "color": FG, "subtitleFontSize": TEXT, "subtitleColor": MUTED},
    "text": {"fontSize": TEXT, "color": FG},
    "view": {"stroke": None},
    "range": {"category": PALETTE},
}


def apply_theme(spec: dict[str, Any]) -> dict[str, Any]:
    """A compiled Vega-Lite spec (Altair's to_dict) with the house configuration in its config, so the spec carries its
    own look: each group of settings merged over what the spec's config holds (Altair's default view size), its keys
    sorted as Altair writes them; the spec is changed in place and returned."""
    config = spec.get("config") or {}
    order = ["view"] if "view" in config else []  # Altair's default theme's key comes first, the rest sorted
    merged: dict[str, Any] = {}
    for key in order + sorted((set(config) | set(CONFIG)) - set(order)):
        ours, theirs = CONFIG.get(key), config.get(key)
        if isinstance(ours, dict) and isinstance(theirs, dict):
            value: Any = {**theirs, **ours}
        else:
            value = theirs if key not in CONFIG else ours
        merged[key] = dict(sorted(value.items())) if isinstance(value, dict) and key != "view" else value
    rest = {k: v for k, v in spec.items() if k != "config"}
    spec.clear()
    spec.update({"config": merged, **rest})
    return spec
