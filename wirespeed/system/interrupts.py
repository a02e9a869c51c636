"""Clean interrupts: workers and tools die with the command that started them, and temporary
folders go away on every exit path (and, after a SIGKILL, at the start of the next run).

- `worker_pool(n)`: a ProcessPoolExecutor whose workers get SIGTERM when their parent dies
  (Linux prctl PR_SET_PDEATHSIG) and turn SIGTERM into SystemExit, so their `finally` blocks remove
  their temporary folders and the subprocesses they wait on (notebook kernels, pandoc) are ended;
  if the parent leaves the `with` block by an exception (Ctrl-C, SIGTERM), the workers are
  terminated instead of awaited.
- `signals_exit()`: SIGTERM/SIGHUP raise SystemExit in the main process, so `finally` runs.
- `die_with_parent()`: a `preexec_fn` for tool subprocesses (Hugo).
- `build_lock(build)`: one wirespeed step at a time per build folder; while holding it,
  `sweep(...)` removes what an interrupted run left behind.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import re
import shutil
import signal
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

PR_SET_PDEATHSIG = 1
# atomic.write_bytes: ".<name>." + 8 random characters (tempfile's alphabet)
_TEMP_FILE = re.compile(r"^\..+\.[a-z0-9_]{8}$")


def die_with_parent(sig: int = signal.SIGTERM) -> None:
    """Ask the kernel to send `sig` to this process when its parent exits (Linux; a no-op elsewhere)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:  # the parent died before prctl took effect
        os.kill(os.getpid(), sig)


def _raise_exit(signum, frame):  # noqa: ARG001 - signal handler signature
    raise SystemExit(128 + signum)


_STOPPING = False
_WORKER_STOP_S = 10  # how long a worker told to stop may take to unwind before it ends itself


def _children(pid: int) -> list[int]:
    """Direct children of `pid` (from /proc)."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if int((d / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(d.name))
            except (OSError, IndexError, ValueError):
                continue
    return out


def _worker_exit(signum, frame):  # noqa: ARG001 - signal handler signature
    """A worker told to stop: stop the tools it started (its process group: pandoc, xelatex; and its
    children in their own sessions: notebook kernels), then unwind so `finally` blocks remove
    temporary folders; `_guarded` then ends the process. A timer ends it if unwinding hangs."""
    global _STOPPING
    _STOPPING = True
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.killpg(os.getpgrp(), signal.SIGTERM)
    for child in _children(os.getpid()):
        with contextlib.suppress(OSError):
            os.kill(child, signal.SIGTERM)
    timer = threading.Timer(_WORKER_STOP_S, os._exit, (128 + signum,))
    timer.daemon = True
    timer.start()
    raise SystemExit(128 + signum)


def _guarded(fn, /, *args, **kwargs):
    """Run a job in a worker; once told to stop, exit the process instead of waiting for more work
    (the pool would otherwise send the SystemExit back as a result and wait on a dead parent)."""
    try:
        return fn(*args, **kwargs)
    except BaseException:
        if _STOPPING:
            os._exit(128 + signal.SIGTERM)
        raise


class _Pool(ProcessPoolExecutor):
    def submit(self, fn, /, *args, **kwargs):
        return super().submit(_guarded, fn, *args, **kwargs)


def _worker_init() -> None:
    # Its own process group: Ctrl-C at the terminal reaches the parent only (the parent decides), and
    # the worker can end every tool it started at once.
    with contextlib.suppress(OSError):
        os.setpgrp()
    signal.signal(signal.SIGTERM, _worker_exit)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(signal.SIGTERM)


@contextlib.contextmanager
def worker_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """A process pool whose workers never outlive the command (see the module's docstring)."""
    pool = _Pool(max_workers=workers, initializer=_worker_init)
    try:
        yield pool
    except BaseException:
        procs = list((getattr(pool, "_processes", None) or {}).values())
        for p in procs:
            with contextlib.suppress(Exception):
                p.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        for p in procs:
            with contextlib.suppress(Exception):
                p.join(_WORKER_STOP_S + 5)  # a worker's own timer ends it first when its unwinding hangs
                if p.is_alive():
                    p.kill()
                    p.join(5)
        raise
    else:
        pool.shutdown(wait=True)


@contextlib.contextmanager
def signals_exit() -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP raise SystemExit (so cleanup code runs); restored after."""
    old = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)}
    for s in old:
        signal.signal(s, _raise_exit)
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


_HELD: dict[str, int] = {}  # build folders whose lock this process holds, and how deeply (`wirespeed build` runs the steps inside its own)


@contextlib.contextmanager
def build_lock(build: Path = Path("build")) -> Iterator[None]:
    """Hold build/.wirespeed.lock (waits for another wirespeed process on the same build folder; a step run
    inside `wirespeed build`, which holds it already, goes straight on)."""
    build.mkdir(parents=True, exist_ok=True)
    name = str(build.resolve())
    if _HELD.get(name):
        _HELD[name] += 1
        try:
            yield
        finally:
            _HELD[name] -= 1
        return
    with open(build / ".wirespeed.lock", "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        _HELD[name] = 1
        try:
            yield
        finally:
            _HELD.pop(name, None)
            fcntl.flock(f, fcntl.LOCK_UN)


def _remove(p: Path) -> bool:
    if p.is_dir() and not p.is_symlink():
        shutil.rmtree(p, ignore_errors=True)
    else:
        p.unlink(missing_ok=True)
    return not os.path.lexists(p)


def sweep(build: Path = Path("build"), destinations: tuple[Path, ...] = ()) -> list[Path]:
    """Remove the temporary folders and files interrupted runs left behind; call it holding build_lock.

    build/.hugo-data.*, build/.site-static.*, build/analysis/.*, build/analysis/<slug>/.<notebook>.* and
    build/cache/latex/.<report>.* folders, atomic.write_bytes temporary files in build/, build/reports/,
    build/analysis/<slug>/ and build/cache/ (and its validate/), and .<destination>.* folders beside each Hugo
    destination, with their mount overlays (hugo_static.py). Returns what was removed."""
    from wirespeed.system.hugo_static import OVERLAY_SUFFIX as hugo_mounts_suffix

    removed: list[Path] = []
    seeds = build / "cache" / "latex"
    places: list[Path] = [build, build / "reports", build / "analysis", build / "cache", build / "cache" / "validate", seeds]
    analysis = build / "analysis"
    if analysis.is_dir():
        places += [d for d in analysis.iterdir() if d.is_dir() and not d.is_symlink() and not d.name.startswith(".")]
    for place in places:
        if not place.is_dir():
            continue
        for p in place.iterdir():
            if not p.name.startswith(".") or p.name.endswith(".lock"):
                continue
            if p.is_dir() and not p.is_symlink():
                stale = place in (analysis, seeds) or place.parent == analysis or p.name.startswith((".hugo-data.", ".site-static."))
            else:
                stale = bool(_TEMP_FILE.match(p.name)) and not p.name.endswith(".log")
            if stale and _remove(p):
                removed.append(p)
    for dest in destinations:
        parent = dest.parent if dest.parent != Path("") else Path(".")
        if parent.is_dir():
            for p in parent.glob(f".{dest.name}.*"):
                if ((p.is_dir() and not p.is_symlink()) or p.name.endswith(hugo_mounts_suffix)) and _remove(p):
                    removed.append(p)
    return removed
