"""PDF layout that holds for any valid set (issue 13, item 7), checked mechanically on the examples plus
a corpus of odd-shaped valid sets made at test time (tests/oddsets.py): one temporary archive, one run
of the pipeline. Every glyph stays on the page's printable area and never overlaps another glyph
(pdfplumber character boxes), the LaTeX log has no overfull box beyond a small tolerance, and no
page ends with a heading."""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest

import oddsets
import pipeline
from conftest import ROOT, WIRESPEED, copy_examples

pdfplumber = pytest.importorskip("pdfplumber")
pytestmark = pytest.mark.slow
SOURCES = ["config.toml", "layouts", "content", "static", "assets", "notebooks", "reports"]
EDGE_PT = 14.0  # no glyph nearer the paper's edge than this (the margins are far wider)
OVERFULL_PT = 1.0  # tolerance for an overfull box in the TeX log
OVERLAP = 0.35  # share of the smaller glyph box two glyphs may share
SMALLEST_PT = 6.95  # no type under 7 pt (TeX's 7 pt is 6.97 PostScript points), in tables, charts and diagrams alike (issue 23)
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
    """Every report of the build, each opened once for all the checks of this file: pdfplumber parses a page's glyphs
    when first asked and keeps them with the page, so each check reads what the previous ones parsed."""
    opened = [(pdf, pdfplumber.open(pdf)) for pdf in _pdfs(built)]
    yield opened
    for _, doc in opened:
        doc.close()


def overlapping(chars: list[dict]) -> list[str]:
    """Pairs of visible glyphs whose boxes overlap by more than OVERLAP of the smaller one."""
    out = []
    rows: dict[int, list[dict]] = defaultdict(list)
    for c in chars:
        # upright, unrotated letters and digits (rotated chart labels have skewed, not comparable boxes;
        # punctuation is kerned into its neighbour by design)
        if c["text"].strip() and c["width"] > 0.5 and c.get("upright", True) and abs(c["matrix"][1]) < 1e-6 and c["text"].isalnum():
            rows[int(c["top"] // 4)].append(c)
    for key in list(rows):
        near = sorted(rows[key] + rows.get(key + 1, []), key=lambda c: c["x0"])
        for i, a in enumerate(near):
            for b in near[i + 1:]:
                if b["x0"] >= a["x1"]:
                    break
                if a is b or (abs(a["x0"] - b["x0"]) < 0.01 and abs(a["top"] - b["top"]) < 0.01 and a["text"] == b["text"]):
                    continue  # the same glyph drawn twice (e.g. in a link layer)
                w = min(a["x1"], b["x1"]) - max(a["x0"], b["x0"])
                h = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
                if w > 0 and h > 0 and w * h > OVERLAP * min(a["width"] * a["height"], b["width"] * b["height"]):
                    out.append(f"{a['text']!r}@({a['x0']:.0f},{a['top']:.0f}) overlaps {b['text']!r}@({b['x0']:.0f},{b['top']:.0f})")
    return out


def test_no_glyph_off_the_page_or_over_another(docs):
    problems = []
    for pdf, doc in docs:
        for n, page in enumerate(doc.pages, 1):
            chars = [c for c in page.chars if c["text"].strip()]
            for c in chars:
                if c["x0"] < EDGE_PT or c["x1"] > page.width - EDGE_PT or c["top"] < EDGE_PT or c["bottom"] > page.height - EDGE_PT:
                    problems.append(f"{pdf.name} p{n}: {c['text']!r} at ({c['x0']:.0f},{c['top']:.0f}) outside the printable area")
                    break
            problems += [f"{pdf.name} p{n}: {o}" for o in overlapping(chars)[:3]]
    assert not problems, "\n".join(problems[:40])


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


def stranded_headings(pdf: Path, doc) -> list[str]:
    """Pages whose last lines (above the running footer) hold a numbered section or subsection heading (`doc`: the PDF,
    open)."""
    out = []
    for n, page in enumerate(doc.pages[1:-1], 2):
        lines = [ln for ln in page.extract_text_lines() if page.height * 0.08 < ln["top"] < page.height * 0.925]  # between header and footer
        if len(lines) < 3:
            continue
        for ln in lines[-FOOT_LINES:]:
            if max(c["size"] for c in ln["chars"]) >= HEADING_PT and HEADING.match(ln["text"]):
                out.append(f"{pdf.name} p{n}: heading {ln['text'][:60]!r} in the last {FOOT_LINES} lines of the page")
    return out


def test_no_heading_at_the_foot_of_a_page(docs):
    stranded = [s for pdf, doc in docs for s in stranded_headings(pdf, doc)]
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
        with pdfplumber.open(out) as doc:
            found[keep] = stranded_headings(out, doc)
    assert found["0"], "no heading at a page foot even without keeping: the check or the sample is broken"
    assert not found[None], found[None]


def test_appendix_headings_say_appendix_once(built):
    """An article's "## Appendix: X {.appendix}" is "Appendix A  X" in the PDF, never "Appendix A Appendix: X"."""
    for pdf in _pdfs(built):
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        assert not re.search(r"Appendix [A-Z]\s+Appendix:", text), pdf.name


def type_size(c: dict) -> float:
    """A glyph's type size on the page in points, whatever its rotation. pdfminer boxes the glyph as its advance along
    the text matrix's first axis by its font size along the second; pdfplumber's `size` is only right upright."""
    a, b, c2, d = c["matrix"][:4]
    if abs(c2) > 1e-6:  # rotated: the box's width holds the advance's and the font size's shares
        font = ((c["x1"] - c["x0"]) - abs(a) * c["adv"]) / abs(c2)
    else:
        font = ((c["bottom"] - c["top"]) - abs(b) * c["adv"]) / abs(d)
    return font * math.hypot(c2, d)


def test_type_size_reads_upright_and_rotated_glyphs():
    upright = {"matrix": (0.73, 0, 0, 0.73, 0, 0), "adv": 7, "x0": 0, "x1": 5.1, "top": 0, "bottom": 8.76}
    turned = {"matrix": (0, 0.73, -0.73, 0, 0, 0), "adv": 7, "x0": 0, "x1": 8.76, "top": 0, "bottom": 5.1}
    small = {"matrix": (0, 0.5, -0.5, 0, 0, 0), "adv": 7, "x0": 0, "x1": 6, "top": 0, "bottom": 3.5}
    assert round(type_size(upright), 2) == round(type_size(turned), 2) == 8.76 and type_size(small) < SMALLEST_PT


def test_no_type_under_7_pt(docs):
    """Tables, charts (their axis titles turned), test-bed diagrams and notes: nothing a reader must squint at."""
    problems = []
    for pdf, doc in docs:
        for n, page in enumerate(doc.pages, 1):
            small = [c for c in page.chars if c["text"].strip() and type_size(c) < SMALLEST_PT]
            if small:
                problems.append(f"{pdf.name} p{n}: {''.join(c['text'] for c in small)[:40]!r} at {min(type_size(c) for c in small):.1f} pt")
    assert not problems, "\n".join(problems[:40])
