"""Sharded builds (wirespeed/shards.py): `wirespeed build --shard I/N` runs the notebooks of shard I's sets,
`wirespeed merge` combines the shards into one build. That the merged site is byte for byte the unsharded one is
tested with the examples in test_reproducible.py, where the sharded build is the second of two clean builds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import workdir
from conftest import ROOT


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


def test_the_shard_and_merge_commands_refuse_in_one_line(tmp_path):
    w = workdir.make(tmp_path, examples=False)
    proc = workdir.wirespeed(w, "build", "--shard", "3/2")
    assert proc.returncode == 2 and "shard '3/2': expected I/N with 1 <= I <= N" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    _shard_folder(tmp_path / "shards", 1, 2, [])
    proc = workdir.wirespeed(w, "merge", str(tmp_path / "shards" / "shard1"))
    assert proc.returncode == 2 and "shard 2/2 missing: give every shard's build folder" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert not (w / "public").exists()
