"""The analysis notebooks converted once per source (wirespeed/analysis/sources.py): what planning and each run read
from the kept conversion is what jupytext gives (the header, the code, every cell); a kept conversion is used without
importing jupytext; one that is altered, not JSON, too large or a link is converted again and written over; a
changed source gets a new key and its old conversion goes; a cache that cannot be written changes nothing but time."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from wirespeed.analysis import run, sources

pytestmark = pytest.mark.slow  # importing jupytext runs `pandoc --version`
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.py"))


def _cells(nb: dict) -> list[tuple[str, str, dict]]:
    return [(c["cell_type"], sources.cell_source(c), c.get("metadata", {})) for c in nb["cells"]]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_kept_conversion_is_what_jupytext_gives(path, tmp_path):
    import jupytext

    direct = jupytext.read(path)
    kept = sources.notebook(path, tmp_path)
    again = sources.notebook(path, tmp_path)
    assert kept == again and len(list(tmp_path.glob(f"{path.stem}-*.ipynb"))) == 1
    assert _cells(kept) == [(c.cell_type, c.source, dict(c.metadata)) for c in direct.cells]
    assert kept["metadata"]["wirespeed"] == direct.metadata["wirespeed"]
    meta, code = run.read_notebook(path, tmp_path)
    assert meta == direct.metadata.get("wirespeed", {})
    assert code == "\n".join(c.source for c in direct.cells if c.cell_type == "code")  # the same code: the same cache keys


def test_a_kept_conversion_is_read_without_jupytext(tmp_path, monkeypatch):
    path = ROOT / "notebooks" / "throughput.py"
    first = sources.notebook(path, tmp_path)
    monkeypatch.setitem(sys.modules, "jupytext", None)  # importing it now fails
    assert sources.notebook(path, tmp_path) == first
    with pytest.raises(ImportError):
        sources.notebook(path, None)  # without a cache it converts (the check above is not vacuous)


def _spoil(how: str, entry: Path, other: Path) -> None:
    if how == "altered":
        nb = json.loads(entry.read_text())
        nb["cells"][0]["source"] = "import os; os.system('echo owned')"
        entry.write_text("{" + json.dumps(nb)[1:-1] + ', "cells": 7}')  # a second "cells": not a notebook
    elif how == "not json":
        entry.write_text("{\"cells\": [")
    elif how == "too large":
        entry.write_text(" " * (sources.MAX_BYTES + 1) + "{}")
    elif how == "link":
        entry.unlink()
        entry.symlink_to(other)


@pytest.mark.parametrize("how", ["altered", "not json", "too large", "link"])
def test_a_spoiled_conversion_is_converted_again_and_written_over(how, tmp_path):
    path, other_path = ROOT / "notebooks" / "throughput.py", ROOT / "notebooks" / "load.py"
    good = sources.notebook(path, tmp_path)
    other = tmp_path / "other.ipynb"
    other.write_text(json.dumps(sources.notebook(other_path, None)))  # a notebook, but another one
    entry = next(tmp_path.glob("throughput-*.ipynb"))
    _spoil(how, entry, other)
    assert _cells(sources.notebook(path, tmp_path)) == _cells(good)
    assert not entry.is_symlink() and _cells(json.loads(entry.read_text())) == _cells(good)


def test_a_changed_source_gets_a_new_key_and_its_old_conversion_goes(tmp_path):
    src = tmp_path / "src" / "mine.py"
    src.parent.mkdir()
    text = (ROOT / "notebooks" / "throughput.py").read_text()
    src.write_text(text)
    cache = tmp_path / "cache"
    sources.notebook(src, cache)
    (before,) = cache.glob("mine-*.ipynb")
    src.write_text(text + "\n# %%\nprint('one more cell')\n")
    nb = sources.notebook(src, cache)
    (after,) = cache.glob("mine-*.ipynb")
    assert after != before and sources.cell_source(nb["cells"][-1]) == "print('one more cell')"


def test_a_cache_that_cannot_be_written_changes_nothing_but_time(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    cache = blocker / "cache"  # neither a folder nor one that can be made
    path = ROOT / "notebooks" / "load.py"
    assert _cells(sources.notebook(path, cache)) == _cells(sources.notebook(path, None))
    assert blocker.read_text() == "not a folder"


def test_a_linked_cache_folder_is_neither_read_nor_written(tmp_path):
    path = ROOT / "notebooks" / "load.py"
    real = tmp_path / "real"
    real.mkdir()
    elsewhere = sources.notebook(path, real)
    (entry,) = real.glob("load-*.ipynb")
    nb = json.loads(entry.read_text())
    nb["cells"][0]["source"] = "changed behind the link"
    entry.write_text(json.dumps(nb))
    link = tmp_path / "link"
    link.symlink_to(real)
    got = sources.notebook(path, link)
    assert _cells(got) == _cells(elsewhere)  # converted afresh, not the file behind the link
    assert json.loads(entry.read_text())["cells"][0]["source"] == "changed behind the link"  # nothing written through it


def test_a_notebook_whose_name_begins_with_another_keeps_the_others_conversion(tmp_path):
    """"load" and "load-2" both kept: converting one never removes the other's (each would convert on every build)."""
    src = tmp_path / "src"
    src.mkdir()
    text = (ROOT / "notebooks" / "load.py").read_text()
    (src / "load.py").write_text(text)
    (src / "load-2.py").write_text(text + "\n# %%\nprint(2)\n")
    cache = tmp_path / "cache"
    sources.notebook(src / "load-2.py", cache)
    sources.notebook(src / "load.py", cache)
    assert len(list(cache.glob("load-2-*.ipynb"))) == 1 and len([p for p in cache.glob("load-*.ipynb") if not p.name.startswith("load-2-")]) == 1
