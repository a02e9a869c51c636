"""Where the steps write, relative to the working folder: one name per build folder, read by the
steps and the CLI instead of repeated literals."""

from __future__ import annotations

import os
from pathlib import Path

BUILD = Path("build")
NOTEBOOKS = Path("notebooks")               # the analysis notebooks' sources (jupytext .py), read by the analysis and the site
CATALOG = BUILD / "wirespeed.duckdb"        # the DuckDB catalog (ingest)
ANALYSIS = BUILD / "analysis"               # executed notebooks: <slug>/<notebook>/ and <slug>/index.json
HUGO_DATA = BUILD / "hugo-data"             # site data Hugo mounts as data/ (site-data export)
SITE_STATIC = BUILD / "site-static"         # charts, tables and notebooks Hugo mounts as static/
REPORTS = BUILD / "reports"                 # <slug>.pdf and <slug>.manifest.json
TRENDS = BUILD / "trends"                   # series/<device>/<series>/: each trend chart and its manifest; trends.pdf, the trend report
STATUS = BUILD / "status"                   # <slug>.json: each step's outcome for a set
LOGS = BUILD / "logs"                       # <slug>/<step>-<name>.log: a failure's full text; kernels.log: the notebook kernels' own messages
HUGO_LEFT_OUT = BUILD / "hugo-left-out.toml"  # Hugo config that ignores articles citing left-out sets
IMPORTS_MEMO = BUILD / "cache" / "imports.json"  # what each wirespeed module imports, by its text's hash (system/codehash.py)
VALIDATE_MEMO = BUILD / "cache" / "validate"  # <set folder>.json: each set's own problems, by its folder's hash (catalog/validation.py)
HUGO_MEMO = BUILD / "cache" / "hugo.json"   # the key of the last Hugo build and the site it left (site/hugomemo.py)
NOTEBOOK_PAGES = BUILD / "cache" / "notebook-pages"  # <name>-<key>.html: each notebook's page as rendered (site/notebook_pages.py)
CHART_CACHE = BUILD / "cache" / "charts"    # <key[:2]>/<key>/: a chart's drawings by its spec's hash (analysis/drawings.py)
CHART_PDF_CACHE = BUILD / "cache" / "chart-pdf"  # <key[:2]>/<key>.pdf: a chart's PDF drawing by its SVG's hash (report/chart_pdf.py)
NOTEBOOK_SOURCES = BUILD / "cache" / "notebooks"  # <name>-<key>.ipynb: each notebook's source converted by jupytext (analysis/sources.py)
LATEX_SEEDS = BUILD / "cache" / "latex"     # reports-<slug>/, trends-trends/: the cross-reference files a report's last typesetting settled on (report/latex.py)
LATEX_FORMATS = BUILD / "cache" / "latex-format"  # <key>.fmt: the reports' packages dumped into a format, by their head's hash (report/latexformat.py)


def chart_cache(analysis_root: Path) -> Path:
    """The drawing cache of the analysis outputs under `analysis_root` (<build>/analysis → <build>/cache/charts)."""
    return analysis_root.parent / CHART_CACHE.relative_to(BUILD)


def notebook_sources(analysis_root: Path) -> Path:
    """The converted notebook sources of the analysis outputs under `analysis_root` (<build>/analysis → <build>/cache/notebooks)."""
    return analysis_root.parent / NOTEBOOK_SOURCES.relative_to(BUILD)


def latex_seed(out: Path) -> Path:
    """The seed folder of the report written at `out` (<build>/reports/<slug>.pdf or <build>/trends/trends.pdf):
    <build>/cache/latex/<its folder's name>-<its name>, in the build folder `out` is in (a set named "trends" and the
    trend report keep apart)."""
    return out.parent.parent / LATEX_SEEDS.relative_to(BUILD) / f"{out.parent.name}-{out.stem}"


LATEX_FORMATS_ENV = "WIRESPEED_LATEX_FORMATS"  # an absolute folder: one format cache for several build folders


def latex_formats(out: Path) -> Path:
    """The format cache of the reports written at `out`'s folder (<build>/reports/<slug>.pdf → <build>/cache/latex-format),
    or the folder WIRESPEED_LATEX_FORMATS names, when it is an absolute path: builds in several folders (worktrees, a test
    session's scratch builds) then dump a template's format once between them (its key says what it was dumped from)."""
    shared = os.environ.get(LATEX_FORMATS_ENV, "")
    return Path(shared) if shared and os.path.isabs(shared) else out.parent.parent / LATEX_FORMATS.relative_to(BUILD)


def latex_shape_seed(out: Path, shape: str) -> Path:
    """The seed kept for every report of one shape (`shape`: a hash of its headings, report/typesetting.py), where a
    report written at `out` starts when it has no seed of its own: <build>/cache/latex/shape-<shape>. The sets of a
    series (one device and test, run after run) give reports of one shape, whose cross-references are the same."""
    return out.parent.parent / LATEX_SEEDS.relative_to(BUILD) / f"shape-{shape}"


def is_project(folder: Path) -> bool:
    """Is `folder` a wirespeed project: a config.toml that mounts the exported site data (build/hugo-data), or a
    result-set archive (data/results/)? The steps read and write relative to it."""
    config = folder / "config.toml"
    try:
        if config.is_file() and "build/hugo-data" in config.read_text(encoding="utf-8", errors="replace"):
            return True
    except OSError:
        pass
    return (folder / "data" / "results").is_dir()


def project_root(start: Path) -> Path | None:
    """The nearest project folder: `start` or one above it (None: none)."""
    start = start.resolve()
    return next((d for d in (start, *start.parents) if is_project(d)), None)


def not_a_project(cwd: Path) -> str | None:
    """Why a step cannot run in `cwd` (None: it can): the message names the project above, if there is one."""
    if is_project(cwd):
        return None
    above = project_root(cwd)
    hint = f"run it in {above} (or: wirespeed --root {above} …)" if above else "run it in the project folder, or pass --root DIR"
    return f"{cwd} is not a wirespeed project folder (no config.toml that mounts build/hugo-data, no data/results/): {hint}"
