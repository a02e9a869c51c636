"""Issue 24 (bytes per set): the charts of a report draw from one subset of each DejaVu font instead of each chart
carrying its own, and the pages look and read exactly as before (poppler's rendering and text)."""

from __future__ import annotations

import io
import subprocess

import pytest

from wirespeed.report import fontshare


def _chart(title: str, labels: list[str]) -> bytes:
    import vl_convert

    spec = {"$schema": "https://vega.github.io/schema/vega-lite/v6.json", "title": title, "width": 240, "height": 120,
            "config": {"font": "DejaVu Sans", "title": {"fontWeight": "bold"}},
            "data": {"values": [{"frame": f, "rate": i + 1} for i, f in enumerate(labels)]},
            "mark": "bar", "encoding": {"x": {"field": "frame", "type": "nominal", "title": "Frame size (bytes) — fl"},
                                        "y": {"field": "rate", "type": "quantitative", "title": "Throughput (Mpps)"}}}
    return vl_convert.vegalite_to_pdf(spec)


def _report(*charts: bytes) -> bytes:
    """One PDF with each chart on its own page, as XeLaTeX includes them: every chart's fonts kept as they are."""
    import pikepdf

    out = pikepdf.new()
    for data in charts:
        src = pikepdf.open(io.BytesIO(data))
        out.pages.extend(src.pages)
    buf = io.BytesIO()
    out.save(buf)
    return buf.getvalue()


def _programs(data: bytes) -> dict[str, set[bytes]]:
    import pikepdf

    out: dict[str, set[bytes]] = {}
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/FontDescriptor" and "/FontFile2" in obj:
                out.setdefault(str(obj["/FontName"]).split("+", 1)[1], set()).add(obj["/FontFile2"].read_bytes())
    return out


def _pages(data: bytes, tmp_path, name: str) -> tuple[list[bytes], str]:
    (tmp_path / f"{name}.pdf").write_bytes(data)
    subprocess.run(["pdftoppm", "-r", "120", "-png", str(tmp_path / f"{name}.pdf"), str(tmp_path / name)], check=True)
    pages = [p.read_bytes() for p in sorted(tmp_path.glob(f"{name}-*.png"))]
    text = subprocess.run(["pdftotext", "-layout", str(tmp_path / f"{name}.pdf"), "-"], capture_output=True, text=True, check=True).stdout
    return pages, text


def test_charts_share_one_font_program_per_family_and_look_the_same(tmp_path):
    before = _report(_chart("Baseline forwarding rate", ["64", "128", "256", "512"]),
                     _chart("Frame loss, 15,000 ACL entries", ["1024", "1280", "1518", "9000"]),
                     _chart("Latency per frame size", ["64", "IMIX", "jumbo"]))
    assert all(len(p) == 3 for p in _programs(before).values())  # each chart its own subset of each font
    after = fontshare.share(before)
    programs = _programs(after)
    assert set(programs) == {"DejaVuSans", "DejaVuSans-Bold"} and all(len(p) == 1 for p in programs.values())
    assert len(after) < len(before) * 0.8
    old_pages, old_text = _pages(before, tmp_path, "before")
    new_pages, new_text = _pages(after, tmp_path, "after")
    assert new_text == old_text and "Frame loss, 15,000 ACL entries" in new_text and "Throughput (Mpps)" in new_text
    assert len(new_pages) == len(old_pages) == 3
    for old, new in zip(old_pages, new_pages):
        assert _same_pixels(old, new)


def _same_pixels(old: bytes, new: bytes) -> bool:
    from PIL import Image, ImageChops

    return ImageChops.difference(Image.open(io.BytesIO(old)).convert("RGB"), Image.open(io.BytesIO(new)).convert("RGB")).getbbox() is None


def test_a_pdf_with_one_chart_keeps_its_fonts_unhinted_and_one_without_truetype_is_left_as_it_is(tmp_path):
    one = _report(_chart("Baseline forwarding rate", ["64", "128"]))
    shared = fontshare.share(one)
    assert {k: len(v) for k, v in _programs(shared).items()} == {k: len(v) for k, v in _programs(one).items()}  # nothing to share
    assert all(fontshare.unhinted(p) is None for v in _programs(shared).values() for p in v)  # but no hinting
    (new_pages, new_text), (old_pages, old_text) = _pages(shared, tmp_path, "after"), _pages(one, tmp_path, "before")
    assert new_text == old_text and len(new_pages) == len(old_pages) == 1
    assert _same_pixels(old_pages[0], new_pages[0])
    assert fontshare.share(shared) == shared  # nothing left to do


def _chart_programs(data: bytes) -> dict[str, set[bytes]]:
    """The font programs of the charts' fonts (vl-convert's: CID TrueType with a CIDToGIDMap), by family."""
    import pikepdf

    out: dict[str, set[bytes]] = {}
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Subtype") == "/CIDFontType2" and "/CIDToGIDMap" in obj:
                out.setdefault(str(obj["/BaseFont"]).split("+", 1)[1], set()).add(obj["/FontDescriptor"]["/FontFile2"].read_bytes())
    return out


@pytest.mark.slow
def test_every_report_carries_one_chart_font_program_per_family():
    from pipeline import BUILD, build

    build("reports")
    reports = sorted((BUILD / "reports").glob("*.pdf"))
    assert len(reports) >= 28
    for pdf in reports:
        programs = _chart_programs(pdf.read_bytes())
        assert programs and all(len(p) == 1 for p in programs.values()), (pdf.name, {k: len(v) for k, v in programs.items()})


def test_a_shared_subset_is_the_same_bytes_whenever_it_is_made(monkeypatch):
    """fontTools stamps a font it saves with the time (head.modified) unless told not to: the shared subset keeps the
    installed font's stamp, so two builds on two days write the same report."""
    from fontTools.ttLib.tables import _h_e_a_d

    source = fontshare._font_file("DejaVuSans")
    assert source is not None, "DejaVu Sans is installed with the report's fonts"
    made = []
    for now in (3_000_000_000, 3_000_086_400):  # two days apart
        monkeypatch.setattr(_h_e_a_d, "timestampNow", lambda now=now: now)
        made.append(fontshare._subset(source, {".notdef", "A", "B"})[0])
    assert made[0] == made[1]


def test_every_report_embeds_one_design_size_of_each_text_font():
    """Latin Modern comes in designs for 8, 9, 10, 12 and 17 pt type, each a font of its own in the PDF; the reports
    use the 10 pt design at every size (reports/template/parts/fonts.latex), so a style is embedded once."""
    import re

    from pipeline import BUILD, build

    build("reports")
    for pdf in sorted((BUILD / "reports").glob("*.pdf")):
        fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
        designs = set(re.findall(r"\+LM(?:Sans|Mono)(\d+)-", fonts))
        assert designs and designs <= {"10"}, (pdf.name, sorted(designs))


def test_every_report_embeds_truetype_without_hinting():
    """The charts' shared subsets and the test-bed diagram's fonts (Graphviz's): no hinting instructions, which PDF
    viewers leave unused; the outlines draw as before (the charts' pages above compare poppler's pixels)."""
    import pikepdf
    from fontTools.ttLib import TTFont

    from pipeline import BUILD, build

    build("reports")
    programs = 0
    for pdf in sorted((BUILD / "reports").glob("*.pdf")):
        with pikepdf.open(pdf) as doc:
            for obj in doc.objects:
                if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/FontDescriptor" and "/FontFile2" in obj:
                    font = TTFont(io.BytesIO(obj["/FontFile2"].read_bytes()))
                    hinted = [t for t in fontshare.HINTING_TABLES if t in font]
                    hinted += [n for n in font.getGlyphOrder() if getattr(font["glyf"][n], "program", None) is not None and font["glyf"][n].program.getBytecode()]
                    assert not hinted, (pdf.name, str(obj["/FontName"]), hinted[:5])
                    programs += 1
    assert programs >= 28


def test_a_font_without_hinting_or_one_fonttools_cannot_read_is_left_as_it_is():
    from fontTools.ttLib import TTFont

    hinted = (fontshare.FONT_DIRS[0] / "DejaVuSans.ttf").read_bytes()
    bare = fontshare.unhinted(hinted)
    assert bare is not None and len(bare) < len(hinted) * 0.9  # the whole installed font: its layout tables stay
    font, original = TTFont(io.BytesIO(bare)), TTFont(io.BytesIO(hinted))
    assert not any(t in font for t in fontshare.HINTING_TABLES) and "fpgm" in original
    assert font.getGlyphOrder() == original.getGlyphOrder() and font["hmtx"].metrics == original["hmtx"].metrics
    assert font["glyf"]["A"].getCoordinates(font["glyf"])[0] == original["glyf"]["A"].getCoordinates(original["glyf"])[0]
    assert fontshare.unhinted(bare) is None and fontshare.unhinted(b"not a font") is None
