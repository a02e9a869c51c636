"""Atomic writes: a file or a folder appears whole or not at all."""

from __future__ import annotations

import ctypes
import os
import shutil
import tempfile
from pathlib import Path


def write_bytes(path: Path, data: bytes) -> None:
    """Write to a temporary file beside `path`, then rename over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text(path: Path, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))


def temp_dir_beside(target: Path) -> Path:
    """A fresh temporary folder in the same parent, for building `target` before swapping it in."""
    target.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux renameat2 RENAME_EXCHANGE); False where that is not available."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    AT_FDCWD, RENAME_EXCHANGE = -100, 2
    return renameat2(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0


def swap_dir(tmp: Path, target: Path) -> None:
    """Put a fully written folder in place of `target` (the old one is removed after the rename).
    Where the system can exchange two folders atomically, `target` never goes missing in between."""
    if target.is_dir() and not target.is_symlink() and _exchange(tmp, target):
        shutil.rmtree(tmp, ignore_errors=True)  # now the old folder
        return
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{os.getpid()}")
        os.replace(target, old)
    os.replace(tmp, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
