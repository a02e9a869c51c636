"""Rule e-notation: no figure printed as 3e+07, and no chart format that lets Vega print 10 as 1e+1."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from wirespeed.problems import Problem
from wirespeed.sitecheck.numbers import E_NOTATION, snippet
from wirespeed.sitecheck.site import Site

RULE = "e-notation"
# d3-format types that print an exponent: e always; g, r-less "none" (",", "", ".3") when the value needs it
EXPONENT_TYPES = ("e", "g", "")


def check_e_notation(site: Site) -> Iterator[Problem]:
    """No published text (pages, SVG charts, PDFs, downloads, feed) prints e-notation, and no chart spec formats a number with a d3 type that can."""
    for t in site.texts():
        m = E_NOTATION.search(t.text)
        if m:
            yield Problem(t.page, None, t.where, f"e-notation {m.group(0)!r} in “{snippet(t.text, m.start(), m.end())}”", RULE)
    for page, spec in site.specs.items():
        for where, fmt in _formats(spec, ""):
            kind = d3_type(fmt)
            if kind in EXPONENT_TYPES:
                yield Problem(page, None, where, f"d3 format {fmt!r} has {'no type' if not kind else 'type ' + repr(kind)}: Vega prints 10 as 1e+1 with it "
                              "(use a decimal type such as ',.6~r' or ',d')", RULE)


def _formats(node: Any, path: str) -> Iterator[tuple[str, str]]:
    """(JSON path, d3 number format) of every quantitative format in a Vega-Lite spec."""
    if isinstance(node, dict):
        fmt = node.get("format")
        if isinstance(fmt, str) and node.get("formatType", "number") == "number" and node.get("type") not in ("temporal", "nominal", "ordinal"):
            yield path + ".format", fmt
        for k, v in node.items():
            if k != "data":  # the data values, not formats
                yield from _formats(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _formats(v, f"{path}[{i}]")


def d3_type(spec: str) -> str:
    """The type of a d3-format specifier: ',.6~r' → 'r', ',' → '', '.2f' → 'f', ',~s' → 's'."""
    body = spec.rstrip()
    return body[-1] if body and body[-1] in "eEfgGrsdbcoxXpn%" else ""
