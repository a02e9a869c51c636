"""Sharded builds (wirespeed/shards.py): `wirespeed build --shard I/N` runs the notebooks of shard I's sets,
`wirespeed merge` combines the shards into one build, and the merged site is byte for byte the unsharded one."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import workdir
from conftest import ROOT, WIRESPEED, run_cli
from test_reproducible import tree

SERIES = 3  # of the measured trend series, besides every other example: the trend pages have a series to show


def test_a_shard_spec_is_i_of_n():
    from wirespeed import shards

    assert shards.parse("2/4") == shards.Shard(2, 4) and str(shards.parse(" 1 / 1 ")) == "1/1"
    for bad in ("0/2", "3/2", "2", "a/b", "1/0", "-1/2"):
        with pytest.raises(shards.ShardError, match=r"expected I/N with 1 <= I <= N"):
            shards.parse(bad)


def test_every_set_is_in_exactly_one_shard_and_stays_there():
    from wirespeed import shards

    slugs = sorted(p.name for p in (ROOT / "data" / "results").iterdir() if p.is_dir())
    for n in (1, 2, 3, 7):
        parts = [shards.select(slugs, shards.Shard(i, n)) for i in range(1, n + 1)]
        assert sorted(s for part in parts for s in part) == slugs
    # the assignment is the slug's hash alone: these values hold on every machine and for every archive
    assert shards.number("cisco-7600-osm-acl-2001", 2) == int.from_bytes(__import__("hashlib").sha256(b"cisco-7600-osm-acl-2001").digest()[:8], "big") % 2 + 1
    assert shards.select(slugs, shards.Shard(1, 2)) == shards.select(slugs + ["zz-new-set-2030"], shards.Shard(1, 2))[: len(shards.select(slugs, shards.Shard(1, 2)))]


def _shard_folder(root: Path, index: int, of: int, sets: list[str]) -> Path:
    from wirespeed import shards

    build = root / f"shard{index}"
    for slug in sets:
        (build / "analysis" / slug / "throughput").mkdir(parents=True)
        (build / "analysis" / slug / "throughput" / "manifest.json").write_text(json.dumps({"key": slug}))
    shards.record(build, shards.Shard(index, of), sets)
    return build


def test_merge_needs_every_shard_once(tmp_path):
    from wirespeed import shards

    slugs = ["alpha-2020", "beta-2021", "gamma-2022", "delta-2023", "epsilon-2024"]
    one, two = (_shard_folder(tmp_path, i, 2, shards.select(slugs, shards.Shard(i, 2))) for i in (1, 2))
    with pytest.raises(shards.ShardError, match=r"shard 2/2 missing: give every shard's build folder"):
        shards.merge([one], tmp_path / "build")
    with pytest.raises(shards.ShardError, match=r"shard 1/2 given twice"):
        shards.merge([one, one, two], tmp_path / "build")
    with pytest.raises(shards.ShardError, match=r"not a shard's build folder \(no shard.json"):
        shards.merge([tmp_path], tmp_path / "build")
    wrong = json.loads((one / shards.RECORD).read_text())
    wrong["sets"] = shards.select(slugs, shards.Shard(2, 2))[:1]
    (one / shards.RECORD).write_text(json.dumps(wrong))
    with pytest.raises(shards.ShardError, match=r"set .* does not belong to shard 1/2"):
        shards.merge([one, two], tmp_path / "build")


def test_merge_copies_each_shards_sets_and_no_links(tmp_path):
    from wirespeed import shards

    slugs = ["alpha-2020", "beta-2021", "gamma-2022", "delta-2023"]
    folders = [_shard_folder(tmp_path, i, 2, shards.select(slugs, shards.Shard(i, 2))) for i in (1, 2)]
    secret = tmp_path / "secret.txt"
    secret.write_text("not a build output")
    (folders[0] / "analysis" / shards.select(slugs, shards.Shard(1, 2))[0] / "link.txt").symlink_to(secret)
    build = tmp_path / "build"
    assert shards.merge(folders, build) == sorted(slugs)
    for slug in slugs:
        assert json.loads((build / "analysis" / slug / "throughput" / "manifest.json").read_text()) == {"key": slug}
    assert not list(build.rglob("link.txt"))


def _project(folder: Path) -> Path:
    folder.mkdir()
    workdir.make(folder, series=SERIES)
    for name in ("CONTRIBUTING.md", "docs"):  # the pages the site mounts from the repository
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copyfile)(src, folder / name)
    return folder


def _notebook_runs(output: str) -> tuple[int, int]:
    m = re.search(r"(\d+) notebook runs executed, (\d+) up to date", output)
    assert m, output
    return int(m.group(1)), int(m.group(2))


def _reports(output: str) -> tuple[int, int]:
    m = re.search(r"(\d+) reports built, (\d+) up to date", output)
    assert m, output
    return int(m.group(1)), int(m.group(2))


@pytest.mark.slow
def test_a_sharded_build_merged_is_byte_identical_to_the_unsharded_build(tmp_path):
    whole = _project(tmp_path / "whole")
    unsharded = run_cli("build", cwd=whole)
    assert unsharded.returncode in (0, 1), unsharded.stderr
    failed_runs = len(re.findall(r": analyse failed in notebook", unsharded.stderr))

    built = []
    for i in (1, 2):
        folder = _project(tmp_path / f"shard{i}")
        proc = run_cli("build", "--shard", f"{i}/2", cwd=folder)
        assert proc.returncode == 0, proc.stderr
        record = json.loads((folder / "build" / "shard.json").read_text())
        assert record["shard"] == i and record["of"] == 2 and record["sets"], record
        assert not (folder / "public").exists(), "a shard builds no site"
        assert re.search(rf"shard {i}/2: [1-9]\d* reports built", proc.stdout), proc.stdout
        built.append(record["sets"])
    sets = sorted(p.name for p in (whole / "data" / "results").iterdir())
    assert sorted(built[0] + built[1]) == sets and not set(built[0]) & set(built[1])

    merged = _project(tmp_path / "merged")
    proc = run_cli("merge", str(tmp_path / "shard1" / "build"), str(tmp_path / "shard2" / "build"), cwd=merged)
    assert proc.returncode == unsharded.returncode, proc.stderr
    assert f"merged the notebook runs of {len(sets)} result sets from 2 shards" in proc.stdout
    executed, fresh = _notebook_runs(proc.stdout)
    assert executed == failed_runs and fresh == sum(_notebook_runs(unsharded.stdout)) - failed_runs, proc.stdout  # only the failing runs run again
    reports_built, reports_fresh = _reports(proc.stdout)
    assert reports_built == 0 and reports_fresh == sum(_reports(unsharded.stdout)), proc.stdout  # every report is a shard's

    first, second = tree(whole / "public"), tree(merged / "public")
    assert any(n.startswith("reports/") and n.endswith(".pdf") for n in first) and any(n.endswith(".ipynb") for n in first)
    assert any(n.startswith("pagefind/") for n in first), "no search index in public/"
    only = sorted(set(first) ^ set(second))
    assert not only, f"files in only one build: {only[:10]}"
    differ = sorted(n for n in first if first[n] != second[n])
    assert not differ, f"{len(differ)} files differ between the sharded and the unsharded build, e.g. public/{differ[0]}: {differ[:10]}"

    # A build with nothing out of date starts no Dask cluster: given a scheduler no one listens at, a no-op build and a
    # forced one (every step asked, every job fresh) never try to reach it.
    nowhere = {**os.environ, "WIRESPEED_SCHEDULER": "tcp://127.0.0.1:9"}
    noop = subprocess.run([*WIRESPEED, "build"], cwd=merged, env=nowhere, capture_output=True, text=True, timeout=600)
    assert noop.returncode == unsharded.returncode and "up to date: nothing the build reads has changed" in noop.stdout, noop.stderr
    if failed_runs == 0:  # a failed notebook runs again in every build
        forced = subprocess.run([*WIRESPEED, "build", "--force"], cwd=merged, env=nowhere, capture_output=True, text=True, timeout=1200)
        assert forced.returncode == unsharded.returncode and "cannot connect" not in forced.stderr, forced.stderr
        assert _notebook_runs(forced.stdout)[0] == 0 and _reports(forced.stdout)[0] == 0, forced.stdout
        assert tree(merged / "public") == first


def test_the_shard_and_merge_commands_refuse_in_one_line(tmp_path):
    w = workdir.make(tmp_path, examples=False)
    proc = workdir.wirespeed(w, "build", "--shard", "3/2")
    assert proc.returncode == 2 and "shard '3/2': expected I/N with 1 <= I <= N" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    _shard_folder(tmp_path / "shards", 1, 2, [])
    proc = workdir.wirespeed(w, "merge", str(tmp_path / "shards" / "shard1"))
    assert proc.returncode == 2 and "shard 2/2 missing: give every shard's build folder" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert not (w / "public").exists()
