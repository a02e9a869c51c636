"""PDF layout that holds for any valid set (issue 13, item 7), checked mechanically on the examples plus
a corpus of odd-shaped valid sets made at test time (tests/oddsets.py): one temporary archive, one run
of the pipeline. Every glyph stays on the page's printable area and never overlaps another glyph
(pdfplumber character boxes), the LaTeX log has no overfull box beyond a small tolerance, and no
page ends with a heading."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest

import oddsets
from conftest import ARCHIVE, ROOT, WIRESPEED

pdfplumber = pytest.importorskip("pdfplumber")
pytestmark = pytest.mark.slow
SOURCES = ["config.toml", "layouts", "content", "static", "assets", "notebooks", "reports"]
EDGE_PT = 14.0  # no glyph nearer the paper's edge than this (the margins are far wider)
OVERFULL_PT = 12.0  # tolerance for an overfull box in the TeX log
OVERLAP = 0.35  # share of the smaller glyph box two glyphs may share


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    w = tmp_path_factory.mktemp("pdf-layout")
    for name in SOURCES:
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copyfile)(src, w / name)
    shutil.copytree(ARCHIVE, w / "data" / "results")
    oddsets.make(w / "data" / "results")
    env = {**os.environ, "WIRESPEED_LATEX_LOGS": str(w / "latex-logs")}
    for step in (["ingest"], ["analyse"], ["site", "--data-only"], ["report"]):
        proc = subprocess.run([*WIRESPEED, *step], cwd=w, capture_output=True, text=True, timeout=2400, env=env)
        assert proc.returncode == 0, f"wirespeed {' '.join(step)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    return w


def _pdfs(w: Path) -> list[Path]:
    pdfs = sorted((w / "build" / "reports").glob("*.pdf"))
    assert len(pdfs) >= 9, pdfs  # six examples and three odd sets
    return pdfs


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


def test_no_glyph_off_the_page_or_over_another(built):
    problems = []
    for pdf in _pdfs(built):
        with pdfplumber.open(pdf) as doc:
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


def _lines(page) -> list[tuple[float, float, str]]:
    """(top, largest font size, text) of each text line of a page, top to bottom."""
    rows: dict[int, list[dict]] = defaultdict(list)
    for c in page.chars:
        rows[round(c["top"])].append(c)
    return [(top, max(c["size"] for c in cs), "".join(c["text"] for c in sorted(cs, key=lambda c: c["x0"])).strip())
            for top, cs in sorted(rows.items()) if "".join(c["text"] for c in cs).strip()]


def test_no_heading_at_the_foot_of_a_page(built):
    stranded = []
    for pdf in _pdfs(built):
        with pdfplumber.open(pdf) as doc:
            sizes = [round(c["size"]) for p in doc.pages[1:] for c in p.chars]
            body = max(set(sizes), key=sizes.count) if sizes else 10
            for n, page in enumerate(doc.pages[1:-1], 2):
                lines = [ln for ln in _lines(page) if ln[0] < page.height * 0.9]  # above the running footer
                if len(lines) < 3:
                    continue
                top, size, text = lines[-1]
                if size >= body + 2 and re.match(r"^(\d+(\.\d+)*|[A-Z](\.\d+)*)\s", text):
                    stranded.append(f"{pdf.name} p{n}: ends with heading {text[:60]!r}")
    assert not stranded, "\n".join(stranded)


def test_last_page_is_not_only_the_disclaimer(built):
    for pdf in _pdfs(built):
        with pdfplumber.open(pdf) as doc:
            text = doc.pages[-1].extract_text() or ""
            assert not (text.strip().startswith("Disclaimer") or len(text.split()) < 40 and "Disclaimer" in text), pdf.name
            first = doc.pages[0].extract_text() or ""
            assert "Disclaimer" in first and "Prepared by" in first, pdf.name  # the disclaimer and attribution on the title page
