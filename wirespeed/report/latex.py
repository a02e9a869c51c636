"""Running pandoc and XeLaTeX for a report: a deadline, reruns until cross-references settle, the
first LaTeX error as the message, and a PDF whose bytes depend only on its inputs.

XeLaTeX runs in the report's own temporary folder on relative file names: xdvipdfmx derives the
PDF's /ID from SOURCE_DATE_EPOCH and the file names, so a fixed date and fixed names give a fixed ID.
Every tool runs in its own process group (killed whole at the deadline) and dies with its parent.

A report typeset before starts from the cross-reference files its last typesetting settled on (a seed:
build/cache/latex/reports-<slug>/). When its first run writes them back unchanged, that run read exactly what it
wrote, which is where a typesetting from nothing ends too, so it is the last: a rebuilt report usually takes
one XeLaTeX run instead of two. A report typeset for the first time starts from the seed of the last report of its shape
(the same headings: build/cache/latex/shape-<hash>/), which for the sets of a series is usually where it settles too.
A seed only saves runs; a seed that does not settle costs the runs it
takes, and one that makes the first run fail is dropped and the report typeset from nothing.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

from wirespeed.report import latexformat
from wirespeed.system import atomic

TIMEOUT_ENV = "WIRESPEED_REPORT_TIMEOUT"
DEFAULT_TIMEOUT_S = 120.0
MAX_RUNS = 4
# files whose content feeds the next run (contents, lists, labels, LastPage, bookmarks)
_CROSSREF = (".aux", ".toc", ".lot", ".lof", ".out")
SEED_MAX_BYTES = 16 * 1024 * 1024  # a seed file larger than this is not read (ours are kilobytes)
_PR_SET_PDEATHSIG = 1


class LatexError(RuntimeError):
    """pandoc or XeLaTeX failed or ran out of time; the message is one line."""


def timeout_s() -> float:
    """Seconds one report may take (pandoc and every XeLaTeX run together): WIRESPEED_REPORT_TIMEOUT, default 120."""
    raw = os.environ.get(TIMEOUT_ENV, "")
    try:
        value = float(raw) if raw.strip() else DEFAULT_TIMEOUT_S
    except ValueError:
        raise LatexError(f"{TIMEOUT_ENV}={raw!r} is not a number of seconds") from None
    if value <= 0:
        raise LatexError(f"{TIMEOUT_ENV}={raw!r} must be more than 0 seconds")
    return value


def _die_with_parent() -> None:  # runs in the child between fork and exec
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


def run(cmd: list[str], cwd: Path, env: dict[str, str], deadline: float, name: str) -> subprocess.CompletedProcess:
    """Run one tool until it exits or the deadline passes (then its whole process group is killed)."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise LatexError(f"{name} timed out after {_fmt(timeout_s())} s")
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, errors="replace", process_group=0, preexec_fn=_die_with_parent)
    try:
        out, err = proc.communicate(timeout=left)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        raise LatexError(f"{name} timed out after {_fmt(timeout_s())} s") from None
    except BaseException:
        _kill_group(proc)
        raise
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def _run_or_none(cmd: list[str], cwd: Path, env: dict[str, str], deadline: float) -> subprocess.CompletedProcess | None:
    try:
        return run(cmd, cwd, env, deadline, cmd[0])
    except LatexError:  # out of time: the report goes on without a format and fails on its own deadline if it must
        return None


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.communicate()


def _fmt(seconds: float) -> str:
    return f"{seconds:g}"


def first_error(log: str) -> str | None:
    """The first TeX error of a log: its `! …` line and the `l.N …` line that shows where, on one line."""
    lines = log.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("! "):
            message = line[2:].strip()
            # a message may continue on the next lines until an empty line or the context
            for more in lines[i + 1:i + 4]:
                if not more.strip() or more.startswith(("l.", "<", "See ", "Type ")) or more.startswith("!"):
                    break
                message += " " + more.strip()
            where = next((m for m in (re.match(r"l\.(\d+) ?(.*)", x) for x in lines[i + 1:i + 40]) if m), None)
            if where:
                context = where.group(2).strip()
                return f"! {message} (report.tex line {where.group(1)}{': ' + context[-80:] if context else ''})"
            return f"! {message}"
    return None


def _crossref_state(workdir: Path, stem: str) -> str:
    h = hashlib.sha256()
    for ext in _CROSSREF:
        p = workdir / f"{stem}{ext}"
        h.update(ext.encode() + b"\0" + (p.read_bytes() if p.is_file() else b"-") + b"\0")
    return h.hexdigest()


def xelatex(workdir: Path, tex: str, env: dict[str, str], deadline: float, seed: Path | None = None, shared: Path | None = None,
            formats: Path | None = None) -> Path:
    """Typeset `tex` (a file name in workdir) until its cross-references stop changing; returns the PDF.

    Each run writes only XeTeX's own output (-no-pdf: the .xdv); xdvipdfmx turns the last one into the PDF, once,
    with the options XeLaTeX gives it, instead of after every run (about a tenth of a run each time).
    `seed`: a folder of cross-reference files to start from, and where the settled ones are kept for next time;
    `shared`: another such folder, started from when `seed` has none (a seed of the document's shape), kept too;
    `formats`: the cache of precompiled formats of the document's packages (latexformat), used when it has the mark."""
    stem = tex.removesuffix(".tex")
    seeded = any(s is not None and _plant(s, workdir, stem) for s in (seed, shared))
    fmt = None
    if formats is not None and (head := latexformat.head(workdir / tex)) is not None:
        fmt = latexformat.ensure(head, formats, lambda cmd, cwd: _run_or_none(cmd, cwd, env, deadline))
    opts = [latexformat.place(fmt, workdir)] if fmt is not None else []
    try:
        _settle(workdir, stem, env, deadline, opts)
    except LatexError:
        if not (seeded or opts):
            raise
        if fmt is not None:
            latexformat.discard(fmt)  # spoiled or unusable: the next report dumps it again
        _clear(workdir, stem)  # e.g. a seed written under another template: from nothing and without a format, as without them
        _settle(workdir, stem, env, deadline, [])
    xdv, pdf = workdir / f"{stem}.xdv", workdir / f"{stem}.pdf"
    if not xdv.is_file():
        raise LatexError("xelatex wrote no output (no .xdv)")
    proc = run(["xdvipdfmx", "-q", "-E", "-o", pdf.name, xdv.name], workdir, env, deadline, "xdvipdfmx")
    if proc.returncode != 0 or not pdf.is_file():
        lines = [l.strip() for l in (proc.stderr + proc.stdout).splitlines() if l.strip()]
        raise LatexError(f"xdvipdfmx failed (exit {proc.returncode}): {' | '.join(lines[:3])}")
    for s in (seed, shared):
        if s is not None:
            _keep(workdir, stem, s)
    return pdf


def _settle(workdir: Path, stem: str, env: dict[str, str], deadline: float, opts: list[str]) -> None:
    """XeLaTeX runs until a run writes the cross-reference files it read (MAX_RUNS at most); `opts`: the format's."""
    cmd = ["xelatex", *opts, "-no-pdf", "-no-shell-escape", "-interaction=nonstopmode", "-halt-on-error", f"{stem}.tex"]
    before = _crossref_state(workdir, stem)
    for _ in range(MAX_RUNS):
        proc = run(cmd, workdir, env, deadline, "xelatex")
        log_file = workdir / f"{stem}.log"
        log = log_file.read_text(encoding="utf-8", errors="replace") if log_file.is_file() else proc.stdout
        if proc.returncode != 0:
            cause = first_error(log)
            if cause:
                raise LatexError(f"xelatex failed: {cause}")
            if proc.returncode < 0:
                raise LatexError(f"xelatex crashed ({signal.Signals(-proc.returncode).name}) with no TeX error in its log")
            tail = [l for l in (proc.stdout + proc.stderr).splitlines() if l.strip()][-1:]
            raise LatexError(f"xelatex failed (exit {proc.returncode}): {' '.join(tail)}")
        after = _crossref_state(workdir, stem)
        if after == before:
            break
        before = after


def _clear(workdir: Path, stem: str) -> None:
    for ext in (*_CROSSREF, ".xdv", ".log"):
        (workdir / f"{stem}{ext}").unlink(missing_ok=True)


def _plant(seed: Path, workdir: Path, stem: str) -> bool:
    """Copy the seed's cross-reference files into workdir (regular files only, never through a link); True if any was."""
    if seed.is_symlink() or not seed.is_dir():
        return False
    planted = False
    for ext in _CROSSREF:
        src = seed / f"seed{ext}"
        try:
            if src.is_symlink() or not src.is_file() or src.stat().st_size > SEED_MAX_BYTES:
                continue
            (workdir / f"{stem}{ext}").write_bytes(src.read_bytes())
            planted = True
        except OSError:
            continue
    return planted


def _keep(workdir: Path, stem: str, seed: Path) -> None:
    """The settled cross-reference files become the seed (swapped in whole; a failure to keep them changes no output)."""
    try:
        tmp = atomic.temp_dir_beside(seed)
        try:
            for ext in _CROSSREF:
                src = workdir / f"{stem}{ext}"
                if src.is_file():
                    shutil.copyfile(src, tmp / f"seed{ext}")
            atomic.swap_dir(tmp, seed)
        finally:
            if tmp.exists():
                shutil.rmtree(tmp, ignore_errors=True)
    except OSError:
        pass
