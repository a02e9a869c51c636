"""The outer padding of the report's tables, so that a table's colour bands and its rules are as wide as each other.

Pandoc writes every table as a longtable whose column list starts and ends with `@{}`: no padding outside the first
and the last column, so the rules (booktabs, as wide as the table) stop at the text. colortbl paints a cell's band with
`\\tabcolsep` more on each side (the padding an ordinary column has), so the header band and the zebra rows stuck out
past the rules by 6 pt at both ends of every table. Without the two `@{}`, the outer columns keep their padding: the
bands and the rules then end at the same place, and the template moves each table left by `\\tabcolsep` (`\\LTleft`),
so its text stays where it was, in line with the caption and the body text; bands and rules reach 6 pt into the
margins. The columns' widths do not change (report/tablefit.py computes them for the text between the paddings)."""

from __future__ import annotations

import re

_START = re.compile(r"\\begin\{longtable\}(?:\[[^\]]*\])?\{")


def padded(tex: str) -> str:
    """`tex` (pandoc's LaTeX) with the leading and trailing `@{}` of every longtable's column list removed."""
    out, at = [], 0
    for m in _START.finditer(tex):
        if m.start() < at:
            continue
        end = _closing(tex, m.end())
        if end is None:
            continue
        spec = tex[m.end():end]
        stripped = spec.strip()
        if stripped.startswith("@{}") and stripped.endswith("@{}") and len(stripped) > 6:
            lead = spec[: len(spec) - len(spec.lstrip())]
            spec = lead + stripped[3:-3]
        out.append(tex[at:m.end()] + spec)
        at = end
    out.append(tex[at:])
    return "".join(out)


def _closing(tex: str, i: int) -> int | None:
    """The index of the brace that closes the group opened just before `i`, or None."""
    depth = 1
    while i < len(tex):
        c = tex[i]
        if c == "\\":
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return None
