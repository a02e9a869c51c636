"""The catalog table `wirespeed summary` prints: one row per result set with its counts and its build status."""

from __future__ import annotations

from rich.table import Table

from wirespeed.catalog.tally import SetTally

COLUMNS = ("Result set", "Status", "Tests", "Rows", "Published figures", "Reproduced", "Disagree", "Errata", "Errors", "Build")
_LEFT = ("Result set", "Status", "Build")


def catalog_table(tallies: list[SetTally], builds: dict[str, str]) -> Table:
    """The table of `tallies`, each row ending with its set's build status line (`builds`, by slug)."""
    table = Table(title="wirespeed catalog", title_justify="left", header_style="bold")
    for col in COLUMNS:
        table.add_column(col, justify="left" if col in _LEFT else "right")
    for t in tallies:
        table.add_row(t.slug, t.status, str(t.tests), str(t.rows), str(t.checked), str(t.agree), str(t.disagree), str(t.errata),
                      str(t.errors), builds[t.slug])
    return table
