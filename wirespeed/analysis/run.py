"""Running the analysis notebooks: every notebook for every result set it applies to, headless, in
parallel, each run re-executed only when something it reads changed.

A run's cache key hashes the notebook, the result set's content (and the engine that loaded it),
the wirespeed modules the notebook imports (transitively), and the versions of the tools that shape
its output. The key and its parts are kept in manifest.json beside the outputs; `wirespeed why`
says which part changed. Planning, the worker pool, status and pruning are the step runner's (runner.py).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import sys
import traceback
from html import escape
from urllib.parse import quote
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from wirespeed.system import atomic

from wirespeed.pipeline import kernels, kernelstate, paths, runner, status as setstatus
from wirespeed.analysis.outputs import CHART_KEY
from wirespeed.system.codehash import code_closure, package_versions

NOTEBOOKS = Path("notebooks")
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


def read_notebook(path: Path) -> tuple[dict[str, Any], str]:
    """A notebook's `wirespeed:` header block (applies_when: SQL with one ? for the slug) and its code."""
    import jupytext

    nb = jupytext.read(path)
    return nb.metadata.get("wirespeed", {}), "\n".join(c.source for c in nb.cells if c.cell_type == "code")


def tool_versions() -> dict[str, str]:
    """Versions of the tools that change what a notebook writes, as their packages declare them: none of them is
    imported to ask (that took 1.7 s of a build that runs no notebook). Altair's release fixes the Vega-Lite schema
    it writes; pikepdf's, the qpdf it bundles."""
    return {"python": sys.version.split()[0], **package_versions("duckdb", "altair", "vl-convert-python", "papermill", "nbconvert", "jupytext", "pikepdf")}


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
        meta, code = read_notebook(nb)
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


_CDN = re.compile(r"<script[^>]*\bsrc=\"https?://[^\"]*\"[^>]*>\s*</script>|<link[^>]*\bhref=\"https?://[^\"]*\"[^>]*>", re.I)


@functools.cache
def _html_exporter() -> Any:
    """nbconvert's HTML exporter, made once per process (loading its templates costs more than an export). The code
    cells' highlighting and the cleaning of it are remembered by their text: every set's run of a notebook has the same
    code, which took a third of an export to highlight and clean again."""
    from nbconvert import HTMLExporter
    from nbconvert.filters import Highlight2HTML, clean_html

    exporter = HTMLExporter(template_name="lab")
    exporter.mathjax_url = ""
    highlight = Highlight2HTML(pygments_lexer="ipython3", parent=exporter)

    @functools.lru_cache(maxsize=4096)
    def highlighted(source: str, language: str | None, metadata: str) -> str:
        return highlight(source, language, json.loads(metadata))

    def highlight_code(source: str, language: str | None = None, metadata: Any = None) -> str:
        return highlighted(source, language, json.dumps(metadata or {}, sort_keys=True, default=str))

    exporter.filters = {**exporter.filters, "highlight_code": highlight_code, "clean_html": functools.lru_cache(maxsize=4096)(clean_html)}
    return exporter


# The dark theme, for a reader whose site theme (or, without a choice of theirs, the OS setting) is dark: JupyterLab
# Dark's variables (the lab template's own theme-dark.css) where the site's dark theme applies (the site's theme
# choice is set on <html> by notebooks/theme-<hash>.js, site.notebook_pages), the charts' light drawings inverted with
# their hues turned back as on the site's pages, and the browser's own controls and scroll bars dark.
_DARK_WHERE = ('@media screen and (prefers-color-scheme: dark) {{ :root:not([data-theme="light"]) {{ {rules} }} {images} }}\n'
               '@media screen {{ :root[data-theme="dark"] {{ {rules} }} {dark_images} }}\n')
_CHART_IMAGES = 'img[src^="../charts/"]'


@functools.cache
def _dark_theme() -> str:
    """The CSS of the notebook page's dark theme (see _DARK_WHERE)."""
    env = _html_exporter().environment
    css = env.loader.get_source(env, "static/theme-dark.css")[0]
    body = re.search(r":root\s*\{(.*)\}", css, re.S)
    if body is None:
        raise AnalysisError("nbconvert's lab template has no :root block in static/theme-dark.css")
    rules = body[1].strip() + "\n  color-scheme: dark;"
    invert = "{ filter: invert(1) hue-rotate(180deg); }"
    return _DARK_WHERE.format(rules=rules, images=f':root:not([data-theme="light"]) {_CHART_IMAGES} {invert}',
                              dark_images=f':root[data-theme="dark"] {_CHART_IMAGES} {invert}')


_SVG_SIZE = re.compile(r'<svg\b[^>]*?\bwidth="([0-9.]+)"[^>]*?\bheight="([0-9.]+)"')


def _chart_by_reference(output: Any, charts: Path) -> None:
    """A chart output (its Vega-Lite spec, outputs._Chart) shown on the notebook's web page as the set's published
    drawing (../charts/<id>.svg, the file the set page shows too, sized from `charts`/<id>.svg) instead of a copy inline."""
    meta = next((m for m in output.get("metadata", {}).values() if isinstance(m, dict) and m.get(CHART_KEY)), None)
    if meta is None:
        return
    cid = meta[CHART_KEY]
    drawing = charts / f"{cid}.svg"
    size = _SVG_SIZE.search(drawing.read_text(encoding="utf-8")[:2000]) if drawing.is_file() else None
    dims = f' width="{round(float(size[1]))}" height="{round(float(size[2]))}"' if size else ""
    src = "../charts/" + quote(cid) + ".svg"
    output["data"] = {"text/html": f'<img src="{escape(src)}" alt="{escape(meta.get("alt", ""))}"{dims} loading="lazy">'}
    output["metadata"] = {}


_HIGHLIGHTED = re.compile(r'(<div class="highlight[^"]*"><pre>)(.*?)(</pre>)', re.S)
# Pygments' token spans that look as plain code does: names (no rule for .n in the stylesheet), whitespace, empty spans
_PLAIN_TOKEN = re.compile(r'<span class="(?:n|w)">([^<]*)</span>|<span></span>')
_TOKEN = re.compile(r'<span class="([a-z0-9]+)">([^<]*)</span>|([^<]+)')


def _lean_code(code: str) -> str:
    """Pygments' spans of one code block, with a run of tokens of one class (a string over several lines, with
    only white space between) in one span."""
    out: list[list[str | None]] = []  # [class or None, text]
    for m in _TOKEN.finditer(_PLAIN_TOKEN.sub(r"\1", code)):
        cls, text = (m[1], m[2]) if m[1] else (None, m[3])
        if out and out[-1][0] == cls:
            out[-1][1] += text
        elif out and cls and len(out) > 1 and out[-1][0] is None and out[-1][1].isspace() and out[-2][0] == cls:
            ws = out.pop()[1]
            out[-1][1] += ws + text
        else:
            out.append([cls, text])
    return "".join(f'<span class="{c}">{t}</span>' if c else t for c, t in out)


def _plain_tokens(html: str) -> str:
    """The highlighted code without the spans that change nothing on screen (a third of a page's markup)."""
    return _HIGHLIGHTED.sub(lambda m: m[1] + _lean_code(m[2]) + m[3], html)


def html_export(ipynb: Path) -> str:
    """Standalone HTML of an executed notebook that loads nothing from the internet."""
    import nbformat

    nb = nbformat.read(str(ipynb), as_version=4)
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            _chart_by_reference(output, ipynb.parent / "charts")
    body, _ = _html_exporter().from_notebook_node(nb)
    body = body.replace("</head>", f'<style type="text/css">\n{_dark_theme()}</style>\n</head>', 1)
    body = _plain_tokens(_CDN.sub("", body))
    body = re.sub(r"<script[^>]*\bsrc=\"\"[^>]*>\s*</script>", "", body)
    body = re.sub(r"<link[^>]*\bhref=\"custom\.css\"[^>]*>", "", body)  # the template's optional user stylesheet
    # inline scripts that would fetch from a CDN (MathJax configuration, the mermaid loader)
    body = re.sub(r"<script[^>]*>(?:(?!</script>).)*?(?:https?://cdn|MathJax)(?:(?!</script>).)*</script>", "", body, flags=re.S)
    # no icon of its own: browsers would fetch /favicon.ico from the server root, outside a site under a path
    return body.replace("</head>", '<link rel="icon" href="data:,">\n</head>', 1)


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


def _failed(job: Job, what: str, cause: str, log: Path) -> dict[str, Any]:
    """A worker's report of a failed run: one line for the person, the parts for build/status."""
    failure = {"what": what, "cause": cause, "log": str(log)}
    return {"ok": False, "failure": failure, "error": setstatus.line(job.slug, "analyse", failure)}


def _execute(job: Job, root: str) -> dict[str, Any]:
    """Run one notebook into a temporary folder and swap it into place (in a worker process, on its warm kernel)."""
    import jupytext
    import nbformat
    import papermill

    os.chdir(root)
    tmp = atomic.temp_dir_beside(job.out_dir)
    # This worker's own chatter goes to a log beside the run; the kernel's to build/logs/kernels.log; errors come back as messages.
    with open(tmp.parent / f".{job.name}.kernel.log", "w") as log:
        os.dup2(log.fileno(), 2)
    try:
        nb = jupytext.read(job.notebook)
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        source = tmp / "source.ipynb"
        nbformat.write(nb, str(source))
        executed = tmp / f"{job.name}.ipynb"
        try:
            params = {"slug": job.slug, "catalog": _relative(job.catalog, root), "output_dir": _relative(tmp, root)}
            kernels.ready(root, out_root_logs(job.out_dir.parent.parent) / "kernels.log")
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
        atomic.write_text(tmp / f"{job.name}.html", html_export(executed))
        atomic.write_text(tmp / "manifest.json", job.manifest_text())
        atomic.swap_dir(tmp, job.out_dir)
        return {"ok": True}
    except Exception as exc:  # noqa: BLE001 - a worker reports, the parent decides
        kernels.discard()  # a timeout, a dead kernel, a failed reset: the next run starts a fresh one
        log = setstatus.write_log(job.slug, "analyse", job.name, traceback.format_exc(), out_root_logs(job.out_dir.parent.parent))
        return _failed(job, f"notebook {job.notebook}", f"{type(exc).__name__}: {exc}", log)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def write_index(slug: str, out_root: Path = OUT_ROOT) -> dict[str, Any]:
    """Merge the outputs of every notebook of a result set into index.json (paths relative to the set's folder)."""
    set_dir = out_root / slug
    set_dir.mkdir(parents=True, exist_ok=True)  # a set no notebook applies to has an empty index
    index: dict[str, Any] = {"slug": slug, "tables": {}, "charts": {}, "notebooks": []}
    for nb_dir in sorted(d for d in set_dir.iterdir() if d.is_dir() and not d.name.startswith(".")):
        outputs = json.loads((nb_dir / "outputs.json").read_text())
        index["notebooks"].append({"name": nb_dir.name, "ipynb": f"{nb_dir.name}/{nb_dir.name}.ipynb", "html": f"{nb_dir.name}/{nb_dir.name}.html"})
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
