"""The one writer of result sets: result.toml (through tomlkit, comments kept) and the set's files.

A set is written whole or not at all: the new folder is built beside the target (a copy of the
existing set, if any, with the changes applied) and swapped in with one rename
(wirespeed.system.atomic.swap_dir). An existing set is copied without following links; a set holding
anything but plain files and folders is refused rather than rewritten.
"""

from __future__ import annotations

import os
import shutil
import stat
import tomllib
from pathlib import Path, PurePosixPath
from typing import Any

import tomlkit
from tomlkit.toml_document import TOMLDocument

from wirespeed.system import atomic
RESULT_FILE = "result.toml"


class WriteError(Exception):
    """The result set cannot be written; nothing was changed."""


def read_document(folder: Path) -> TOMLDocument | None:
    """The set's result.toml as an editable document (comments and layout kept), or None if absent."""
    path = folder / RESULT_FILE
    if not path.exists():
        return None
    if path.is_symlink() or not path.is_file():
        raise WriteError(f"{path}: not a plain file; refusing to update it")
    try:
        return tomlkit.parse(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, tomlkit.exceptions.ParseError) as exc:
        raise WriteError(f"{path}: cannot be updated, it is not valid TOML: {exc}") from None


def dumps(doc: TOMLDocument | dict[str, Any] | str) -> str:
    """TOML text of a document (a str is taken as TOML already); checked to parse back."""
    text = doc if isinstance(doc, str) else tomlkit.dumps(doc)
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:  # a bug in the caller, never written out
        raise WriteError(f"refusing to write invalid TOML: {exc}") from None
    return text


def _safe_rel(rel: str) -> PurePosixPath:
    p = PurePosixPath(rel)
    if p.is_absolute() or not p.parts or any(part in ("", ".", "..") for part in p.parts) or rel == RESULT_FILE:
        raise WriteError(f"{rel!r}: not a file name inside the result set")
    return p


def _copy_tree(src: Path, dst: Path) -> None:
    """Copy plain files and folders of src into dst without following links; refuse anything else."""
    for dirpath, dirnames, filenames in os.walk(src, followlinks=False):
        here = Path(dirpath)
        rel = here.relative_to(src)
        for name in dirnames:
            if (here / name).is_symlink():
                raise WriteError(f"{here / name}: a symbolic link in the result set; refusing to update it")
            (dst / rel / name).mkdir()
        for name in filenames:
            st = os.lstat(here / name)
            if not stat.S_ISREG(st.st_mode):
                raise WriteError(f"{here / name}: not a plain file; refusing to update the result set")
            shutil.copyfile(here / name, dst / rel / name, follow_symlinks=False)


def write_set(folder: Path, doc: TOMLDocument | dict[str, Any] | str, files: dict[str, bytes] | None = None) -> Path:
    """Create or update the result set in `folder`: result.toml from `doc`, plus `files` (path in the
    set → bytes; existing files of the same path are replaced). Atomic: on any error the folder is
    as it was (or absent), and the temporary copy is removed."""
    text = dumps(doc)
    files = {str(_safe_rel(rel)): data for rel, data in (files or {}).items()}
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise WriteError(f"{folder}: not a folder; refusing to write a result set there")
    tmp = atomic.temp_dir_beside(folder)
    try:
        if folder.exists():
            _copy_tree(folder, tmp)
        for rel, data in files.items():
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp / rel).write_bytes(data)
        (tmp / RESULT_FILE).write_text(text, encoding="utf-8")
        os.chmod(tmp, 0o755)
        atomic.swap_dir(tmp, folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return folder
