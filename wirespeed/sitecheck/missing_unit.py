"""Rule missing-unit: every figure says what it measures in: a table column of figures has a unit in its header,
a headline figure has its unit, a chart's quantitative axis names its unit in its title."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from wirespeed.problems import Problem
from wirespeed.sitecheck.numbers import cell_number
from wirespeed.sitecheck.site import Site

RULE = "missing-unit"
UNITLESS_LABELS = ("frames", "packets", "segments", "count", "trials", "ports", "samples", "rows", "retransmits", "ratio", "% of line rate")
WORDS = ("no loss", "none")


def check_units(site: Site) -> Iterator[Problem]:
    """No figure without a unit: table columns of numbers, headline figures and chart axes name theirs."""
    for t in site.json_tables:
        for c, col in enumerate(t.columns):
            if col.is_key or col.unit or _unitless(col.label):
                continue
            numbers = [r for r, row in enumerate(t.rows) if c < len(row) and cell_number(row[c]) is not None]
            if numbers:
                yield Problem(t.page, None, f"{t.where}, column “{col.label}”", f"{len(numbers)} figures in a column without a unit (e.g. {t.rows[numbers[0]][c]})", RULE)
    for slug, data in site.sets.items():
        for i, card in enumerate(data.get("headlines", [])):
            for f in card.get("figures", []):
                if not f.get("unit") and f.get("text") not in WORDS and cell_number(f.get("text", "")) is not None:
                    yield Problem(f"results/{slug}/index.html", None, f"ul.headlines > li.headline:nth-of-type({i + 1})",
                                  f"headline figure {f['text']} ({f.get('label')}) without a unit", RULE)
    for page, spec in site.specs.items():
        for where, enc in _axes(spec, ""):
            title = enc.get("title")
            if isinstance(title, str) and title and not _has_unit(title):
                yield Problem(page, None, where, f"quantitative axis “{title}” does not name its unit", RULE)


def _unitless(label: str) -> bool:
    """A label that is its own unit: a count ("Frames"), a ratio ("×N", "copies per frame sent")."""
    low = label.strip().lower()
    return (any(low == w or low.endswith(" " + w) or low.startswith(w) for w in UNITLESS_LABELS) or low.startswith(("frames ", "number of", "×"))
            or " per " in low)


def _has_unit(title: str) -> bool:
    return "(" in title or _unitless(title) or title.lower().endswith((" %", "(%)"))


def _axes(node: Any, path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """The x and y encodings of quantitative fields in a Vega-Lite spec (with an axis shown)."""
    if isinstance(node, dict):
        enc = node.get("encoding")
        if isinstance(enc, dict):
            for ch in ("x", "y"):
                e = enc.get(ch)
                if isinstance(e, dict) and e.get("type") == "quantitative" and e.get("axis", {}) is not None and "title" in e:
                    yield f"{path}.encoding.{ch}", e
        for k, v in node.items():
            if k not in ("data", "encoding"):
                yield from _axes(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _axes(v, f"{path}[{i}]")
