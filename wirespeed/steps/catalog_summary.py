"""`wirespeed summary`: the catalog's result sets with their counts and how each fared in the last build."""

from __future__ import annotations

from pathlib import Path

from rich.table import Table

from wirespeed.catalog.tally import set_tallies
from wirespeed.presentation.catalog_table import catalog_table
from wirespeed.steps import status


def summary(db: Path) -> tuple[Table, list[str]]:
    """The catalog table of the catalog at db, and one line per failed build step of its sets (build/status beside db)."""
    root = db.parent / "status"
    tallies = set_tallies(db)
    builds = {t.slug: status.describe(t.slug, root) for t in tallies}
    failures = [status.line(t.slug, step, status.read(t.slug, root)[step]) for t in tallies for step in status.failed_steps(t.slug, root=root)]
    return catalog_table(tallies, builds), failures
