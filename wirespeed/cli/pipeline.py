"""The build: its steps (analyse, site, report), the whole pipeline (build, build --shard) and merge."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import click

from wirespeed.cli.common import (EXIT_LEFT_OUT, EXIT_STEP_FAILED, StepFailed, base_url_option, build_step, err, executor, folders,
                                  in_project, invoke_step, need_tex, out, print_left_out, scheduler_option)
from wirespeed.cli.sets import ingest, summary, validate
from wirespeed.pipeline import paths


@click.command()
@click.argument("slugs", nargs=-1)
@click.option("-j", "--jobs", type=int, default=None, help="Notebooks run at once (default: one per core).")
@click.option("--include-drafts", is_flag=True, help="Also analyse draft and embargoed result sets.")
@click.option("--db", type=click.Path(path_type=Path), default=paths.CATALOG, show_default=True, help="Catalog file.")
@scheduler_option
@build_step
def analyse(slugs: tuple[str, ...], jobs: int | None, include_drafts: bool, db: Path, scheduler: str | None) -> None:
    """Execute the notebooks for every published result set (or SLUGS) whose inputs changed.

    Writes build/analysis/<slug>/<notebook>/: the executed notebook (.ipynb and standalone .html),
    tables (CSV, JSON) and charts (Vega-Lite, SVG, Vega), with a manifest of what the run read.
    """
    from rich.progress import Progress

    from wirespeed.catalog.store import ingest as do_ingest
    from wirespeed.analysis import run as analysis
    from wirespeed.pipeline import cluster

    scheduler = executor(scheduler)
    # the catalog as the ingest step of this `wirespeed build` just left it, or brought up to date here
    ingested = click.get_current_context().find_root().ensure_object(dict).pop("ingested", None)
    reports = ingested[1] if ingested and ingested[0] == db else do_ingest(folders(()), db)
    bad = [r for r in reports if r.action == "rejected"]
    for r in bad:
        err.print(f"{r.slug}: rejected by ingest; run wirespeed validate {r.path}", markup=False)
    with Progress(console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task("notebooks", total=None)

        def tick(job, done, total):
            progress.update(task, total=total, completed=done, description=f"{job.slug}/{job.name}")

        try:
            plan, errors = analysis.run(db, list(slugs) or None, jobs, tick, include_drafts, scheduler=scheduler)
        except (analysis.AnalysisError, cluster.SchedulerError) as exc:
            raise StepFailed(str(exc)) from None
    for e in errors:
        err.print(e, markup=False)
    out.print(f"{len(plan.run)} notebook runs executed, {len(plan.fresh)} up to date, {len(plan.stale_dirs)} stale outputs removed", markup=False)
    if errors or bad:
        sys.exit(EXIT_LEFT_OUT)


@click.command()
@click.option("--db", type=click.Path(path_type=Path), default=paths.CATALOG, show_default=True, help="Catalog file.")
@click.option("--destination", type=click.Path(path_type=Path), default=Path("public"), show_default=True, help="Where Hugo writes the site.")
@click.option("--data-only", is_flag=True, help="Only export build/hugo-data and build/site-static; do not run Hugo.")
@click.option("--base-url", metavar="URL", default=None,
              help="Address the site is served at, e.g. https://OWNER.github.io/REPO/ (Hugo's --baseURL). "
                   "Default: the HUGO_BASEURL environment variable, else baseURL in config.toml (\"/\").")
@build_step
def site(db: Path, destination: Path, data_only: bool, base_url: str | None) -> None:
    """Export the published result sets for Hugo (from the catalog and the analysis outputs) and build the site.

    Every link, asset and download follows the base URL, so the site also works under a path
    (a GitHub Pages project site: --base-url https://OWNER.github.io/REPO/).
    """
    from wirespeed.site import build as sitebuild
    from wirespeed.site.data import SiteError

    if base_url is not None and data_only:
        raise click.UsageError("--base-url applies to the Hugo build, which --data-only skips (the exported data is the same for every base URL)")
    base_url = base_url_option(base_url)
    # Within one `wirespeed build`, the site step reuses the data-only export made before the reports when no report
    # failed since (sitebuild.reusable): the same data, written once.
    shared = click.get_current_context().find_root().ensure_object(dict)
    try:
        if data_only:
            outcome = shared["site export"] = sitebuild.export(db, data_only=True)
        else:
            outcome = sitebuild.build(db, destination, base_url, exported=shared.pop("site export", None))
    except (SiteError, sitebuild.SiteFailed) as exc:
        raise StepFailed(str(exc)) from None
    for line in outcome.refused + outcome.items:
        err.print(line, markup=False)
    again = " (as exported before the reports: no report failed)" if outcome.reused else ""
    out.print(f"site data for {len(outcome.slugs)} result sets → build/hugo-data, build/site-static{again}", markup=False)
    if not data_only:
        if outcome.hugo_kept:
            out.print(f"site up to date: what Hugo reads is unchanged since it built the {outcome.pages} HTML pages in {destination}/", markup=False)
        else:
            out.print(f"site built: {outcome.pages} HTML pages in {destination}/", markup=False)
    if outcome.refused or outcome.items:
        sys.exit(EXIT_LEFT_OUT)


@click.command()
@click.argument("slugs", nargs=-1)
@click.option("-j", "--jobs", type=int, default=None, help="Reports built at once (default: one per core).")
@click.option("--base-url", metavar="URL", default=None,
              help="Address the site is served at, printed in full on each title page (web page, data). "
                   "Default: the HUGO_BASEURL environment variable, else baseURL in config.toml.")
@scheduler_option
@build_step
def report(slugs: tuple[str, ...], jobs: int | None, base_url: str | None, scheduler: str | None) -> None:
    """Build the PDF test report of every published result set (or SLUGS) whose inputs changed → build/reports/.

    Needs the exported site data (wirespeed site --data-only). A result set's report comes from the
    review article whose front matter says report: SLUG, or from a generated structure.
    """
    from rich.progress import Progress

    from wirespeed.pipeline import cluster
    from wirespeed.report import chart_pdf, trend_report
    from wirespeed.report import typesetting

    scheduler = executor(scheduler)
    need_tex()
    base_url = base_url_option(base_url)
    with Progress(console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task("reports", total=None)
        try:
            built, fresh, errors = typesetting.run(list(slugs) or None, jobs, lambda j, d, t: progress.update(task, total=t, completed=d, description=j.slug),
                                                   base_url=base_url, scheduler=scheduler)
        except (typesetting.ReportError, cluster.SchedulerError) as exc:
            raise StepFailed(str(exc)) from None
    if not slugs:  # a full build: the trend report across the archive too
        done, error = trend_report.run(base_url)
        if error:
            errors.append(error)
        elif done != "none":
            out.print(f"trend report {'built' if done == 'built' else 'up to date'} → {trend_report.OUT}", markup=False)
        chart_pdf.prune(paths.SITE_STATIC, paths.CHART_PDF_CACHE)  # the drawings of charts no longer in the archive go
    for e in errors:
        err.print(e, markup=False)
    out.print(f"{len(built) - len(errors)} reports built, {len(fresh)} up to date → build/reports/", markup=False)
    if errors:
        sys.exit(EXIT_LEFT_OUT)


@click.command()
@click.option("--base-url", metavar="URL", default=None,
              help="Address the site is served at (Hugo's --baseURL and the reports' title pages). "
                   "Default: the HUGO_BASEURL environment variable, else baseURL in config.toml.")
@click.option("--force", is_flag=True, help="Ask every step even when nothing the build reads has changed.")
@click.option("--shard", "shard_spec", metavar="I/N", default=None,
              help="Build only shard I of N: validate, ingest, then the notebooks, site data and PDF reports of the sets whose "
                   "slug hashes to shard I, recorded in build/shard.json for `wirespeed merge` (no site).")
@scheduler_option
@click.pass_context
def build(ctx: click.Context, base_url: str | None, force: bool, shard_spec: str | None, scheduler: str | None) -> None:
    """The whole pipeline in one process, as `make` runs it: validate, ingest, analyse, site data, reports, site.

    A result set (or an article citing it) that fails a step is left out and named at the end, and the
    build succeeds; a step that fails as a whole fails the build (exit status 3). When nothing the build
    reads has changed since the last complete build (build/build-stamp.json: the content hashes of the
    result sets, the site's sources, the notebooks, the report templates, the code, the tools, the base
    URL and the commit) it says so and stops at once.
    """
    in_project()
    from wirespeed.pipeline import buildstamp
    from wirespeed.site import summary as catalog_summary
    from wirespeed.system import interrupts

    root = Path(".")
    t0 = time.perf_counter()
    scheduler = executor(scheduler)
    if shard_spec is not None:
        _build_shard(ctx, shard_spec, scheduler, base_url)
        out.print(f"shard {shard_spec} built in {time.perf_counter() - t0:.1f} s", markup=False)
        return
    with interrupts.signals_exit(), interrupts.build_lock(paths.BUILD):
        same, stamp, recorded, edited = buildstamp.up_to_date(root, base_url)
        if same and not force:
            left = recorded.get("left_out") or []
            out.print(f"up to date: nothing the build reads has changed since the last build ({len(stamp.files)} files checked "
                      f"in {time.perf_counter() - t0:.2f} s)", markup=False)
            if left:
                print_left_out(left)
            return
        buildstamp.clear(root)
        interrupts.sweep(paths.BUILD, (Path("public"),))
        steps = [("validate", validate, {}), ("ingest", ingest, {}), ("analyse", analyse, {"scheduler": scheduler}), ("site --data-only", site, {"data_only": True}),
                 ("report", report, {"base_url": base_url, "scheduler": scheduler}), ("site", site, {"base_url": base_url}), ("summary", summary, {})]
        failed, left_out_steps = [], []
        with _workers(scheduler, edited):
            for name, command, given in steps:
                t = time.perf_counter()
                code = invoke_step(ctx, command, **given)
                err.print(f"[wirespeed {name}: {time.perf_counter() - t:.1f} s]", markup=False)
                if code == EXIT_LEFT_OUT:
                    left_out_steps.append(name)
                elif code:
                    failed.append(f"wirespeed {name} (exit status {code})")
        if failed:
            err.print("the site could not be built: these steps failed as a whole (see their messages above):", markup=False)
            for line in failed:
                err.print(f"  {line}", markup=False)
            raise SystemExit(EXIT_STEP_FAILED)
        invoke_step(ctx, summary, left_out=True)  # writes the left-out report, the lines a no-op repeats
        found = catalog_summary.last_left_out()
        buildstamp.save(root, stamp, {"left_out": found, "left_out_steps": left_out_steps})
    out.print(f"built in {time.perf_counter() - t0:.1f} s", markup=False)


ANALYSED = ("data/", "notebooks/", "<wirespeed>/")  # what a notebook run reads: the sets, the notebooks, the code


@contextlib.contextmanager
def _workers(scheduler: str, edited: set[str] | None) -> Iterator[None]:
    """The build's steps on one pool of workers (this machine's pool; a Dask cluster's workers are its own). When
    the files changed since the last build may rerun a notebook (a result set, a notebook, the code; or no last
    build), each worker starts its notebook kernel at once, while validate and ingest run: the first notebook
    run then costs its own cells' time (analysis.run.warm)."""
    if scheduler != "pool":
        yield
        return
    from wirespeed.analysis import run as analysis
    from wirespeed.pipeline import runner

    with runner.shared_pool():
        if warms(edited):
            runner.warm(analysis.warm, str(Path.cwd()), analysis.preloads())  # the root runner.execute gives each job
        yield


def warms(edited: set[str] | None) -> bool:
    """Whether a build after these changes (buildstamp.changed; None: no last build) warms the notebook kernels."""
    return edited is None or any(p.startswith(ANALYSED) for p in edited)


def _build_shard(ctx: click.Context, spec: str, scheduler: str, base_url: str | None) -> None:
    """`wirespeed build --shard I/N`: validate and ingest the archive; the notebooks, site data and reports of shard I's sets; record the shard."""
    from wirespeed.catalog.tally import published_slugs
    from wirespeed.pipeline import buildstamp
    from wirespeed.pipeline import cluster
    from wirespeed import shards
    from wirespeed.report import typesetting
    from wirespeed.site.data import SiteError
    from wirespeed.system import interrupts

    base_url = base_url_option(base_url)
    need_tex()
    try:
        shard = shards.parse(spec)
    except shards.ShardError as exc:
        raise click.BadParameter(str(exc), param_hint="--shard") from None
    with interrupts.signals_exit(), interrupts.build_lock(paths.BUILD):
        buildstamp.clear(Path("."))  # this build folder holds one shard, not a complete build
        (paths.BUILD / shards.RECORD).unlink(missing_ok=True)
        for name, command in (("validate", validate), ("ingest", ingest)):
            code = invoke_step(ctx, command)
            if code not in (0, EXIT_LEFT_OUT):
                raise StepFailed(f"wirespeed {name} failed as a whole (exit status {code}): the shard cannot be built")
        published = published_slugs(paths.CATALOG)
        mine = shards.select(published, shard)
        out.print(f"shard {shard}: {len(mine)} of {len(published)} result sets", markup=False)
        code = invoke_step(ctx, analyse, slugs=tuple(mine), scheduler=scheduler) if mine else 0
        if code not in (0, EXIT_LEFT_OUT):
            raise StepFailed(f"wirespeed analyse failed as a whole (exit status {code}): the shard cannot be built")
        try:
            built, lines = shards.reports(paths.CATALOG, mine, published, base_url, None, scheduler)
        except (typesetting.ReportError, SiteError, cluster.SchedulerError, OSError) as exc:
            raise StepFailed(f"the shard's site data and reports: {exc}") from None
        for line in lines:
            err.print(line, markup=False)
        out.print(f"shard {shard}: {built} reports built → {paths.REPORTS}/", markup=False)
        shards.record(paths.BUILD, shard, mine)


@click.command()
@click.argument("folders", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--base-url", metavar="URL", default=None,
              help="Address the site is served at (as for wirespeed build). Default: HUGO_BASEURL, else baseURL in config.toml.")
@scheduler_option
@click.pass_context
def merge(ctx: click.Context, folders: tuple[Path, ...], base_url: str | None, scheduler: str | None) -> None:
    """Merge the build folders of shards 1…N (each made by `wirespeed build --shard I/N`) into build/, then build the
    whole site once: every notebook run a shard made is reused when its inputs are unchanged, anything else runs
    here, and Hugo and Pagefind run once over the merged data — the same site as an unsharded build."""
    in_project()
    from wirespeed.pipeline import buildstamp
    from wirespeed import shards
    from wirespeed.system import interrupts

    with interrupts.signals_exit(), interrupts.build_lock(paths.BUILD):
        try:
            copied = shards.merge(list(folders), paths.BUILD)
        except shards.ShardError as exc:
            raise click.UsageError(str(exc)) from None
        buildstamp.clear(Path("."))  # the merged outputs are checked by every step's own manifests
        out.print(f"merged the notebook runs of {len(copied)} result sets from {len(folders)} shards", markup=False)
        ctx.invoke(build, base_url=base_url, force=True, shard_spec=None, scheduler=scheduler)


COMMANDS = (analyse, site, report, build, merge)
