"""Check: rows use the frame sizes their test's methodology declares."""

from __future__ import annotations

from wirespeed.checks import Finding


def check_declared_frame_sizes(rs):
    """A row's frame size (or IMIX id) is one of the test's methodology.frame_sizes, when the test declares them."""
    for row in rs.measurements() + rs.samples() + rs.histograms():
        size = row.keys.get("frame_size")
        declared = rs.tests[row.test].methodology.get("frame_sizes")
        if size is None or not declared or size in declared:
            continue
        shown = ", ".join(str(s) for s in declared)
        yield Finding("undeclared-frame-size", row, "frame_size", f"frame size {size} is not among the test's methodology.frame_sizes ({shown}): declare it there or correct the row")
