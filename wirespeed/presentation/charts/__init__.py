"""Charts are data: a chart definition (a plain dict) compiles, through its chart type, to one
Vega-Lite spec that the site embeds and the PDF renders. Chart types are registered under the
entry-point group wirespeed.charts: a callable `(definition) -> altair.Chart` with a one-line docstring.

A definition has: id, type, title, caption, alt (text alternative), data (list of records),
and the type's own fields (x, y, series, reference, …) — no code.
"""

from __future__ import annotations

from typing import Any

from wirespeed.presentation.charts.theme import apply_theme

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
    chart = chart_type(defn)
    spec = apply_theme(chart).to_dict()
    spec["description"] = defn["alt"]
    return spec
