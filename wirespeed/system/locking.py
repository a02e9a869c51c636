"""One machine-wide lock for work that owns shared system state (network namespaces, veth pairs).

Both namespace collectors take the same lock, so a ramp and a search can never build their topologies at the
same time; a second collection is refused at once with one line, never queued.
"""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from pathlib import Path

NETNS_LOCK = Path("/run/wirespeed-netns.lock")


class Busy(Exception):
    """Another process holds the lock."""

    def __init__(self, path: Path):
        super().__init__(f"another netns collection is running (it holds {path})")
        self.path = path


def busy(path: Path = NETNS_LOCK) -> bool:
    """Whether another process holds the lock now (a probe: takes and drops it)."""
    try:
        with exclusive(path):
            return False
    except Busy:
        return True


@contextlib.contextmanager
def exclusive(path: Path = NETNS_LOCK) -> Iterator[None]:
    """Hold an exclusive lock on `path` for the block; raise Busy at once when another process holds it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise Busy(path) from None
        yield
