"""A precompiled LaTeX format of the packages a report loads, so that each XeLaTeX run starts with them loaded.

The template loads every package first (reports/template/parts/packages.latex), then writes the mark
`\\csname endofdump\\endcsname`. The lines above the mark (the document class and the packages, never a font nor a
value from a set) are the report's *head*. mylatexformat (TeX Live) dumps a head into a format once; XeLaTeX
started on that format skips the document's own head up to the mark, and goes on from there. Loading the packages
is about 40 % of a short report's run (0.55 s → 0.34 s here), and a report takes two or three runs from nothing.

Formats are kept in <build>/cache/latex-format/<key>.fmt, the key being a hash of the head, of XeLaTeX's version and
of the base format and mylatexformat files it was dumped from (a TeX Live upgrade makes new keys); beside it,
<key>.files lists every file the dump read with its size and time, and a format whose files changed is dumped again.
Every report of one template shares one. A format that cannot be dumped, or a document that fails on its format, is typeset
without it (latex.xelatex), so the format only ever saves time; the two ways give the same pages.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Callable

from wirespeed.system import atomic, shardcache

MARK = "\\csname endofdump\\endcsname"
FORMAT = 1  # bump when the way a format is dumped changes
NAME = "wirespeed-report"  # the format's name where XeLaTeX runs: <workdir>/wirespeed-report.fmt
KEPT = 4  # formats kept in the cache, the most recently used first (about 9 MB each)
MAX_HEAD_BYTES = 64 * 1024  # a head longer than this is not a package list: no format
MAX_FILES_BYTES = 1024 * 1024  # a format's list of the files it was dumped from (a few kilobytes)
# mylatexformat loads every family's fonts before it dumps, to save loading them in each run; XeTeX cannot dump an
# OpenType font, and ours are loaded after the mark anyway (fonts.latex), so that preloading is turned off.
PRELUDE = "\\makeatletter\\let\\MYLATEX@fontpreloading\\relax\\makeatother\n"
NATIVE_FONT_ERROR = "Can't \\dump a format with native fonts or font-mappings."


def head(tex: Path) -> str | None:
    """The lines of `tex` above the mark (the document class and its packages), or None if it has no mark."""
    try:
        with tex.open(encoding="utf-8") as f:
            text = f.read(MAX_HEAD_BYTES + len(MARK) + 1)
    except (OSError, UnicodeDecodeError):
        return None
    at = text.find("\n" + MARK + "\n")
    return text[:at + 1] if 0 < at <= MAX_HEAD_BYTES else None


@lru_cache(maxsize=1)
def _installation() -> tuple[str, bool]:
    """(the stamp of XeLaTeX's version and of the base format and mylatexformat files a format is dumped from (path,
    size, time), whether mylatexformat is installed): one probe a process."""
    parts, found = [str(FORMAT)], {}
    try:
        parts.append(subprocess.run(["xelatex", "--version"], capture_output=True, text=True, timeout=30).stdout.split("\n", 1)[0])
        for name in ("xelatex.fmt", "mylatexformat.ltx"):
            path = subprocess.run(["kpsewhich", "-engine=xetex", name], capture_output=True, text=True, timeout=30).stdout.strip()
            found[name] = os.stat(path) if path else None
            parts.append(f"{path}:{found[name].st_size}:{found[name].st_mtime_ns}" if found[name] else f"{name}:missing")
    except (OSError, subprocess.SubprocessError):  # no XeLaTeX or no kpsewhich: no format
        parts.append("unknown")
    return "\n".join(parts), found.get("mylatexformat.ltx") is not None


def engine_stamp() -> str:
    """XeLaTeX's version and the base format and mylatexformat files a format is dumped from (the installation's part of a key)."""
    return _installation()[0]


def key(text: str) -> str:
    return hashlib.sha256((engine_stamp() + "\0" + text).encode("utf-8")).hexdigest()[:32]


def ensure(text: str, cache: Path, run: Callable[[list[str], Path], subprocess.CompletedProcess | None]) -> Path | None:
    """The format of the head `text`, dumped now if the cache has none; None if it cannot be (the report is then
    typeset without one). `run(cmd, cwd)`: runs XeLaTeX under the report's deadline (None if it ran out).
    Two workers dumping the same format at once both write it whole; the last one stays."""
    fmt = cache / f"{key(text)}.fmt"
    if fmt.is_file() and not fmt.is_symlink() and _unchanged(fmt.with_suffix(".files")):
        try:
            os.utime(fmt)  # recently used: kept by prune
        except OSError:
            pass
        return fmt
    if not _installation()[1]:
        return None
    with tempfile.TemporaryDirectory(prefix="wirespeed-format-") as tmp:
        work = Path(tmp)
        (work / "head.tex").write_text(PRELUDE + text + MARK + "\n\\begin{document}\\end{document}\n", encoding="utf-8")
        cmd = ["xelatex", "-ini", "-recorder", "-no-shell-escape", "-interaction=nonstopmode", f"-jobname={NAME}", "&xelatex",
               "mylatexformat.ltx", "head.tex"]
        proc = run(cmd, work)
        dumped, log, fls = work / f"{NAME}.fmt", work / f"{NAME}.log", work / f"{NAME}.fls"
        if proc is None or not dumped.is_file() or not log.is_file() or not dumped_whole(log.read_text(encoding="utf-8", errors="replace")):
            return None
        try:
            cache.mkdir(parents=True, exist_ok=True)
            atomic.write_text(fmt.with_suffix(".files"), _stamps(fls))  # what it read: first, so a format is never without it
            atomic.write_bytes(fmt, dumped.read_bytes())
        except OSError:
            return None
    prune(cache)
    return fmt


def _stamps(fls: Path) -> str:
    """Each file the dump read from the TeX installation (XeTeX's -recorder list: the packages, classes, their
    configuration), with its size and time: 'path<TAB>size<TAB>mtime_ns' lines."""
    lines = fls.read_text(encoding="utf-8", errors="replace").splitlines() if fls.is_file() else []
    read = sorted({ln[6:] for ln in lines if ln.startswith("INPUT /")})
    out = []
    for path in read:
        try:
            st = os.stat(path)
        except OSError:
            continue
        out.append(f"{path}\t{st.st_size}\t{st.st_mtime_ns}\n")
    return "".join(out)


def _unchanged(files: Path) -> bool:
    """Whether every file a format was dumped from is as it was (a package updated alone, e.g. by tlmgr, leaves
    xelatex.fmt as it was: the format is then dumped again)."""
    try:
        if files.is_symlink() or files.stat().st_size > MAX_FILES_BYTES:
            return False
        for line in files.read_text(encoding="utf-8").splitlines():
            path, size, mtime = line.split("\t")
            st = os.stat(path)
            if (st.st_size, st.st_mtime_ns) != (int(size), int(mtime)):
                return False
        return True
    except (OSError, ValueError):
        return False


def dumped_whole(log: str) -> bool:
    """Whether the dump's log shows a format that works: no error but XeTeX's refusal to dump a native font of the
    kernel's default roman (TU/lmr: the class loads it to size its lengths; the dump goes on without it, and a report
    never selects it, since fonts.latex replaces all three families after the mark)."""
    if "Beginning to dump on file" not in log:
        return False
    errors = [line for line in log.splitlines() if line.startswith("! ")]
    native = re.findall(r"^\\font\\(\S+?)=\[", log, re.M)
    return all(e == "! " + NATIVE_FONT_ERROR for e in errors) and all(name.startswith("TU/lmr/") for name in native)


def place(fmt: Path, workdir: Path) -> str:
    """Make `fmt` the format named NAME where XeLaTeX runs (a link in its working folder); returns the -fmt option."""
    link = workdir / f"{NAME}.fmt"
    link.unlink(missing_ok=True)
    link.symlink_to(fmt.resolve())
    return f"-fmt={NAME}"


def discard(fmt: Path) -> None:
    """Remove a format a report failed on (the failure may be the report's own: the next one dumps it again)."""
    for p in (fmt, fmt.with_suffix(".files")):
        shardcache.remove(p)


def prune(cache: Path) -> None:
    """Keep the KEPT most recently used formats (older ones and links go; a link is removed, never followed)."""
    try:
        entries = list(cache.iterdir())
        fmts = sorted((p for p in entries if p.suffix == ".fmt" and not p.is_symlink() and p.is_file()), key=lambda p: p.stat().st_mtime_ns, reverse=True)
    except OSError:  # another worker pruned at the same time
        return
    kept = {p.stem for p in fmts[:KEPT]}
    for p in fmts[KEPT:] + [p for p in entries if p.is_symlink() or (p.suffix == ".files" and p.stem not in kept)]:
        shardcache.remove(p)
