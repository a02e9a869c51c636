"""The commands on result sets and the catalog: validate, ingest, show, summary, cited, new."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from wirespeed.cli.common import ARCHIVE, CATALOG, EXIT_LEFT_OUT, StepFailed, err, folders, in_project, out, print_left_out
from wirespeed.pipeline import paths


@click.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("-v", "--verbose", is_flag=True, help="Also list findings acknowledged by errata.")
def validate(paths: tuple[str, ...], verbose: bool) -> None:
    """Check result sets against the schema and the semantic rules (default: all under data/results).

    Prints one line per problem (file:line: field: message [rule]); exits 1 on any error.
    """
    from wirespeed.catalog.validation import validate as checked
    from wirespeed.pipeline import paths as project_paths

    chosen = folders(paths)
    if not chosen:
        raise StepFailed(f"no result sets under {ARCHIVE}/ and no paths given")
    counts = {"error": 0, "warning": 0, "acknowledged": 0}
    invalid = 0
    # the project's archive: each set's own problems remembered by its folder's hash (the archive's rules run over all)
    memo = project_paths.VALIDATE_MEMO if not paths and project_paths.is_project(Path.cwd()) else None
    for c in checked(chosen, memo):
        problems = c.problems
        if any(p.severity == "error" for p in problems):
            invalid += 1
        for p in problems:
            counts[p.severity] += 1
            if p.severity != "acknowledged" or verbose:
                out.print(str(p), markup=False)
    n = len(chosen)
    err.print(f"{n} result set{'s' if n != 1 else ''}: {n - invalid} valid, {invalid} invalid; "
              f"{counts['error']} errors, {counts['warning']} warnings, {counts['acknowledged']} acknowledged by errata", markup=False)
    if invalid:
        sys.exit(EXIT_LEFT_OUT)


@click.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--db", type=click.Path(path_type=Path), default=paths.CATALOG, show_default=True, help="Catalog file.")
def ingest(paths: tuple[str, ...], db: Path) -> None:
    """Load result sets into the DuckDB catalog, skipping unchanged ones; print what happened to every row."""
    if not paths and db == CATALOG:  # the project's own archive into its own catalog
        in_project()
    from rich.progress import Progress

    from wirespeed.catalog.store import ingest as do_ingest

    chosen = folders(paths)
    with Progress(console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task("ingest", total=len(chosen))
        reports = do_ingest(chosen, db, progress=lambda slug: progress.update(task, advance=1, description=slug), prune=not paths)
    if not paths:  # the whole archive, as the next step of `wirespeed build` (analyse) would ingest it again: it need not
        click.get_current_context().find_root().ensure_object(dict)["ingested"] = (db, reports)
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


@click.command()
@click.argument("slug")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.option("--db", type=click.Path(path_type=Path), default=paths.CATALOG, show_default=True, help="Catalog file.")
def show(slug: str, as_json: bool, db: Path) -> None:
    """Print a result set's figures with the engine's recomputation beside every published derived figure."""
    if db == paths.CATALOG:  # the default: the project's own catalog
        in_project()
    from wirespeed.catalog.store import ingest as do_ingest
    from wirespeed.catalog.view import UnknownSet, read_summary
    from wirespeed.presentation.terminal import render

    do_ingest(folders(()), db)
    try:
        summary = read_summary(db, slug)
    except UnknownSet as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        click.echo(json.dumps(summary, indent=2, default=str, ensure_ascii=False))
    else:
        render(summary, out)
    if any(not a["agree"] for a in summary["agreements"]):
        err.print(f"{sum(not a['agree'] for a in summary['agreements'])} published figures disagree with their recomputation (marked ✗)", markup=False)


@click.command()
@click.argument("slugs", nargs=-1)
@click.option("--markdown", is_flag=True, help="For SLUGS: a Markdown summary (headline figures, every problem, failed steps), e.g. for a pull request's job summary; exits 1 when one of them has an error.")
@click.option("--left-out", "left_out", is_flag=True, help="What the last build left out of the site, one line each (also to $GITHUB_STEP_SUMMARY); exits 1 when anything was.")
@click.option("--db", type=click.Path(path_type=Path), default=paths.CATALOG, show_default=True, help="Catalog file.")
def summary(slugs: tuple[str, ...], markdown: bool, left_out: bool, db: Path) -> None:
    """One line per result set in the catalog: tests, rows, how many published figures the engine reproduces, and whether every build step succeeded."""
    if db == paths.CATALOG:  # the default: the project's own catalog
        in_project()
    from wirespeed.site import summary as catalog_summary

    if left_out:
        if slugs or markdown:
            raise click.UsageError("--left-out takes no SLUGS and no --markdown: it reports the whole build")
        found = catalog_summary.left_out(ARCHIVE, db)
        if not found:
            out.print("every result set and article is on the site", markup=False)
            return
        print_left_out(found)
        sys.exit(EXIT_LEFT_OUT)
    if markdown:
        if not slugs:
            raise click.UsageError("--markdown needs the SLUGS of the result sets to summarise")
        text, bad = catalog_summary.markdown(list(slugs), ARCHIVE, db)
        click.echo(text, nl=False)
        if bad:
            sys.exit(1)
        return
    if slugs:
        raise click.UsageError("SLUGS go with --markdown; without it every set in the catalog is listed")
    table, failures = catalog_summary.summary(db)
    out.print(table)
    for line in failures:
        err.print(line, markup=False)


@click.command()
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


@click.command()
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


COMMANDS = (validate, ingest, show, summary, cited, new)
