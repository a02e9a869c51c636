"""Validation is the contract: every result set `wirespeed validate` accepts ingests, analyses,
reports and renders. Hypothesis draws 20 valid sets of varied shapes (tests/validsets.py: every kind
of test, with and without optional columns, variants, directions, qualifiers, samples, histograms
and empty optional tables); they go into one scratch archive with the odd-shaped sets of tests/oddsets.py and
the whole pipeline runs once (validate, ingest, analyse, site --data-only, report, site); every set must be
published with a page and a PDF, the publication check (`wirespeed check-site`) must find nothing in them, and every
set's PDF must hold the layout the examples' do (no glyph off the page or over another, none under 7 pt)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import oddsets
import pdfglyphs
import validsets
import workdir
from wirespeed.sitecheck.run import check_site

pytestmark = pytest.mark.slow
SETS = 20
STEPS = (["validate"], ["ingest"], ["analyse"], ["site", "--data-only"], ["report"], ["site"])


@settings(max_examples=1, deadline=None, database=None, phases=[Phase.generate], suppress_health_check=list(HealthCheck))
@given(st.data())
def test_every_valid_set_is_published_with_a_page_and_a_pdf(tmp_path_factory, data):
    w = workdir.make(tmp_path_factory.mktemp("valid-sets"), examples=False)
    for article in (w / "content" / "reviews").glob("*.md"):  # the reviews cite the bundled examples, which are not here
        article.unlink()
    shapes = [data.draw(validsets.set_shape(n), label=f"set {n}") for n in range(SETS)]
    slugs = [validsets.write(w / "data" / "results", shape).name for shape in shapes]
    odd = oddsets.make(w / "data" / "results")
    for step in STEPS:
        proc = workdir.wirespeed(w, *step)
        assert proc.returncode == 0, f"wirespeed {' '.join(step)} failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
        assert "Traceback" not in proc.stdout + proc.stderr
    total = SETS + len(odd)
    assert f"{total} result sets: {total} valid, 0 invalid; 0 errors" in workdir.wirespeed(w, "validate").stderr
    for slug in slugs:
        page = w / "public" / "results" / slug / "index.html"
        assert page.is_file(), slug
        assert (w / "public" / "reports" / f"{slug}.pdf").read_bytes().startswith(b"%PDF"), slug
    summary = workdir.wirespeed(w, "summary")
    assert summary.returncode == 0 and "failed" not in summary.stdout + summary.stderr, summary.stdout
    kinds = {t["kind"] for s in shapes for t in s["tests"]}
    assert kinds == set(validsets.KINDS)
    problems = check_site(w / "public", w / "build")  # what every set of every shape published, read back
    assert not problems, f"{len(problems)} publication failures, e.g.:\n" + "\n".join(str(p) for p in problems[:15])
    # every set's PDF laid out as the examples' are (tests/test_pdf_layout.py): every glyph on the page, none over another,
    # none under 7 pt
    layout = [p for slug in slugs for p in pdfglyphs.layout_problems(f"{slug}.pdf", pdfglyphs.pages(w / "public" / "reports" / f"{slug}.pdf"))]
    assert not layout, f"{len(layout)} layout faults, e.g.:\n" + "\n".join(layout[:15])
