"""Reading a file that must be a plain file: opened without following a link at its last component, checked to be
a regular file (not a link, a folder, a FIFO or a device) on the descriptor it was opened as, and bounded in size."""

from __future__ import annotations

import os
import stat
from pathlib import Path


def read(path: Path, max_bytes: int | None = None) -> bytes:
    """The bytes of the regular file at `path`; OSError when it is a link, not a regular file, larger than `max_bytes`
    (when given) or unreadable."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError("not a regular file")
        if max_bytes is not None and info.st_size > max_bytes:
            raise OSError(f"larger than {max_bytes} bytes")
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read() if max_bytes is None else f.read(max_bytes + 1)
        if max_bytes is not None and len(data) > max_bytes:  # it grew after fstat
            raise OSError(f"larger than {max_bytes} bytes")
        return data
    finally:
        os.close(fd)
