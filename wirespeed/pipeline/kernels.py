"""Warm notebook kernels: one Jupyter kernel per worker process, started by its first notebook run and
reused by the next ones, so a run costs its cells' own time instead of a kernel start (about 2 s).

Before each run the kernel is put back as it started (kernelstate.py: a fresh namespace, execution
counter, working folder, environment, sys.path). Runs go through papermill as before (its parameters
cell, its metadata, its errors): `ENGINE` is a papermill engine that executes on the worker's kernel
instead of starting one. A run that fails for any reason discards the kernel; the next run starts a
fresh one. The kernel ends with its worker: killed when the worker exits, sent SIGTERM by the
worker's stop handler (interrupts.py), and by Linux when the worker dies (die_with_parent).
"""

from __future__ import annotations

import contextlib
import multiprocessing.util
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from wirespeed.system import interrupts

ENGINE = "wirespeed-warm"
# generous: on a loaded machine (a CI runner building in parallel) a kernel has taken over 60 s to answer
START_TIMEOUT_S = 300
RESET_TIMEOUT_S = 300
_SNAPSHOT = "__import__('wirespeed.pipeline.kernelstate', fromlist=['snapshot']).snapshot()"
_RESTORE = "__import__('wirespeed.pipeline.kernelstate', fromlist=['restore']).restore()"


class KernelError(RuntimeError):
    """The kernel could not be started or reset."""


@dataclass
class Kernel:
    km: Any  # jupyter_client.AsyncKernelManager
    kc: Any  # its AsyncKernelClient
    cwd: str
    log: IO[bytes]


_warm: Kernel | None = None
_registered = False


def _run(coro_fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Run a kernel client coroutine on this thread's event loop (the one nbclient uses)."""
    from jupyter_core.utils import run_sync

    return run_sync(coro_fn)(*args, **kwargs)


def _quiet(code: str, kernel: Kernel, what: str) -> None:
    """Execute code silently (no output, no history, the execution counter untouched); raise KernelError if it fails."""
    reply = _run(kernel.kc.execute_interactive, code, silent=True, store_history=False, allow_stdin=False,
                 timeout=RESET_TIMEOUT_S, output_hook=lambda msg: None)
    content = reply["content"]
    if content.get("status") != "ok":
        raise KernelError(f"{what} failed in the notebook kernel: {content.get('ename')}: {content.get('evalue')}")


def _start(cwd: str, log: Path) -> Kernel:
    from jupyter_client.manager import AsyncKernelManager

    log.parent.mkdir(parents=True, exist_ok=True)
    stream = open(log, "ab")  # noqa: SIM115 - the kernel writes to it for as long as it lives
    km = AsyncKernelManager(kernel_name="python3")
    kc = None
    try:
        # the kernel's own chatter (not its cells' output, which comes back as messages) goes to the log
        _run(km.start_kernel, cwd=cwd, extra_arguments=["--HistoryManager.hist_file=:memory:"],
             stdout=stream, stderr=stream, preexec_fn=interrupts.die_with_parent)
        kc = km.client()
        kc.start_channels()
        _run(kc.wait_for_ready, timeout=START_TIMEOUT_S)
        kc.allow_stdin = False
        kernel = Kernel(km, kc, cwd, stream)
        _quiet(_SNAPSHOT, kernel, "taking the kernel's starting state")
        return kernel
    except BaseException:
        _stop(km, kc, stream)
        raise


def _stop(km: Any, kc: Any, stream: IO[bytes]) -> None:
    """End a kernel: kill its process, then close the client's channels, waiting 2 s at most (closing a
    zmq context can wait for ever on a peer that died, e.g. when the worker is told to stop)."""
    with contextlib.suppress(Exception):
        process = km.provisioner.process  # the local kernel's Popen
        process.kill()
        process.wait(5)

    def close() -> None:
        with contextlib.suppress(Exception):
            if kc is not None:
                kc.stop_channels()
        with contextlib.suppress(Exception):
            km.cleanup_connection_file()

    closing = threading.Thread(target=close, daemon=True)
    closing.start()
    closing.join(2)
    stream.close()


def discard() -> None:
    """End this worker's kernel (after a failed run, and when the worker exits)."""
    global _warm
    kernel, _warm = _warm, None
    if kernel is not None:
        _stop(kernel.km, kernel.kc, kernel.log)


def ready(cwd: str, log: Path, env: dict[str, str] | None = None) -> Kernel:
    """This worker's kernel, reset for a new run: the warm one when it is alive, else a new one
    (started twice at most: a kernel that dies while starting ran no cell). Its chatter goes to `log`.
    `env`: variables set in the kernel for this run only (the next reset takes them away)."""
    global _warm, _registered
    if not _registered:  # a pool worker leaves through multiprocessing's exit path, which runs its finalizers (not atexit)
        multiprocessing.util.Finalize(None, discard, exitpriority=10)
        _register_engine()
        _registered = True
    if _warm is not None and (_warm.cwd != cwd or not _run(_warm.km.is_alive)):
        discard()
    for attempt in (1, 2):
        if _warm is None:
            try:
                _warm = _start(cwd, log)
            except RuntimeError as exc:
                if attempt == 2 or "Kernel died before replying to kernel_info" not in str(exc):
                    raise
                continue
        _quiet(_RESTORE, _warm, "resetting the kernel")
        if env:
            _quiet(f"__import__('os').environ.update({dict(env)!r})", _warm, "setting the run's environment")
        return _warm
    raise KernelError("the notebook kernel did not start")  # not reached: the second attempt returns or raises


def preload(kernel: Kernel, modules: list[str], calls: list[str]) -> None:
    """Load `modules` in the kernel and make each "module:function" call of `calls` (kernelstate.preload), silently."""
    _quiet(f"__import__('wirespeed.pipeline.kernelstate', fromlist=['preload']).preload({list(modules)!r}, {list(calls)!r})", kernel,
           "loading the notebooks' modules")


def _register_engine() -> None:
    """Make `ENGINE` known to papermill in this process."""
    from papermill.clientwrap import PapermillNotebookClient
    from papermill.engines import NBClientEngine, papermill_engines
    from papermill.log import logger

    class WarmEngine(NBClientEngine):
        """papermill's nbclient engine on this worker's warm kernel (`ready()` must have run)."""

        @classmethod
        def execute_managed_notebook(cls, nb_man, kernel_name, log_output=False, stdout_file=None, stderr_file=None,  # noqa: ANN001 - papermill's signature
                                     start_timeout=START_TIMEOUT_S, execution_timeout=None, **kwargs):
            if _warm is None:
                raise KernelError("no warm kernel: call kernels.ready() before the run")
            client = PapermillNotebookClient(nb_man, km=_warm.km, timeout=execution_timeout, startup_timeout=start_timeout,
                                             kernel_name=kernel_name, log=logger, log_output=log_output,
                                             stdout_file=stdout_file, stderr_file=stderr_file)
            client.kc = _warm.kc  # the warm client: nbclient neither starts nor stops a kernel it did not make
            return client.execute()

    papermill_engines.register(ENGINE, WarmEngine)
