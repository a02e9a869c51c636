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


def last_changes(folders: list[Path]) -> dict[Path, int | None]:
    """last_change of many set folders, asking git twice per folder that holds them (its status and one walk of its
    history, newest first, stopped once every set is found) instead of twice per set: what an archive of thousands
    of sets needs. A set with local changes, outside git or never committed takes its files' time, as in last_change."""
    out: dict[Path, int | None] = {}
    groups: dict[Path, list[Path]] = {}
    for folder in folders:
        groups.setdefault(folder.parent, []).append(folder)
    for parent, members in groups.items():
        times = _git_times(parent, {m.name for m in members})
        for m in members:
            out[m] = times.get(m.name) or _newest_mtime(m)
    return out


def _git_times(parent: Path, names: set[str]) -> dict[str, int]:
    """{folder name under parent: commit time of the newest commit touching it} for the named folders that are
    committed as they are; empty when parent is not in a git checkout."""
    top = (_git(parent, "rev-parse", "--show-toplevel") or "").strip()
    if not top or not parent.is_dir():
        return {}
    try:
        rel = parent.resolve().relative_to(Path(top).resolve()).as_posix()
    except ValueError:
        return {}
    prefix = "" if rel == "." else rel + "/"
    spec = f":(literal){rel}"

    def name_of(path: str) -> str | None:
        path = path.strip().strip('"')  # a name git quotes starts with a quote: the folder's name is after the prefix
        return path[len(prefix):].split("/", 1)[0] if path.startswith(prefix) else None

    status = _git(Path(top), "status", "--porcelain=v1", "-z", "--untracked-files=all", "--", spec)
    if status is None:
        return {}
    changed, fields = set(), status.split("\0")
    i = 0
    while i < len(fields):
        entry = fields[i]
        if len(entry) > 3:
            changed.add(name_of(entry[3:]))
            if entry[0] in "RC":  # a rename or copy: the next field is where it came from
                i += 1
                changed.add(name_of(fields[i]) if i < len(fields) else None)
        i += 1
    wanted = names - changed
    found: dict[str, int] = {}
    if not wanted:
        return found
    cmd = ["git", "-C", top, "-c", "core.quotePath=false", "log", "--cc", "--name-only", "--format=%x01%ct", "--", spec]
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, errors="replace",
                                env={**os.environ, "TZ": "UTC", "GIT_OPTIONAL_LOCKS": "0"})
    except OSError:
        return {}
    when = None
    try:
        for line in proc.stdout:  # type: ignore[union-attr]
            if line.startswith("\x01"):
                text = line[1:].strip()
                when = int(text) if text.isdigit() else None
            elif when is not None and (name := name_of(line)) in wanted and name not in found:
                found[name] = when
                if len(found) == len(wanted):
                    break
    finally:
        proc.kill()
        proc.wait()
    return found


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
