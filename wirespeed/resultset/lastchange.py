"""A result set's own date: when its data last changed, the date a report built from it carries.

In a git checkout it is the commit time of the newest commit that touched the set's folder (a commit
anywhere else changes no set's date, so it rebuilds no report); when the folder has uncommitted changes,
or is not in a git checkout at all (a tarball, a scratch copy), it is the newest modification time of the
set's own files (symbolic links are not followed). The clock is never read: two builds of the same
files give the same date.
"""

from __future__ import annotations

import datetime as _dt
import os
import subprocess
from pathlib import Path

GIT_TIMEOUT_S = 30


def last_change(path: Path) -> int | None:
    """Seconds since 1970 (UTC) of the last change of a set's folder (or of one file); None when it has no file."""
    return _git_time(path) or _newest_mtime(path)


def iso(epoch: int | None) -> str | None:
    """'2026-11-23T09:14:02Z' for an epoch, None for None."""
    if epoch is None:
        return None
    return _dt.datetime.fromtimestamp(epoch, _dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _git(path: Path, *args: str) -> str | None:
    cwd = path if path.is_dir() else path.parent
    try:
        proc = subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, text=True, timeout=GIT_TIMEOUT_S,
                              env={**os.environ, "TZ": "UTC", "GIT_OPTIONAL_LOCKS": "0"})
    except (OSError, subprocess.SubprocessError):
        return None
    return proc.stdout if proc.returncode == 0 else None


def _git_time(path: Path) -> int | None:
    """The commit time of the newest commit touching `path`, when it is committed as it is (no local change)."""
    target = path.name if path.is_file() else "."
    status = _git(path, "status", "--porcelain", "--untracked-files=all", "--", target)
    if status is None or status.strip():
        return None  # not a checkout, or changed since the last commit: its files say when
    out = _git(path, "log", "-1", "--format=%ct", "--", target)
    out = (out or "").strip()
    return int(out) if out.isdigit() else None


def _newest_mtime(path: Path) -> int | None:
    """The newest modification time of the regular files at or under `path` (links not followed)."""
    if path.is_symlink():
        return None
    if path.is_file():
        return int(path.lstat().st_mtime)
    times = [int(p.lstat().st_mtime) for p in path.rglob("*") if not p.is_symlink() and p.is_file()] if path.is_dir() else []
    return max(times) if times else None
