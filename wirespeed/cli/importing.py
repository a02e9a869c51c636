"""`wirespeed import`: native tool output into a result set."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from wirespeed.cli.common import ARCHIVE, err, out


class _ImportCommand(click.Command):
    """`wirespeed import --help` ends with every format and the line on what it reads (from the registry)."""

    def format_epilog(self, ctx, formatter) -> None:
        from wirespeed.importers import importers

        with formatter.section("Formats (FORMAT, or auto to detect it from the content)"):
            formatter.write_dl([(name, imp.summary) for name, imp in importers().items()])


@click.command("import", cls=_ImportCommand)
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


COMMANDS = (import_,)
