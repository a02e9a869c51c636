"""Isolation: a set whose step fails is named in one line (set, step, notebook, cause, log with the
full traceback), left out of the site and the reports, shown as failed by `wirespeed summary`, and
`make` still publishes every other set into public/ and succeeds (the publish workflow deploys),
reporting what it left out last, in the GitHub job summary and as a warning annotation.

The failure is injected without any hook in wirespeed: the scratch working folder gets one more
analysis notebook (tests only) that raises for one example set, as a contributed set's notebook run would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import pipeline
import workdir
from conftest import ROOT, example_folders

pytestmark = pytest.mark.slow
FAILING = "linux-netns-ipv4-ramp-2026-11"  # its review is left out with it (test_isolation_articles.py)
NOTEBOOK = f'''# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#   wirespeed:
#     applies_when: "SELECT count(*) FROM result_sets WHERE slug = ? AND slug = '{FAILING}'"
# ---

# %% tags=["parameters"]
slug = "x"
catalog = "build/wirespeed.duckdb"
output_dir = "build/analysis/scratch/zz_breaks"

# %%
raise RuntimeError(f"deliberate failure for {{slug}}: this set has no samples for its ramp")
'''


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    w = pipeline.warm(workdir.make(tmp_path_factory.mktemp("isolation")))
    (w / "notebooks" / "zz_breaks.py").write_text(NOTEBOOK, encoding="utf-8")
    env = {**os.environ, "MAKEFLAGS": "", "GITHUB_STEP_SUMMARY": str(w / "job-summary.md"), "GITHUB_ACTIONS": "true"}
    proc = subprocess.run(["make", "--no-print-directory", f"VENV={Path(sys.executable).parent.parent}", "-o", "system-packages", "build"], cwd=w, capture_output=True, text=True, timeout=2400, env=env)
    return w, proc


def test_make_succeeds_and_publishes_every_other_set(built):
    w, proc = built
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    others = sorted(p.name for p in example_folders() if (p / "result.toml").is_file() and p.name != FAILING)
    for slug in others:
        assert (w / "public" / "results" / slug / "index.html").is_file(), slug
        assert (w / "public" / "reports" / f"{slug}.pdf").is_file(), slug
    assert not (w / "public" / "results" / FAILING).exists()
    assert not (w / "public" / "reports" / f"{FAILING}.pdf").exists()
    assert FAILING not in (w / "public" / "index.html").read_text(encoding="utf-8")
    # the set and its review, which cites it (test_isolation_articles.py)
    assert "THE SITE WAS BUILT WITHOUT 2 ITEMS" in proc.stderr and "could not be built" not in proc.stderr


def test_what_was_left_out_is_reported_last_and_in_the_job_summary(built):
    w, proc = built
    line, review = (w / "build" / "left-out.txt").read_text(encoding="utf-8").splitlines()
    assert line.startswith(f"{FAILING}: analyse failed in notebook notebooks/zz_breaks.py"), line
    assert review == f"content/reviews/{FAILING}.md: left out of the site: it cites {FAILING}, which is not on the site"
    assert [x.strip() for x in proc.stderr.rstrip().splitlines()[-2:]] == [line, review], proc.stderr[-2000:]  # reported last, in this order
    summary = (w / "job-summary.md").read_text(encoding="utf-8")
    assert summary.startswith("## Published without 2 items") and f"- `{line}`" in summary and f"- `{review}`" in summary
    for item in (line, review):
        assert f"::warning title=Left out of the site::{item}" in proc.stdout


def test_the_failure_is_one_line_with_set_step_notebook_cause_and_log(built):
    w, proc = built
    lines = [l for l in proc.stderr.splitlines() if l.startswith(f"{FAILING}: analyse failed")]
    assert len(set(lines)) == 1, proc.stderr  # the same line from analyse and, at the end, from wirespeed summary
    line = lines[0]
    assert "notebook notebooks/zz_breaks.py, code cell 2" in line
    assert f"RuntimeError: deliberate failure for {FAILING}: this set has no samples for its ramp" in line
    log = line.rsplit("full traceback: ", 1)[1].rstrip(")")
    assert log == f"build/logs/{FAILING}/analyse-zz_breaks.log"
    text = (w / log).read_text(encoding="utf-8")
    assert "RuntimeError" in text and "raise RuntimeError" in text and "\x1b[" not in text
    assert f"{FAILING}: left out of the site: its analyse step failed" in proc.stderr


def test_summary_shows_the_failed_set(built):
    w, _ = built
    proc = workdir.wirespeed(w, "summary")
    assert proc.returncode == 0, proc.stderr
    row = next(l for l in proc.stdout.splitlines() if FAILING in l)
    assert "failed: analyse" in row
    assert all("│ ok" in l or "ok" in l.split("│")[-2] for l in proc.stdout.splitlines() if "-20" in l and FAILING not in l)
    md = workdir.wirespeed(w, "summary", "--markdown", FAILING, "cisco-7600-osm-acl-2001")
    assert md.returncode == 1
    assert f"## {FAILING.replace('_', chr(92) + '_')} — failed: analyse" in md.stdout
    assert "## cisco-7600-osm-acl-2001 — builds" in md.stdout
    assert "| Baseline forwarding rate: throughput, 40-byte frames | 28.7 Mpps |" in md.stdout
