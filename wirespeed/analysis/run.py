"""Running the analysis notebooks: every notebook for every result set it applies to, headless, in
parallel, each run re-executed only when something it reads changed.

A run's cache key hashes the notebook, the result set's content (and the engine that loaded it),
the wirespeed modules the notebook imports (transitively), and the versions of the tools that shape
its output. The key and its parts are kept in manifest.json beside the outputs; `wirespeed why`
says which part changed. Planning, the worker pool, status and pruning are the step runner's (runner.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from wirespeed.analysis import drawings, sources
from wirespeed.system import atomic

from wirespeed.pipeline import kernels, kernelstate, paths, runner, status as setstatus
from wirespeed.system.codehash import code_closure, package_versions

NOTEBOOKS = paths.NOTEBOOKS
OUT_ROOT = paths.ANALYSIS


class AnalysisError(RuntimeError):
    """A notebook failed: the message names the result set, the notebook, the cell and the error."""


@dataclass
class Job(runner.Job):
    """One notebook run for one result set: its outputs and manifest.json live in out_dir."""

    notebook: Path
    out_dir: Path
    catalog: Path

    @property
    def name(self) -> str:
        return self.notebook.name.removesuffix(".py")

    @property
    def manifest(self) -> Path:
        return self.out_dir / "manifest.json"


@dataclass
class Plan:
    run: list[Job] = field(default_factory=list)
    fresh: list[Job] = field(default_factory=list)
    stale_dirs: list[Path] = field(default_factory=list)
    slugs: list[str] = field(default_factory=list)  # every set planned, also those no notebook applies to


def read_notebook(path: Path, cache: Path | None = None) -> tuple[dict[str, Any], str]:
    """A notebook's `wirespeed:` header block (applies_when: SQL with one ? for the slug) and its code (the
    conversion kept in `cache` when given: sources.py)."""
    return sources.header_and_code(sources.notebook(path, cache))


def tool_versions() -> dict[str, str]:
    """Versions of the tools that change what a notebook writes, as their packages declare them: none of them is
    imported to ask (that took 1.7 s of a build that runs no notebook). Altair's release fixes the Vega-Lite schema
    it writes; pikepdf's, the qpdf it bundles."""
    return {"python": sys.version.split()[0], **package_versions("duckdb", "altair", "vl-convert-python", "papermill", "jupytext", "pikepdf")}


def plan(catalog: Path, slugs: list[str] | None = None, notebooks_dir: Path = NOTEBOOKS, out_root: Path = OUT_ROOT, include_drafts: bool = False) -> Plan:
    """Which (result set, notebook) runs are needed, which are fresh, and which old outputs to remove."""
    import duckdb

    con = duckdb.connect(str(catalog), read_only=True)
    view = "result_sets" if include_drafts else "published_sets"
    sets = {s: (c, e) for s, c, e in con.execute(f"SELECT slug, content_hash, engine_hash FROM {view} ORDER BY slug").fetchall()}
    wanted = slugs or sorted(sets)
    unknown = [s for s in wanted if s not in sets]
    if unknown:
        con.close()
        raise AnalysisError(f"not in the catalog as a published result set: {', '.join(unknown)}")
    tools = tool_versions()
    # this module executes and exports, the step runner plans, the kernels run and reset: their code shapes the outputs
    executor = hashlib.sha256(b"".join(Path(m.__file__).read_bytes() for m in (sys.modules[__name__], runner, kernels, kernelstate))).hexdigest()
    notebooks = sorted(notebooks_dir.glob("*.py"))
    per_nb = {}
    for nb in notebooks:
        meta, code = read_notebook(nb, paths.notebook_sources(out_root))
        per_nb[nb] = (meta.get("applies_when"), hashlib.sha256(nb.read_bytes()).hexdigest(), code_closure(code))
    result = Plan(slugs=list(wanted))
    for slug in wanted:
        content, engine = sets[slug]
        applicable = set()
        for nb, (applies, nb_hash, closure) in per_nb.items():
            if applies:
                try:
                    n = con.execute(applies, [slug]).fetchone()[0]
                except Exception as exc:  # noqa: BLE001 - report the notebook's own query error
                    con.close()
                    raise AnalysisError(f"{nb}: applies_when query failed: {exc}") from None
                if not n:
                    continue
            applicable.add(nb.stem)
            components = {"notebook": nb_hash, "result_set": content, "engine": engine, "code": closure, "runner": executor, "tools": tools, "parameters": {"slug": slug}}
            job = Job(slug=slug, key=runner.digest(components), components=components, notebook=nb, out_dir=out_root / slug / nb.stem, catalog=catalog)
            (result.fresh if job.fresh() else result.run).append(job)
        result.stale_dirs += runner.stale(out_root / slug, applicable, dirs=True, skip_hidden=True)
    result.stale_dirs += runner.stale(out_root, set(sets), dirs=True)
    con.close()
    return result


def _relative(path: Path, root: str) -> str:
    """A path as the notebook sees it from the repository root (relative when inside it)."""
    try:
        return path.resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        return str(path.resolve())


def _stabilise(executed: Path, job: Job, root: str, tmp: Path) -> None:
    """Rewrite the executed notebook without run-specific data: stable cell ids, no clocks, the final output folder;
    compact JSON (a download: Jupyter reads it as it is, and the indentation nbformat writes is a quarter of it)."""
    from wirespeed.system.reproducible import stable_notebook

    nb = json.loads(executed.read_text(encoding="utf-8"))
    nb = stable_notebook(nb, job.name, {_relative(tmp, root): _relative(job.out_dir, root)})
    atomic.write_text(executed, json.dumps(nb, separators=(",", ":"), ensure_ascii=False, sort_keys=True) + "\n")


def out_root_logs(out_root: Path) -> Path:
    """The logs folder beside an analysis output root (build/analysis → build/logs)."""
    return out_root.parent / "logs"


def prune_drawings(out_root: Path) -> int:
    """Keep the drawings the analysis outputs under out_root name (outputs.json, "drawings"), remove the others."""
    keep: set[str] = set()
    for outputs in out_root.glob("*/*/outputs.json"):
        try:
            keep.update(k for k in json.loads(outputs.read_text(encoding="utf-8")).get("drawings", []) if isinstance(k, str))
        except (OSError, ValueError, AttributeError):
            continue
    return drawings.prune(paths.chart_cache(out_root), keep)


def _failed(job: Job, what: str, cause: str, log: Path) -> dict[str, Any]:
    """A worker's report of a failed run: one line for the person, the parts for build/status."""
    failure = {"what": what, "cause": cause, "log": str(log)}
    return {"ok": False, "failure": failure, "error": setstatus.line(job.slug, "analyse", failure)}


def _execute(job: Job, root: str) -> dict[str, Any]:
    """Run one notebook into a temporary folder and swap it into place (in a worker process, on its warm kernel)."""
    import nbformat
    import papermill

    os.chdir(root)
    tmp = atomic.temp_dir_beside(job.out_dir)
    # This worker's own chatter goes to a log beside the run (its stderr given back after: the worker may run another
    # step's jobs next, runner.shared_pool); the kernel's to build/logs/kernels.log; errors come back as messages.
    stderr = os.dup(2)
    with open(tmp.parent / f".{job.name}.kernel.log", "w") as log:
        os.dup2(log.fileno(), 2)
    try:
        nb = nbformat.from_dict(sources.notebook(job.notebook, paths.notebook_sources(job.out_dir.parent.parent)))
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        source = tmp / "source.ipynb"
        nbformat.write(nb, str(source))
        executed = tmp / f"{job.name}.ipynb"
        try:
            params = {"slug": job.slug, "catalog": _relative(job.catalog, root), "output_dir": _relative(tmp, root)}
            out_root = job.out_dir.parent.parent
            kernels.ready(root, out_root_logs(out_root) / "kernels.log", env={drawings.CACHE_ENV: os.path.abspath(paths.chart_cache(out_root))})
            papermill.execute_notebook(str(source), str(executed), parameters=params, engine_name=kernels.ENGINE,
                                       kernel_name="python3", cwd=root, progress_bar=False, log_output=False,
                                       request_save_on_cell_execute=False)  # written once, at the end (not at every cell's start and end)
        except papermill.PapermillExecutionError as exc:
            kernels.discard()
            code = [c.source for c in nb.cells if c.cell_type == "code"]
            cell = code.index(exc.source) + 1 if exc.source in code else exc.exec_count
            first = exc.source.strip().splitlines()[0][:60] if exc.source.strip() else ""
            log = setstatus.write_log(job.slug, "analyse", job.name, "\n".join(exc.traceback or [f"{exc.ename}: {exc.evalue}"]), out_root_logs(job.out_dir.parent.parent))
            return _failed(job, f"notebook {job.notebook}, code cell {cell} ({first})", f"{exc.ename}: {exc.evalue}", log)
        source.unlink()
        _stabilise(executed, job, root, tmp)
        atomic.write_text(tmp / "manifest.json", job.manifest_text())
        atomic.swap_dir(tmp, job.out_dir)
        return {"ok": True}
    except Exception as exc:  # noqa: BLE001 - a worker reports, the parent decides
        kernels.discard()  # a timeout, a dead kernel, a failed reset: the next run starts a fresh one
        log = setstatus.write_log(job.slug, "analyse", job.name, traceback.format_exc(), out_root_logs(job.out_dir.parent.parent))
        return _failed(job, f"notebook {job.notebook}", f"{type(exc).__name__}: {exc}", log)
    finally:
        os.dup2(stderr, 2)
        os.close(stderr)
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def preloads(notebooks_dir: Path = NOTEBOOKS, out_root: Path = OUT_ROOT) -> list[str]:
    """The modules the notebooks import (each `import` and `from … import` of their code, as module names), in order."""
    import ast

    found: dict[str, None] = {}
    for nb in sorted(notebooks_dir.glob("*.py")):
        try:
            tree = ast.parse(read_notebook(nb, paths.notebook_sources(out_root))[1])
        except (OSError, ValueError, SyntaxError):  # a notebook that cannot be read fails in its own run
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found.update((a.name, None) for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found[node.module] = None
    return list(found)


WARM_CALLS = ["wirespeed.presentation.charts:warm"]  # the chart compiler's runtime: every notebook draws


def warm(root: str, modules: list[str], out_root: Path = OUT_ROOT) -> dict[str, Any]:
    """Start this worker's kernel and load in it what the notebooks import (`preloads`), while the build validates and
    ingests, so that the first run on the worker costs its cells' own time (a kernel start, the imports and the chart
    runtime took 1.4 s of a 1.9 s first run). A warm-up changes no output: every run begins with the kernel's reset.
    One that fails costs nothing but its time: the first run starts a kernel as it would have."""
    os.chdir(root)
    try:
        kernel = kernels.ready(root, out_root_logs(out_root) / "kernels.log")
        kernels.preload(kernel, modules, WARM_CALLS)
        return {"ok": True}
    except Exception as exc:  # noqa: BLE001 - a warm-up is an optimisation
        kernels.discard()
        return {"ok": False, "error": f"warming a notebook kernel: {type(exc).__name__}: {exc}"}


def write_index(slug: str, out_root: Path = OUT_ROOT) -> dict[str, Any]:
    """Merge the outputs of every notebook of a result set into index.json (paths relative to the set's folder)."""
    set_dir = out_root / slug
    set_dir.mkdir(parents=True, exist_ok=True)  # a set no notebook applies to has an empty index
    index: dict[str, Any] = {"slug": slug, "tables": {}, "charts": {}, "notebooks": []}
    for nb_dir in sorted(d for d in set_dir.iterdir() if d.is_dir() and not d.name.startswith(".")):
        outputs = json.loads((nb_dir / "outputs.json").read_text())
        index["notebooks"].append({"name": nb_dir.name, "ipynb": f"{nb_dir.name}/{nb_dir.name}.ipynb"})
        for kind in ("tables", "charts"):
            for oid, entry in outputs[kind].items():
                if oid in index[kind]:
                    raise AnalysisError(f"{slug}: {kind[:-1]} id {oid!r} is written by both {index[kind][oid]['notebook']} and {nb_dir.name}")
                index[kind][oid] = {**{k: (f"{nb_dir.name}/{v}" if k in ("json", "csv", "spec", "svg", "pdf", "vega") else v) for k, v in entry.items()}, "notebook": nb_dir.name}
    atomic.write_text(set_dir / "index.json", json.dumps(index, indent=1, ensure_ascii=False) + "\n")
    return index


def run(catalog: Path, slugs: list[str] | None = None, jobs: int | None = None, progress: Callable[[Job, int, int], None] | None = None,
        include_drafts: bool = False, out_root: Path = OUT_ROOT, notebooks_dir: Path = NOTEBOOKS, scheduler: str = "pool") -> tuple[Plan, list[str]]:
    """Execute what the plan says (on the pool or a Dask cluster: runner.execute); returns the plan and the errors (empty when all ran)."""
    p = plan(catalog, slugs, notebooks_dir=notebooks_dir, out_root=out_root, include_drafts=include_drafts)
    runner.prune(p.stale_dirs)
    results = runner.execute(p.run, _execute, jobs, progress, scheduler=scheduler)
    errors = runner.errors(results)
    failed: dict[str, dict[str, str]] = {}
    for job, res in results:
        if not res["ok"]:
            failed.setdefault(job.slug, res["failure"])
    for slug in sorted(set(p.slugs) - set(failed)):
        try:
            write_index(slug, out_root)
        except (AnalysisError, OSError, ValueError, KeyError) as exc:  # one set's outputs do not fit together: that set fails alone
            log = setstatus.write_log(slug, "analyse", "index", traceback.format_exc(), out_root_logs(out_root))
            failed[slug] = {"what": "merging the notebooks' outputs (index.json)", "cause": str(exc), "log": str(log)}
            errors.append(setstatus.line(slug, "analyse", failed[slug]))
    for slug in failed:  # a result set with a failed notebook has no index: nothing downstream uses half its outputs
        (out_root / slug / "index.json").unlink(missing_ok=True)
    if p.run:
        prune_drawings(out_root)
    runner.record("analyse", p.slugs, failed, out_root.parent / "status")
    return p, errors


def why(catalog: Path, slug: str, notebook: str | None = None, out_root: Path = OUT_ROOT) -> list[str]:
    """For each notebook of a result set: fresh, or which parts of its cache key changed."""
    p = plan(catalog, [slug], out_root=out_root, include_drafts=True)
    lines = []
    for job in sorted(p.fresh + p.run, key=lambda j: j.name):
        if notebook and job.name != notebook:
            continue
        lines.append(f"{job.name}: {runner.why(job)}")
    return lines
