"""PDF layout that holds for any valid set (issue 13, item 7), checked mechanically on the examples plus
a corpus of odd-shaped valid sets made at test time (tests/oddsets.py): one temporary archive, one run
of the pipeline. Every glyph stays on the page's printable area and never overlaps another glyph
(character boxes read by PDFium, tests/pdfglyphs.py), the LaTeX log has no overfull box beyond a small tolerance, and no
page ends with a heading."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import oddsets
import pdfglyphs
import pipeline
from conftest import ROOT, WIRESPEED, copy_examples

pdfplumber = pytest.importorskip("pdfplumber")
pytestmark = pytest.mark.slow
SOURCES = ["config.toml", "layouts", "content", "static", "assets", "notebooks", "reports"]
OVERFULL_PT = 1.0  # tolerance for an overfull box in the TeX log
BASE = "https://example.org/wirespeed/"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    w = tmp_path_factory.mktemp("pdf-layout")
    for name in SOURCES:
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copyfile)(src, w / name)
    copy_examples(w / "data" / "results", series=2)  # the trend series' sets share one shape: a 0-rule and a 100-rule run
    pipeline.warm(w)  # the examples' notebook runs and settled cross-references; every report is typeset (another base URL)
    oddsets.make(w / "data" / "results")
    env = {**os.environ, "WIRESPEED_LATEX_LOGS": str(w / "latex-logs")}
    for step in (["ingest"], ["analyse"], ["site", "--data-only"], ["report", "--base-url", BASE]):
        proc = subprocess.run([*WIRESPEED, *step], cwd=w, capture_output=True, text=True, timeout=2400, env=env)
        assert proc.returncode == 0, f"wirespeed {' '.join(step)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    return w


def _pdfs(w: Path) -> list[Path]:
    pdfs = sorted((w / "build" / "reports").glob("*.pdf"))
    assert len(pdfs) >= 9, pdfs  # six examples and three odd sets
    return pdfs


@pytest.fixture(scope="module")
def docs(built):
    """Every report of the build, each opened once with pdfplumber for the checks of this file that read a page's text
    or links (pdfplumber parses the glyphs of those pages only)."""
    opened = [(pdf, pdfplumber.open(pdf)) for pdf in _pdfs(built)]
    yield opened
    for _, doc in opened:
        doc.close()


@pytest.fixture(scope="module")
def glyphs(built) -> list[tuple[Path, list[pdfglyphs.Page]]]:
    """Every report's pages with their glyphs and lines, read once for the glyph checks of this file."""
    return [(pdf, pdfglyphs.pages(pdf)) for pdf in _pdfs(built)]


def test_no_glyph_off_the_page_or_over_another_nor_under_7_pt(glyphs):
    """Tables, charts (their axis titles turned), test-bed diagrams and notes: every glyph on the printable area, none
    over another, nothing a reader must squint at."""
    problems = [p for pdf, pages in glyphs for p in pdfglyphs.layout_problems(pdf.name, pages)]
    assert not problems, "\n".join(problems[:40])


def test_the_glyph_checks_see_a_glyph_off_the_page_one_over_another_and_small_type(tmp_path):
    """A page made to fail each check (a word pushed past the paper's edge, two words printed over each other, a turned
    label at 6 pt): each is found, so the checks above cannot pass by not looking; and PDFium's boxes are pdfminer's."""
    from wirespeed.report.shortcodes import pandoc

    md = tmp_path / "bad.md"
    md.write_text("---\ntitle: Faults\n---\n\nA line of text for the page.\n\n"
                  "\\noindent\\hspace*{-9cm}Offpage\n\n"
                  "\\noindent\\makebox[0pt][l]{Overprint}Underneath\n\n"
                  "\\rotatebox{90}{\\fontsize{6}{7}\\selectfont Turned}\n", encoding="utf-8")
    out = tmp_path / "bad.pdf"
    proc = subprocess.run(["bash", str(ROOT / "reports" / "build-example.sh"), str(md), str(out)], capture_output=True, text=True,
                          env={**os.environ, "PANDOC": str(pandoc()),  # raw TeX read (the script's own reader refuses it)
                               "WIRESPEED_PANDOC_OPTS": "--from markdown -M toc=false -M lot=false -M lof=false -M titlepage=false"}, timeout=600)
    assert proc.returncode == 0, proc.stderr
    pages = pdfglyphs.pages(out)
    found = "\n".join(pdfglyphs.layout_problems(out.name, pages))
    assert "outside the printable area" in found, found
    assert "overlaps" in found, found
    assert "'Turned' at 6.0 pt" in found, found
    with pdfplumber.open(out) as doc:  # the glyphs and boxes pdfminer reads, to half a point ('f' before a ligature may differ)
        theirs = [c for c in doc.pages[0].chars if c["text"].strip()]
    ours = pages[0].glyphs

    def unmatched(a, b):
        return [x for x in a if not any(x[0] == y[0] and all(abs(p - q) <= 0.5 for p, q in zip(x[1:], y[1:])) for y in b)]

    a = [(g.text, g.x0, g.top, g.x1, g.bottom) for g in ours]
    b = [(c["text"], c["x0"], c["top"], c["x1"], c["bottom"]) for c in theirs]
    assert len(ours) > 40 and len(unmatched(a, b)) <= 2 and len(unmatched(b, a)) <= 2, (unmatched(a, b), unmatched(b, a))


def test_no_overfull_box_beyond_tolerance(built):
    _pdfs(built)
    logs = sorted((built / "latex-logs").glob("*.log"))
    assert len(logs) >= 9
    bad = []
    for log in logs:
        for m in re.finditer(r"Overfull \\[hv]box \(([0-9.]+)pt too (?:wide|high)\)[^\n]*", log.read_text(errors="replace")):
            if float(m.group(1)) > OVERFULL_PT:
                bad.append(f"{log.stem}: {m.group(0)}")
    assert not bad, "\n".join(bad[:30])


HEADING = re.compile(r"^(Appendix [A-Z]|[A-Z](\.\d+)+|\d+(\.\d+)*)\s+\S")  # "3 Results", "A.2 IPv4", "Appendix D Provenance"
HEADING_PT = 11.5  # sections and subsections (\Large, \large at the 10 pt body type); contents lines are body-sized
FOOT_LINES = 2  # a heading in the last this many text lines of a page is stranded


def stranded_headings(name: str, pages: list[pdfglyphs.Page]) -> list[str]:
    """Pages whose last lines (above the running footer) hold a numbered section or subsection heading."""
    out = []
    for n, page in enumerate(pages[1:-1], 2):
        lines = [ln for ln in page.lines if page.height * 0.08 < ln.top < page.height * 0.925]  # between header and footer
        if len(lines) < 3:
            continue
        for ln in lines[-FOOT_LINES:]:
            if ln.size >= HEADING_PT and HEADING.match(ln.text):
                out.append(f"{name} p{n}: heading {ln.text[:60]!r} in the last {FOOT_LINES} lines of the page")
    return out


def test_no_heading_at_the_foot_of_a_page(glyphs):
    stranded = [s for pdf, pages in glyphs for s in stranded_headings(pdf.name, pages)]
    assert not stranded, "\n".join(stranded)


def test_last_page_is_not_only_the_disclaimer(docs):
    for pdf, doc in docs:
        text = doc.pages[-1].extract_text() or ""
        assert not (text.strip().startswith("Disclaimer") or len(text.split()) < 40 and "Disclaimer" in text), pdf.name
        first = doc.pages[0].extract_text() or ""
        assert "Disclaimer" in first and "Prepared by" in first, pdf.name  # the disclaimer and attribution on the title page


BUILT = r"Built (\d{1,2} \w+ \d{4}|date not recorded[^\n]*) by wirespeed "  # the colophon's build line


def colophon_page(doc) -> tuple[str, list[str]]:
    """The text and link targets of the page that holds the colophon (its heading, not its line in the contents)."""
    for page in reversed(doc.pages):
        text = page.extract_text() or ""
        if re.search(r"^Colophon$", text, re.M) and re.search(BUILT, text):
            return text, [a.get("uri") for a in page.annots if a.get("uri")]
    return "", []


def test_cover_gives_full_urls_and_the_colophon_the_build(built, docs):
    """Issue 23: the cover carries a lab cover's facts and the full URLs of the set's web page, its data and the original
    publication (built with a full base URL), never the build; the colophon repeats the URLs and says what built the
    report and from which set."""
    import json

    import wirespeed

    for pdf, doc in docs:
        slug = pdf.stem
        first = doc.pages[0]
        text = (first.extract_text() or "").replace("\n", " ")
        uris = [a.get("uri") for a in first.annots if a.get("uri")]
        colophon, colophon_uris = colophon_page(doc)
        want = [f"{BASE}results/{slug}/", f"{BASE}results/{slug}/#downloads"]  # the web page and its data, working links
        url = json.loads((built / "build" / "hugo-data" / "wirespeed" / "sets" / f"{slug}.json").read_text())["source"].get("url")
        want += [url] if url else []
        for target in want:
            assert target in uris, (slug, target, uris)
            assert target in colophon_uris, (slug, target, colophon_uris)
        assert "Test instrument" in text, slug  # a lab cover's facts
        for build_note in ("wirespeed 0.1", f"wirespeed {wirespeed.__version__}", "Built", "Report number", "base URL", "Result set"):
            assert build_note not in text, (slug, build_note)
        assert colophon, f"{slug}: no colophon page with the build line"
        assert re.search(BUILT + re.escape(wirespeed.__version__), colophon), slug
        assert re.search(r"^Result set " + re.escape(slug) + "$", colophon, re.M), slug


def test_headings_keep_company_and_the_check_sees_stranded_ones(tmp_path):
    """Forty sections of varied length: with heading-keep-lines=0 some heading lands at a page's foot and the check
    finds it (it cannot pass by not looking); with the template's default none does."""
    body = "".join(f"# Section {k}\n\n" + "A line of filler text for the layout check.\n\n" * (1 + k % 7) for k in range(40))
    md = tmp_path / "s.md"
    md.write_text("---\ntitle: Headings\n---\n\n" + body, encoding="utf-8")
    from wirespeed.report.shortcodes import pandoc

    found = {}
    for keep in ("0", None):
        out = tmp_path / f"s-{keep}.pdf"
        opts = "-M toc=false -M lot=false -M lof=false -M titlepage=false" + (f" -M heading-keep-lines={keep}" if keep else "")
        proc = subprocess.run(["bash", str(ROOT / "reports" / "build-example.sh"), str(md), str(out)], capture_output=True, text=True,
                              env={**os.environ, "WIRESPEED_PANDOC_OPTS": opts, "PANDOC": str(pandoc())}, timeout=600)
        assert proc.returncode == 0, proc.stderr
        found[keep] = stranded_headings(out.name, pdfglyphs.pages(out))
    assert found["0"], "no heading at a page foot even without keeping: the check or the sample is broken"
    assert not found[None], found[None]


def test_appendix_headings_say_appendix_once(built):
    """An article's "## Appendix: X {.appendix}" is "Appendix A  X" in the PDF, never "Appendix A Appendix: X"."""
    for pdf in _pdfs(built):
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        assert not re.search(r"Appendix [A-Z]\s+Appendix:", text), pdf.name
