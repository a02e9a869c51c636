"""Fitting a PDF table to the page for any valid set: the type size, the orientation and the column widths.

Each column needs at least its widest unbreakable piece: a number with its marks ("12,345,678,901,234 †"),
a word of a header (headers wrap at spaces, hyphens and slashes) or a word of a text cell (long runs get break
points every few characters, see pandoc_ast.breakable). The table takes the first of portrait then landscape,
each at the table type size, then scriptsize (7 pt, the smallest), in which those minimum widths fit; landscape
only for a table long enough to fill the rotated page. The room left is shared out in proportion to each column's
whole text. A table that fits no allowed page is split into parts by columns (column_parts): its key columns
(frame size, variant, …) start every part, and each part fits at scriptsize or larger. Widths are estimated from Latin Modern Sans's advance
widths (digits half an em), with a safety margin, so a number never runs into the next column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A4 with 25 mm side margins and 28 mm top and bottom (reports/defaults.yaml): text block in pt.
PORTRAIT_PT = (210 - 2 * 25) / 25.4 * 72.27
TEXT_HEIGHT_PT = (297 - 2 * 28) / 25.4 * 72.27
LANDSCAPE_PT = TEXT_HEIGHT_PT  # a rotated page's line is the text block's height
SIZES = (("small", 9.0), ("scriptsize", 7.0))  # LaTeX sizes at a 10 pt body font: never smaller than 7 pt (issue 23)
LANDSCAPE_ROWS = 15  # a table turns the page only when it has rows enough to fill much of it; a shorter one prints in parts
TABCOLSEP_PT = 6.0  # LaTeX's \tabcolsep, on each side of every column
SAFETY = 1.12
HEADER_BREAKS = re.compile(r"(?<=[-/–])|\s+")
HYPHENATED = 0.62  # share of a long header word left on one line when it is hyphenated
TEXT_RUN = 20  # longer unbroken runs of text get break points (pandoc_ast.BREAK_LONGER_THAN) …
TEXT_CHUNK = 10  # … every this many characters


@dataclass(frozen=True)
class Fit:
    size: str  # LaTeX size name of the table type
    landscape: bool
    widths: list[float]  # relative widths, as Pandoc's ColWidth (share of the line less the column padding)
    squeezed: bool = False  # nothing fitted: the columns were shrunk below their widest piece (split the table instead)


def em(text: str, bold: bool = False) -> float:
    """Estimated advance width of text in em of Latin Modern Sans."""
    w = 0.0
    for ch in text:
        if ch.isdigit():
            w += 0.5
        elif ch in ".,:;'’!|":
            w += 0.28
        elif ch in " \u00a0":
            w += 0.33
        elif ch in "<>×=+±≈≤≥−":  # operators are set on a math-wide body
            w += 0.78
        elif ch.isupper() or ch in "MWmw%@—–":
            w += 0.72
        elif ch in "ilfjtr()[]":
            w += 0.33
        else:
            w += 0.52
    return w * (1.18 if bold else 1.0)


def _unbreakable(text: str, numeric: bool) -> list[str]:
    """The pieces of a cell that cannot be split across lines."""
    if numeric:
        return [text.strip()]  # a number stays whole with its qualifier and marks
    out = []
    for word in text.split():
        out += [word[i:i + TEXT_CHUNK] for i in range(0, len(word), TEXT_CHUNK)] if len(word) > TEXT_RUN else [word]
    return out


def fit(headers: list[list[str]], body: list[list[str]], numeric: list[bool], base_size: str = "small", smallest: str = "scriptsize",
        landscape: bool | None = None) -> Fit:
    """Type size, orientation and widths for a table of len(numeric) columns.

    headers: for each column the header texts that sit over it alone (a group label spanning columns is left
    out: it wraps over their joint width); body: the cell texts row by row. landscape: whether a rotated page
    may hold it (default: when it has LANDSCAPE_ROWS rows or more, so that it fills the page)."""
    if landscape is None:
        landscape = len(body) >= LANDSCAPE_ROWS
    n = len(numeric)
    names = [name for name, _ in SIZES]
    sizes = [s for s in SIZES if names.index(base_size) <= SIZES.index(s) <= names.index(smallest)]
    choice = None
    for hyphenate in (False, True):  # header words are hyphenated only when the table cannot fit otherwise
        least, whole = _needs(headers, body, numeric, hyphenate)
        for turned, line in ((False, PORTRAIT_PT), (True, LANDSCAPE_PT))[: 2 if landscape else 1]:
            for name, pt in sizes:
                room = line - 2 * TABCOLSEP_PT * (n - 1)  # the padding between columns; the outer padding hangs in the margins (tablepad.py)
                if room > 0 and sum(least) * pt * SAFETY <= room:
                    choice = (name, pt, turned, room)
                    break
            if choice:
                break
        if choice:
            break
    squeezed = choice is None
    if choice is None:  # nothing fits: the smallest type, the columns shrunk in proportion (the caller prints it in parts)
        name, pt = sizes[-1]
        room = max((LANDSCAPE_PT if landscape else PORTRAIT_PT) - 2 * TABCOLSEP_PT * (n - 1), 1.0)
        squeeze = room / pt / (sum(least) * SAFETY)
        least = [l * squeeze for l in least]
        choice = (name, pt, landscape, room)
    name, pt, landscape, room = choice
    need = [max(l * SAFETY, 0.5) for l in least]
    spare = max(room / pt - sum(need), 0.0)  # em to share out
    extra = [max(w - l, 0.0) for w, l in zip(whole, need)]
    total_extra = sum(extra)
    if total_extra <= spare:  # a narrow table need not fill the line
        widths_em = [l + e for l, e in zip(need, extra)]
    else:
        widths_em = [l + spare * e / total_extra for l, e in zip(need, extra)]
    scale = 0.99 * pt / room  # a little short of the line: rounding never makes a table overfull
    scale = min(scale, 0.99 / max(sum(widths_em), 1e-9))  # a squeezed table of very many columns still never runs past the line
    return Fit(name, landscape, [round(w * scale, 4) for w in widths_em], squeezed)


def column_parts(headers: list[list[str]], body: list[list[str]], numeric: list[bool], keys: int, smallest: str = "scriptsize") -> list[list[int]]:
    """The columns of each part of a table that cannot fit whole: the first `keys` columns start every part, the
    others follow in order, as many to a part as fit the page (landscape only for a long table) at `smallest` type
    or larger. A table that fits whole is one part."""
    n = len(numeric)

    def fits(cols: list[int]) -> bool:
        return not fit([headers[i] for i in cols], [[row[i] if i < len(row) else "" for i in cols] for row in body], [numeric[i] for i in cols],
                       smallest=smallest).squeezed

    if not fit(headers, body, numeric).squeezed:
        return [list(range(n))]
    key_cols = list(range(min(keys, n)))
    rest = list(range(len(key_cols), n))
    groups: list[list[int]] = []
    for c in rest:  # as many columns to a part as fit …
        if groups and fits(key_cols + groups[-1] + [c]):
            groups[-1].append(c)
        else:
            groups.append([c])
    base, extra = divmod(len(rest), len(groups))  # … then as even a share in each part as can be, when that fits too
    sizes = [base + 1] * extra + [base] * (len(groups) - extra)
    starts = [sum(sizes[:k]) for k in range(len(sizes))]
    even = [rest[a:a + n] for a, n in zip(starts, sizes)]
    if all(fits(key_cols + g) for g in even):
        groups = even
    return [key_cols + g for g in groups]


def _needs(headers: list[list[str]], body: list[list[str]], numeric: list[bool], hyphenate: bool) -> tuple[list[float], list[float]]:
    """Per column, in em: the widest piece that cannot break, and the width the whole text would like."""
    n = len(numeric)
    least, whole = [0.0] * n, [0.0] * n
    for i in range(n):
        for h in headers[i]:
            pieces = [p for p in HEADER_BREAKS.split(h) if p]
            widest = max((em(p, bold=True) * (HYPHENATED if hyphenate and len(p) > 6 else 1.0) for p in pieces), default=0.0)
            least[i] = max(least[i], widest)
            whole[i] = max(whole[i], em(h, bold=True) / 2.2)  # a header may take about two lines
        for row in body:
            text = row[i] if i < len(row) else ""
            least[i] = max(least[i], max((em(p) for p in _unbreakable(text, numeric[i])), default=0.0))
            whole[i] = max(whole[i], em(text))  # a text cell wraps only when the line has no room for it whole
    return least, whole
