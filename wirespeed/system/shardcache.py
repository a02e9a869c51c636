"""A cache folder sharded by the first two hex digits of its keys (<cache>/<key[:2]>/<entry>), which never decides an
output: an entry is read only as a bounded regular file (never through a link), and pruned to the entries still
named. The charts' drawings (analysis/drawings.py: a folder per chart) and the reports' chart PDFs
(report/chart_pdf.py: a file per drawing) are kept this way."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

from wirespeed.system import regularfile

SHARD = re.compile(r"[0-9a-f]{2}")


def read(path: Path, max_bytes: int) -> bytes | None:
    """A kept file's bytes, never through a link and never more than `max_bytes`; None otherwise (it is drawn afresh)."""
    try:
        return regularfile.read(path, max_bytes)
    except OSError:
        return None


def prune(cache: Path, kept: Callable[[Path], bool]) -> int:
    """Remove under `cache` each entry of a shard that `kept` refuses, that is a link or that is not in its key's shard,
    and anything beside the shards; returns how many entries were removed. Links are removed, never followed."""
    removed = 0
    try:
        if cache.is_symlink() or not cache.is_dir():
            return 0
        for shard in list(cache.iterdir()):
            if shard.is_symlink() or not shard.is_dir() or not SHARD.fullmatch(shard.name):
                remove(shard)
                continue
            for entry in list(shard.iterdir()):
                if not entry.is_symlink() and entry.name.startswith(shard.name) and kept(entry):
                    continue
                remove(entry)
                removed += 1
            if not any(shard.iterdir()):
                shard.rmdir()
    except OSError:  # a cache that cannot be read or cleared whole is left as it is: it decides no output
        pass
    return removed


def remove(path: Path) -> None:
    """Remove a file, a link (not what it points to) or a folder; what cannot be removed stays."""
    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
    except OSError:
        pass
