"""The analysis notebooks' sources (jupytext percent `.py` files) as Jupyter notebooks, converted once per source
and kept in build/cache/notebooks/<name>-<key>.ipynb, the key hashing the source's bytes and jupytext's version.
Planning reads a notebook's `wirespeed:` header and its code from the kept conversion, and each run starts from
it, so a build whose notebooks did not change neither imports jupytext (0.7 s) nor converts them again (60 ms a
notebook). A kept file that is not a plain, bounded file holding a notebook is converted again and written over;
a cache that cannot be written changes nothing but time."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from wirespeed.system import atomic, regularfile
from wirespeed.system.codehash import package_versions

KEPT = re.compile(r"[0-9a-f]{32}\.ipynb")  # after "<name>-": a kept conversion's key
MAX_BYTES = 8 * 1024 * 1024  # a converted notebook (its source is a few dozen kilobytes)


def key(path: Path, text: bytes) -> str:
    """The conversion's key: the source's bytes and the converter's version."""
    h = hashlib.sha256(text)
    h.update(json.dumps(package_versions("jupytext"), sort_keys=True).encode())
    return f"{path.stem}-{h.hexdigest()[:32]}"


def _kept(file: Path) -> dict[str, Any] | None:
    try:
        nb = json.loads(regularfile.read(file, MAX_BYTES))
    except (OSError, ValueError):
        return None
    ok = isinstance(nb, dict) and isinstance(nb.get("metadata"), dict) and isinstance(nb.get("cells"), list) \
        and all(isinstance(c, dict) and isinstance(c.get("cell_type"), str) and isinstance(c.get("source"), (str, list)) for c in nb["cells"])
    return nb if ok else None


def notebook(path: Path, cache: Path | None) -> dict[str, Any]:
    """The notebook `path` converts to (nbformat 4 JSON, as a dict, each cell's source one string as jupytext and
    papermill give it): kept in `cache` when given."""
    text = path.read_bytes()
    file = cache / f"{key(path, text)}.ipynb" if cache is not None else None
    if file is not None and not cache.is_symlink():
        kept = _kept(file)
        if kept is not None:
            return _joined(kept)
    import jupytext
    import nbformat

    # the format its header names, as jupytext.read(path) takes it
    converted = nbformat.writes(jupytext.reads(text.decode("utf-8"), fmt="py"))
    if file is not None:
        try:
            if not cache.is_symlink():
                for old in cache.glob(f"{path.stem}-*.ipynb"):  # the conversions of earlier sources of this notebook
                    if KEPT.fullmatch(old.name.removeprefix(f"{path.stem}-")):  # (not those of another, "load-2" beside "load")
                        old.unlink()
                atomic.write_text(file, converted)
        except OSError:
            pass
    return _joined(json.loads(converted))


def cell_source(cell: dict[str, Any]) -> str:
    """A cell's source as one string (nbformat writes it as a list of lines)."""
    src = cell["source"]
    return "".join(src) if isinstance(src, list) else src


def _joined(nb: dict[str, Any]) -> dict[str, Any]:
    for cell in nb["cells"]:
        cell["source"] = cell_source(cell)
    return nb


def header_and_code(nb: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """A notebook's `wirespeed:` header block (applies_when: SQL with one ? for the slug) and its code cells, joined."""
    return nb["metadata"].get("wirespeed", {}), "\n".join(c["source"] for c in nb["cells"] if c["cell_type"] == "code")
