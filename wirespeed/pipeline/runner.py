"""The one step runner the analysis and the reports share: a job's cache key is a content hash of
everything it reads (its components); the plan splits jobs into those to run and those fresh (the
manifest beside the outputs holds the same key); the jobs to run go to a worker pool that dies
with this process, with progress; each set's outcome is recorded in build/status; outputs no longer
planned are pruned; and `why` says, from the components kept in the manifest, which input changed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
from abc import ABC, abstractmethod
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from wirespeed.pipeline import status as setstatus
from wirespeed.system import interrupts


def digest(components: dict[str, Any]) -> str:
    """The cache key: a hash of every component (each itself a content hash, version or parameter)."""
    return hashlib.sha256(json.dumps(components, sort_keys=True).encode()).hexdigest()


@dataclass
class Job(ABC):
    """One unit of a step: a result set's notebook run, a result set's report. Steps subclass it
    and say where the manifest is (`manifest`) and what must exist besides it (`outputs`)."""

    slug: str
    key: str
    components: dict[str, Any]

    @property
    def name(self) -> str:
        return self.slug

    @property
    @abstractmethod
    def manifest(self) -> Path:
        """The manifest.json of the last build: {"key", "components", …}."""

    @property
    def outputs(self) -> tuple[Path, ...]:
        return ()

    def stored(self) -> dict[str, Any] | None:
        """The manifest of the last build, or None when there is none (or it is unreadable)."""
        try:
            return json.loads(self.manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def fresh(self) -> bool:
        stored = self.stored()
        return stored is not None and stored.get("key") == self.key and all(p.exists() for p in self.outputs)

    def manifest_text(self, **extra: Any) -> str:
        """What a worker writes as the manifest once the outputs are in place."""
        return json.dumps({"key": self.key, "components": self.components, **extra}, indent=1, sort_keys=True) + "\n"


def split(jobs: Iterable[Job]) -> tuple[list[Job], list[Job]]:
    """(to run, fresh)."""
    run, fresh = [], []
    for job in jobs:
        (fresh if job.fresh() else run).append(job)
    return run, fresh


_SHARED: ProcessPoolExecutor | None = None
_SHARED_WORKERS = 0


@contextlib.contextmanager
def shared_pool(workers: int | None = None) -> Iterator[ProcessPoolExecutor]:
    """One pool of workers for every step inside (`wirespeed build`): `execute` gives it each step's jobs instead of
    starting a pool of its own, so a worker, and the notebook kernel it keeps warm, serves the steps one after the
    other, and can be warmed (`warm`) while the build is still validating. The workers end with the block."""
    global _SHARED, _SHARED_WORKERS
    count = workers or os.cpu_count() or 1
    with interrupts.worker_pool(count) as pool:
        _SHARED, _SHARED_WORKERS = pool, count
        try:
            yield pool
        finally:
            _SHARED, _SHARED_WORKERS = None, 0


def warm(work: Callable[..., Any], *args: Any) -> list[Future]:
    """Start `work(*args)` once for each worker of the shared pool (none without one), ahead of the jobs that follow it
    into the same queue; returns the futures (a warm-up's result is nobody's business but a test's)."""
    if _SHARED is None:
        return []
    return [_SHARED.submit(work, *args) for _ in range(_SHARED_WORKERS)]


def execute(todo: list[Job], work: Callable[[Any, str], dict[str, Any]], jobs: int | None = None,
            progress: Callable[[Any, int, int], None] | None = None, done: Callable[[Any, dict[str, Any]], None] | None = None,
            scheduler: str = "pool") -> list[tuple[Any, dict[str, Any]]]:
    """Run `work(job, root)` for each job in worker processes (one per core by default): this machine's
    pool, or a Dask cluster when `scheduler` is `local` or an address (cluster.py). A worker returns
    {"ok": True} or {"ok": False, "failure": {...}, "error": one line}; `done` sees each result as it
    comes, `progress` counts them. Returns (job, result) in the order they finished. Nothing is
    started when there is nothing to run."""
    results: list[tuple[Any, dict[str, Any]]] = []
    if not todo:
        return results
    root = str(Path.cwd())
    workers = max(1, min(jobs or os.cpu_count() or 1, len(todo)))

    def each(job: Any, res: dict[str, Any]) -> None:
        results.append((job, res))
        if done:
            done(job, res)
        if progress:
            progress(job, len(results), len(todo))

    if scheduler != "pool":
        from wirespeed.pipeline import cluster

        cluster.run(todo, work, root, scheduler, workers, each)
        return results
    # the build's shared pool, unless a worker of it died (a broken pool takes no more work): then one of this step's own
    shared = _SHARED is not None and not getattr(_SHARED, "_broken", False)
    own = contextlib.nullcontext(_SHARED) if shared else interrupts.worker_pool(workers)
    with own as pool:  # workers die with this process (or with the build's shared pool)
        futures = {pool.submit(work, job, root): job for job in todo}
        for fut in as_completed(futures):
            each(futures[fut], fut.result())
    return results


def errors(results: list[tuple[Any, dict[str, Any]]]) -> list[str]:
    return [res["error"] for _, res in results if not res["ok"]]


def record(step: str, slugs: Iterable[str], failures: dict[str, dict[str, str]], status_root: Path) -> None:
    """Record each set's outcome of a step: its first failure, or success."""
    for slug in slugs:
        setstatus.record(slug, step, failures.get(slug), status_root)


def stale(root: Path, keep: set[str], dirs: bool, skip_hidden: bool = False) -> list[Path]:
    """The folders (dirs) or files directly under root whose name the plan no longer produces."""
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if (p.is_dir() if dirs else p.is_file()) and p.name not in keep
                  and not (skip_hidden and p.name.startswith(".")))


def prune(paths: Iterable[Path]) -> None:
    for p in paths:
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)


def _changed_part(label: str, before: Any, now: Any, versions: bool) -> str | None:
    if before == now:
        return None
    if isinstance(before, dict) and isinstance(now, dict):
        diff = sorted(k for k in set(before) | set(now) if before.get(k) != now.get(k))
        if versions:
            return f"{label} (" + ", ".join(f"{k} {before.get(k)} → {now.get(k)}" for k in diff) + ")"
        return f"{label} ({', '.join(diff)})"
    return label


def why(job: Job, labels: dict[str, str] | None = None) -> str:
    """'up to date', or why the job would run: never run, an output missing, or the components
    whose hash changed since the manifest was written (dict components name their changed entries;
    `tools` shows the versions before and after)."""
    labels = labels or {}
    stored = job.stored()
    if stored is None:
        return f"would run: never run (no {job.manifest})"
    if stored.get("key") == job.key:
        missing = [p for p in job.outputs if not p.exists()]
        return f"would run: output missing ({', '.join(map(str, missing))})" if missing else "up to date"
    old = stored.get("components", {})
    changed = [c for part, value in job.components.items()
               if (c := _changed_part(labels.get(part, part.replace("_", " ")), old.get(part), value, part == "tools"))]
    return f"would run: changed {', '.join(changed) or 'key format'}"
