"""The relative names the build's memories key files by (pipeline/buildstamp.relative: the build stamp, Hugo's memo,
the export's tree hashes) are exactly `os.path.relpath`'s, for every file a walk yields: relative and absolute
folders, the working folder itself, a file given alone, links, and names with spaces, dots and other scripts. A
different name would make every memory miss once, or two files share one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import ROOT
from wirespeed.pipeline import buildstamp


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    top = tmp_path / "site data"
    (top / "a b" / ".hidden" / "ünïcode 数据").mkdir(parents=True)
    (top / "a b" / ".hidden" / "ünïcode 数据" / "f.json").write_text("{}")
    (top / "a b" / "x..y").write_text("x")
    (top / "..dots").write_text("d")
    (top / "link").symlink_to(top / "..dots")
    (top / "dirlink").symlink_to(top / "a b")
    (tmp_path / "alone.toml").write_text("a = 1\n")
    return tmp_path


def _pairs(top: Path, root: Path) -> list[tuple[str, str]]:
    rel = buildstamp.relative(top, root)
    return [(rel(p), os.path.relpath(p, root)) for p, _ in buildstamp.walk(top)]


def test_names_are_relpaths_names_in_a_tree(tree, monkeypatch):
    monkeypatch.chdir(tree)
    cases = [(Path("site data"), Path(".")), (tree / "site data", tree), (tree / "site data", tree / "site data"),
             (Path("site data") / "a b", Path(".")), (Path("."), Path(".")), (tree / "alone.toml", tree), (Path("alone.toml"), Path(".")),
             (tree / "site data", tree.parent), (Path("site data"), Path("site data") / "a b")]
    for top, root in cases:
        pairs = _pairs(top, root)
        assert pairs, (top, root)
        assert all(ours == theirs for ours, theirs in pairs), [(top, root, o, t) for o, t in pairs if o != t][:3]


def test_names_are_relpaths_names_in_the_repository(monkeypatch):
    monkeypatch.chdir(ROOT)
    for name in ("content", "layouts", "data/results", "static", "config.toml"):
        pairs = _pairs(Path(name), Path("."))
        assert pairs and all(ours == theirs for ours, theirs in pairs), name
