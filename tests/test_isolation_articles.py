"""Isolation reaches the articles: a review that cites a result set left out of the site (its
analysis failed) is left out too, named in one line, and every other page is still published."""

from __future__ import annotations

import pytest

import pipeline
import workdir

pytestmark = pytest.mark.slow
FAILED = "keysight-ixnetwork-ve-dpdk-400g-2022"  # its review cites it


def test_a_review_citing_a_failed_set_is_left_out_and_the_rest_publishes(tmp_path):
    w = pipeline.warm(workdir.make(tmp_path))
    for step in (["ingest"], ["analyse"]):
        proc = workdir.wirespeed(w, *step)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    from wirespeed.pipeline import status as setstatus
    setstatus.record(FAILED, "analyse", {"what": "notebook throughput", "cause": "injected by the test", "log": "build/logs/x.log"}, w / "build" / "status")
    proc = workdir.wirespeed(w, "site")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    lines = [l for l in proc.stderr.splitlines() if f"reviews/{FAILED}.md" in l]
    assert len(lines) == 1 and f"it cites {FAILED}, which is not on the site" in lines[0], proc.stderr
    public = w / "public"
    assert not (public / "reviews" / FAILED).exists()
    assert not (public / "results" / FAILED).exists()
    assert (public / "reviews" / "cisco-nexus-9516-128x100g-2015" / "index.html").is_file()
    assert (public / "results" / "cisco-nexus-9516-128x100g-2015" / "index.html").is_file()
    assert f"reviews/{FAILED}/" not in (public / "index.html").read_text(encoding="utf-8")
