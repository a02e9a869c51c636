"""The site export remembers what it wrote (wirespeed/site/exportcache.py): a set whose inputs are unchanged is
taken from the last export (its files linked, not written again), a set whose inputs changed in any way is exported
again (a set that compares itself with another also when that one changes or is left out), and what comes out is
byte for byte what an export without the memory writes. A previous output that is no
longer what the memory describes, or a memory an interrupted or sharded export left incomplete, is not used."""

from __future__ import annotations

import filecmp
import json
import os
import shutil
from pathlib import Path

import pytest

import workdir

pytestmark = pytest.mark.slow
CHANGED, KEPT = "cisco-7600-osm-acl-2001", "keysight-ixnetwork-ve-dpdk-400g-2022"  # two small examples, each standing alone
COMPARING, COMPARED = "cisco-catalyst-6500-vss-2008", "cisco-nexus-9516-128x100g-2015"  # [[set_comparisons]] of the first names the second
SETS = (CHANGED, KEPT, COMPARING, COMPARED)


def _step(w: Path, *args: str) -> str:
    proc = workdir.wirespeed(w, *args)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stdout[-2000:] + proc.stderr[-2000:]
    return proc.stdout


def _inodes(w: Path, slug: str) -> dict[str, int]:
    top = w / "build" / "site-static" / "results" / slug
    return {p.relative_to(top).as_posix(): p.stat().st_ino for p in top.rglob("*") if p.is_file()}


def _same_trees(a: Path, b: Path) -> None:
    """Every file of a is in b with the same bytes, and b has no other."""
    files_a = sorted(p.relative_to(a).as_posix() for p in a.rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(b).as_posix() for p in b.rglob("*") if p.is_file())
    assert files_a == files_b
    _match, mismatch, errors = filecmp.cmpfiles(a, b, files_a, shallow=False)
    assert not mismatch and not errors, (mismatch, errors)


def _fresh_export_matches(w: Path, tmp: Path) -> None:
    """The output now is what an export without its memory writes."""
    kept = tmp / "remembered"
    shutil.rmtree(kept, ignore_errors=True)
    for name in ("hugo-data", "site-static"):
        shutil.copytree(w / "build" / name, kept / name)
    shutil.rmtree(w / "build" / "site-export")
    _step(w, "site", "--data-only")
    for name in ("hugo-data", "site-static"):
        _same_trees(kept / name, w / "build" / name)


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    w = workdir.make_without_reviews(tmp_path_factory.mktemp("export-memory"), *SETS)
    for step in (["ingest"], ["analyse"], ["site", "--data-only"]):
        _step(w, *step)
    return w


def test_an_unchanged_set_is_linked_from_the_last_export_and_the_output_is_a_fresh_exports(work, tmp_path):
    before = {s: _inodes(work, s) for s in SETS}
    assert (work / "build" / "site-export" / "complete").is_file()
    _step(work, "site", "--data-only")
    for slug in SETS:
        assert _inodes(work, slug) == before[slug], f"{slug}: its files were written again"
    _fresh_export_matches(work, tmp_path)


def test_a_changed_set_is_exported_again_and_the_others_are_not(work, tmp_path):
    _step(work, "site", "--data-only")  # the memory back after the last test's fresh export
    before = {s: _inodes(work, s) for s in SETS}
    toml = work / "data" / "results" / CHANGED / "result.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace('title = "Cisco 7600 with', 'title = "The Cisco 7600 with', 1), encoding="utf-8")
    for step in (["ingest"], ["analyse"], ["site", "--data-only"]):
        _step(work, *step)
    data = json.loads((work / "build" / "hugo-data" / "wirespeed" / "sets" / f"{CHANGED}.json").read_text(encoding="utf-8"))
    assert data["title"].startswith("The Cisco 7600 with")
    assert _inodes(work, KEPT) == before[KEPT]
    assert _inodes(work, CHANGED)["preview.png"] != before[CHANGED]["preview.png"]  # its preview prints the new title
    _fresh_export_matches(work, tmp_path)


def test_a_changed_analysis_output_is_exported_again(work, tmp_path):
    _step(work, "site", "--data-only")
    out = work / "build" / "analysis" / KEPT
    csv = next(out.glob("*/tables/*.csv"))
    csv.write_text(csv.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # a notebook that now writes one more line
    _step(work, "site", "--data-only")
    published = work / "build" / "site-static" / "results" / KEPT / "tables" / csv.name
    assert published.read_bytes() == csv.read_bytes()
    _fresh_export_matches(work, tmp_path)


def test_a_previous_output_that_changed_since_is_not_used(work, tmp_path):
    _step(work, "site", "--data-only")
    svg = next((work / "build" / "site-static" / "results" / KEPT / "charts").glob("*.svg"))
    good = svg.read_bytes()
    svg.write_bytes(good[:-10])  # cut short after the export that wrote it
    _step(work, "site", "--data-only")
    assert svg.read_bytes() == good
    _fresh_export_matches(work, tmp_path)


def test_an_incomplete_memory_is_not_used(work):
    _step(work, "site", "--data-only")
    (work / "build" / "site-export" / "complete").unlink()  # as an export interrupted between its swap and its memory leaves it
    before = _inodes(work, KEPT)
    _step(work, "site", "--data-only")
    after = _inodes(work, KEPT)
    assert all(after[p] != before[p] for p in before), "files linked from an export the memory no longer describes"
    assert (work / "build" / "site-export" / "complete").is_file()


def test_a_set_compared_with_another_is_exported_again_only_when_that_one_changes_or_is_left_out(work, tmp_path):
    _step(work, "site", "--data-only")
    before = _inodes(work, COMPARING)
    assert any(name.startswith("tables/vs-nexus-9516") for name in before)
    _step(work, "site", "--data-only")
    assert _inodes(work, COMPARING) == before, "a set whose compared sets are unchanged was exported again"
    toml = work / "data" / "results" / COMPARED / "result.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace('title = "', 'title = "Re-read: ', 1), encoding="utf-8")
    for step in (["ingest"], ["analyse"], ["site", "--data-only"]):
        _step(work, *step)
    after = _inodes(work, COMPARING)
    assert all(after[p] != before[p] for p in before), "the comparing set was taken from an export of the other set's old rows"
    _fresh_export_matches(work, tmp_path)
    # the compared set left out (its report failed, say): the comparison is left out of the comparing set's page
    status = work / "build" / "status" / f"{COMPARED}.json"
    kept = status.read_text(encoding="utf-8")
    try:
        status.write_text(json.dumps({**json.loads(kept), "analyse": {"ok": False, "what": "a notebook", "cause": "a test's failure", "log": ""}}),
                          encoding="utf-8")
        proc = workdir.wirespeed(work, "site", "--data-only")  # exits non-zero: a set was left out
        assert "Traceback" not in proc.stderr and f"{COMPARED}: left out of the site" in proc.stdout + proc.stderr, proc.stderr[-2000:]
        data = json.loads((work / "build" / "hugo-data" / "wirespeed" / "sets" / f"{COMPARING}.json").read_text(encoding="utf-8"))
        assert "vs-nexus-9516" in data["unavailable"], data["unavailable"]
        assert not (work / "build" / "hugo-data" / "wirespeed" / "sets" / f"{COMPARED}.json").exists()
    finally:
        status.write_text(kept, encoding="utf-8")
    _step(work, "site", "--data-only")
    data = json.loads((work / "build" / "hugo-data" / "wirespeed" / "sets" / f"{COMPARING}.json").read_text(encoding="utf-8"))
    assert "vs-nexus-9516" not in data["unavailable"] and "vs-nexus-9516" in data["tables"]


def test_an_analysis_file_is_hashed_again_only_when_its_size_time_or_inode_changed(tmp_path):
    from wirespeed.site import exportcache

    top = tmp_path / "analysis" / "a-set"
    (top / "throughput").mkdir(parents=True)
    table = top / "throughput" / "table.csv"
    table.write_text("frame,fps\n64,1000\n", encoding="utf-8")
    whole, files = exportcache.tree_hash(top)
    assert set(files) == {"throughput/table.csv"} and exportcache.tree_hash(top, files) == (whole, files)
    stale = {rel: sig[:3] + ["0" * 64] for rel, sig in files.items()}  # the signatures an earlier export kept, another hash
    assert exportcache.tree_hash(top, stale)[1]["throughput/table.csv"][3] == "0" * 64  # unchanged file: not read again
    before = table.stat()
    table.write_text("frame,fps\n64,1001\n", encoding="utf-8")  # rewritten in place: the same size and inode, another time
    os.utime(table, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000))  # (a clock tick later, whatever the clock's grain)
    again, new_files = exportcache.tree_hash(top, stale)
    assert again != whole and new_files["throughput/table.csv"][3] != "0" * 64
