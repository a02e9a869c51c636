"""The wirespeed command line: parses arguments and calls the library. Nothing else."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from wirespeed import __version__
from wirespeed.pipeline import paths
from wirespeed.pipeline.status import EXIT_LEFT_OUT, EXIT_STEP_FAILED
ARCHIVE = Path("data/results")
_CATALOG = paths.CATALOG  # the default catalog (a command's own `paths` argument hides the module)
_WIDTH = None if sys.stdout.isatty() else 1000  # files and pipes get whole lines
err = Console(stderr=True, highlight=False, width=_WIDTH)
out = Console(highlight=False, soft_wrap=True, width=_WIDTH)


class StepFailed(click.ClickException):
    """A build step that could not do its work at all (not one result set's failure): its own exit status,
    so `make` tells "the site could not be built" from "a set was left out" (exit 1)."""

    exit_code = EXIT_STEP_FAILED


def _build_step(fn):
    """A step that writes build/ (and public/): one at a time per build folder, SIGTERM unwinds like
    Ctrl-C (temporary folders removed, workers and tools stopped), and what an interrupted earlier
    run left behind is swept first."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from wirespeed.system import interrupts
        build = paths.BUILD
        dest = kwargs.get("destination")
        with interrupts.signals_exit(), interrupts.build_lock(build):
            interrupts.sweep(build, (dest,) if dest is not None else ())
            return fn(*args, **kwargs)

    return wrapper


def _scheduler_option(fn):
    """--scheduler (or $WIRESPEED_SCHEDULER): where the per-set jobs run (wirespeed/pipeline/cluster.py)."""
    return click.option("--scheduler", metavar="pool|local|ADDRESS", default=None,
                        help="Where the per-set jobs run: pool (this machine's worker pool, the default), local (a Dask "
                             "LocalCluster, started only when a job is out of date) or a Dask scheduler's address, "
                             "tcp://HOST:PORT, whose workers share the project folder. Default: $WIRESPEED_SCHEDULER, else pool.")(fn)


def _executor(given: str | None) -> str:
    from wirespeed.pipeline import cluster

    try:
        return cluster.chosen(given)
    except cluster.SchedulerError as exc:
        raise click.BadParameter(str(exc), param_hint="--scheduler") from None


def _folders(paths: tuple[str, ...]) -> list[Path]:
    from wirespeed.catalog.store import result_folders

    return [Path(p) for p in paths] if paths else result_folders(ARCHIVE)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="wirespeed")
@click.option("-C", "--root", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="Run as if started in DIR, the project folder (as git -C: relative paths are then relative to DIR).")
def cli(root: Path | None) -> None:
    """Turn network-device benchmark result sets into review articles and PDF test reports."""
    if root is not None:
        os.chdir(root)


def _in_project() -> None:
    """Steps that read or write the project's build/ and data/results/ run in the project folder, never beside it."""
    problem = paths.not_a_project(Path.cwd())
    if problem:
        raise StepFailed(problem)


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("-v", "--verbose", is_flag=True, help="Also list findings acknowledged by errata.")
def validate(paths: tuple[str, ...], verbose: bool) -> None:
    """Check result sets against the schema and the semantic rules (default: all under data/results).

    Prints one line per problem (file:line: field: message [rule]); exits 1 on any error.
    """
    from wirespeed.checks import run_checks
    from wirespeed.catalog.load import load_many

    folders = _folders(paths)
    if not folders:
        raise StepFailed(f"no result sets under {ARCHIVE}/ and no paths given")
    counts = {"error": 0, "warning": 0, "acknowledged": 0}
    invalid = 0
    for _folder, rs, problems in load_many(folders):
        if rs is not None:
            problems = problems + run_checks(rs)
        if any(p.severity == "error" for p in problems):
            invalid += 1
        for p in problems:
            counts[p.severity] += 1
            if p.severity != "acknowledged" or verbose:
                out.print(str(p), markup=False)
    n = len(folders)
    err.print(f"{n} result set{'s' if n != 1 else ''}: {n - invalid} valid, {invalid} invalid; "
              f"{counts['error']} errors, {counts['warning']} warnings, {counts['acknowledged']} acknowledged by errata", markup=False)
    if invalid:
        sys.exit(EXIT_LEFT_OUT)


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--db", type=click.Path(path_type=Path), default=paths.CATALOG, show_default=True, help="Catalog file.")
def ingest(paths: tuple[str, ...], db: Path) -> None:
    """Load result sets into the DuckDB catalog, skipping unchanged ones; print what happened to every row."""
    if not paths and db == _CATALOG:  # the project's own archive into its own catalog
        _in_project()
    from rich.progress import Progress

    from wirespeed.catalog.store import ingest as do_ingest

    folders = _folders(paths)
    with Progress(console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task("ingest", total=len(folders))
        reports = do_ingest(folders, db, progress=lambda slug: progress.update(task, advance=1, description=slug), prune=not paths)
    failed = False
    for r in reports:
        if r.action == "removed":
            out.print(f"{r.slug}: removed (folder gone)", markup=False)
            continue
        line = f"{r.slug}: {r.action}, {r.rows_read} rows read, {r.rows_loaded} loaded, {r.rows_rejected} rejected"
        if r.warnings:
            line += f", {r.warnings} warnings"
        out.print(line, markup=False)
        for p in r.errors:
            out.print(f"  {p}", markup=False)
        failed |= bool(r.errors) or r.rows_rejected > 0
    total = sum(r.rows_read for r in reports)
    loaded = sum(r.rows_loaded for r in reports)
    err.print(f"{len([r for r in reports if r.action != 'removed'])} result sets, {total} rows read, {loaded} loaded, {total - loaded} rejected → {db}", markup=False)
    if failed:
        sys.exit(EXIT_LEFT_OUT)


@cli.command()
@click.argument("slug")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.option("--db", type=click.Path(path_type=Path), default=paths.CATALOG, show_default=True, help="Catalog file.")
def show(slug: str, as_json: bool, db: Path) -> None:
    """Print a result set's figures with the engine's recomputation beside every published derived figure."""
    if db == paths.CATALOG:  # the default: the project's own catalog
        _in_project()
    from wirespeed.catalog.store import connect, ingest as do_ingest
    from wirespeed.presentation.terminal import render
    from wirespeed.catalog.view import UnknownSet, set_summary

    do_ingest(_folders(()), db)
    con = connect(db)
    try:
        summary = set_summary(con, slug)
    except UnknownSet as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        con.close()
    if as_json:
        click.echo(json.dumps(summary, indent=2, default=str, ensure_ascii=False))
    else:
        render(summary, out)
    if any(not a["agree"] for a in summary["agreements"]):
        err.print(f"{sum(not a['agree'] for a in summary['agreements'])} published figures disagree with their recomputation (marked ✗)", markup=False)


@cli.command()
@click.argument("slugs", nargs=-1)
@click.option("--markdown", is_flag=True, help="For SLUGS: a Markdown summary (headline figures, every problem, failed steps), e.g. for a pull request's job summary; exits 1 when one of them has an error.")
@click.option("--left-out", "left_out", is_flag=True, help="What the last build left out of the site, one line each (also to $GITHUB_STEP_SUMMARY); exits 1 when anything was.")
@click.option("--db", type=click.Path(path_type=Path), default=paths.CATALOG, show_default=True, help="Catalog file.")
def summary(slugs: tuple[str, ...], markdown: bool, left_out: bool, db: Path) -> None:
    """One line per result set in the catalog: tests, rows, how many published figures the engine reproduces, and whether every build step succeeded."""
    if db == paths.CATALOG:  # the default: the project's own catalog
        _in_project()
    from wirespeed.pipeline import status as setstatus
    from wirespeed.catalog.store import connect

    if left_out:
        from wirespeed.pipeline import leftout

        if slugs or markdown:
            raise click.UsageError("--left-out takes no SLUGS and no --markdown: it reports the whole build")
        found = leftout.lines(ARCHIVE, db, db.parent / "status", db.parent / leftout.ITEMS.name)
        leftout.announce(found, db.parent / leftout.REPORT.name)
        if not found:
            out.print("every result set and article is on the site", markup=False)
            return
        err.print(f"THE SITE WAS BUILT WITHOUT {len(found)} ITEM{'S' if len(found) != 1 else ''} (each below; everything else is on it):", markup=False)
        for line in found:
            err.print(f"  {line}", markup=False)
        sys.exit(EXIT_LEFT_OUT)
    if markdown:
        from wirespeed.site.pullrequest import markdown as to_markdown

        if not slugs:
            raise click.UsageError("--markdown needs the SLUGS of the result sets to summarise")
        text, bad = to_markdown(list(slugs), ARCHIVE, db, db.parent / "status")
        click.echo(text, nl=False)
        if bad:
            sys.exit(1)
        return
    if slugs:
        raise click.UsageError("SLUGS go with --markdown; without it every set in the catalog is listed")
    con = connect(db)
    rows = con.execute(
        "SELECT s.slug, s.status, (SELECT count(*) FROM tests t WHERE t.slug = s.slug),"
        " (SELECT count(*) FROM rows r WHERE r.slug = s.slug),"
        " (SELECT count(*) FROM agreements a WHERE a.slug = s.slug),"
        " (SELECT count(*) FROM agreements a WHERE a.slug = s.slug AND a.agree),"
        " (SELECT count(*) FROM findings f WHERE f.slug = s.slug AND f.severity = 'acknowledged'),"
        " (SELECT count(*) FROM findings f WHERE f.slug = s.slug AND f.severity = 'error')"
        " FROM result_sets s ORDER BY s.slug").fetchall()
    con.close()
    table = Table(title="wirespeed catalog", title_justify="left", header_style="bold")
    for col in ("Result set", "Status", "Tests", "Rows", "Published figures", "Reproduced", "Disagree", "Errata", "Errors", "Build"):
        table.add_column(col, justify="left" if col in ("Result set", "Status", "Build") else "right")
    failures = []
    for slug, status, tests, n, checked, agree, errata, errors in rows:
        build = setstatus.describe(slug, db.parent / "status")
        table.add_row(slug, status, str(tests), str(n), str(checked), str(agree), str(checked - agree), str(errata), str(errors), build)
        failures += [setstatus.line(slug, step, setstatus.read(slug, db.parent / "status")[step]) for step in setstatus.failed_steps(slug, root=db.parent / "status")]
    out.print(table)
    for line in failures:
        err.print(line, markup=False)


@cli.command()
@click.argument("slugs", nargs=-1, required=True)
@click.option("--articles", "root", type=click.Path(path_type=Path), default=Path("content/reviews"), show_default=True, help="Folder of the review articles.")
def cited(slugs: tuple[str, ...], root: Path) -> None:
    """The articles that cite these result sets (their report, front matter resultsets, shortcodes), one line each; exits 1 when one does."""
    from wirespeed.site import articles

    try:
        found = articles.citing(set(slugs), root)
    except articles.ArticleError as exc:
        raise StepFailed(str(exc)) from None
    for path, sets in found.items():
        out.print(f"{path.name}: cites {', '.join(sets)}", markup=False)
    if found:
        sys.exit(1)


@cli.command()
@click.argument("slug")
@click.option("--root", type=click.Path(path_type=Path), default=ARCHIVE, show_default=True, help="Archive folder.")
def new(slug: str, root: Path) -> None:
    """Create data/results/SLUG with a result.toml and an empty measurement table to fill in."""
    from wirespeed.resultset.scaffold import ScaffoldError, scaffold

    try:
        target = scaffold(root, slug)
    except ScaffoldError as exc:
        raise click.ClickException(str(exc)) from None
    out.print(f"created {target}/result.toml and {target}/measurements.csv; fill them in, then: wirespeed validate {target}", markup=False)


class _ImportCommand(click.Command):
    """`wirespeed import --help` ends with every format and the line on what it reads (from the registry)."""

    def format_epilog(self, ctx, formatter) -> None:
        from wirespeed.importers import importers

        with formatter.section("Formats (FORMAT, or auto to detect it from the content)"):
            formatter.write_dl([(name, imp.summary) for name, imp in importers().items()])


@cli.command("import", cls=_ImportCommand)
@click.argument("format_name", metavar="FORMAT")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--into", "slug", required=True, help="Result set to create or update: data/results/SLUG.")
@click.option("--dry-run", is_flag=True, help="Parse and print what would be written; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the rows each file loads (keys, metrics with units) and the outcome as JSON.")
@click.option("--root", type=click.Path(path_type=Path), default=ARCHIVE, show_default=True, help="Folder of the result sets.")
@click.option("--keep-outside", "outside", metavar="LOCATION", help="pcap: captures too large for the repository; analyse them "
              "here and keep their figures, SHA-256, size and LOCATION (a URL or storage note) in the set, not the files.")
def import_(format_name: str, files: tuple[Path, ...], slug: str, dry_run: bool, as_json: bool, root: Path, outside: str | None) -> None:
    """Import native tool output (FORMAT, or auto to detect it) into data/results/SLUG.

    Creates or updates the set's result.toml with everything the files state, keeps the files
    under native/ (re-imported whenever the set is loaded) and lists the fields left to fill in.
    Files are recognised by their content, whatever their names; gzip and Zstandard files are read
    decompressed.
    """
    from wirespeed.importers import dryrun
    from wirespeed.importers.importing import import_files
    from wirespeed.problems import InputError

    try:
        outcome = import_files(format_name, list(files), root, slug, dry_run=dry_run, outside=outside)
    except InputError as exc:
        for p in exc.problems:
            err.print(str(p), markup=False)
        err.print("nothing written", markup=False)
        if as_json:
            click.echo(json.dumps(dryrun.refused_json(slug, exc.problems), indent=1, ensure_ascii=False))
        sys.exit(1)
    except OSError as exc:
        raise click.ClickException(f"{root / slug}: cannot write the result set: {exc.strerror or exc}") from None
    if as_json:
        for p in outcome.warnings:
            err.print(str(p), markup=False)
        click.echo(json.dumps(dryrun.outcome_json(outcome), indent=1, ensure_ascii=False))
        return
    for file, fmt in outcome.chosen:
        out.print(f"auto: {file} is {fmt}", markup=False)
    for p in outcome.warnings:
        err.print(str(p), markup=False)
    where = outcome.folder / "result.toml"
    if dry_run:
        out.print(f"would {'create' if outcome.created else 'update'} {where} and add {', '.join(outcome.native)}:", markup=False)
        out.print(outcome.toml, markup=False)
    else:
        out.print(f"{'created' if outcome.created else 'updated'} {where}: tests {', '.join(outcome.tests)}", markup=False)
    for path, n in outcome.rows.items():
        out.print(f"  {path}: {n} rows", markup=False)
    if outcome.unstated:
        out.print(f"The files do not state these fields; fill them in {where}, then run: wirespeed validate {outcome.folder}", markup=False)
        for name in outcome.unstated:
            out.print(f"  {name}", markup=False)


@cli.command()
@click.argument("slugs", nargs=-1)
@click.option("-j", "--jobs", type=int, default=None, help="Notebooks run at once (default: one per core).")
@click.option("--include-drafts", is_flag=True, help="Also analyse draft and embargoed result sets.")
@click.option("--db", type=click.Path(path_type=Path), default=paths.CATALOG, show_default=True, help="Catalog file.")
@_scheduler_option
@_build_step
def analyse(slugs: tuple[str, ...], jobs: int | None, include_drafts: bool, db: Path, scheduler: str | None) -> None:
    """Execute the notebooks for every published result set (or SLUGS) whose inputs changed.

    Writes build/analysis/<slug>/<notebook>/: the executed notebook (.ipynb and standalone .html),
    tables (CSV, JSON) and charts (Vega-Lite, SVG, PDF), with a manifest of what the run read.
    """
    from rich.progress import Progress

    from wirespeed.analysis import run as analysis
    from wirespeed.pipeline import cluster
    from wirespeed.catalog.store import ingest as do_ingest

    scheduler = _executor(scheduler)
    reports = do_ingest(_folders(()), db)
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


@cli.command()
@click.option("--db", type=click.Path(path_type=Path), default=paths.CATALOG, show_default=True, help="Catalog file.")
@click.option("--destination", type=click.Path(path_type=Path), default=Path("public"), show_default=True, help="Where Hugo writes the site.")
@click.option("--data-only", is_flag=True, help="Only export build/hugo-data and build/site-static; do not run Hugo.")
@click.option("--base-url", metavar="URL", default=None,
              help="Address the site is served at, e.g. https://OWNER.github.io/REPO/ (Hugo's --baseURL). "
                   "Default: the HUGO_BASEURL environment variable, else baseURL in config.toml (\"/\").")
@_build_step
def site(db: Path, destination: Path, data_only: bool, base_url: str | None) -> None:
    """Export the published result sets for Hugo (from the catalog and the analysis outputs) and build the site.

    Every link, asset and download follows the base URL, so the site also works under a path
    (a GitHub Pages project site: --base-url https://OWNER.github.io/REPO/).
    """
    from wirespeed.system import hugo
    from wirespeed.site import build as sitebuild
    from wirespeed.site.data import SiteError

    if base_url is not None:
        if data_only:
            raise click.UsageError("--base-url applies to the Hugo build, which --data-only skips (the exported data is the same for every base URL)")
        try:
            base_url = hugo.base_url(base_url)
        except hugo.HugoError as exc:
            raise click.BadParameter(str(exc), param_hint="--base-url") from None
    try:
        outcome = sitebuild.export(db, data_only=True) if data_only else sitebuild.build(db, destination, base_url)
    except (SiteError, sitebuild.SiteFailed) as exc:
        raise StepFailed(str(exc)) from None
    for line in outcome.refused + outcome.items:
        err.print(line, markup=False)
    out.print(f"site data for {len(outcome.slugs)} result sets → build/hugo-data, build/site-static", markup=False)
    if not data_only:
        out.print(f"site built: {outcome.pages} HTML pages in {destination}/", markup=False)
    if outcome.refused or outcome.items:
        sys.exit(EXIT_LEFT_OUT)


@cli.command()
@click.argument("slugs", nargs=-1)
@click.option("-j", "--jobs", type=int, default=None, help="Reports built at once (default: one per core).")
@click.option("--base-url", metavar="URL", default=None,
              help="Address the site is served at, printed in full on each title page (web page, data). "
                   "Default: the HUGO_BASEURL environment variable, else baseURL in config.toml.")
@_scheduler_option
@_build_step
def report(slugs: tuple[str, ...], jobs: int | None, base_url: str | None, scheduler: str | None) -> None:
    """Build the PDF test report of every published result set (or SLUGS) whose inputs changed → build/reports/.

    Needs the exported site data (wirespeed site --data-only). A result set's report comes from the
    review article whose front matter says report: SLUG, or from a generated structure.
    """
    from rich.progress import Progress

    from wirespeed.pipeline import cluster
    from wirespeed.report import typesetting as rep

    scheduler = _executor(scheduler)
    if rep.which_tex() is None:
        raise StepFailed("xelatex is not installed: run make (it installs TeX Live from Debian's packages)")
    if base_url is not None:
        from wirespeed.system import hugo

        try:
            base_url = hugo.base_url(base_url)
        except hugo.HugoError as exc:
            raise click.BadParameter(str(exc), param_hint="--base-url") from None
    with Progress(console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task("reports", total=None)
        try:
            built, fresh, errors = rep.run(list(slugs) or None, jobs, lambda j, d, t: progress.update(task, total=t, completed=d, description=j.slug),
                                           base_url=base_url, scheduler=scheduler)
        except (rep.ReportError, cluster.SchedulerError) as exc:
            raise StepFailed(str(exc)) from None
    if not slugs:  # a full build: the trend report across the archive too
        from wirespeed.report import trend_report

        done, error = trend_report.run(base_url)
        if error:
            errors.append(error)
        elif done != "none":
            out.print(f"trend report {'built' if done == 'built' else 'up to date'} → {trend_report.OUT}", markup=False)
    for e in errors:
        err.print(e, markup=False)
    out.print(f"{len(built) - len(errors)} reports built, {len(fresh)} up to date → build/reports/", markup=False)
    if errors:
        sys.exit(EXIT_LEFT_OUT)


def _invoke_step(ctx: click.Context, command: click.Command, **given) -> int:
    """Run one step's command in this process (its defaults filled in by click): 0 done, EXIT_LEFT_OUT when
    it left something out (each named), EXIT_STEP_FAILED when it could not run at all."""
    try:
        ctx.invoke(command, **given)
    except SystemExit as exc:
        if isinstance(exc.code, int) and exc.code > 128:  # a signal (SIGTERM, SIGHUP) stops the whole build
            raise
        return exc.code if isinstance(exc.code, int) else EXIT_STEP_FAILED
    except click.ClickException as exc:
        exc.show()
        return EXIT_STEP_FAILED
    return 0


@cli.command()
@click.option("--base-url", metavar="URL", default=None,
              help="Address the site is served at (Hugo's --baseURL and the reports' title pages). "
                   "Default: the HUGO_BASEURL environment variable, else baseURL in config.toml.")
@click.option("--force", is_flag=True, help="Ask every step even when nothing the build reads has changed.")
@click.option("--shard", "shard_spec", metavar="I/N", default=None,
              help="Build only shard I of N: validate, ingest, then the notebooks, site data and PDF reports of the sets whose "
                   "slug hashes to shard I, recorded in build/shard.json for `wirespeed merge` (no site).")
@_scheduler_option
@click.pass_context
def build(ctx: click.Context, base_url: str | None, force: bool, shard_spec: str | None, scheduler: str | None) -> None:
    """The whole pipeline in one process, as `make` runs it: validate, ingest, analyse, site data, reports, site.

    A result set (or an article citing it) that fails a step is left out and named at the end, and the
    build succeeds; a step that fails as a whole fails the build (exit status 3). When nothing the build
    reads has changed since the last complete build (build/build-stamp.json: the content hashes of the
    result sets, the site's sources, the notebooks, the report templates, the code, the tools, the base
    URL and the commit) it says so and stops at once.
    """
    _in_project()
    import time

    from wirespeed.pipeline import buildstamp
    from wirespeed.system import interrupts

    root = Path(".")
    t0 = time.perf_counter()
    scheduler = _executor(scheduler)
    if shard_spec is not None:
        _build_shard(ctx, shard_spec, scheduler, base_url)
        out.print(f"shard {shard_spec} built in {time.perf_counter() - t0:.1f} s", markup=False)
        return
    with interrupts.signals_exit(), interrupts.build_lock(paths.BUILD):
        same, stamp, recorded = buildstamp.up_to_date(root, base_url)
        if same and not force:
            left = recorded.get("left_out") or []
            out.print(f"up to date: nothing the build reads has changed since the last build ({len(stamp.files)} files checked "
                      f"in {time.perf_counter() - t0:.2f} s)", markup=False)
            if left:
                err.print(f"THE SITE WAS BUILT WITHOUT {len(left)} ITEM{'S' if len(left) != 1 else ''} (each below; everything else is on it):", markup=False)
                for line in left:
                    err.print(f"  {line}", markup=False)
            return
        buildstamp.clear(root)
        interrupts.sweep(paths.BUILD, (Path("public"),))
        steps = [("validate", validate, {}), ("ingest", ingest, {}), ("analyse", analyse, {"scheduler": scheduler}), ("site --data-only", site, {"data_only": True}),
                 ("report", report, {"base_url": base_url, "scheduler": scheduler}), ("site", site, {"base_url": base_url}), ("summary", summary, {})]
        failed, left_out_steps = [], []
        for name, command, given in steps:
            t = time.perf_counter()
            code = _invoke_step(ctx, command, **given)
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
        from wirespeed.pipeline import leftout

        _invoke_step(ctx, summary, left_out=True)  # writes leftout.REPORT, the lines a no-op repeats
        found = leftout.REPORT.read_text(encoding="utf-8").splitlines()
        buildstamp.save(root, stamp, {"left_out": found, "left_out_steps": left_out_steps})
    out.print(f"built in {time.perf_counter() - t0:.1f} s", markup=False)


def _build_shard(ctx: click.Context, spec: str, scheduler: str, base_url: str | None) -> None:
    """`wirespeed build --shard I/N`: validate and ingest the archive; the notebooks, site data and reports of shard I's sets; record the shard."""
    import duckdb

    from wirespeed.pipeline import buildstamp, cluster
    from wirespeed import shards
    from wirespeed.report import typesetting
    from wirespeed.site.data import SiteError
    from wirespeed.system import hugo, interrupts

    if base_url is not None:
        try:
            base_url = hugo.base_url(base_url)
        except hugo.HugoError as exc:
            raise click.BadParameter(str(exc), param_hint="--base-url") from None
    if typesetting.which_tex() is None:
        raise StepFailed("xelatex is not installed: run make (it installs TeX Live from Debian's packages)")

    try:
        shard = shards.parse(spec)
    except shards.ShardError as exc:
        raise click.BadParameter(str(exc), param_hint="--shard") from None
    with interrupts.signals_exit(), interrupts.build_lock(paths.BUILD):
        buildstamp.clear(Path("."))  # this build folder holds one shard, not a complete build
        (paths.BUILD / shards.RECORD).unlink(missing_ok=True)
        for name, command in (("validate", validate), ("ingest", ingest)):
            code = _invoke_step(ctx, command)
            if code not in (0, EXIT_LEFT_OUT):
                raise StepFailed(f"wirespeed {name} failed as a whole (exit status {code}): the shard cannot be built")
        con = duckdb.connect(str(paths.CATALOG), read_only=True)
        try:
            published = [s for (s,) in con.execute("SELECT slug FROM published_sets ORDER BY slug").fetchall()]
        finally:
            con.close()
        mine = shards.select(published, shard)
        out.print(f"shard {shard}: {len(mine)} of {len(published)} result sets", markup=False)
        code = _invoke_step(ctx, analyse, slugs=tuple(mine), scheduler=scheduler) if mine else 0
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


@cli.command()
@click.argument("folders", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--base-url", metavar="URL", default=None,
              help="Address the site is served at (as for wirespeed build). Default: HUGO_BASEURL, else baseURL in config.toml.")
@_scheduler_option
@click.pass_context
def merge(ctx: click.Context, folders: tuple[Path, ...], base_url: str | None, scheduler: str | None) -> None:
    """Merge the build folders of shards 1…N (each made by `wirespeed build --shard I/N`) into build/, then build the
    whole site once: every notebook run a shard made is reused when its inputs are unchanged, anything else runs
    here, and Hugo and Pagefind run once over the merged data — the same site as an unsharded build."""
    _in_project()
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


@cli.command()
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="Port to serve on (0: a free one).")
@click.option("--bind", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--built", is_flag=True, help="Serve the built site (public/) as it is published, search index included, "
                                           "with HTTP Range requests, instead of Hugo's live server.")
@click.option("--no-build", "no_build", is_flag=True, help="Do not run wirespeed build first.")
@click.pass_context
def serve(ctx: click.Context, port: int, bind: str, built: bool, no_build: bool) -> None:
    """Preview the site: Hugo's server with live reload (an edited article, layout or style shows within a
    second or two), drafts shown and marked, on a free port. Runs `wirespeed build` first (at once when
    nothing changed), so the result sets' pages, charts and reports are current; Ctrl-C stops."""
    _in_project()
    from wirespeed.system import hugo

    if not no_build:
        code = _invoke_step(ctx, build)
        if code not in (0, EXIT_LEFT_OUT):
            raise StepFailed("the site could not be built, so there is nothing to serve (see the messages above)")
    if built:
        from wirespeed.system import rangeserver

        if not (Path("public") / "index.html").is_file():
            raise StepFailed("public/ holds no built site: run wirespeed build first")
        rangeserver.serve("public", bind, port, lambda line: out.print(line, markup=False))
        return
    if not (paths.HUGO_DATA / "wirespeed").is_dir():
        raise StepFailed(f"{paths.HUGO_DATA}/ is missing: run wirespeed build first")
    extra = ["--config", f"config.toml,{paths.HUGO_LEFT_OUT.resolve()}"] if paths.HUGO_LEFT_OUT.is_file() else []
    port = port or hugo.free_port(bind)
    out.print(f"serving the site at http://{bind}:{port}/ with live reload, drafts shown and marked (Ctrl-C stops; "
              "the search index and the built site are wirespeed serve --built)", markup=False)
    try:
        code = hugo.serve(Path("."), bind, port, extra)
    except KeyboardInterrupt:
        return
    except hugo.HugoError as exc:
        raise StepFailed(str(exc)) from None
    if code:
        raise StepFailed(f"hugo server exited with status {code}")


@cli.command("check-site")
@click.argument("slugs", nargs=-1)
@click.option("--public", type=click.Path(path_type=Path), default=Path("public"), show_default=True, help="The built site.")
@click.option("--build", "build_dir", type=click.Path(path_type=Path), default=paths.BUILD, show_default=True, help="The build folder (exported site data, report manifests).")
@click.option("--rule", "rules", multiple=True, help="Run only this rule (repeatable); `wirespeed plugins site_checks` lists them.")
def check_site(slugs: tuple[str, ...], public: Path, build_dir: Path, rules: tuple[str, ...]) -> None:
    """Check what a build published: every page, table download, chart, feed entry and PDF of every set (or SLUGS).

    One line per failure, naming the page, the element and the rule (e-notation, too many digits, fractional
    frame counts, empty columns or rows, negative loss, percentiles above the maximum, a card or summary that
    differs from the table row it names, dates before the set's own, figures without units, units that differ
    between page and PDF); exits 1 on any failure. Run it after `make` (or `wirespeed site`)."""
    from wirespeed.sitecheck.run import SiteMissing
    from wirespeed.sitecheck.run import check_site as run_check

    try:
        problems = run_check(public, build_dir, list(slugs) or None, list(rules) or None)
    except (SiteMissing, KeyError) as exc:
        raise click.ClickException(str(exc).strip("'\"")) from None
    for p in problems:
        out.print(str(p), markup=False, highlight=False, soft_wrap=True)
    rules_hit = sorted({p.rule for p in problems})
    err.print(f"{len(problems)} publication problems" + (f" ({', '.join(rules_hit)})" if rules_hit else ""), markup=False)
    if problems:
        sys.exit(1)


@cli.command()
@click.argument("slug")
@click.argument("notebook", required=False)
@click.option("--db", type=click.Path(path_type=Path), default=paths.CATALOG, show_default=True, help="Catalog file.")
def why(slug: str, notebook: str | None, db: Path) -> None:
    """Say whether each notebook of a result set and its PDF report are up to date, or which of their
    inputs changed. NOTEBOOK (a notebook's name, or `report`) narrows it to one."""
    if db == paths.CATALOG:  # the default: the project's own catalog
        _in_project()
    from wirespeed.analysis import run as analysis
    from wirespeed.site import articles
    from wirespeed.report import typesetting
    from wirespeed.catalog.store import ingest as do_ingest

    do_ingest(_folders(()), db)
    if notebook != "report":
        try:
            for line in analysis.why(db, slug, notebook):
                out.print(line, markup=False)
        except analysis.AnalysisError as exc:
            raise click.ClickException(str(exc)) from None
    if notebook in (None, "report"):
        try:
            out.print(f"report: {typesetting.why(slug)}", markup=False)
        except (typesetting.ReportError, articles.ArticleError) as exc:
            out.print(f"report: would not build: {exc}", markup=False)


class _CollectGroup(click.Group):
    """`wirespeed collect NAME`: one command per installed collector (entry point group wirespeed.collectors),
    each with the options every collector shares (slug, --root, provenance) and its own (`run.options`)."""

    def list_commands(self, ctx):
        from wirespeed.extensions import registry

        return sorted(registry("collectors"))

    def get_command(self, ctx, name):
        from wirespeed.extensions import registry

        run = registry("collectors").get(name)
        return _collector_command(name, run) if run is not None else None

    def resolve_command(self, ctx, args):
        import difflib

        from wirespeed.extensions import registry

        name = args[0] if args else None
        if name is not None and self.get_command(ctx, name) is None and not name.startswith("-"):
            known = sorted(registry("collectors"))
            close = difflib.get_close_matches(name, known, n=1, cutoff=0.5)
            ctx.fail(f"no collector {name!r}{f'; did you mean {close[0]!r}?' if close else ''} (installed: {', '.join(known) or 'none'})")
        return super().resolve_command(ctx, args)


def _collector_params(run) -> list[str]:
    """The collector's keyword parameters that --param sets: neither shared nor one of its own options."""
    import inspect

    own = {o.name for o in getattr(run, "options", ())}
    return [n for n, p in inspect.signature(run).parameters.items()
            if p.kind == p.KEYWORD_ONLY and n not in own | {"progress", "provenance"}]


def _collector_command(name: str, run) -> click.Command:
    """A click command for one collector: SLUG or --into, --root, the provenance flags, its own options, --param."""
    import inspect

    from wirespeed.collectors.provenance import FIELDS, FLAGS, STATUSES

    doc = inspect.getdoc(run) or f"Run the {name} collector."
    free = _collector_params(run)
    params: list[click.Parameter] = [
        click.Argument(["slug"], required=False),
        click.Option(["--into", "into"], metavar="SLUG", help="The new result set's slug (instead of the SLUG argument)."),
        click.Option(["--root"], type=click.Path(path_type=Path), default=ARCHIVE, show_default=True, help="Archive folder the new result set goes into."),
    ]
    for flag in FLAGS:
        kind = click.Choice(STATUSES) if flag == "status" else None
        params.append(click.Option([f"--{flag}", flag], type=kind, metavar=None if kind else "TEXT", help=FIELDS[flag]))
    for o in getattr(run, "options", ()):
        kind = click.Path(path_type=Path, dir_okay=False) if o.kind is Path else o.kind
        params.append(click.Option([f"--{o.name.replace('_', '-')}", o.name], is_flag=o.flag, type=None if o.flag else kind, default=bool(o.default) if o.flag else o.default,
                                   required=o.required, metavar=o.metavar, help=o.help, show_default=o.default is not None and not o.flag))
    if free:
        sig = inspect.signature(run).parameters
        shown = ", ".join(f"{n} ({sig[n].default})" if sig[n].default is not inspect.Parameter.empty else n for n in free)
        params.append(click.Option(["-p", "--param", "params"], multiple=True, metavar="NAME=VALUE", help=f"A collector parameter, repeatable: {shown}."))

    def callback(slug, into, root, params=(), **kwargs):
        _run_collector(name, run, slug, into, root, params, {f: kwargs.pop(f) for f in FLAGS}, kwargs)

    return click.Command(name, params=params, callback=callback, help=doc, short_help=doc.splitlines()[0])


@cli.group(cls=_CollectGroup)
def collect() -> None:
    """Run a traffic generator through a collector and write a new result set.

    Every collector takes the new set's slug (SLUG or --into SLUG), --root, and the provenance of the
    set: --publisher, --licence, --location and --status (default: a draft, with what the collecting
    machine states about itself). `wirespeed collect NAME --help` lists a collector's own options.
    """


def _run_collector(name: str, run, slug: str | None, into: str | None, root: Path, params: tuple[str, ...],
                   provenance: dict, options: dict) -> None:
    import inspect

    from rich.progress import Progress

    from wirespeed.system.interrupts import signals_exit

    if bool(slug) == bool(into):
        raise click.UsageError("give the new set's slug once: as SLUG or as --into SLUG")
    slug = slug or into
    sig, free = inspect.signature(run).parameters, _collector_params(run)
    for p in params:
        key, sep, value = p.partition("=")
        if not sep or key not in free:
            raise click.UsageError(f"--param {p!r}: expected NAME=VALUE with NAME one of {', '.join(free) or '(none)'}")
        default = sig[key].default
        try:
            options[key] = type(default)(value) if default is not inspect.Parameter.empty and default is not None else value
        except ValueError:
            raise click.UsageError(f"--param {p!r}: {value!r} is not a {type(default).__name__}") from None
    with signals_exit(), Progress(console=err, transient=True) as progress:
        task = progress.add_task(f"{name} → {slug}", total=None)

        def report(done: int, total: int, text: str | None = None) -> None:
            progress.update(task, completed=done, total=total, **({"description": text} if text else {}))

        try:
            folder = run(root, slug, progress=report, provenance=provenance, **options)
        except Exception as exc:  # noqa: BLE001 - collectors raise their own one-line errors (config problems: one line each)
            if os.environ.get("WIRESPEED_DEBUG"):
                raise
            progress.stop()
            for line in str(exc).splitlines() or [type(exc).__name__]:
                err.print(f"{name}: {line}", markup=False)
            sys.exit(1)
    out.print(f"wrote {folder}; check it with: wirespeed validate {folder}", markup=False)


@cli.command()
@click.argument("group", required=False, type=click.Choice(["importers", "checks", "charts", "collectors"]))
def plugins(group: str | None) -> None:
    """List the importers, checks, chart types and collectors found through entry points."""
    from wirespeed.extensions import GROUPS, describe
    from wirespeed.extensions import group as group_spec

    for g in [group] if group else GROUPS:
        spec = group_spec(g)
        out.print(f"[bold]{g}[/bold]: {spec.summary} ({spec.contract})", markup=True, highlight=False)
        for name, doc in describe(g):
            out.print(f"  {name:32} {doc}", markup=False)


@cli.command()
@click.option("--markdown", is_flag=True, help="Print the field reference generated from the schema instead.")
def schema(markdown: bool) -> None:
    """Print the JSON Schema of result.toml (or, with --markdown, the field reference made from it)."""
    from wirespeed.resultset.schemacheck import schema as load_schema
    from wirespeed.resultset.schemadoc import markdown as to_markdown

    click.echo(to_markdown(load_schema()) if markdown else json.dumps(load_schema(), indent=2, ensure_ascii=False))


@cli.command()
@click.option("--markdown", is_flag=True, help="Print the column reference (docs/columns.md) instead.")
def columns(markdown: bool) -> None:
    """List the CSV columns: key columns and <metric>_<unit> value columns per table kind, with their units."""
    from wirespeed.catalog import columndoc
    click.echo(columndoc.markdown() if markdown else "\n".join(columndoc.lines()))


@cli.command()
@click.argument("destination", type=click.Path(path_type=Path))
@click.option("--db", type=click.Path(path_type=Path), default=paths.CATALOG, show_default=True, help="Catalog file.")
def archive(destination: Path, db: Path) -> None:
    """Export the published result sets and the trend series as a hive-partitioned Parquet archive into DESTINATION
    (replaced whole): <table>/device=…/test=…/year=…/data_0.parquet, readable by DuckDB, Spark or Trino (docs/trending.md)."""
    if db == paths.CATALOG:  # the default: the project's own catalog
        _in_project()
    import duckdb

    from wirespeed.catalog import archive as parquet_archive

    if not db.is_file():
        raise click.ClickException(f"{db}: no catalog (run wirespeed ingest first)")
    con = duckdb.connect(str(db), read_only=True)
    try:
        slugs = [s for (s,) in con.execute("SELECT slug FROM published_sets ORDER BY slug").fetchall()]
        files = parquet_archive.export(con, destination, slugs)
    finally:
        con.close()
    out.print(f"{len(files)} Parquet files of {len(slugs)} result sets → {destination}/ (index.json lists them)", markup=False)


def main() -> None:
    """Entry point: run the CLI; unexpected failures become one line, not a traceback."""
    try:
        cli(standalone_mode=True)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        err.print("interrupted", markup=False)
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - last resort: one line, never a traceback
        if os.environ.get("WIRESPEED_DEBUG"):
            raise
        err.print(f"wirespeed: internal error: {type(exc).__name__}: {exc} (set WIRESPEED_DEBUG=1 for the traceback)", markup=False)
        sys.exit(2)


if __name__ == "__main__":
    main()
