"""A result set folder read without following anything: no symlinks, no special files, no escape.

The folder is opened once with O_NOFOLLOW; every file inside it is opened relative to that
descriptor, one path segment at a time with O_NOFOLLOW, and checked with fstat to be a regular
file, so what is read is what was checked (no window between the check and the read). Walking
uses scandir on the same descriptors and lstat-like entries, never following a link.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

from wirespeed.resultset.limits import describe, human, value

_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


class UnsafeFile(Exception):
    """A file or folder of a result set that must not be read; rel is its path inside the set ('' for the set)."""

    def __init__(self, rel: str, message: str, rule: str):
        super().__init__(message)
        self.rel, self.message, self.rule = rel, message, rule


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a folder")):
        if test(mode):
            return name
    return "not a regular file"


def _refusal(rel: str, mode: int) -> UnsafeFile:
    if stat.S_ISLNK(mode):
        return UnsafeFile(rel, "symbolic link: refused, never followed (a result set holds plain files only)", "layout.symlink")
    return UnsafeFile(rel, f"{_kind(mode)}: only regular files and folders are allowed in a result set", "layout.file-type")


def _hard_link(rel: str, st: os.stat_result) -> UnsafeFile:
    return UnsafeFile(rel, f"hard link ({st.st_nlink} names for one file): a result set holds plain files only", "layout.file-type")


class SetFolder:
    """One result set folder, opened with O_NOFOLLOW. Use as a context manager."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        try:
            st = os.lstat(self.path)
        except OSError as exc:
            raise UnsafeFile("", f"not a folder ({exc.strerror})", "layout.folder") from None
        if not stat.S_ISDIR(st.st_mode):
            raise _refusal("", st.st_mode) if stat.S_ISLNK(st.st_mode) else UnsafeFile("", "not a folder", "layout.folder")
        try:
            self.fd = os.open(self.path, _DIR)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                raise UnsafeFile("", "symbolic link or not a folder: refused, never followed", "layout.symlink") from None
            raise UnsafeFile("", f"cannot open the folder ({exc.strerror})", "layout.folder") from None

    def __enter__(self) -> SetFolder:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def walk(self) -> tuple[dict[str, os.stat_result], list[UnsafeFile]]:
        """Every regular file of the set (relative POSIX path → lstat) and what was refused on the way.

        Symlinks and special files are refused wherever they are; folders deeper than the path
        limit are not entered; the walk stops after the file-count limit."""
        files: dict[str, os.stat_result] = {}
        refused: list[UnsafeFile] = []
        entries, total = 0, 0
        stack: list[tuple[int, str, int]] = [(os.dup(self.fd), "", 1)]
        try:
            while stack:
                fd, prefix, depth = stack.pop()
                try:
                    try:
                        with os.scandir(fd) as it:
                            items = sorted(it, key=lambda e: e.name)
                    except OSError as exc:
                        refused.append(UnsafeFile(prefix.rstrip("/"), f"folder cannot be read ({exc.strerror})", "layout.file-type"))
                        continue
                    for entry in items:
                        rel = prefix + entry.name
                        entries += 1
                        if entries > value("set_files"):
                            refused.append(UnsafeFile("", f"more than {describe('set_files')} in the result set", "limit.files"))
                            return files, refused
                        st = entry.stat(follow_symlinks=False)
                        if stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
                            refused.append(_hard_link(rel, st))
                        elif stat.S_ISREG(st.st_mode):
                            files[rel] = st
                            total += st.st_size
                        elif stat.S_ISDIR(st.st_mode):
                            if depth >= value("path_segments"):
                                refused.append(UnsafeFile(rel, f"folder deeper than the limit of {describe('path_segments')} (not entered)", "limit.path-depth"))
                                continue
                            try:
                                sub = os.open(entry.name, _DIR, dir_fd=fd)
                            except OSError as exc:
                                refused.append(UnsafeFile(rel, f"cannot open the folder ({exc.strerror}): refused", "layout.file-type"))
                                continue
                            stack.append((sub, rel + "/", depth + 1))
                        else:
                            refused.append(_refusal(rel, st.st_mode))
                finally:
                    os.close(fd)
        finally:
            for fd, _p, _d in stack:
                os.close(fd)
        if total > value("set_size"):
            refused.append(UnsafeFile("", f"the files add up to {human(total)}, above the limit of {describe('set_size')} for one result set", "limit.set-size"))
        return files, refused

    def open(self, rel: str) -> tuple[BinaryIO, os.stat_result]:
        """Open a regular file of the set for reading, segment by segment without following links."""
        parts = rel.split("/")
        fd = os.dup(self.fd)
        try:
            for i, name in enumerate(parts[:-1]):
                try:
                    nxt = os.open(name, _DIR, dir_fd=fd)
                except OSError as exc:
                    raise self._error("/".join(parts[: i + 1]), exc, folder=True) from None
                os.close(fd)
                fd = nxt
            try:
                ffd = os.open(parts[-1], _FILE, dir_fd=fd)
            except OSError as exc:
                raise self._error(rel, exc, folder=False) from None
        finally:
            os.close(fd)
        st = os.fstat(ffd)
        if not stat.S_ISREG(st.st_mode):
            os.close(ffd)
            raise _refusal(rel, st.st_mode)
        if st.st_nlink > 1:
            os.close(ffd)
            raise _hard_link(rel, st)
        os.set_blocking(ffd, True)
        return os.fdopen(ffd, "rb"), st

    def read(self, rel: str, size_key: str, what: str) -> tuple[bytes, os.stat_result]:
        """The bytes of a small file (result.toml, a native file), refused above its size limit before reading."""
        f, st = self.open(rel)
        with f:
            check_size(rel, st.st_size, size_key, what)
            data = f.read(value(size_key) + 1)
        check_size(rel, len(data), size_key, what)
        return data, st

    def _error(self, rel: str, exc: OSError, folder: bool) -> UnsafeFile:
        if exc.errno == errno.ELOOP or (folder and exc.errno == errno.ENOTDIR and self._is_link(rel)):
            return UnsafeFile(rel, "symbolic link: refused, never followed (a result set holds plain files only)", "layout.symlink")
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            return UnsafeFile(rel, "does not exist", "layout.missing-file")
        if exc.errno == errno.ENXIO:
            return UnsafeFile(rel, "a socket or device: only regular files and folders are allowed in a result set", "layout.file-type")
        return UnsafeFile(rel, f"cannot be read ({exc.strerror})", "layout.file-type")

    def _is_link(self, rel: str) -> bool:
        try:
            return stat.S_ISLNK(os.lstat(self.path / rel).st_mode)
        except OSError:
            return False


def check_size(rel: str, size: int, size_key: str, what: str) -> None:
    """Raise UnsafeFile when a file is larger than its limit."""
    if size > value(size_key):
        raise UnsafeFile(rel, f"{human(size)} is above the limit of {describe(size_key)} for {what}", "limit.file-size")
