"""`wirespeed archive`: the published result sets as a Parquet archive for other tools."""

from __future__ import annotations

from pathlib import Path

import click

from wirespeed.cli.common import in_project, out
from wirespeed.pipeline import paths


@click.command()
@click.argument("destination", type=click.Path(path_type=Path))
@click.option("--db", type=click.Path(path_type=Path), default=paths.CATALOG, show_default=True, help="Catalog file.")
def archive(destination: Path, db: Path) -> None:
    """Export the published result sets and the trend series as a hive-partitioned Parquet archive into DESTINATION
    (replaced whole): <table>/device=…/test=…/year=…/data_0.parquet, readable by DuckDB, Spark or Trino (docs/trending.md)."""
    if db == paths.CATALOG:  # the default: the project's own catalog
        in_project()
    from wirespeed.catalog.archive import export_published

    if not db.is_file():
        raise click.ClickException(f"{db}: no catalog (run wirespeed ingest first)")
    files, slugs = export_published(db, destination)
    out.print(f"{len(files)} Parquet files of {len(slugs)} result sets → {destination}/ (index.json lists them)", markup=False)


COMMANDS = (archive,)
