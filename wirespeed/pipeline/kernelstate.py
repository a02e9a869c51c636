"""Inside a warm notebook kernel: what the kernel looked like when it started, and putting it back
before each run, so that no run sees what an earlier run of another result set left behind.

`snapshot()` runs once, when the kernel has started; `restore()` before every run (also the first,
so a run in a fresh kernel and a run after others take the same path). Restored: the user namespace,
the output cache and the execution counter (IPython's reset of a new session), the working folder,
the environment, sys.path, the warning filters and their once-only registries, and any module a run
imported from outside the installed packages and wirespeed (a helper beside a notebook is imported
afresh). Installed packages and wirespeed's own modules stay loaded: that is what makes a kernel warm,
and their code is part of every run's cache key.
"""

from __future__ import annotations

import functools
import os
import sys
import warnings
from pathlib import Path
from typing import Any

_START: dict[str, Any] = {}
_KEPT = tuple({Path(p).resolve() for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)} | {Path(__file__).resolve().parents[1]})


def snapshot() -> None:
    """Remember the kernel's state as it started."""
    _START.update(cwd=os.getcwd(), env=dict(os.environ), path=list(sys.path), modules=set(sys.modules), warnings=list(warnings.filters))


def preload(modules: list[str], calls: list[str] = ()) -> None:
    """Load what the runs will import (installed and wirespeed modules, which restore() keeps) and call each
    "module:function" of `calls` (a runtime's first start), before any run: a warm-up, which changes no run's outputs
    (every run starts from restore()). A module that cannot be loaded is left to the run that imports it."""
    import importlib

    for name in modules:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - the run that needs it reports its own error
            continue
    for call in calls:
        module, _, function = call.partition(":")
        try:
            getattr(importlib.import_module(module), function)()
        except Exception:  # noqa: BLE001
            continue


def _kept(module: Any) -> bool:
    """An installed or wirespeed module stays loaded; a module from anywhere else is dropped."""
    file = getattr(module, "__file__", None)
    return True if not file else _kept_file(file)


@functools.lru_cache(maxsize=None)
def _kept_file(file: str) -> bool:
    """Whether a module file lies under an installed prefix or wirespeed (remembered: a kept module stays, and
    resolving the thousands of them before every run took a tenth of a notebook's time)."""
    path = Path(file).resolve()
    return any(path.is_relative_to(root) for root in _KEPT)


def restore() -> None:
    """Put the kernel back as `snapshot()` saw it (see the module's docstring)."""
    from IPython import get_ipython

    if not _START:
        raise RuntimeError("kernelstate.restore() before snapshot()")
    get_ipython().reset(new_session=True)  # the user namespace, Out, _, the execution counter back to 1
    os.chdir(_START["cwd"])
    if dict(os.environ) != _START["env"]:
        os.environ.clear()
        os.environ.update(_START["env"])
    sys.path[:] = _START["path"]
    for name in [n for n in sys.modules if n not in _START["modules"]]:
        if not _kept(sys.modules[name]):
            del sys.modules[name]
    warnings.filters[:] = _START["warnings"]
    warnings.onceregistry.clear()
    warnings._filters_mutated()  # every module's registry of warnings already shown is out of date: they show again
    # (no gc.collect() of our own: IPython's reset above ran a full collection)
