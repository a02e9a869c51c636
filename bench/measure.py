"""One measured run of a command: wall time, CPU time and peak memory of it and everything it starts.

CPU time and `maxrss_mb` come from the kernel when the process is reaped (os.wait4): user + system
seconds of the process and of every descendant it waited for, and the largest resident set of any
ONE of those processes (getrusage's ru_maxrss is a per-process high-water mark, never a sum).
`tree_rss_mb` is the largest sum of resident sets over the whole process tree, sampled with psutil
every `interval` seconds: it sees processes that run side by side, and can miss a peak shorter than
the interval. For a single process (Hugo) the two agree up to the sampling; `maxrss_mb` is the exact one.
Megabytes are 10^6 bytes (so 1 GB is 1,000 MB).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import psutil


@dataclass
class Run:
    wall_s: float
    cpu_s: float  # user + system of the process and its reaped descendants
    maxrss_mb: float  # the largest single process (kernel high-water mark)
    tree_rss_mb: float  # the largest sampled sum over the process tree
    stdout: str
    stderr: str
    returncode: int = 0

    def figures(self) -> dict[str, float]:
        return {"wall_s": self.wall_s, "cpu_s": self.cpu_s, "maxrss_mb": self.maxrss_mb, "tree_rss_mb": self.tree_rss_mb, "exit": self.returncode}


class CommandFailed(RuntimeError):
    """The measured command exited with a non-zero status; the message carries the end of its output."""


class MemoryLimit(RuntimeError):
    """The measured command's process tree passed the memory limit and was killed."""


def _kill_tree(proc: psutil.Process) -> None:
    try:
        members = [*proc.children(recursive=True), proc]
    except psutil.Error:
        members = [proc]
    for p in members:
        try:
            p.kill()
        except psutil.Error:
            pass


def _tree_rss(proc: psutil.Process) -> int:
    total = 0
    try:
        members = [proc, *proc.children(recursive=True)]
    except psutil.Error:
        return 0
    for p in members:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total


def run(cmd: list[str], cwd: Path | None = None, env: dict[str, str] | None = None, interval: float = 0.2, ok: tuple[int, ...] = (0,),
        limit_mb: float | None = None) -> Run:
    """Run `cmd` to the end and measure it; raises CommandFailed when it exits with a status not in `ok`, and
    kills its process tree and raises MemoryLimit when the tree's sampled memory passes `limit_mb`."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=err, text=True)
        watched = psutil.Process(proc.pid)
        peak = 0
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            peak = max(peak, _tree_rss(watched))
            if limit_mb is not None and peak > limit_mb * 1e6:
                _kill_tree(watched)
                os.wait4(proc.pid, 0)
                proc.returncode = -9
                raise MemoryLimit(f"{' '.join(map(str, cmd[:4]))} … killed at {peak / 1e6:,.0f} MB, above the limit of {limit_mb:,.0f} MB")
            time.sleep(interval)
        wall = time.perf_counter() - t
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if proc.returncode not in ok:
        tail = "\n".join((stderr + stdout).strip().splitlines()[-30:])
        raise CommandFailed(f"{' '.join(map(str, cmd[:4]))} … exited with {proc.returncode}:\n{tail}")
    return Run(wall_s=round(wall, 3), cpu_s=round(usage.ru_utime + usage.ru_stime, 3), maxrss_mb=round(usage.ru_maxrss * 1024 / 1e6, 1),
               tree_rss_mb=round(peak / 1e6, 1), stdout=stdout, stderr=stderr, returncode=proc.returncode)


def tree_bytes(root: Path) -> tuple[int, int]:
    """(bytes, files) of the regular files under root."""
    size = files = 0
    for dirpath, _dirs, names in os.walk(root):
        for n in names:
            st = os.lstat(os.path.join(dirpath, n))
            size += st.st_size
            files += 1
    return size, files


def own_bytes(site: Path, slugs: list[str]) -> float:
    """The mean bytes a set has to itself in a built site: its folder results/<slug>/ and its report reports/<slug>.pdf."""
    total = 0
    for slug in slugs:
        total += tree_bytes(site / "results" / slug)[0]
        pdf = site / "reports" / f"{slug}.pdf"
        total += pdf.stat().st_size if pdf.is_file() else 0
    return round(total / len(slugs))
