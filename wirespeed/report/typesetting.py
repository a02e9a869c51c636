"""Typesetting the PDF reports: which reports need building (a content-hash key per report, kept in a
manifest beside the PDF), building them in parallel workers (AST → pandoc → XeLaTeX, written
atomically), pruning the PDFs of sets no longer published, and `why` a report would be rebuilt.
Planning, the worker pool, status and pruning are the step runner's (runner.py). Shell escape stays off."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from wirespeed.pipeline import paths, runner, status as setstatus
from wirespeed.report import chart_pdf, figures as report_figures, fontshare, latex, links as reportlinks, pandoc_ast as A, tablepad
from wirespeed.report.headlines import headline_blocks
from wirespeed.report.shortcodes import ReportError, _api_version, _Doc, article_blocks, pandoc
from wirespeed.report.structure import appendix_blocks, full_titles, generated_blocks, headings_into_landscape, metadata, source_date_epoch
from wirespeed.report.summary import summary_blocks, take_findings
from wirespeed.report.testbed import basis_blocks, colophon_blocks, testbed_blocks
from wirespeed.site import articles, setdata
from wirespeed.system import atomic
from wirespeed.system.codehash import code_closure


TEMPLATE_ROOT = Path("reports")


OUT = paths.REPORTS


FILTERS = ["meta.lua", "boxes.lua", "landscape.lua", "appendix.lua", "tables.lua"]


@dataclass
class ReportJob(runner.Job):
    """One result set's PDF report (out) and, beside it, its manifest."""

    data_file: Path
    charts_dir: Path
    article: Path | None
    out: Path

    @property
    def manifest(self) -> Path:
        return self.out.with_name(f"{self.slug}.manifest.json")

    @property
    def outputs(self) -> tuple[Path, ...]:
        return (self.out,)


# How `wirespeed why` names each component of a report's key.
LABELS = {"data": "data", "charts": "charts", "explain": "figure explanations", "template": "template", "code": "code", "tools": "tools", "article": "article", "build": "build stamp"}


def _tree_hash(root: Path) -> str:
    """Hash of what a build reads under reports/: the template and its parts, the filters, defaults.yaml (not the docs or examples)."""
    h = hashlib.sha256()
    read = [root / "defaults.yaml", *(root / "template").rglob("*"), *(root / "filters").rglob("*")]
    for p in sorted(read):
        if p.is_file():
            h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


@functools.cache
def _tool_versions() -> dict[str, str]:
    """pandoc's, XeTeX's and fontTools' versions, asked once a process (the reports and the trend report share them)."""
    pv = subprocess.run([str(pandoc()), "--version"], capture_output=True, text=True, check=True).stdout.splitlines()[0]
    xv = subprocess.run(["xelatex", "--version"], capture_output=True, text=True).stdout.splitlines()[:1]
    import fontTools  # the charts' shared font subsets (report/fontshare.py)

    return {"pandoc": pv, "xelatex": xv[0] if xv else "missing", "fonttools": fontTools.version}


def plan(slugs: list[str] | None, data_root: Path = paths.HUGO_DATA, static_root: Path = paths.SITE_STATIC, out: Path = OUT,
         base_url: str | None = None, on_site: list[str] | None = None) -> tuple[list[ReportJob], list[ReportJob]]:
    """Which reports need building (inputs changed) and which are fresh. `on_site`: the sets the site shows
    (default: those exported; a shard exports only its own, wirespeed/shards.py)."""
    sets_dir = data_root / "wirespeed" / "sets"
    exported = sorted(p.stem for p in sets_dir.glob("*.json")) if sets_dir.is_dir() else []
    available = exported if on_site is None else sorted(set(on_site) | set(exported))
    wanted = slugs or exported
    missing = [s for s in wanted if s not in exported]
    if missing:
        raise ReportError(f"no exported site data for {', '.join(missing)} (is it published? run wirespeed site --data-only)")
    tools = _tool_versions()
    template = _tree_hash(TEMPLATE_ROOT)
    code = code_closure("import wirespeed.report.typesetting")
    reports = articles.by_report()
    jobs = []
    for slug in wanted:
        data_file = sets_dir / f"{slug}.json"
        data = json.loads(data_file.read_text())
        charts_dir = static_root / "results" / slug / "charts"
        article = articles.for_report(slug, reports=reports)
        if article is not None and articles.missing(article, articles.cited_sets(article) - set(available), {slug: set(data.get("unavailable", {}))}):
            article = None  # it cites what is not on the site, so it is left out of the site too: the report takes the generated structure
        # each chart's drawing, of which the report makes the PDF it prints (chart_pdf)
        charts = {cid: hashlib.sha256((charts_dir / f"{cid}.svg").read_bytes()).hexdigest() for cid in sorted(data["charts"]) if (charts_dir / f"{cid}.svg").is_file()}
        # base URL, version and the date of this report's own data (never the repository's last commit): a commit elsewhere rebuilds nothing
        stamp = reportlinks.stamp(base_url, epoch=reportlinks.data_epoch(data, article.path if article else None))
        explain_file = static_root / "results" / slug / "explain.json"  # the figure index's records
        components = {"data": hashlib.sha256(data_file.read_bytes()).hexdigest(), "charts": charts, "chart_pdf": chart_pdf.code_key(),
                      "explain": hashlib.sha256(explain_file.read_bytes()).hexdigest() if explain_file.is_file() else None, "template": template, "code": code, "tools": tools, "build": stamp,
                      "article": hashlib.sha256(article.path.read_bytes()).hexdigest() if article else None}
        jobs.append(ReportJob(slug, runner.digest(components), components, data_file, charts_dir, article.path if article else None, out / f"{slug}.pdf"))
    return runner.split(jobs)


def build(job: ReportJob, root: str) -> dict[str, Any]:
    """Build one PDF (in a worker process): AST → pandoc → xelatex, written atomically."""
    os.chdir(root)
    try:
        data = json.loads(job.data_file.read_text())
        setdata.check(data, str(job.data_file))  # the contract the site step wrote it under
        static_root = job.charts_dir.parent.parent.parent  # <static>/results/<slug>/charts
        records = report_figures.load(static_root, job.slug)
        doc = _Doc(data, job.charts_dir, report_figures.entries(records))
        article = articles.read(job.article) if job.article else None
        api = _api_version()
        body = article_blocks(article, doc) if article else generated_blocks(doc)
        findings, body = take_findings(body)  # the key findings open the report, with the headline figures and the summary chart
        summary = (article.front.get("summary") if article else None) or data.get("summary") or ""
        front = summary_blocks(data, summary, headline_blocks(data), findings, doc)
        explained = report_figures.figure_index_blocks(records, doc.figures_used, (job.components.get("build") or {}).get("base"))
        back = (testbed_blocks(data, static_root) + basis_blocks(data) + appendix_blocks(data) + explained
                + colophon_blocks(reportlinks.colophon(data, job.components.get("build"))))
        blocks = headings_into_landscape(front + body + back)
        ast = A.document(A.breakable(metadata(data, article, job.components.get("build"))), A.breakable(full_titles(data, article) + blocks), api)
        with tempfile.TemporaryDirectory(prefix=f"wirespeed-report-{job.slug}-") as tmp:
            charts = Path(tmp) / "charts"  # the PDF drawings of the charts it prints, and of no other
            chart_pdf.write({cid: job.charts_dir / f"{cid}.svg" for cid in dict.fromkeys(doc.charts_used)}, charts, chart_pdf.cache_of(job.out))
            pdf = typeset(ast, Path(tmp), charts, source_date_epoch(data, article, job.components.get("build")), seed=paths.latex_seed(job.out),
                          shared=paths.latex_shape_seed(job.out, shape(ast)), formats=paths.latex_formats(job.out))
            atomic.write_bytes(job.out, fontshare.share(pdf.read_bytes()))  # the charts' fonts: one subset per family
            if os.environ.get("WIRESPEED_LATEX_LOGS"):  # layout checks read the TeX log (overfull boxes); off by default
                logs = Path(os.environ["WIRESPEED_LATEX_LOGS"])
                logs.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(pdf.with_suffix(".log"), logs / f"{job.slug}.log")
                shutil.copyfile(pdf.with_suffix(".tex"), logs / f"{job.slug}.tex")
        atomic.write_text(job.manifest, job.manifest_text(tables=doc.tables_used, charts=doc.charts_used,
                                                        table_parts={k: v for k, v in doc.table_parts.items() if len(v) > 1}))
        return {"ok": True}
    except (ReportError, articles.ArticleError, latex.LatexError, setdata.SetDataError, chart_pdf.ChartPdfError) as exc:
        return _failed(job, str(exc), str(exc))
    except Exception as exc:  # noqa: BLE001 - one set's report fails alone; the other reports are still built
        return _failed(job, f"{type(exc).__name__}: {exc}", traceback.format_exc())


def _failed(job: ReportJob, cause: str, text: str) -> dict[str, Any]:
    """A worker's report of a failed build: one line naming the set, the article or template and the log."""
    what = f"article {job.article}" if job.article else f"the generated report (template {TEMPLATE_ROOT / 'template'})"
    failure = {"what": what, "cause": cause.removeprefix(f"{job.slug}: "), "log": str(setstatus.write_log(job.slug, "report", "pdf", text, job.out.parent.parent / "logs"))}
    return {"ok": False, "failure": failure, "error": setstatus.line(job.slug, "report", failure)}


def shape(ast: Any) -> str:
    """A report's shape: a hash of its headings (level and words, wherever they are in the AST), which its contents,
    labels and bookmarks are made of. Reports of one shape usually settle on the same cross-references."""
    heads: list = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("t") == "Header":
                heads.append([node["c"][0], node["c"][2]])
            else:
                walk(node.get("c"))
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk(ast.get("blocks"))
    return hashlib.sha256(json.dumps(heads, ensure_ascii=False, sort_keys=True).encode()).hexdigest()[:24]


def typeset(ast: dict[str, Any], workdir: Path, charts_dir: Path, epoch: str, template_root: Path = TEMPLATE_ROOT, seed: Path | None = None,
            shared: Path | None = None, formats: Path | None = None) -> Path:
    """Pandoc AST → report.tex (pandoc, template, filters; figures extracted beside it) → report.pdf (XeLaTeX), in workdir.
    `seed`: where this report's settled cross-references are kept between builds, `shared`: those of its shape, `formats`: the
    cache of its packages' precompiled formats (latex.xelatex)."""
    deadline = time.monotonic() + latex.timeout_s()
    (workdir / "report.json").write_text(json.dumps(ast, ensure_ascii=False), encoding="utf-8")
    tpl = template_root.resolve()
    cmd = [str(pandoc()), "--from", "json", "report.json", "--to", "latex", "--template", str(tpl / "template" / "wirespeed.latex"),
           "--metadata-file", str(tpl / "defaults.yaml"), *[f"--lua-filter={tpl / 'filters' / f}" for f in FILTERS],
           "--resource-path", f"{charts_dir.resolve()}:{tpl}", "--extract-media=media", "-o", "report.tex"]
    env = {**os.environ, "openin_any": "p", "openout_any": "p", "SOURCE_DATE_EPOCH": epoch, "FORCE_SOURCE_DATE": "1"}
    proc = latex.run(cmd, workdir, env, deadline, "pandoc")
    if proc.returncode != 0 or not (workdir / "report.tex").is_file():
        lines = [l.strip() for l in proc.stderr.splitlines() if l.strip()]
        raise latex.LatexError("pandoc failed: " + (" | ".join(lines[:3]) or f"exit {proc.returncode}"))
    tex = workdir / "report.tex"
    tex.write_text(tablepad.padded(tex.read_text(encoding="utf-8")), encoding="utf-8")  # bands as wide as the rules
    return latex.xelatex(workdir, "report.tex", env, deadline, seed, shared, formats)


def run(slugs: list[str] | None = None, jobs: int | None = None, progress: Callable[[ReportJob, int, int], None] | None = None, out: Path = OUT,
        data_root: Path = paths.HUGO_DATA, static_root: Path = paths.SITE_STATIC, base_url: str | None = None,
        scheduler: str = "pool", on_site: list[str] | None = None) -> tuple[list[ReportJob], list[ReportJob], list[str]]:
    """Build every report whose inputs changed, in parallel; returns (built, fresh, errors)."""
    todo, fresh = plan(slugs, data_root, static_root, out, base_url, on_site)
    status_root = out.parent / "status"
    results = runner.execute(todo, build, jobs, progress, done=lambda job, res: setstatus.record(job.slug, "report", res.get("failure"), status_root),
                             scheduler=scheduler)
    runner.record("report", [j.slug for j in fresh], {}, status_root)
    if not slugs:  # a full build: the PDFs of sets no longer published go
        runner.prune(runner.stale(out, {j.out.name for j in todo + fresh} | {j.manifest.name for j in todo + fresh}, dirs=False))
    return todo, fresh, runner.errors(results)


def why(slug: str, data_root: Path = paths.HUGO_DATA, static_root: Path = paths.SITE_STATIC, out: Path = OUT,
        base_url: str | None = None) -> str:
    """Whether a set's report is up to date, or which of its inputs changed (data, charts, template, code, tools, article, build stamp)."""
    todo, fresh = plan([slug], data_root, static_root, out, base_url)
    return runner.why((todo + fresh)[0], LABELS)


def pdf_text(pdf: Path) -> str:
    """The text of a PDF (pdftotext, layout kept), for checks."""
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


def which_tex() -> str | None:
    return shutil.which("xelatex")
