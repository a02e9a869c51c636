"""`wirespeed why`: whether a result set's notebooks and report are up to date, and what changed."""

from __future__ import annotations

from pathlib import Path

import click

from wirespeed.cli.common import folders, in_project, out
from wirespeed.pipeline import paths


@click.command()
@click.argument("slug")
@click.argument("notebook", required=False)
@click.option("--db", type=click.Path(path_type=Path), default=paths.CATALOG, show_default=True, help="Catalog file.")
def why(slug: str, notebook: str | None, db: Path) -> None:
    """Say whether each notebook of a result set and its PDF report are up to date, or which of their
    inputs changed. NOTEBOOK (a notebook's name, or `report`) narrows it to one."""
    if db == paths.CATALOG:  # the default: the project's own catalog
        in_project()
    from wirespeed.catalog.store import ingest as do_ingest
    from wirespeed.analysis import run as analysis
    from wirespeed.site import articles
    from wirespeed.report import typesetting

    do_ingest(folders(()), db)
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


COMMANDS = (why,)
