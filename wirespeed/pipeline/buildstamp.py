"""The whole build's stamp: one content hash of everything `wirespeed build` reads, so that a build
with nothing changed answers at once instead of asking every step (each step's own manifests still
decide what reruns when something did change).

What the build reads: the result sets, the site's sources (config.toml and its mounts), the notebooks,
the report templates, the package's own code, the installed tools, the base URL, and the git commit
(a report is dated by its set's last commit). Files are hashed by content; a file whose size,
modification time and inode are those of the last build keeps its hash (as git's index does), so the
check costs one `lstat` per file however large the archive. Symbolic links are hashed as their target's
name, never followed. The stamp lives in build/build-stamp.json and is written only after a build in
which no step failed as a whole, with the sets that build left out, so a no-op can say them again.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from wirespeed.pipeline import paths

STAMP = paths.BUILD / "build-stamp.json"
FORMAT = 1
# The folders and files of the working folder a build reads (config.toml's mounts, the notebooks, the
# report templates, the contributor pages the site mounts) and the Node packages' lock (the bundled scripts).
SOURCES = ("config.toml", "content", "layouts", "assets", "static", "data", "docs", "CONTRIBUTING.md",
           "notebooks", "reports", "package-lock.json", "pyproject.toml")
SKIP_DIRS = {"__pycache__", ".ipynb_checkpoints", ".git"}


@dataclass
class Stamp:
    key: str
    files: dict[str, list] = field(default_factory=dict)  # path -> [size, mtime_ns, inode, sha256]


def walk(top: Path):
    """Every file and link under `top` (or `top` itself), without following links, in a stable order."""
    try:
        st = os.lstat(top)
    except FileNotFoundError:
        return
    if not stat.S_ISDIR(st.st_mode):
        yield top.as_posix(), st
        return
    for dirpath, dirnames, filenames in os.walk(top, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for name in sorted(filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]):
            p = os.path.join(dirpath, name)
            try:
                yield p, os.lstat(p)
            except FileNotFoundError:
                continue


def relative(top: Path, root: Path) -> Callable[[str], str]:
    """A function giving `os.path.relpath(p, root)` for each path `p` that walk(top) yields, the same string at a tenth
    of the time: relpath makes both paths absolute for every file (a third of a second for the 6,800 files Hugo reads)."""
    prefix = os.fspath(top)
    base = os.path.relpath(top, root)
    back = os.path.relpath(root, top)
    fast = back == os.curdir or back == os.pardir or back.startswith(os.pardir + os.sep)  # not with `root` inside `top`

    def rel(p: str) -> str:
        if fast and p.startswith(prefix) and p[len(prefix):len(prefix) + 1] == os.sep:
            rest = p[len(prefix) + 1:]
            return rest if base == os.curdir else base + os.sep + rest
        return base if p == prefix else os.path.relpath(p, root)

    return rel


def content_hash(path: str, st: os.stat_result) -> str:
    """The sha256 of a file's bytes; a link's target name (never followed)."""
    if stat.S_ISLNK(st.st_mode):
        return "link:" + os.readlink(path)
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def signed(path: str, st: os.stat_result, seen: object) -> list:
    """A file's [size, mtime_ns, inode, sha256]: the hash in `seen` (its last such list) when the first three are
    unchanged, as git's index does, else the file read again."""
    sig = [st.st_size, st.st_mtime_ns, st.st_ino]
    if isinstance(seen, list) and len(seen) == 4 and seen[:3] == sig:
        return sig + [seen[3]]
    return sig + [content_hash(path, st)]


def _tools() -> dict[str, list]:
    """Each tool the build runs: its path, size and modification time (a new version is a new file)."""
    found: dict[str, list] = {"python": [sys.executable]}
    try:
        from wirespeed.system.hugo import binary

        found["hugo"] = [str(binary())]
    except Exception:  # noqa: BLE001 - a missing tool is its step's error, not the stamp's
        found["hugo"] = [None]
    for name in ("pandoc", "xelatex", "dot"):
        found[name] = [shutil.which(name)]
    try:
        import pypandoc  # the pandoc the reports run when no system one is installed

        found["pypandoc"] = [pypandoc.get_pandoc_path()]
    except Exception:  # noqa: BLE001
        found["pypandoc"] = [None]
    for name, entry in found.items():
        if entry[0]:
            try:
                st = os.stat(entry[0])
                entry += [st.st_size, st.st_mtime_ns]
            except OSError:
                pass
    return found


def _commit(root: Path) -> str | None:
    try:
        proc = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() if proc.returncode == 0 else None


def compute(root: Path, base_url: str | None, previous: Stamp | None = None) -> Stamp:
    """The stamp of the working folder `root` now; hashes reused from `previous` where a file's stat is unchanged."""
    import wirespeed

    known = previous.files if previous else {}
    files: dict[str, list] = {}
    package = Path(wirespeed.__file__).parent
    tops = [(root / name, name) for name in SOURCES] + [(package, "<wirespeed>")]
    for top, label in tops:
        relpath = relative(top, root)
        for p, st in walk(top):
            rel = label + p[len(str(top)):] if label == "<wirespeed>" else relpath(p)
            if label == "<wirespeed>" and not p.endswith((".py", ".json", ".toml", ".latex", ".lua", ".css", ".tex", ".yaml")):
                continue
            files[rel] = signed(p, st, known.get(rel))
    whole = {"format": FORMAT, "files": {k: v[3] for k, v in files.items()}, "tools": _tools(), "commit": _commit(root),
             "base_url": base_url if base_url is not None else os.environ.get("HUGO_BASEURL")}
    return Stamp(hashlib.sha256(json.dumps(whole, sort_keys=True).encode()).hexdigest(), files)


def public_mark(root: Path) -> list | None:
    """The built site as a build left it (its front page's inode and time): a site removed or rebuilt by
    another command since is no longer that build's. Taken after the build; the key, before it (an edit
    made while the build ran is then seen by the next one)."""
    try:
        st = os.stat(root / "public" / "index.html")
    except OSError:
        return None
    return [st.st_ino, st.st_mtime_ns]


def load(root: Path) -> tuple[Stamp | None, dict]:
    """The last build's stamp and its record ({"public": public_mark, "recorded": what it reported}), or (None, {})."""
    try:
        data = json.loads((root / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None, {}
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None, {}
    return Stamp(str(data.get("key")), dict(data.get("files") or {})), data


def save(root: Path, stamp: Stamp, recorded: dict) -> None:
    from wirespeed.system import atomic

    atomic.write_text(root / STAMP, json.dumps({"format": FORMAT, "key": stamp.key, "public": public_mark(root), "recorded": recorded,
                                                "files": stamp.files}, sort_keys=True) + "\n")


def up_to_date(root: Path, base_url: str | None) -> tuple[bool, Stamp, dict, set[str] | None]:
    """(nothing changed since the last complete build, the stamp now, the last build's record, the files changed since
    it: `changed`)."""
    previous, record = load(root)
    now = compute(root, base_url, previous)
    same = previous is not None and previous.key == now.key and record.get("public") is not None and record.get("public") == public_mark(root)
    return same, now, record.get("recorded") or {}, changed(previous, now)


def changed(previous: Stamp | None, now: Stamp) -> set[str] | None:
    """The files added, removed or edited since `previous` (paths as the stamp keeps them: the package's own as
    "<wirespeed>/…"); None when there is no previous stamp."""
    if previous is None:
        return None
    before = {k: v[3] for k, v in previous.files.items() if isinstance(v, list) and len(v) == 4}
    after = {k: v[3] for k, v in now.files.items()}
    return {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}


def clear(root: Path) -> None:
    (root / STAMP).unlink(missing_ok=True)
