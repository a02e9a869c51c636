"""`wirespeed build` exports the site data once: the site step reuses the export made before the reports when no
report failed since, and exports again, leaving the set out, when one did. The failure is a real one, injected
without any hook in wirespeed: a folder stands where one set's PDF is to be written."""

from __future__ import annotations


import pytest

import workdir

pytestmark = pytest.mark.slow
SETS = ("cisco-7600-osm-acl-2001", "keysight-ixnetwork-ve-dpdk-400g-2022")  # two small examples, each standing alone
BROKEN = SETS[1]


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    return workdir.make_without_reviews(tmp_path_factory.mktemp("export-once"), *SETS)


def test_a_build_with_every_report_made_exports_once(work):
    proc = workdir.wirespeed(work, "build")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    lines = [l for l in proc.stdout.splitlines() if l.startswith("site data for ")]
    assert lines == ["site data for 2 result sets → build/hugo-data, build/site-static",
                     "site data for 2 result sets → build/hugo-data, build/site-static (as exported before the reports: no report failed)"], lines
    for slug in SETS:
        assert (work / "public" / "results" / slug / "index.html").is_file(), slug
        assert (work / "public" / "reports" / f"{slug}.pdf").is_file(), slug


def test_a_report_that_fails_after_the_export_leaves_its_set_out_of_the_site(work):
    pdf = work / "build" / "reports" / f"{BROKEN}.pdf"
    pdf.unlink()
    pdf.mkdir()  # the report cannot be written: its step fails for this set alone
    (work / "build" / "reports" / f"{BROKEN}.manifest.json").unlink()  # and it is out of date, so the step tries
    proc = workdir.wirespeed(work, "build", "--force")  # nothing the stamp covers changed: every step is asked
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    assert f"{BROKEN}: left out of the site: its report step failed" in proc.stderr, proc.stderr[-3000:]
    lines = [l for l in proc.stdout.splitlines() if l.startswith("site data for ")]
    assert lines == ["site data for 2 result sets → build/hugo-data, build/site-static",
                     "site data for 1 result sets → build/hugo-data, build/site-static"], lines
    assert (work / "public" / "results" / SETS[0] / "index.html").is_file()
    assert not (work / "public" / "results" / BROKEN).exists()
    assert not (work / "build" / "hugo-data" / "wirespeed" / "sets" / f"{BROKEN}.json").exists()
