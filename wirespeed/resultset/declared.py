"""The files a result set declares, checked against what its folder holds before any is read.

Every declared path obeys the path rule; every attachment and native file is of an allowed
type; every file is within its size limit (from lstat, before reading); every file present is
declared. Then each declared file is read once, streamed through a hasher, from a descriptor
opened without following links.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from wirespeed.problems import Problem, display_path
from wirespeed.resultset.attachments import content_problem, file_type, native_type, native_type_problem, type_problem
from wirespeed.resultset.paths import TABLE_KINDS
from wirespeed.resultset.setfolder import SetFolder, UnsafeFile, check_size


def declared_files(doc: dict) -> dict[str, tuple[str, str]]:
    """Every declared file path → (role, field)."""
    files = doc["files"]
    out: dict[str, tuple[str, str]] = {}
    for kind in TABLE_KINDS:
        for i, p in enumerate(files.get(kind, [])):
            out[p] = (kind, f"files.{kind}[{i}]")
    for i, n in enumerate(files.get("native", [])):
        out[n["path"]] = ("native", f"files.native[{i}].path")
        if "pair" in n:  # read by the importer with path; checked and published as an attachment
            out[n["pair"]] = ("attachment", f"files.native[{i}].pair")
    for i, a in enumerate(files.get("attachments", [])):
        out[a["path"]] = ("attachment", f"files.attachments[{i}].path")
    return out


def unsafe_problem(folder: Path, exc: UnsafeFile) -> Problem:
    """An UnsafeFile as one problem naming the file (or the folder)."""
    return Problem(display_path(folder / exc.rel) if exc.rel else display_path(folder), None, "", exc.message, exc.rule)


def layout_problems(folder: Path, present: dict[str, os.stat_result], declared: dict[str, tuple[str, str]], file: str) -> list[Problem]:
    """Types, sizes (from lstat), missing and undeclared files: everything known before reading."""
    problems: list[Problem] = []
    for path, (role, field) in declared.items():
        if role in ("native", "attachment"):
            bad = native_type_problem(path, file, field) if role == "native" else type_problem(path, file, field)
            if bad:
                problems.append(bad)
                continue
        st = present.get(path)
        if st is None:
            problems.append(Problem(file, None, field, f"declared file {path!r} does not exist", "layout.missing-file"))
            continue
        ftype = native_type(path) if role == "native" else file_type(path)
        try:
            check_size(path, st.st_size, ftype.size_limit, ftype.what)  # tables end in .csv (schema and path rule)
        except UnsafeFile as exc:
            problems.append(unsafe_problem(folder, exc))
    for extra in sorted(set(present) - set(declared) - {"result.toml"}):
        problems.append(Problem(display_path(folder / extra), None, "", "file is not declared in result.toml [files]", "layout.undeclared-file"))
    return problems


def read_file(setdir: SetFolder, path: str, consume) -> tuple[str | None, list[Problem]]:
    """Open a declared file safely, check its size again (fstat) and stream it.

    consume(stream, hasher) reads the file (a table reader or a content check) and returns
    problems; the rest of the file is hashed after it. Returns (sha256 or None, problems)."""
    full = setdir.path / path
    ftype = file_type(path) or native_type(path)
    try:
        stream, st = setdir.open(path)
    except UnsafeFile as exc:
        return None, [unsafe_problem(setdir.path, exc)]
    with stream:
        try:
            check_size(path, st.st_size, ftype.size_limit, ftype.what)
        except UnsafeFile as exc:
            return None, [unsafe_problem(setdir.path, exc)]
        hasher = hashlib.sha256()
        bounded = _Bounded(stream, st.st_size)
        problems = consume(bounded, hasher, display_path(full), ftype)
        while chunk := bounded.read(1 << 16):
            hasher.update(chunk)
    return hasher.hexdigest(), problems


class _Bounded:
    """A binary stream that ends at the size fstat gave, so a file growing while it is read stays bounded."""

    def __init__(self, stream, size: int):
        self.stream, self.left = stream, size

    def read(self, n: int = -1) -> bytes:
        n = self.left if n < 0 else min(n, self.left)
        data = self.stream.read(n) if n > 0 else b""
        self.left -= len(data)
        return data

    def readline(self, n: int = -1) -> bytes:
        n = self.left if n < 0 else min(n, self.left)
        data = self.stream.readline(n) if n > 0 else b""
        self.left -= len(data)
        return data


def check_content(stream, hasher, file: str, ftype) -> list[Problem]:
    """The consume step of an attachment: its content must be what its extension says."""
    bad = content_problem(stream, ftype, file, hasher)
    return [bad] if bad else []
