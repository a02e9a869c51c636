"""The glyphs of a PDF's pages as the layout checks read them (tests/test_pdf_layout.py), from PDFium (pypdfium2): a
dozen times faster than pdfminer, whose boxes they reproduce (the same loose box: the glyph's advance by the font's
height, in points from the page's top left) and whose type sizes they give (the font size times the text's vertical
scale, whatever the rotation). Checked against pdfplumber on a page made for it (tests/test_pdf_layout.py).

A ligature ("fi", "ffi": letters drawn as one glyph, each letter with the glyph's origin) is one glyph here, as in
pdfminer, but not `placed`: PDFium puts a ligature drawn inside an included drawing where the drawing's own
coordinates would be on the page (the test-bed diagram's "traﬃc" lay over the text 300 points below it), so its box
is not checked against the page or its neighbours; its size is."""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass, replace
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw


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

