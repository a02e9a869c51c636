"""`wirespeed summary`: the catalog's result sets with their counts and how each fared in the last build,
what the last build left out, and the Markdown summary of some sets — each read from the build folder
that holds the catalog (its status/ and left-out files beside it)."""

from __future__ import annotations

from pathlib import Path

from rich.table import Table

from wirespeed.catalog.tally import set_tallies
from wirespeed.presentation.catalog_table import catalog_table
from wirespeed.pipeline import leftout
from wirespeed.site import pullrequest
from wirespeed.pipeline import status


def summary(db: Path) -> tuple[Table, list[str]]:
    """The catalog table of the catalog at db, and one line per failed build step of its sets (build/status beside db)."""
    root = db.parent / "status"
    tallies = set_tallies(db)
    builds = {t.slug: status.describe(t.slug, root) for t in tallies}
    failures = [status.line(t.slug, step, status.read(t.slug, root)[step]) for t in tallies for step in status.failed_steps(t.slug, root=root)]
    return catalog_table(tallies, builds), failures


def left_out(archive: Path, db: Path) -> list[str]:
    """What the last build beside db left out of the site, one line each; announced (job summary, annotations) and kept
    in the left-out report beside db."""
    found = leftout.lines(archive, db, db.parent / "status", db.parent / leftout.ITEMS.name)
    leftout.announce(found, db.parent / leftout.REPORT.name)
    return found


def last_left_out() -> list[str]:
    """The lines of the left-out report the last `left_out` of the project's build wrote."""
    return leftout.REPORT.read_text(encoding="utf-8").splitlines()


def markdown(slugs: list[str], archive: Path, db: Path) -> tuple[str, bool]:
    """The Markdown summary of these sets (a pull request's job summary) and whether one of them has an error."""
    return pullrequest.markdown(slugs, archive, db, db.parent / "status")
