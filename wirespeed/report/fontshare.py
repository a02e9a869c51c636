"""One font program for the charts of a report. Each chart PDF (vl-convert) embeds its own subset of DejaVu Sans and
DejaVu Sans Bold, so a report with ten charts carries twenty subsets of the same two fonts, about half its bytes.
This rewrites the report so that every chart font of a family draws from ONE subset of the installed font holding
every glyph any chart uses: each chart font keeps its character codes, widths and text (ToUnicode), and gets a
CIDToGIDMap from its codes to the shared subset's glyphs. A glyph is mapped only when its outline and advance in
the chart's subset are those of the installed font's glyph for the same character; a font with any glyph that is
not stays as it was, so the pages look exactly as before.

Every TrueType program of the report (the shared subsets, the test-bed diagram's fonts from Graphviz, a chart font
left as it was) is then embedded without its hinting: the instructions that snap outlines to a coarse pixel grid,
which PDF viewers and printers leave unused (poppler, pdf.js) and which were three fifths of the fonts' bytes. The
outlines, advances and codes stay, so the pages draw and read as before."""

from __future__ import annotations

import functools
import hashlib
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/truetype"))
_TAGGED = re.compile(r"^/?[A-Z]{6}\+(.+)$")


def _font_file(ps_name: str) -> Path | None:
    """The installed TrueType file of a PostScript name (DejaVuSans-Bold → DejaVuSans-Bold.ttf), if any."""
    if not re.fullmatch(r"[A-Za-z0-9-]{1,64}", ps_name):
        return None
    return next((d / f"{ps_name}.ttf" for d in FONT_DIRS if (d / f"{ps_name}.ttf").is_file()), None)


def _to_unicode(stream: Any) -> dict[int, str]:
    """Character code → text of a ToUnicode CMap (bfchar and bfrange with 4-hex-digit codes)."""
    text = stream.read_bytes().decode("latin-1")
    out: dict[int, str] = {}
    for block in re.findall(r"beginbfchar(.*?)endbfchar", text, re.S):
        for code, dst in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            out[int(code, 16)] = bytes.fromhex(dst).decode("utf-16-be", "replace")
    for block in re.findall(r"beginbfrange(.*?)endbfrange", text, re.S):
        for lo, hi, dst in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            start = int(dst, 16)
            for i, code in enumerate(range(int(lo, 16), int(hi, 16) + 1)):
                out[code] = chr(start + i)
    return out


def _outline(font: Any, name: str) -> tuple[Any, ...]:
    """A glyph's points (composites resolved), end points and advance: what it draws."""
    glyf = font["glyf"]
    coords, ends, flags = glyf[name].getCoordinates(glyf)
    return tuple(coords), tuple(ends), tuple(f & 1 for f in flags), font["hmtx"][name][0]


@dataclass
class _Family:
    source: Path
    fonts: list[tuple[Any, Any, dict[int, str]]] = field(default_factory=list)  # (Type0 font, its CIDFont, code → installed glyph name)


@functools.cache
def _by_outline(source: Path) -> dict[tuple[Any, ...], str]:
    """The glyphs of an installed font with no character of their own (ligatures such as fl, alternates) by what
    they draw: a tenth of a second, where every glyph would take seconds."""
    from fontTools.ttLib import TTFont

    font = TTFont(str(source))
    encoded = set(font.getBestCmap().values())
    out: dict[tuple[Any, ...], str] = {}
    for name in font.getGlyphOrder():
        if name not in encoded:
            out.setdefault(_outline(font, name), name)
    return out


@functools.cache
def _ligatures(source: Path) -> dict[tuple[str, ...], str]:
    """The ligatures of an installed font (GSUB type 4): the glyphs they join → the glyph drawn (f, l → fl)."""
    from fontTools.ttLib import TTFont

    font = TTFont(str(source))
    out: dict[tuple[str, ...], str] = {}
    if "GSUB" not in font:
        return out
    for lookup in font["GSUB"].table.LookupList.Lookup:
        for sub in lookup.SubTable:
            sub = getattr(sub, "ExtSubTable", sub)
            for first, ligs in (getattr(sub, "ligatures", None) or {}).items():
                for lig in ligs:
                    out.setdefault((first, *lig.Component), lig.LigGlyph)
    return out


def _match(cidfont: Any, parent: Any, original: Any, source: Path) -> dict[int, str] | None:
    """The installed font's glyph for each code of one chart font, or None when any glyph is not one of its glyphs."""
    from fontTools.ttLib import TTFont

    if str(cidfont.get("/CIDToGIDMap")) != "/Identity" or "/ToUnicode" not in parent:
        return None
    sub = TTFont(io.BytesIO(cidfont["/FontDescriptor"]["/FontFile2"].read_bytes()))
    order = sub.getGlyphOrder()
    cmap = original.getBestCmap()
    codes = _to_unicode(parent["/ToUnicode"])
    out: dict[int, str] = {}
    for gid, name in enumerate(order):
        if gid == 0:
            continue
        text = codes.get(gid)
        drawn = _outline(sub, name)
        if text and len(text) > 1 and all(ord(c) in cmap for c in text):  # a ligature (fl)
            orig = _ligatures(source).get(tuple(cmap[ord(c)] for c in text))
        else:
            orig = cmap.get(ord(text)) if text else None
        if orig is None or _outline(original, orig) != drawn:
            orig = _by_outline(source).get(drawn)  # a glyph with no character of its own
        if orig is None:
            return None
        out[gid] = orig
    return out


def _subset(source: Path, glyphs: set[str]) -> tuple[bytes, list[str]]:
    """A subset of the installed font holding `glyphs` (no hinting, no layout tables: a PDF draws glyph ids)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(str(source), recalcTimestamp=False)  # head.modified stays the installed font's: the same bytes on any day
    opts = subset.Options()
    opts.layout_features = []
    opts.drop_tables += ["GSUB", "GPOS", "GDEF", "kern", "BASE", "MATH", "FFTM"]
    opts.notdef_outline = True
    opts.hinting = False
    sub = subset.Subsetter(opts)
    sub.populate(glyphs=sorted(glyphs))
    sub.subset(font)
    for tag in ("cmap", "name"):  # a PDF's CIDFontType2 maps codes to glyphs itself (CIDToGIDMap) and names the font
        if tag in font:
            del font[tag]
    buf = io.BytesIO()
    font.save(buf)
    return buf.getvalue(), font.getGlyphOrder()


def share(data: bytes) -> bytes:
    """The PDF with its chart fonts of one family drawing from one shared subset (unchanged when nothing matches)."""
    import pikepdf
    from fontTools.ttLib import TTFont

    with pikepdf.open(io.BytesIO(data)) as pdf:
        families: dict[str, _Family] = {}
        originals: dict[str, Any] = {}
        for obj in pdf.objects:
            if not isinstance(obj, pikepdf.Dictionary) or obj.get("/Subtype") != "/Type0":
                continue
            cidfont = obj["/DescendantFonts"][0]
            if cidfont.get("/Subtype") != "/CIDFontType2" or "/FontFile2" not in cidfont.get("/FontDescriptor", {}):
                continue
            m = _TAGGED.match(str(cidfont.get("/BaseFont", "")))
            source = _font_file(m[1]) if m else None
            if source is None:
                continue
            if m[1] not in originals:
                originals[m[1]] = TTFont(str(source))
            try:
                mapping = _match(cidfont, obj, originals[m[1]], source)
            except Exception:  # noqa: BLE001 - a font program fontTools cannot read is left as it is, never fails the report
                mapping = None
            if mapping:
                families.setdefault(m[1], _Family(source)).fonts.append((obj, cidfont, mapping))
        changed = False
        for ps_name, fam in sorted(families.items()):
            if len(fam.fonts) < 2:
                continue
            program, order = _subset(fam.source, {g for _, _, mp in fam.fonts for g in mp.values()})
            new_gid = {name: gid for gid, name in enumerate(order)}
            shared = pikepdf.Stream(pdf, program)
            shared["/Length1"] = len(program)
            tag = "".join(chr(65 + b % 26) for b in hashlib.sha256(program).digest()[:6])
            for type0, cidfont, mapping in fam.fonts:
                top = max(mapping)
                table = bytearray(2 * (top + 1))
                for code, name in mapping.items():
                    table[2 * code:2 * code + 2] = new_gid[name].to_bytes(2, "big")
                cidfont["/CIDToGIDMap"] = pikepdf.Stream(pdf, bytes(table))
                cidfont["/FontDescriptor"]["/FontFile2"] = shared
                type0["/BaseFont"] = cidfont["/BaseFont"] = pikepdf.Name(f"/{tag}+{ps_name}")
                cidfont["/FontDescriptor"]["/FontName"] = pikepdf.Name(f"/{tag}+{ps_name}")
                if "/CIDSet" in cidfont["/FontDescriptor"]:
                    del cidfont["/FontDescriptor"]["/CIDSet"]  # optional; it described the old subset
            changed = True
        changed |= _unhint_all(pdf)
        if not changed:
            return data
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True, compress_streams=True, object_stream_mode=pikepdf.ObjectStreamMode.generate)
        return out.getvalue()


HINTING_TABLES = ("fpgm", "prep", "cvt ", "hdmx", "LTSH", "VDMX")


def unhinted(program: bytes) -> bytes | None:
    """A TrueType program without its hinting (the tables of instructions and hinted metrics, and each glyph's
    instructions), or None when it has none or fontTools cannot read it (it is then left as it is)."""
    from fontTools.ttLib import TTFont

    try:
        font = TTFont(io.BytesIO(program), recalcTimestamp=False, recalcBBoxes=False)  # the glyphs as they were placed
        if "glyf" not in font:
            return None
        glyf, hinted = font["glyf"], False
        for name in font.getGlyphOrder():
            glyph = glyf[name]
            if getattr(glyph, "program", None) is not None and glyph.program.getBytecode():
                glyph.program.fromBytecode(b"")
                hinted = True
        for tag in HINTING_TABLES:
            if tag in font:
                del font[tag]
                hinted = True
        if not hinted:
            return None
        buf = io.BytesIO()
        font.save(buf)
        return buf.getvalue()
    except Exception:  # noqa: BLE001 - a program fontTools cannot read or write is left as it was, never fails the report
        return None


def _unhint_all(pdf: Any) -> bool:
    """Every TrueType program of the PDF without its hinting (each program once, however many fonts share it); True
    when any changed."""
    import pikepdf

    done: dict[tuple[int, int], Any] = {}
    for obj in pdf.objects:
        if not isinstance(obj, pikepdf.Dictionary) or obj.get("/Type") != "/FontDescriptor" or "/FontFile2" not in obj:
            continue
        stream = obj["/FontFile2"]
        if stream.objgen in done:
            continue
        new = unhinted(stream.read_bytes())
        done[stream.objgen] = new
        if new is not None:
            stream.write(new)
            stream["/Length1"] = len(new)
    return any(v is not None for v in done.values())
