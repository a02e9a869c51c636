"""What a Dask worker keeps for the step runner's jobs (cluster.py): its warm notebook kernel, reused
from one job to the next (kernels.py keeps it per process) and ended when the worker closes."""

from __future__ import annotations

from typing import Any

from distributed import WorkerPlugin


class KernelPlugin(WorkerPlugin):
    """A worker plugin: the worker's warm notebook kernel ends when the worker closes."""

    name = "wirespeed-kernels"

    def teardown(self, worker: Any) -> None:  # noqa: ARG002 - the plugin protocol's signature
        from wirespeed.pipeline import kernels

        kernels.discard()
