"""`wirespeed validate` over the archive remembers each set's own problems by its folder's hash
(wirespeed/catalog/validation.py): what it prints is what reading every set prints, a changed set is read again, a
set that did not change still gets the problems another set's change gives it (the archive's rules run over all),
and a memory entry that is broken, a link or of a set that is gone is not used."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import ROOT
from wirespeed.catalog import validation
from wirespeed.catalog.load import load_many
from wirespeed.checks import run_checks

SETS = ("cisco-7600-osm-acl-2001", "keysight-ixnetwork-ve-dpdk-400g-2022", "cisco-catalyst-6500-vss-2008", "cisco-nexus-9516-128x100g-2015")


def _archive(tmp_path: Path) -> Path:
    results = tmp_path / "data" / "results"
    for slug in SETS:
        shutil.copytree(ROOT / "data" / "results" / slug, results / slug)
    return results


def _lines(checked: list[validation.Checked]) -> list[tuple[str, list[str]]]:
    return [(c.folder.name, [str(p) for p in c.problems]) for c in checked]


def _read_all(results: Path) -> list[tuple[str, list[str]]]:
    """What validate printed before the memory: load_many, then each set's checks."""
    out = []
    for folder, rs, problems in load_many(sorted(results.iterdir())):
        out.append((folder.name, [str(p) for p in problems + (run_checks(rs) if rs is not None else [])]))
    return out


def test_what_is_remembered_is_what_reading_every_set_finds(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    results = _archive(tmp_path)
    memo = tmp_path / "build" / "cache" / "validate"
    # a set's own problem: a comparison that names a test the other set does not have
    toml = results / SETS[2] / "result.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('"cisco-nexus-9516-128x100g-2015/ipv4-unicast"', '"cisco-nexus-9516-128x100g-2015/no-such-test"'),
                    encoding="utf-8")
    folders = sorted(results.iterdir())
    expected = _read_all(results)
    assert any("no-such-test" in p for _n, ps in expected for p in ps)
    first = validation.validate(folders, memo)
    assert sorted(p.name for p in memo.iterdir()) == sorted(f"{f.name}.json" for f in folders)
    again = validation.validate(folders, memo)
    assert _lines(first) == _lines(again) == expected
    assert all(isinstance(c.rs, validation.Remembered) for c in again if c.rs is not None)  # nothing read again
    # another set, published earlier, now names the Nexus's model with an "l" for a "1" (one skeleton, the plainer and
    # earlier spelling is the original): the Nexus set, unchanged and remembered, is the one that imitates
    toml = results / SETS[0] / "result.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('model = "7600 Internet Router"', 'model = "Nexus 95l6"', 1), encoding="utf-8")
    moved = validation.validate(folders, memo)
    assert _lines(moved) == _read_all(results)
    nexus = next(c for c in moved if c.folder.name == SETS[3])
    assert isinstance(nexus.rs, validation.Remembered) and any("looks like 'Nexus 95l6'" in str(p) for p in nexus.problems), nexus.problems
    shutil.rmtree(results / SETS[1])
    validation.validate(sorted(results.iterdir()), memo)
    assert not (memo / f"{SETS[1]}.json").exists()  # a set that is gone is forgotten


@pytest.fixture
def remembered(tmp_path, monkeypatch) -> tuple[Path, Path, list[Path]]:
    """(the archive, its memory, its set folders), validated once: every set remembered."""
    monkeypatch.chdir(tmp_path)
    results = _archive(tmp_path)
    memo = tmp_path / "memo"
    folders = sorted(results.iterdir())
    validation.validate(folders, memo)
    return results, memo, folders


def test_a_changed_set_is_read_again(remembered):
    results, memo, folders = remembered
    toml = results / SETS[1] / "result.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("slug = ", "colour = \"red\"\nslug = ", 1), encoding="utf-8")
    changed = validation.validate(folders, memo)
    assert _lines(changed) == _read_all(results)
    assert any("colour" in str(p) for p in next(c for c in changed if c.folder.name == SETS[1]).problems)


def test_a_broken_or_linked_memory_entry_is_not_used(remembered, tmp_path):
    results, memo, folders = remembered
    (memo / f"{SETS[0]}.json").write_text("{not json", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere.json"
    shutil.copyfile(memo / f"{SETS[1]}.json", elsewhere)
    (memo / f"{SETS[1]}.json").unlink()
    (memo / f"{SETS[1]}.json").symlink_to(elsewhere)
    again = validation.validate(folders, memo)
    assert _lines(again) == _read_all(results)
    read = {c.folder.name for c in again if c.rs is not None and not isinstance(c.rs, validation.Remembered)}
    assert {SETS[0], SETS[1]} <= read


def test_a_set_whose_reading_crashed_is_not_remembered(tmp_path, monkeypatch):
    import importlib

    monkeypatch.chdir(tmp_path)
    results = _archive(tmp_path)
    memo = tmp_path / "memo"
    loader = importlib.import_module("wirespeed.catalog.load")
    real = loader.load

    def flaky(folder):
        if Path(folder).name == SETS[0]:
            raise OSError("a read that failed once")
        return real(folder)

    monkeypatch.setattr(loader, "load", flaky)
    crashed = validation.validate(sorted(results.iterdir()), memo)
    assert any(p.rule == "internal" for p in next(c for c in crashed if c.folder.name == SETS[0]).problems)
    assert not (memo / f"{SETS[0]}.json").exists() and (memo / f"{SETS[1]}.json").is_file()
    monkeypatch.setattr(loader, "load", real)
    again = validation.validate(sorted(results.iterdir()), memo)
    assert not any(p.rule == "internal" for c in again for p in c.problems)
