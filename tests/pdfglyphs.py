"""The glyphs of a PDF's pages and the layout checks that read them (layout_problems: tests/test_pdf_layout.py,
tests/test_valid_sets_build.py), from PDFium (pypdfium2): a dozen times faster than pdfminer, whose boxes they
reproduce (the same loose box: the glyph's advance by the font's height, in points from the page's top left) and whose
type sizes they give (the font size times the text's vertical scale, whatever the rotation). Checked against
pdfplumber on a page made for it (tests/test_pdf_layout.py).

A ligature ("fi", "ffi": letters drawn as one glyph, each letter with the glyph's origin) is one glyph here, as in
pdfminer, but not `placed`: PDFium puts a ligature drawn inside an included drawing where the drawing's own
coordinates would be on the page (the test-bed diagram's "traﬃc" lay over the text 300 points below it), so its box
is not checked against the page or its neighbours; its size is."""

from __future__ import annotations

import ctypes
import math
from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw

EDGE_PT = 14.0  # no glyph nearer the paper's edge than this (the margins are far wider)
OVERLAP = 0.35  # share of the smaller glyph box two glyphs may share
SMALLEST_PT = 6.95  # no type under 7 pt (TeX's 7 pt is 6.97 PostScript points), in tables, charts and diagrams alike (issue 23)


@dataclass(frozen=True)
class Glyph:
    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    size: float  # the type size on the page, in points
    upright: bool  # unrotated, unskewed, left to right
    placed: bool = True  # its box is where it is drawn: not for a ligature, which PDFium may misplace (below)

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.bottom - self.top


@dataclass(frozen=True)
class Line:
    text: str
    top: float
    size: float  # its largest glyph's


@dataclass(frozen=True)
class Page:
    width: float
    height: float
    glyphs: list[Glyph]  # what is drawn: no space, no line break PDFium inferred
    lines: list[Line]  # the page's lines of text, top to bottom (inferred spaces kept)


def pages(pdf: Path) -> list[Page]:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return [_page(doc[i]) for i in range(len(doc))]
    finally:
        doc.close()


def _page(page) -> Page:
    width, height = page.get_size()
    tp = page.get_textpage()
    m, box, ox, oy = raw.FS_MATRIX(), raw.FS_RECTF(), ctypes.c_double(), ctypes.c_double()
    origin = None
    glyphs: list[Glyph] = []
    lines: list[Line] = []
    text: list[str] = []
    line: list[Glyph] = []

    def end_line() -> None:
        if line:
            top = min((g.top for g in line if g.placed), default=min(g.top for g in line))
            lines.append(Line("".join(text).strip(), top, max(g.size for g in line)))
        text.clear()
        line.clear()

    for i in range(tp.count_chars()):
        ch = chr(raw.FPDFText_GetUnicode(tp.raw, i))
        if raw.FPDFText_IsGenerated(tp.raw, i) or not ch.strip():
            if ch in "\r\n":
                end_line()
            elif line:
                text.append(" ")
            continue
        raw.FPDFText_GetMatrix(tp.raw, i, m)
        raw.FPDFText_GetLooseCharBox(tp.raw, i, box)
        size = raw.FPDFText_GetFontSize(tp.raw, i) * math.hypot(m.c, m.d)
        raw.FPDFText_GetCharOrigin(tp.raw, i, ox, oy)
        g = Glyph(ch, box.left, box.right, height - box.top, height - box.bottom, size, m.a > 0 and abs(m.b) < 1e-6 and abs(m.c) < 1e-6)
        text.append(ch)
        if line and glyphs and glyphs[-1] is line[-1] and (ox.value, oy.value) == origin:  # one glyph, several letters: a ligature
            g = replace(glyphs[-1], text=glyphs[-1].text + ch, placed=False)
            glyphs[-1] = line[-1] = g
            continue
        origin = (ox.value, oy.value)
        glyphs.append(g)
        line.append(g)
    end_line()
    tp.close()
    page.close()
    return Page(width, height, glyphs, sorted(lines, key=lambda ln: ln.top))


def overlapping(chars: list[Glyph]) -> list[str]:
    """Pairs of visible glyphs whose boxes overlap by more than OVERLAP of the smaller one."""
    out = []
    rows: dict[int, list[Glyph]] = defaultdict(list)
    for c in chars:
        # upright, unrotated letters and digits (rotated chart labels have skewed, not comparable boxes;
        # punctuation is kerned into its neighbour by design)
        if c.width > 0.5 and c.upright and c.placed and c.text.isalnum():
            rows[int(c.top // 4)].append(c)
    for key in list(rows):
        near = sorted(rows[key] + rows.get(key + 1, []), key=lambda c: c.x0)
        for i, a in enumerate(near):
            for b in near[i + 1:]:
                if b.x0 >= a.x1:
                    break
                if a is b or (abs(a.x0 - b.x0) < 0.01 and abs(a.top - b.top) < 0.01 and a.text == b.text):
                    continue  # the same glyph drawn twice (e.g. in a link layer)
                w = min(a.x1, b.x1) - max(a.x0, b.x0)
                h = min(a.bottom, b.bottom) - max(a.top, b.top)
                if w > 0 and h > 0 and w * h > OVERLAP * min(a.width * a.height, b.width * b.height):
                    out.append(f"{a.text!r}@({a.x0:.0f},{a.top:.0f}) overlaps {b.text!r}@({b.x0:.0f},{b.top:.0f})")
    return out


def layout_problems(name: str, pages: list[Page]) -> list[str]:
    """Page by page: a glyph outside the printable area (the first one), glyphs over each other, type under 7 pt."""
    problems = []
    for n, page in enumerate(pages, 1):
        for c in page.glyphs:
            if c.placed and (c.x0 < EDGE_PT or c.x1 > page.width - EDGE_PT or c.top < EDGE_PT or c.bottom > page.height - EDGE_PT):
                problems.append(f"{name} p{n}: {c.text!r} at ({c.x0:.0f},{c.top:.0f}) outside the printable area")
                break
        problems += [f"{name} p{n}: {o}" for o in overlapping(page.glyphs)[:3]]
        small = [c for c in page.glyphs if c.size < SMALLEST_PT]
        if small:
            problems.append(f"{name} p{n}: {''.join(c.text for c in small)[:40]!r} at {min(c.size for c in small):.1f} pt")
    return problems
