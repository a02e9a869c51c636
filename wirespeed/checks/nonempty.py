"""Check: a result set has measurements."""

from __future__ import annotations

from wirespeed.checks import Finding


def check_nonempty(rs):
    """A result set has at least one measurement row, and every declared test has rows."""
    rows = rs.measurements() + rs.samples() + rs.histograms()
    if not rs.measurements():
        yield Finding("no-measurements", None, "files.measurements", f"{rs.slug}: the measurement tables have no rows")
    used = {r.test for r in rows}
    for test_id in rs.tests:
        if test_id not in used:
            yield Finding("no-measurements", None, f"tests.{test_id}", f"test {test_id!r} has no rows in any table", "warning")
