"""Where the step runner's per-set jobs run: the worker pool of this machine (the default), or a Dask
`distributed` cluster — a `LocalCluster` started for the jobs to run and closed after them, or a lab's
scheduler given by its address.

The scheduler is named by `--scheduler` on `wirespeed build`, `analyse` and `report`, or by the
WIRESPEED_SCHEDULER environment variable: `pool` (the default), `local` (a LocalCluster of one
single-threaded worker process per job slot), or `tcp://HOST:PORT` (a running scheduler). A lab's
workers must see the project folder at the same path as the command (a shared file system) and run the
same wirespeed: a job reads its inputs and writes its outputs there, as a pool worker does. A worker process
runs one job at a time whatever its thread count (a job changes the process's working folder and keeps one warm
kernel), so start a lab's workers with one thread each (`dask worker --nthreads 1 …`) and as many as there are cores.

A cluster is started only when there is a job to run: a build with everything fresh never starts one.
Each Dask worker keeps its warm notebook kernel (kernels.py) from one job to the next, as a pool worker
does, and ends it when the worker closes (daskworker.py); a worker that is killed takes its kernel
with it (the kernel dies with its parent). Ctrl-C or SIGTERM closes the cluster before the command
exits: the local workers and their kernels end with it; on a lab's cluster the command's jobs are cancelled.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Callable, Iterator
from typing import Any

ENV = "WIRESPEED_SCHEDULER"
POOL = "pool"
CONNECT_TIMEOUT_S = 20  # to reach a lab's scheduler
LOCAL = "local"


_ONE_AT_A_TIME = threading.Lock()  # in a Dask worker process: its jobs, one after the other


def _serial(job: Any, work: Callable[[Any, str], dict[str, Any]], root: str) -> dict[str, Any]:
    with _ONE_AT_A_TIME:
        return work(job, root)


class SchedulerError(ValueError):
    """A scheduler setting that names no executor, or a scheduler that cannot be reached."""


def chosen(given: str | None) -> str:
    """The executor a command uses: `given` (--scheduler), else $WIRESPEED_SCHEDULER, else the pool."""
    value = (given or os.environ.get(ENV) or POOL).strip()
    if value in (POOL, LOCAL) or value.startswith(("tcp://", "tls://", "ucx://", "inproc://")):
        return value
    raise SchedulerError(f"scheduler {value!r}: expected {POOL!r}, {LOCAL!r} or a scheduler address such as tcp://HOST:8786 "
                         f"(--scheduler or {ENV})")


@contextlib.contextmanager
def client(address: str, workers: int) -> Iterator[Any]:
    """A Dask client: on a LocalCluster of `workers` single-threaded processes (address `local`) or on the
    scheduler at `address`; closed (with the local cluster) on every exit path."""
    from distributed import Client, LocalCluster

    from wirespeed.pipeline.daskworker import KernelPlugin

    with contextlib.ExitStack() as stack:
        if address == LOCAL:
            cluster = stack.enter_context(LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                                                       silence_logs=logging.ERROR, worker_class="distributed.Nanny"))
            dask_client = stack.enter_context(Client(cluster))
        else:
            try:
                dask_client = stack.enter_context(Client(address, timeout=f"{CONNECT_TIMEOUT_S}s"))
            except OSError as exc:
                raise SchedulerError(f"scheduler {address}: cannot connect: {exc}") from None
        dask_client.register_plugin(KernelPlugin(), name=KernelPlugin.name)
        yield dask_client


def run(todo: list[Any], work: Callable[[Any, str], dict[str, Any]], root: str, address: str, workers: int,
        each: Callable[[Any, dict[str, Any]], None]) -> None:
    """Run `work(job, root)` for every job on the Dask cluster at `address`; `each(job, result)` as results come."""
    from distributed import as_completed

    with client(address, workers) as dask_client:
        keys = [f"wirespeed-{job.slug}-{job.name}-{job.key[:16]}" for job in todo]
        futures = dask_client.map(_serial, todo, work=work, root=root, key=keys, pure=False, retries=0)
        jobs = dict(zip((f.key for f in futures), todo))
        try:
            for fut in as_completed(futures):
                each(jobs[fut.key], fut.result())
        except BaseException:
            dask_client.cancel(futures, force=True)
            raise
