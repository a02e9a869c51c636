"""The publish path holds (issue 28, item 1): `make` in a scratch working folder, as the publish workflow
runs it, with a set that validation refuses (a PDF attachment whose /OpenAction runs JavaScript) and a
set that validates but whose analysis then fails (a test-only notebook raises for it). The site is
built without the two — and without what depends on the second: the comparison another set declares
with it and the review that shows that comparison (whose set's PDF report then takes the generated
structure) — and `make` succeeds, naming each in one line last and in the job summary. Then the site's
own failures: a template that fails for one set's page leaves that set out (the site still builds),
and a template that fails with no set at all fails `make`: the site cannot be built."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import hostile
import pipeline
import workdir


NOOP = "up to date: nothing the build reads has changed since the last build"
BROKEN = "cisco-nexus-9516-128x100g-2015"  # cited by its review, and compared with by the Catalyst set
COMPARING = "cisco-catalyst-6500-vss-2008"  # declares set_comparisons vs-nexus-9516; its review shows that table
NOTEBOOK = f'''# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#   wirespeed:
#     applies_when: "SELECT count(*) FROM result_sets WHERE slug = ? AND slug = '{BROKEN}'"
# ---

# %% tags=["parameters"]
slug = "x"
catalog = "build/wirespeed.duckdb"
output_dir = "build/analysis/scratch/zz_breaks"

# %%
raise RuntimeError(f"deliberate failure for {{slug}}")
'''
JS_PDF = (b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >>\nendobj\n"
          b"2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n"
          b"3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 9 9] /Resources << >> >>\nendobj\n"
          b"4 0 obj\n<< /S /JavaScript /JS (app.alert\\(1\\)) >>\nendobj\n")


def _pdf() -> bytes:
    out = JS_PDF
    offsets = [out.index(b"%d 0 obj" % i) for i in range(1, 5)]
    xref = len(out)
    return out + b"xref\n0 5\n0000000000 65535 f \n" + b"".join(b"%010d 00000 n \n" % o for o in offsets) + \
        b"trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % xref


def make(w: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "MAKEFLAGS": "", "GITHUB_STEP_SUMMARY": str(w / "job-summary.md")}
    (w / "job-summary.md").unlink(missing_ok=True)
    return subprocess.run(["make", "--no-print-directory", f"VENV={Path(sys.executable).parent.parent}", "-o", "system-packages", "build"],
                          cwd=w, capture_output=True, text=True, timeout=2400, env=env)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    w = pipeline.warm(workdir.make(tmp_path_factory.mktemp("publish-path")))
    (w / "notebooks" / "zz_breaks.py").write_text(NOTEBOOK, encoding="utf-8")
    bad = hostile.make(w / "data" / "results")
    toml = bad / "result.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('{path = "raw/hostile.txt"', '{path = "raw/report.pdf", title = "Report"}, {path = "raw/hostile.txt"', 1),
                    encoding="utf-8")
    (bad / "raw" / "report.pdf").write_bytes(_pdf())
    # As the publish workflow builds: a git checkout, whose sets are dated by their commits (a scratch folder
    # outside git dates a set by its files' times, so a touched file would move its date), every file the same
    # time as a fresh clone leaves it
    for f in (w / "data" / "results").rglob("*"):
        os.utime(f, ns=(10**18, 10**18), follow_symlinks=False)
    git = ["git", "-c", "user.name=wirespeed tests", "-c", "user.email=tests@wirespeed.invalid", "-c", "commit.gpgsign=false"]
    for args in (["init", "-q"], ["add", "-A", "."], ["commit", "-q", "-m", "the site as checked out"]):
        subprocess.run([*git, *args], cwd=w, check=True, capture_output=True)
    return w, make(w)


def left_out(w: Path) -> list[str]:
    return (w / "build" / "left-out.txt").read_text(encoding="utf-8").splitlines()


@pytest.mark.slow
def test_make_succeeds_and_names_what_it_left_out(built):
    w, proc = built
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    lines = left_out(w)
    assert len(lines) == 5, lines
    refused, failed, comparison, *reviews = lines
    assert refused.startswith(f"{hostile.SLUG}: left out of the site: refused by validation: ") and "OpenAction runs JavaScript" in refused, refused
    assert "[layout.active-content]" in refused
    assert failed.startswith(f"{BROKEN}: analyse failed in notebook notebooks/zz_breaks.py"), failed
    assert comparison.startswith(f"{COMPARING}: vs-nexus-9516 left out of the site: ") and BROKEN in comparison, comparison
    assert sorted(reviews) == sorted([
        f"content/reviews/{COMPARING}.md: left out of the site: it cites {COMPARING}/vs-nexus-9516, {COMPARING}/vs-nexus-9516-chart, which are not on the site",
        f"content/reviews/{BROKEN}.md: left out of the site: it cites {BROKEN}, which is not on the site"]), reviews
    assert proc.stderr.rstrip().endswith(lines[-1])
    summary = (w / "job-summary.md").read_text(encoding="utf-8")
    assert summary.startswith("## Published without 5 items") and all(f"- `{line}`" in summary for line in lines)


@pytest.mark.slow
def test_the_rest_is_published(built):
    w, _ = built
    public = w / "public"
    assert not (public / "results" / BROKEN).exists() and not (public / "results" / hostile.SLUG).exists()
    assert not (public / "reviews" / BROKEN).exists() and not (public / "reviews" / COMPARING).exists()
    assert (public / "results" / COMPARING / "index.html").is_file()
    assert not (public / "results" / COMPARING / "comparisons" / "vs-nexus-9516").exists()
    data = json.loads((w / "build" / "hugo-data" / "wirespeed" / "sets" / f"{COMPARING}.json").read_text(encoding="utf-8"))
    assert "vs-nexus-9516" not in data["tables"] and set(data["unavailable"]) == {"vs-nexus-9516", "vs-nexus-9516-chart"}
    assert (public / "reviews" / "cisco-7600-osm-acl-2001" / "index.html").is_file()
    assert (public / "reports" / f"{COMPARING}.pdf").is_file() and not (public / "reports" / f"{BROKEN}.pdf").exists()
    manifest = json.loads((w / "build" / "reports" / f"{COMPARING}.manifest.json").read_text(encoding="utf-8"))
    assert manifest["components"]["article"] is None  # its review is left out: the report takes the generated structure


@pytest.mark.slow
def test_a_build_with_nothing_changed_answers_from_the_stamp(built):
    """Issue 24: a no-op `make` answers from the content hashes of what the build reads (build/build-stamp.json),
    runs no step and still names what the last build left out; a file touched but not changed is no change;
    a changed file runs the steps, whose own manifests then rebuild nothing a set's outputs depend on."""
    w, first = built
    lines = left_out(w)
    front = (w / "public" / "index.html").stat()
    again = make(w)
    assert again.returncode == 0, again.stdout[-3000:] + again.stderr[-3000:]
    assert NOOP in again.stdout, again.stdout[-2000:]
    assert "[wirespeed " not in again.stderr and again.stderr.rstrip().endswith(lines[-1]), again.stderr[-2000:]
    assert all(line in again.stderr for line in lines)
    after = (w / "public" / "index.html").stat()
    assert (after.st_ino, after.st_mtime_ns) == (front.st_ino, front.st_mtime_ns)  # the site was not rebuilt
    csv = next((w / "data" / "results" / COMPARING).glob("*.csv"))
    os.utime(csv, ns=(csv.stat().st_atime_ns, csv.stat().st_mtime_ns + 10**9))  # touched, not changed
    assert NOOP in make(w).stdout
    about = w / "content" / "about.md"  # a page no set, notebook or report reads
    about.write_text(about.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    changed = make(w)
    assert changed.returncode == 0 and NOOP not in changed.stdout, changed.stderr[-2000:]
    assert "[wirespeed site: " in changed.stderr, changed.stderr[-2000:]
    runs = re.search(r"^(\d+) notebook runs executed", changed.stdout, re.M)
    assert runs and int(runs.group(1)) <= 1, changed.stdout[-2000:]  # only the deliberately failing run, which has no output to keep
    reports = re.search(r"^\d+ reports built, \d+ up to date.*", changed.stdout, re.M)
    assert reports and reports.group(0).startswith("0 "), (reports and reports.group(0), changed.stdout[-2000:])
    assert NOOP in make(w).stdout


@pytest.mark.slow
def test_a_template_failing_for_one_set_leaves_that_set_out(built):
    w, _ = built
    page = w / "layouts" / "results" / "result-set.html"
    original = page.read_text(encoding="utf-8")
    victim = "linux-netns-udp-capture-2026-11"
    page.write_text(original.replace('{{- $s := partial "wirespeed/page-set.html" . }}',
                                     '{{- $s := partial "wirespeed/page-set.html" . }}\n'
                                     f'{{{{- if eq $s.slug "{victim}" }}}}{{{{ errorf "a template cannot render this set" }}}}{{{{ end }}}}', 1), encoding="utf-8")
    try:
        proc = make(w)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        line = next(l for l in left_out(w) if l.startswith(f"{victim}: site failed"))
        assert "the site does not build with it" in line and "a template cannot render this set" in line, line
        assert not (w / "public" / "results" / victim).exists()
        assert (w / "public" / "results" / "cisco-7600-osm-acl-2001" / "index.html").is_file()
    finally:
        page.write_text(original, encoding="utf-8")


@pytest.mark.slow
def test_a_site_that_cannot_be_built_fails_make(built):
    w, _ = built
    home = w / "layouts" / "home.html"
    original = home.read_text(encoding="utf-8")
    home.write_text(original.replace('{{- define "main" }}', '{{- define "main" }}{{ errorf "the home page template is broken" }}', 1), encoding="utf-8")
    try:
        proc = make(w)
        assert proc.returncode != 0
        assert "the site could not be built" in proc.stderr and "the home page template is broken" in proc.stderr, proc.stderr[-3000:]
        assert "wirespeed site (exit status 3)" in proc.stderr
    finally:
        home.write_text(original, encoding="utf-8")


@pytest.mark.parametrize("culprits, expected", [({"d"}, "d"), ({"a"}, "a"), ({"h"}, "h"), ({"c", "f"}, "c"), (set(), None)])
def test_bisection_finds_a_set_the_site_fails_with(monkeypatch, culprits, expected):
    """The search the site step runs when Hugo's error names no set: each trial leaves a set of sets out; the site
    fails while a culprit is in. It finds one in about log2(n) trials, and None when the site fails without any."""
    from wirespeed.site import build as sitebuild

    slugs = list("abcdefgh")
    trials = []

    def fails(_db, exclude, _dest, _url):
        trials.append(set(exclude))
        if not culprits:
            return True
        return bool(culprits - set(exclude))

    monkeypatch.setattr(sitebuild, "_fails", fails)
    assert sitebuild._culprit(Path("x.duckdb"), {}, slugs, Path("public"), None) == expected
    assert len(trials) <= 1 + 3
