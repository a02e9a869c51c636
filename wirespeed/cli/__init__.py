"""The wirespeed command line: parses arguments and calls the library. Nothing else.

This module holds the group, its global options (-C/--root, --version) and the entry point; each
command lives in the module of its kind and is registered here:

- sets: validate, ingest, show, summary, cited, new (result sets and the catalog)
- importing: import (native tool output into a result set)
- collecting: collect NAME (a traffic run into a new result set; one command per installed collector)
- pipeline: analyse, site, report, build, merge (the build and its steps)
- preview: serve; sitecheck: check-site; explain: why
- export: archive (the Parquet archive); reference: plugins, schema, columns
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from wirespeed import __version__
from wirespeed.cli import collecting, explain, export, importing, pipeline, preview, reference, sets, sitecheck
from wirespeed.cli.common import err
from wirespeed.cli.collecting import collect
from wirespeed.cli.pipeline import analyse, build, merge, report, site
from wirespeed.cli.sets import cited, ingest, new, show, summary, validate
from wirespeed.pipeline import paths
from wirespeed.system import codehash


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="wirespeed")
@click.option("-C", "--root", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="Run as if started in DIR, the project folder (as git -C: relative paths are then relative to DIR).")
def cli(root: Path | None) -> None:
    """Turn network-device benchmark result sets into review articles and PDF test reports."""
    if root is not None:
        os.chdir(root)
    if paths.is_project(Path.cwd()):  # the code hashes of the steps' cache keys parse each module once, not once a process
        codehash.remember_in(paths.IMPORTS_MEMO)


for _module in (sets, importing, pipeline, preview, sitecheck, explain, collecting, reference, export):
    for _command in _module.COMMANDS:
        cli.add_command(_command)


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


__all__ = ["analyse", "build", "cited", "cli", "collect", "ingest", "main", "merge", "new", "report", "show", "site", "summary", "validate"]
