"""Charts are data: a chart definition (a plain dict) compiles, through its chart type, to one
Vega-Lite spec that the site embeds and the PDF renders. Chart types are registered under the
entry-point group wirespeed.charts: a callable `(definition) -> altair.Chart` with a one-line docstring.

A definition has: id, type, title, caption, alt (text alternative), data (list of records),
and the type's own fields (x, y, series, reference, …) — no code.
"""

from __future__ import annotations

import math
from typing import Any

from wirespeed.presentation.charts.theme import LEGEND_LABEL_LIMIT, apply_theme

REQUIRED = ("id", "type", "title", "alt", "data")
# Which way is better, said on every chart (issue 23): a definition's "better" is "higher", "lower" or a phrase.
BETTER = {"higher": "Higher is better", "lower": "Lower is better"}
LOWER = ("latency", "jitter", "interarrival_jitter", "ipdv", "rtt", "loss", "lost", "out_of_sequence", "reordered", "duplicate", "retransmits",
         "failover", "cpu", "power", "current")
HIGHER = ("throughput", "forwarding_rate", "rx_rate", "rx", "goodput", "transaction_rate", "aggregate", "per_receiver")


def better(metric: str) -> str | None:
    """"higher" or "lower": which way a metric is better; None when neither is (offered load, window size, voltage)."""
    m = metric.split(".")[0]
    if any(m == p or m.startswith(p + "_") for p in LOWER):
        return "lower"
    if any(m == p or m.startswith(p + "_") for p in HIGHER):
        return "higher"
    return None


def better_text(defn: dict[str, Any]) -> str:
    """The words a chart prints for its "better" ("" when it has none)."""
    b = defn.get("better")
    return BETTER.get(b, b or "")


class ChartError(ValueError):
    """A chart definition that cannot be compiled."""


def compile_chart(defn: dict[str, Any]) -> dict[str, Any]:
    """The Vega-Lite spec (a dict, data inline, theme included) of a chart definition."""
    from wirespeed.extensions import registry

    missing = [k for k in REQUIRED if k not in defn]
    if missing:
        raise ChartError(f"chart {defn.get('id', '?')!r}: missing {', '.join(missing)}")
    chart_type = registry("charts").get(defn["type"])
    if chart_type is None:
        raise ChartError(f"chart {defn['id']!r}: unknown chart type {defn['type']!r} (known: {', '.join(registry('charts'))})")
    if text := better_text(defn):  # first on the subtitle line, under the title
        defn = {**defn, "subtitle": " · ".join(x for x in (text, defn.get("subtitle")) if x)}
    from altair.utils import schemapi

    # Altair checks each object against the schema as it is made (debug mode) and the whole spec in to_dict: both cost
    # a tenth of a second a chart, and the tests check every published spec against the schema instead
    with schemapi.debug_mode(False):
        chart = chart_type(defn)
        spec = apply_theme(chart.to_dict(validate=False))
    spec["description"] = defn["alt"]
    fit_text(spec)
    return spec


def warm() -> None:
    """Start the chart compiler's runtime (vl-convert's, a third of a second the first time in a process) with a chart of
    one point: a notebook kernel warmed before its first run (kernelstate.preload) compiles its first chart at once."""
    import vl_convert as vlc

    vlc.vegalite_to_vega({"mark": "point", "data": {"values": [{"x": 0}]}, "encoding": {"x": {"field": "x", "type": "quantitative"}}})


# Nothing a chart prints runs wider than its plot, so that the static chart (the PDF's, scaled to the text width)
# keeps its text at full size: titles wrap onto lines, legends take as many columns as their longest label leaves
# room for. Widths are estimated from DejaVu Sans's average advance (the live chart measures and wraps again).
TITLE_PX, SUBTITLE_PX, LABEL_PX = 8.6, 6.4, 6.6  # average advance of a character: 14 px bold, 11 px, 11 px
LEGEND_CHANNELS = ("color", "fill", "stroke", "shape", "strokeDash", "size", "opacity")


def fit_text(spec: dict[str, Any]) -> None:
    """Wrap a spec's title and subtitle to its plot's width and give each legend the columns that fit it (in place)."""
    import textwrap

    width = _plot_width(spec)
    title = spec.get("title")
    if isinstance(title, dict):
        for key, px in (("text", TITLE_PX), ("subtitle", SUBTITLE_PX)):
            text = title.get(key)
            if isinstance(text, str) and text and len(text) * px > width:
                title[key] = textwrap.wrap(text, max(20, int(width / px)))
    _legend_columns(spec, width)


def _plot_width(spec: dict[str, Any]) -> float:
    from wirespeed.presentation.charts.theme import WIDTH

    for node in [spec] + spec.get("layer", []) + spec.get("vconcat", []):
        if isinstance(node.get("width"), (int, float)):
            return float(node["width"])
    return float(WIDTH)


def _legend_columns(node: Any, width: float) -> None:
    if isinstance(node, list):
        for n in node:
            _legend_columns(n, width)
        return
    if not isinstance(node, dict):
        return
    for channel in LEGEND_CHANNELS:
        enc = (node.get("encoding") or {}).get(channel)
        if not isinstance(enc, dict) or ("legend" in enc and enc["legend"] is None):
            continue
        domain = (enc.get("scale") or {}).get("domain")
        if not isinstance(domain, list) or not domain:
            continue
        longest = max(len(str(v)) for v in domain) * LABEL_PX
        column = longest + 34  # the symbol, its gap and the gap to the next column
        legend = enc.get("legend") or {}
        if "columns" not in legend:
            legend = enc["legend"] = {**legend, "columns": max(1, min(len(domain), int(width // column)))}
        if longest > LEGEND_LABEL_LIMIT and "labelLimit" not in legend:  # a long label ("apu4-vpp-3threads-2rx-2tx-64b, port 0→1") whole
            enc["legend"] = {**legend, "labelLimit": math.ceil(min(longest, width / legend["columns"] - 34))}
    for key in ("layer", "vconcat", "hconcat", "spec"):
        if key in node:
            _legend_columns(node[key], width)
